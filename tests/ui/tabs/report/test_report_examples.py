"""The Report's examples: each sets every scope picker Run report reads (the others back to the
quick defaults), makes a scope the handlers accept, and runs on the demo gateway."""

from __future__ import annotations

import gradio as gr
import pytest

from playground.client.gateway import GatewayClient
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.report import handlers
from tests.ui.shared.test_examples import _by_id, _trigger, example_fill

PICKERS = ("report-formats", "report-models", "report-checks", "report-depth", "report-concurrency", "report-ttft-budget")


@pytest.fixture(scope="module")
def app() -> gr.Blocks:
    return build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def test_every_example_sets_or_resets_every_picker_a_run_reads(app: gr.Blocks) -> None:
    run = _trigger(app, _by_id(app)["report-run"], "click")
    read = [c.elem_id for c in run.inputs if c.elem_id and c.elem_id.startswith("report-")]
    assert sorted(read) == sorted(PICKERS)
    index = 0
    while f"report-example-{index}" in _by_id(app):
        filled = example_fill(app, "report", index)
        assert sorted(filled) == sorted(PICKERS), f"example {index} leaves pickers as an earlier click left them"
        scope = handlers.build_scope(filled["report-formats"], filled["report-models"], filled["report-checks"],
                                     filled["report-depth"] == "thorough", filled["report-ttft-budget"])
        assert scope.cells()
        index += 1
    assert index == 3
    quick, messages, streams = (example_fill(app, "report", i) for i in range(3))
    assert quick["report-models"] == handlers.default_models(False) and quick["report-depth"] == "quick"
    assert messages["report-formats"] == ["messages"] and messages["report-checks"] == quick["report-checks"]
    assert streams["report-checks"] == ["stream", "finish", "ttft"]


async def test_the_messages_example_runs_on_the_demo(app: gr.Blocks, client: GatewayClient, defaults: ServerDefaults) -> None:
    filled = example_fill(app, "report", 1)
    session = handlers.ReportSession()
    async for _ in handlers.ReportHandlers(client, defaults).run_checks(
            session, "", "", filled["report-formats"], filled["report-models"], filled["report-checks"], filled["report-depth"],
            filled["report-concurrency"], filled["report-ttft-budget"], progress=lambda *a, **k: None):
        pass
    assert session.report is not None and session.report.finished
    assert {r.format for r in session.report.results} == {"messages"}
    assert {r.check for r in session.report.results if r.status == "pass"} >= {"caching", "count_tokens", "plain"}
