"""The Report tab's events, called as the page runs them (`handlers.ReportHandlers` and the module
functions `layout` wires): a run with its progress, a cell opened from the matrix and one of its
calls inspected, Stop, a saved report loaded as the baseline, the depth picker, and refresh."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playground.client.gateway import GatewayClient
from playground.client.report.model import CHECKS, FORMATS, QUICK_CHECKS, QUICK_FORMATS
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.report import handlers, views


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


async def test_a_run_then_a_cell_and_its_calls(client: GatewayClient, defaults: ServerDefaults) -> None:
    session, ticks = handlers.ReportSession(), []
    wired = handlers.ReportHandlers(client, defaults)
    updates = [update async for update in wired.run_checks(session, "", "", ["chat"], ["chat completions · gx-2.5-flash"], ["plain", "auth"],
                                                           "quick", 2, 5, progress=lambda done, desc: ticks.append((done, desc)))]
    assert updates and all(len(update) == 3 for update in updates) and ticks[-1][0] == (2, 2)
    assert session.report is not None and session.report.finished
    summary, matrix, _latency, diff, cells, files = handlers.finished(session)
    assert summary == views.summary_markdown(session.report) and "data-cell" in matrix and diff == views.diff_markdown(None)
    assert cells["choices"] and [Path(p).name for p in files] == ["gateway-report.json", "gateway-report.md", "gateway-report.html", "gateway-report-summary.md", "gateway-report-badge.svg"]
    key = views.cell_choices(session.report)[0]
    key = key[1] if isinstance(key, tuple) else key
    opened = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": key}))
    assert opened[0]["open"] is True and opened[1] == key and len(opened) == 9
    assert opened == handlers.show_cell(session, key)
    calls = opened[-1]["choices"]
    assert calls[0].startswith("1. POST ") and opened[-1]["value"] == calls[-1], "the cell's last call is the one inspected"
    assert handlers.show_call(session, key, calls[-1]) == opened[3:8]
    assert all(skipped(v) for v in handlers.show_call(session, key, "99. nothing")) and all(skipped(v) for v in handlers.show_cell(session, "no-such-cell"))
    assert handlers.stop(session)[0] == views.summary_markdown(session.report)


async def test_a_saved_report_becomes_the_baseline(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    session = handlers.ReportSession()
    async for _ in handlers.ReportHandlers(client, defaults).run_checks(session, "", "", ["chat"], ["chat completions · gx-2.5-flash"],
                                                                       ["plain"], "quick", 1, 5, progress=lambda *a, **k: None):
        pass
    saved = handlers.finished(session)[-1][0]
    fresh = handlers.ReportSession()
    shown = handlers.saved_uploaded(fresh, saved)
    assert fresh.baseline is fresh.report and fresh.report is not None and shown[4] == "" and len(shown) == 7
    refused = handlers.saved_uploaded(fresh, str(tmp_path / "gone.json"))
    assert refused[0]["visible"] is True and all(skipped(v) for v in refused[1:])


async def test_depth_picks_its_formats_models_and_checks() -> None:
    assert await handlers.depth_changed("quick") == (list(QUICK_FORMATS), handlers.default_models(False), list(QUICK_CHECKS))
    assert await handlers.depth_changed("thorough") == (list(FORMATS), handlers.default_models(True), [c.id for c in CHECKS])


async def test_refresh_shows_why_when_the_gateway_is_unreachable(client: GatewayClient, defaults: ServerDefaults) -> None:
    banner, models = await handlers.ReportHandlers(client, defaults).refresh_models("http://127.0.0.1:9", "sk-x")
    assert banner["visible"] is True and skipped(models)
    banner, models = await handlers.ReportHandlers(client, defaults).refresh_models("", "")
    assert banner["visible"] is False and "chat completions · gx-2.5-flash" in [value for _, value in models["choices"]]
