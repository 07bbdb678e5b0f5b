"""A Batch run belongs to the visitor who started it (issue 35). The Batch tab's own handlers, found
in the app built in hosted mode and called as the page calls them, with a second visitor (another
address) who writes the first one's run id into the browser's store: they see, export, resume,
stop and vote in nothing, and get the very words an unknown run id gets. The run runs for real
against the demo gateway; the store shows nothing was added by the second visitor.
Locally everyone is one owner: another address opens the run as before."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.context import LocalContext

from playground.client.batch.dataset import Dataset
from playground.client.batch.stored_run import StoredRun
from playground.store import runs as stored
from playground.store.database import Database, FILE_NAME
from tests.security.stored_runs import snapshot
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.tabs.batch.changes import ChangesHandlers
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.shared.connection import ServerDefaults
from playground.ui.web.owners import EVERYONE, may_open, owner_of

KEY = "sk-batch-owner-4410"
ROWS = Dataset(["question"], [{"question": f"What is {n} plus {n}?"} for n in range(3)])


class Visitor:
    """What Gradio's request context holds for an event: the peer's address, headers, cookies, session."""

    def __init__(self, host: str) -> None:
        self.client = type("Client", (), {"host": host})()
        self.headers: dict[str, str] = {}
        self.cookies: dict[str, str] = {}
        self.session_hash = secrets.token_hex(6)


FIRST, SECOND = Visitor("93.184.216.34"), Visitor("151.101.1.69")


@contextmanager
def event_of(visitor: Visitor) -> Iterator[None]:
    """Inside an event `visitor`'s page sent (Gradio sets its request context for each event)."""
    token = LocalContext.request.set(visitor)  # type: ignore[arg-type]
    try:
        yield
    finally:
        LocalContext.request.reset(token)


@pytest.fixture(scope="module")
def gateway() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    yield running
    running.stop()


def _blocks(gateway: RunningGateway, data_dir: Path, hosted: bool) -> gr.Blocks:
    settings = Settings(hosted=hosted, data_dir=data_dir, read_timeout=10)
    return build_app(settings, ServerDefaults(gateway.url, KEY, demo=True, hosted=hosted))


@pytest.fixture(scope="module")
def hosted(gateway: RunningGateway, tmp_path_factory: pytest.TempPathFactory) -> tuple[gr.Blocks, Path]:
    data_dir = tmp_path_factory.mktemp("hosted-data")
    return _blocks(gateway, data_dir, hosted=True), data_dir


class Tab:
    """The Batch tab's handlers by name (the functions the page's events call)."""

    def __init__(self, blocks: gr.Blocks) -> None:
        self.fns: dict[str, Any] = {}
        self.inputs: dict[str, list[Any]] = {}
        for block_fn in blocks.fns.values():
            fn = block_fn.fn
            if isinstance(getattr(fn, "__self__", None), (BatchHandlers, ChangesHandlers)) and fn.__name__ not in self.fns:
                self.fns[fn.__name__] = fn
                self.inputs[fn.__name__] = list(block_fn.inputs)

    def form(self) -> list[Any]:
        """The Run event's form values as a fresh page sends them (two columns, no graders)."""
        values = [getattr(c, "value", None) for c in self.inputs["on_run"][3:]]
        return ["" if v is None and isinstance(c, (gr.Textbox, gr.Code)) else v for c, v in zip(self.inputs["on_run"][3:], values)]

    async def run(self, visitor: Visitor) -> BatchState:
        batch = BatchState(dataset=ROWS)
        with event_of(visitor):
            answer = await self.fns["on_run"](batch, "", "", *self.form())
            assert answer[3] == {"run_id": batch.run_id}, answer
            async for _ in self.fns["on_watch"](batch):
                pass
        return batch

    def restore(self, run_id: str, visitor: Visitor) -> tuple[Any, ...]:
        with event_of(visitor):
            return self.fns["on_restore"](BatchState(), {"run_id": run_id})

    async def everything(self, run_id: str, visitor: Visitor) -> dict[str, Any]:
        """What each reading handler answers `visitor` for a page whose state holds `run_id`."""
        batch = BatchState(run_id=run_id)
        select = gr.SelectData(None, {"index": [0, 2], "value": "", "row_value": [1, 1, ""], "col_value": None, "selected": True})
        with event_of(visitor):
            pair = self.fns["on_pair"](batch, 0, 1)
            batch.pair = {"a": 0, "b": 1, "row": 0, "repeat": 0}  # as if a pair were shown
            return {
                "restore": self.restore(run_id, visitor),
                "view": self.fns["on_view"](batch, "all rows", "row"),
                "cell": self.fns["on_select"](batch, select)[0],
                "pair": pair[1:],
                "vote": self.fns["vote_a"](batch, 0, 1, "all rows", "row")[1],
                "export": self.fns["on_export"](batch),
                "resume": (await self.fns["on_resume"](batch, True, "", ""))[1],
                "stop": await self.fns["on_stop"](batch, "all rows", "row"),
                "baselines": self.fns["on_list"](BatchState()),
                "changes": self.fns["on_diff"](BatchState(run_id=run_id), run_id),
            }


