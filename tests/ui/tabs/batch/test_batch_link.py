"""A Batch link carries the data set and the graders (issue 40): Copy link packs them (compressed,
base64url, under a stated cap; a data set too large is said so and the rest still linked), and a link
that opens the tab reads each part whole and bounded before anything changes: too long, not base64url,
damaged, a decompression bomb, too many rows, a bad name or grader are each refused with the reason
named, the page's data set kept, and the other part still opened."""

from __future__ import annotations

import base64
import json
import random
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.context import LocalContext

from playground.client.batch.dataset import Dataset, read_paste
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.settings import Settings
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.link_packing import PackedError, pack, unpack
from playground.ui.shared.links import MAX_TEXT
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS, dataset_status
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.linked import MAX_DATA_BYTES, MAX_DATA_CHARS, BatchLink
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext
from tests.ui.i18n.test_i18n_views import FakeRequest

DATA = Dataset(["question", "expected"], [{"question": "Capital of France, \"in one word\"?", "expected": "Paris"},
                                         {"question": "2 + 2, then\na new line; 中文 too", "expected": "4"}], "CSV")
GRADERS = ["contains", "{{expected}}", 0, 0, "gx-2.5-flash", "length", "", 0, 40, "gx-2.5-flash",
           "model", "Says \"Paris\"", 0, 0, "gpt-4.1"] + ["", "", 0, 0, "gx-2.5-flash"] * (GRADER_SLOTS - 3)
MAX_ROWS = 5
BOXES = 1 + DATA_OUTPUTS
"""Where the grader boxes start in `on_open`'s outputs."""
OUTPUTS = BOXES + GRADER_SLOTS * 5 + 1
"""state, data status, preview, check, the grader boxes, the notice."""


class LinkRequest(FakeRequest):
    def __init__(self, query: dict[str, str], language: str = "en") -> None:
        super().__init__({"accept-language": language})
        self.query_params = query


@contextmanager
def opened_from(query: dict[str, str], language: str = "en") -> Iterator[None]:
    token = LocalContext.request.set(LinkRequest(query, language))  # type: ignore[arg-type]  # the lookups read headers and query_params
    try:
        yield
    finally:
        LocalContext.request.reset(token)


def _link(client: GatewayClient, conn: Connection, tmp_path: Path, max_rows: int) -> BatchLink:
    settings = Settings(data_dir=tmp_path, batch_max_rows=max_rows)
    return BatchLink(TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings),
                     ("", "{{question}}"))


@pytest.fixture
def link(client: GatewayClient, conn: Connection, tmp_path: Path) -> BatchLink:
    return _link(client, conn, tmp_path, MAX_ROWS)


async def copied(link: BatchLink, dataset: Dataset | None, graders: list[Any] = GRADERS, mocks: str = "") -> tuple[str, str, str]:
    """(data, graders, the note beside Copy link: "" when hidden)."""
    data, packed_graders, _, note, _ = await link.on_copy(BatchState(dataset=dataset), mocks, *graders)
    return data, packed_graders, note["value"] if note.get("visible") else ""


async def labelled(link: BatchLink, dataset: Dataset | None, graders: list[Any] = GRADERS, mocks: str = "") -> str:
    """The link box's label after Copy link."""
    return (await link.on_copy(BatchState(dataset=dataset), mocks, *graders))[-1]["label"]


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


def notice(outputs: tuple[Any, ...]) -> str:
    update = outputs[-1]
    return update["value"] if update.get("visible") else ""


def _boxes(values: list[Any]) -> list[Any]:
    """The grader boxes as they compare: an empty slot's numbers and model do not matter, a zero bound is none."""
    slots = [values[slot * 5:(slot + 1) * 5] for slot in range(GRADER_SLOTS)]
    return [[kind, value, low or None, high or None, model] if kind else [""] for kind, value, low, high, model in slots]


async def test_the_data_set_and_graders_go_through_a_link_unchanged(link: BatchLink) -> None:
    data, graders, note = await copied(link, DATA)
    assert data and graders and note == ""
    assert len(data) < MAX_DATA_CHARS and set(data) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    page = BatchState()
    with opened_from({"tab": "batch", "q": "Q: {{question}}", "data": data, "graders": graders}):
        outputs = await link.on_open(page)
    assert len(outputs) == OUTPUTS and outputs[0] is page and notice(outputs) == ""
    assert page.dataset == DATA, "the same name, columns and rows"
    assert "2 rows" in outputs[1] and "from CSV" in outputs[1] and "{{question}}" in outputs[3] and "⚠" not in outputs[3]
    assert _boxes(list(outputs[BOXES:-1])) == _boxes(GRADERS)


