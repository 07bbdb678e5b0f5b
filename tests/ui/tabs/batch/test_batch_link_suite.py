"""A Batch link carries an imported suite's own graders (issue 40): the graders a promptfoo or OpenAI Evals import
brings that the grader boxes cannot hold (per-row values, thresholds, labels) go into the link's `suite` parameter,
packed and bounded as the boxes' graders are, and open with the link's data set, each checked as an import's; a
part too large is said beside Copy link, a part refused is named in the tab's notice and nothing of it is kept."""

from __future__ import annotations

import random
from typing import Any

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec, fits_the_boxes
from playground.client.batch.importers import Suite, read_suite
from playground.client.batch.plan import MAX_GRADERS
from playground.ui.i18n import CATALOGUE
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS
from playground.ui.tabs.batch.handlers import BatchState
from playground.ui.tabs.batch.linked import BatchLink
from tests.client.batch.importers.fixtures import upload
from tests.ui.tabs.batch.test_batch_link import BAD_GRADERS, DATA, GRADERS, LARGE, _grader_link, link, notice, opened_from, skipped

__all__ = ["link"]  # the fixture the tests take

NO_BOXES = ["", "", 0, 0, ""] * GRADER_SLOTS
BOXES = 1 + DATA_OUTPUTS
"""Where the grader boxes start in `on_open`'s outputs."""


def imported() -> Suite:
    """promptfoo's getting-started config: per-row `contains` and `regex` graders, which no grader box holds."""
    suite = read_suite(upload("promptfoo/getting-started"), 100)
    assert suite.graders and not any(fits_the_boxes(spec) for spec in suite.graders)
    return suite


async def copy(link: BatchLink, batch: BatchState, boxes: list[Any] = NO_BOXES) -> tuple[str, str, str, str, str]:
    """(data, graders, suite, the note beside Copy link ("" when hidden), the link box's label)."""
    data, graders, suite, note, label = await link.on_copy(batch, "", *boxes)
    return data, graders, suite, note["value"] if note.get("visible") else "", label["label"]


async def test_an_imported_suites_graders_go_through_a_link_with_its_data_set(link: BatchLink) -> None:
    suite = imported()
    data, graders, packed, note, label = await copy(link, BatchState(dataset=suite.dataset, suite_graders=list(suite.graders)))
    assert data and packed and graders == "" and note == "" and label == CATALOGUE.texts["en"]["links.box"]
    page = BatchState()
    with opened_from({"tab": "batch", "data": data, "suite": packed}):
        outputs = await link.on_open(page)
    assert notice(outputs) == "" and page.dataset == suite.dataset
    assert page.suite_graders == list(suite.graders), "the suite's graders are kept with its data set, as an import keeps them"
    assert all(skipped(value) for value in outputs[BOXES:-1]), "the grader boxes are the link's own (none here)"


async def test_the_suites_graders_and_the_boxes_graders_both_open(link: BatchLink) -> None:
    suite = imported()
    data, graders, packed, _, _ = await copy(link, BatchState(dataset=suite.dataset, suite_graders=list(suite.graders)), GRADERS)
    page = BatchState()
    with opened_from({"tab": "batch", "data": data, "graders": graders, "suite": packed}):
        outputs = await link.on_open(page)
    assert notice(outputs) == "" and page.suite_graders == list(suite.graders) and list(outputs[BOXES:BOXES + 2]) == GRADERS[:2]


def _many(count: int, seed: int = 40) -> list[GraderSpec]:
    noise = random.Random(seed)
    return [GraderSpec("equals", noise.randbytes(400).hex()) for _ in range(count)]


async def test_suite_graders_too_large_for_a_link_are_said_beside_copy_link_and_the_rest_is_linked(link: BatchLink) -> None:
    data, graders, packed, note, label = await copy(link, BatchState(dataset=DATA, suite_graders=_many(MAX_GRADERS)), GRADERS)
    assert data and graders and packed == ""
    assert label == "Link copied, but the imported suite's graders were left out: too large for a link (the note below says more)"
    assert "The imported suite's graders (12) are not in this link:** packed, it is" in note and "thousand a link may hold" in note
    assert note.endswith("The link holds the rest: the prompt, the columns and the run's settings."), "not “and the graders”: some are out"


async def test_a_data_set_left_out_takes_the_suites_graders_with_it_and_the_label_says_both(link: BatchLink) -> None:
    data, graders, packed, note, label = await copy(link, BatchState(dataset=LARGE, suite_graders=list(imported().graders)), BAD_GRADERS)
    assert data == graders == packed == ""
    assert label == ("Link copied, but the data set was left out: too large for a link; the graders were left out: a grader box needs "
                     "correcting; so were the imported suite's graders (the note below says more)")
    assert "The imported suite's graders (2) are not in this link:** they grade the suite's data set, which is not in it." in note


def _refused_suite(said: str) -> bool:
    return "Part of this link was not opened" in said and "The imported suite's graders:" in said and "The data set:" not in said


async def test_suite_graders_a_link_cannot_give_are_refused_whole_and_named_and_the_data_set_opens(link: BatchLink) -> None:
    data = (await copy(link, BatchState(dataset=DATA)))[0]
    for packed, reason in ((_grader_link([{"kind": "contains", "value": "{{expected}}"}, {"kind": "regex", "value": "("}]), "grader 2: "),
                           (_grader_link([{"kind": "telepathy"}]), "grader 1: a grader must be one of contains"),
                           (_grader_link([{"kind": "numeric", "value": "4", "threshold": "half"}]), "grader 1: "),
                           (_grader_link([{"kind": "equals", "value": "a"}] * (MAX_GRADERS + 1)), f"holds 13 graders, more than the {MAX_GRADERS} a run takes"),
                           (_grader_link({"kind": "contains", "value": "a"}), "not a list of graders"),
                           (_grader_link([[[[{"kind": "contains"}]]]]), "nested more than 3 levels"),
                           ("A" * 4_001, "more than the 4.0 thousand"),
                           ("%%%", "not base64url")):
        page = BatchState(suite_graders=[GraderSpec("contains", "kept")])
        with opened_from({"tab": "batch", "data": data, "suite": packed}):
            said = notice(await link.on_open(page))
        assert _refused_suite(said) and reason in said, (reason, said)
        assert page.dataset == DATA and page.suite_graders == [], "the link's data set opens, without graders that are not its own"


async def test_suite_graders_open_only_with_the_links_data_set(link: BatchLink) -> None:
    suite = imported()
    data, _, packed, _, _ = await copy(link, BatchState(dataset=suite.dataset, suite_graders=list(suite.graders)))
    kept = [GraderSpec("contains", "kept")]
    for query in ({"tab": "batch", "suite": packed}, {"tab": "batch", "data": data[:-8], "suite": packed}):
        before = Dataset(["kept"], [{"kept": "yes"}])
        page = BatchState(dataset=before, suite_graders=list(kept))
        with opened_from(query):
            said = notice(await link.on_open(page))
        assert "The imported suite's graders:" in said and "they go only with the link's data set, which was not opened" in said, said
        assert page.dataset is before and page.suite_graders == kept, "the page's data set keeps its own graders"


async def test_a_refusal_of_the_suites_graders_is_named_in_the_visitors_language(link: BatchLink) -> None:
    data = (await copy(link, BatchState(dataset=DATA)))[0]
    with opened_from({"tab": "batch", "data": data, "suite": "%%%"}, "zh-CN"):
        said = notice(await link.on_open(BatchState()))
    assert "导入的评测套件的评分器：" in said and "imported" not in said
