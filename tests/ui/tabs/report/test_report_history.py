"""The Report tab's history as the page runs it: each finished run kept once in the local store,
listed newest first (preselected: the two newest), two picked and compared cell by cell (what
broke, what was fixed), the matrix showing a cell's compatible verdict beside its strict one and
the client rows; hosted, an event without a visitor keeps and lists nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from gradio.context import LocalContext

from playground.client.gateway import GatewayClient
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.store.database import Database
from playground.ui.i18n import say
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.report import handlers, views
from playground.ui.tabs.report.history import ReportHistory
from tests.conftest import DEMO_KEY

SCOPE = (["chat", "messages"], ["chat completions · gpt-4o-mini", "messages · cl-sonnet-4-5-20250929"], ["plain", "stream"])


@pytest.fixture(scope="module")
def quirky() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=DEMO_KEY, token_delay=0.0, quirks=("no-done", "drop-usage@cl-sonnet-4-5-20250929")))
    yield running
    running.stop()


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[ReportHistory]:
    history = ReportHistory(tmp_path, hosted=False)
    yield history
    Database.at(tmp_path).close()


async def _run(client: GatewayClient, defaults: ServerDefaults, url: str) -> handlers.ReportSession:
    session = handlers.ReportSession()
    async for _ in handlers.run(client, defaults, url, DEMO_KEY if url else "", session, handlers.build_scope(*SCOPE, False, 5), 2):
        pass
    return session


async def test_two_runs_kept_picked_and_compared(client: GatewayClient, defaults: ServerDefaults, quirky: RunningGateway, kept: ReportHistory) -> None:
    assert kept.listed()[2] == say("rep.history.empty")
    clean = await _run(client, defaults, "")
    first = kept.keep_finished(clean)
    assert len(first[0]["choices"]) == 1 and kept.keep_finished(clean)[0]["choices"] == first[0]["choices"], "a report is kept once"
    planted = await _run(client, defaults, quirky.url)
    before, after, note = kept.keep_finished(planted)
    assert len(before["choices"]) == 2 and note == say("rep.history.count", count=2)
    assert (before["value"], after["value"]) == (before["choices"][1][1], before["choices"][0][1]), "the two newest, older first"
    shown = kept.compare(before["value"], after["value"])
    broke = next(line for line in shown.splitlines() if line.startswith("- " + say("rep.history.broke", count=2, cells="")))
    assert "chat completions · gpt-4o-mini · stream conformance" in broke and "messages · cl-sonnet-4-5-20250929 · plain answer" in broke
    assert kept.compare(after["value"], before["value"]) == shown, "the older report is always the baseline"
    assert kept.compare(after["value"], after["value"]) == say("rep.history.same") and kept.compare(None, after["value"]) == say("rep.history.pick_two")
    assert kept.compare("no-such-report", after["value"]) == say("rep.history.gone")

    matrix = views.matrix_html(planted.report)
    assert 'title="compatible: pass">✓</sup>' in matrix, "a chat stream without [DONE] fails strictly and passes compatibly"
    assert 'data-client="anthropic"' in matrix and '<td class="not_ready">not ready</td>' in matrix
    assert "breaks anthropic" in matrix and "messages · cl-sonnet-4-5-20250929 · plain answer" in views.clients_html(planted.report)
    stream = views.find_cell(planted.report, "chat|gpt-4o-mini|stream")
    assert stream is not None and "Compatible verdict: **pass**" in views.cell_verdict(stream)


async def test_hosted_an_event_without_a_visitor_keeps_and_lists_nothing(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    hosted = ReportHistory(tmp_path, hosted=True)
    session = await _run(client, defaults, "")
    assert hosted.keep_finished(session)[0]["choices"] == [] and session.kept is None
    assert ReportHistory(tmp_path, hosted=False).listed()[0]["choices"] == []
    Database.at(tmp_path).close()


async def test_hosted_each_visitor_lists_and_compares_only_their_own(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    hosted = ReportHistory(tmp_path, hosted=True)
    ids = {}
    for visitor in ("203.0.113.7", "198.51.100.9"):
        token = LocalContext.request.set(SimpleNamespace(client=SimpleNamespace(host=visitor), session_hash=None))  # type: ignore[arg-type]
        try:
            before, _, _ = hosted.keep_finished(await _run(client, defaults, ""))
            ids[visitor] = [value for _, value in before["choices"]]
        finally:
            LocalContext.request.reset(token)
    assert len(ids["203.0.113.7"]) == len(ids["198.51.100.9"]) == 1 and ids["203.0.113.7"] != ids["198.51.100.9"]
    token = LocalContext.request.set(SimpleNamespace(client=SimpleNamespace(host="198.51.100.9"), session_hash=None))  # type: ignore[arg-type]
    try:
        assert hosted.compare(ids["203.0.113.7"][0], ids["198.51.100.9"][0]) == say("rep.history.gone"), "another visitor's report is not opened"
    finally:
        LocalContext.request.reset(token)
    assert len(ReportHistory(tmp_path, hosted=False).listed()[0]["choices"]) == 2, "locally (one person) both are listed"
    Database.at(tmp_path).close()