async def test_the_sample_data_set_goes_through_a_link(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    link = _link(client, conn, tmp_path, 100)
    handlers = BatchHandlers(link.ctx, BatchRuns.at(tmp_path, 100), 16, GRADER_SLOTS * 5, 32)
    sample = BatchState()
    await handlers.on_sample(sample)
    data, _, _ = await copied(link, sample.dataset)
    page = BatchState()
    with opened_from({"tab": "batch", "data": data}):
        await link.on_open(page)
    assert page.dataset is not None and page.dataset == sample.dataset and len(page.dataset.rows) == 8


async def test_a_data_set_too_large_for_a_link_is_said_beside_copy_link_and_the_rest_is_linked(link: BatchLink) -> None:
    large = Dataset(["text"], [{"text": "x" * 60_000} for _ in range(20)], "pasted")  # 1.2 MB of text
    data, graders, note = await copied(link, large)
    assert data == "" and graders and "The data set (20 rows) is not in this link" in note and "1,000.0 KB" in note
    noise = random.Random(40)
    varied = Dataset(["text"], [{"text": noise.randbytes(1_000).hex()} for _ in range(30)], "pasted")  # 60 KB of hex
    data, graders, note = await copied(link, varied)  # under 1 MB, but it does not compress into 24,000 characters
    assert data == "" and graders and "thousand characters long" in note


async def test_graders_the_boxes_hold_wrongly_are_left_out_and_said_so(link: BatchLink) -> None:
    data, graders, note = await copied(link, DATA, ["regex", "(", 0, 0, ""] + ["", "", 0, 0, ""] * (GRADER_SLOTS - 1))
    assert data and graders == "" and "The graders are not in this link" in note and "regex" in note


LARGE = Dataset(["text"], [{"text": "x" * 60_000} for _ in range(20)], "pasted")
LONG_MOCKS = "m" * (MAX_TEXT + 1)
"""Mocked tools longer than a link's opener takes (`links.MAX_TEXT`): the link names them when it opens; Copy link says so first."""
BAD_GRADERS = ["regex", "(", 0, 0, ""] + ["", "", 0, 0, ""] * (GRADER_SLOTS - 1)


async def test_what_was_left_out_is_said_in_the_link_box_label_where_the_person_looks(link: BatchLink) -> None:
    """Issue 40: the note under the link box is below the window at 1280x720; the label beside Copy link says it in a few words."""
    assert await labelled(link, DATA) == CATALOGUE.texts["en"]["links.box"]
    assert await labelled(link, LARGE) == "Link copied, but the data set was left out: too large for a link (the note below says more)"
    assert await labelled(link, DATA, BAD_GRADERS) == "Link copied, but the graders were left out: a grader box needs correcting (the note below says more)"
    assert await labelled(link, LARGE, BAD_GRADERS) == ("Link copied, but the data set was left out: too large for a link; the graders were left out: "
                                                        "a grader box needs correcting (the note below says more)")
    assert await labelled(link, DATA, mocks=LONG_MOCKS) == "Link copied, but the mocked tools were left out: too long for a link (the note below says more)"
    assert await labelled(link, DATA, mocks="m" * MAX_TEXT) == CATALOGUE.texts["en"]["links.box"], "what a link's opener takes is linked"
    with opened_from({}, "zh-CN"):
        said = await labelled(link, LARGE)
    assert said == CATALOGUE.texts["zh-CN"]["blink.box_left_out"].format(parts=CATALOGUE.texts["zh-CN"]["blink.box_no_data"])


async def test_the_note_says_once_and_truly_what_the_link_holds(link: BatchLink) -> None:
    """Issue 40: a note said "the link holds the rest (prompt, columns and graders)" beside another saying the graders were not in it."""
    _, graders, note = await copied(link, LARGE)
    assert graders and note.count("The link holds the rest") == 1 and note.endswith("the run's settings and the graders.")
    _, graders, note = await copied(link, LARGE, BAD_GRADERS)
    assert graders == "" and note.count("The link holds the rest") == 1 and "graders" not in note.split("The link holds the rest")[1], note
    _, _, note = await copied(link, DATA, BAD_GRADERS)
    assert note.endswith("The link holds the rest: the prompt, the columns and the run's settings.")
    _, _, note = await copied(link, DATA, mocks=LONG_MOCKS)
    assert "The mocked tools are not in this link:** 4,001 characters, more than the 4,000" in note
    assert note.endswith("The link holds the rest: the prompt, the columns, the run's other settings and the graders."), note


def _packed(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode()


def _rows(count: int) -> str:
    return "\n".join([json.dumps({"name": "pasted"})] + [json.dumps({"question": f"q{n}"}) for n in range(count)])


BOMB = _packed(b"\n" * 20_000_000)
"""20 MB of line feeds in about 27,000 characters: too long for a link by itself; 1 MB of them under the cap."""


@pytest.mark.parametrize(("data", "reason"), [
    ("A" * (MAX_DATA_CHARS + 1), "more than the 24.0 thousand a link may hold"),
    ("abc$def", "not base64url"),
    ("abcde", "not base64url"),  # a length no base64 text has
    (_packed(_rows(2).encode())[:-6], "damaged or cut short"),
    (_packed(b"\n" * 15_000_000), "unpacks to more than 1,000.0 KB"),  # a decompression bomb under the link's cap
    (_packed(b"\xff\xfe" + _rows(2).encode()), "not valid UTF-8"),
    (_packed(_rows(MAX_ROWS + 1).encode()), f"more than {MAX_ROWS}"),
    (_packed(json.dumps({"name": "[click](http://x)\n"}).encode()), "its name is missing"),
    (_packed(b'{"name": "pasted"}'), "the file has no rows"),
    (_packed(b'{"name": ""}\n{"question": "q"}'), "its name is missing"),
    (_packed(b'{"name": "pasted"}\n{"question": "q\\u0000"}'), "NUL"),
    (_packed(b'{"name": "pasted"}\n[1, 2]'), "line 1: each line must be a JSON object"),
])
async def test_a_data_set_a_link_cannot_give_is_refused_whole_and_named(link: BatchLink, data: str, reason: str) -> None:
    before = Dataset(["kept"], [{"kept": "yes"}])
    page = BatchState(dataset=before)
    with opened_from({"tab": "batch", "data": data, "graders": (await copied(link, None))[1]}):
        outputs = await link.on_open(page)
    said = notice(outputs)
    assert "Part of this link was not opened" in said and "The data set:" in said and reason in said, said
    assert page.dataset is before and all(skipped(value) for value in outputs[1:BOXES]), "nothing of the data set reached the page"
    assert _boxes(list(outputs[BOXES:-1])) == _boxes(GRADERS), "the graders still open"


def test_the_bomb_is_stopped_at_the_cap_not_inflated() -> None:
    assert len(BOMB) > MAX_DATA_CHARS
    with pytest.raises(PackedError) as refused:
        unpack(BOMB, 10 ** 6, MAX_DATA_BYTES)
    assert refused.value.key == "unpacks_too_large"
    assert unpack(pack("hello 你好", 100, 100), 100, 100) == "hello 你好"


def _grader_link(items: Any) -> str:
    return _packed(json.dumps(items).encode())


@pytest.mark.parametrize(("graders", "reason"), [
    (_grader_link([{"kind": "regex", "value": "("}]), "regex"),
    (_grader_link([{"kind": "telepathy"}]), "grader 1: a grader must be one of contains"),
    (_grader_link([{"kind": "contains", "value": "a"}] * (GRADER_SLOTS + 1)), f"holds {GRADER_SLOTS + 1} graders"),
    (_grader_link({"kind": "contains"}), "not a list of graders"),
    (_grader_link([{"kind": "numeric", "value": "4", "threshold": 0.5}]), "the grader boxes cannot hold it"),
    (_grader_link([[[[{"kind": "contains"}]]]]), "nested more than 3 levels"),
    (_packed(b'[{"kind": "contains", "value": NaN}]'), "not the JSON"),
    ("%%%", "not base64url"),
])
async def test_graders_a_link_cannot_give_are_refused_whole_and_the_data_set_still_opens(link: BatchLink, graders: str, reason: str) -> None:
    page = BatchState()
    with opened_from({"tab": "batch", "data": (await copied(link, DATA))[0], "graders": graders}):
        outputs = await link.on_open(page)
    said = notice(outputs)
    assert "The graders:" in said and reason in said and "The data set:" not in said, said
    assert all(skipped(value) for value in outputs[BOXES:-1]), "no grader box changed"
    assert page.dataset == DATA


@pytest.mark.parametrize("query", [{"tab": "chat", "data": "x"}, {"tab": "batch", "run": "0" * 32, "data": "x"}, {"tab": "batch"}, {}])
async def test_only_a_link_to_the_tabs_own_form_is_read(link: BatchLink, query: dict[str, str]) -> None:
    page = BatchState()
    with opened_from(query):
        outputs = await link.on_open(page)
    assert page.dataset is None and len(outputs) == OUTPUTS and all(skipped(value) for value in outputs[1:])


async def test_a_refusal_is_named_in_the_visitors_language(link: BatchLink) -> None:
    zh = CATALOGUE.texts["zh-CN"]
    with opened_from({"tab": "batch", "data": "abc$"}, "zh-CN"):
        outputs = await link.on_open(BatchState())
    assert zh["packed.not_base64url"].split("（")[0] in notice(outputs) and "not base64url" not in notice(outputs)


def test_pasted_rows_are_named_in_the_visitors_language() -> None:
    pasted = read_paste("Paris\nRome", ["city"], MAX_ROWS)
    with opened_from({}, "zh-CN"):
        status = dataset_status(pasted)
    assert CATALOGUE.texts["zh-CN"]["bview.source.pasted"] in status and "pasted" not in status
    with opened_from({}, "en"):
        assert "from pasted rows" in dataset_status(pasted)