def _stored(data_dir: Path, run_id: str) -> str:
    return snapshot(data_dir, run_id)


def _on_disk(data_dir: Path) -> bytes:
    """The store's files as bytes (the database and its write-ahead log)."""
    return b"".join(path.read_bytes() for path in sorted(data_dir.glob(FILE_NAME + "*")))


async def test_another_visitor_gets_what_an_unknown_run_id_gets(hosted: tuple[gr.Blocks, Path]) -> None:
    blocks, data_dir = hosted
    tab = Tab(blocks)
    batch = await tab.run(FIRST)
    run_id = batch.run_id
    owned = tab.restore(run_id, FIRST)
    assert owned[0].run_id == run_id and "What is 1 plus 1?" in str(owned[3].value if hasattr(owned[3], "value") else owned[3])
    before = _stored(data_dir, run_id)
    assert StoredRun.open(Database.at(data_dir), run_id).owner.startswith("visitor:")  # the owner is recorded,
    assert b"93.184.216.34" not in _on_disk(data_dir)  # not the address

    theirs = await tab.everything(run_id, SECOND)
    unknown = await tab.everything(secrets.token_hex(16), SECOND)
    assert theirs["restore"][0].run_id == ""  # the store's id is not adopted
    assert str(theirs) == str(unknown)  # word for word what an id that does not exist gets
    assert "Run a batch first" in str(theirs["export"]) and "Nothing to resume" in str(theirs["resume"])
    assert "What is" not in str(theirs)  # no row, answer or grid reached the second visitor
    assert _stored(data_dir, run_id) == before  # no vote, no resumed cell, nothing written

    mine = await tab.everything(run_id, FIRST)  # the owner, for contrast: every handler reads the run
    assert "What is 1 plus 1?" in str(mine["view"]) and len(mine["export"][0]) == 5 and "Vote recorded" in mine["vote"]
    assert [value for _, value in mine["baselines"]["choices"]] == [run_id] and "### What changed" in mine["changes"]
    assert theirs["baselines"]["choices"] == [] and "Run a batch first" in theirs["changes"]  # not listed, not compared
    assert _stored(data_dir, run_id) != before  # the owner's vote was recorded


async def test_a_new_session_of_the_same_visitor_still_owns_the_run(hosted: tuple[gr.Blocks, Path]) -> None:
    tab = Tab(hosted[0])
    batch = await tab.run(FIRST)
    again = Visitor(FIRST.client.host)  # a reload: a new Gradio session from the same address
    assert tab.restore(batch.run_id, again)[0].run_id == batch.run_id


async def test_locally_everyone_is_one_owner(gateway: RunningGateway, tmp_path: Path) -> None:
    tab = Tab(_blocks(gateway, tmp_path, hosted=False))
    batch = await tab.run(FIRST)
    assert tab.restore(batch.run_id, SECOND)[0].run_id == batch.run_id
    assert StoredRun.open(Database.at(tmp_path), batch.run_id).owner == EVERYONE


def test_the_owner_rule() -> None:
    first, second = owner_of(FIRST, hosted=True), owner_of(SECOND, hosted=True)
    assert first and second and first != second and owner_of(Visitor(FIRST.client.host), hosted=True) == first
    assert may_open(first, first) and not may_open(first, second) and not may_open(first, None)
    assert not may_open(EVERYONE, first)  # a run that names nobody (made locally, or before owners) is nobody's when hosted
    assert owner_of(SECOND, hosted=False) == EVERYONE and may_open(first, EVERYONE)
    assert owner_of(None, hosted=True) is None


async def test_the_run_list_shows_a_visitor_their_own_runs_only(hosted: tuple[gr.Blocks, Path]) -> None:
    blocks, data_dir = hosted
    tab = Tab(blocks)
    mine, theirs = (await tab.run(FIRST)).run_id, (await tab.run(SECOND)).run_id
    Database.at(data_dir).call(stored.record_import, "e" * 32 + ".jsonl", 1, 1.0, "", "refused", 1.0)
    listed: dict[str, list[str]] = {}
    for name, visitor in (("first", FIRST), ("second", SECOND)):
        with event_of(visitor):
            found = tab.fns["on_find"](BatchState(), "", "", "", "")
            listed[name] = found[0].listed
            assert "e" * 32 not in found[2]  # hosted: no run file names (they are run ids) under the list
            assert tab.fns["on_find"](BatchState(), "", "gx-2.5", "", "")[0].listed == found[0].listed  # a filter never widens it
    assert mine in listed["first"] and theirs not in listed["first"]
    assert listed["second"] == [theirs]
    with event_of(Visitor("203.0.113.9")):  # a visitor who made nothing
        assert tab.fns["on_find"](BatchState(), "", "", "", "")[0].listed == []

    tampered = BatchState(listed=[mine])  # even a list holding another visitor's run opens nothing
    line = [""] * 7 + [mine[:12]]
    click = gr.SelectData(None, {"index": [0, 0], "value": "", "row_value": line, "col_value": None, "selected": True})
    with event_of(SECOND):
        answer = tab.fns["on_open_listed"](tampered, click)
    assert tampered.run_id == "" and answer[-1] == "That run cannot be opened any more." and "What is" not in str(answer)
