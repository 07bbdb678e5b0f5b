"""The Report tab's handlers: the scope from the pickers, a run through the handler, the
downloads the app writes (and what they show), loading a saved report, and hosted mode."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import media_directory
from playground.client.report import document
from playground.client.report.latency import HOSTED_REFUSAL, LoadRunRefused
from playground.client.report.model import FAIL, CheckResult, Report
from playground.client.report.runner import RunState
from playground.ui.tabs.report import handlers
from playground.ui.tabs.report import views
from playground.ui.tabs.report.pacing import ViewPacer
from playground.ui.shared.connection import ServerDefaults


def test_scope_from_the_pickers() -> None:
    scope = handlers.build_scope(["chat", "images"], ["chat completions · gx-2.5-flash", "images · gx-2.5-flash-image", "messages · cl-x"],
                                 ["plain", "ratio"], False, 2)
    assert scope.models == {"chat": ["gx-2.5-flash"], "images": ["gx-2.5-flash-image"]}
    assert scope.cells() == [("chat", "gx-2.5-flash", "plain"), ("images", "gx-2.5-flash-image", "ratio")]
    with pytest.raises(RequestValidationError, match="pick at least one format"):
        handlers.build_scope(["video"], ["chat completions · gx-2.5-flash"], ["plain"], False, 2)
    with pytest.raises(RequestValidationError, match="pick at least one check"):
        handlers.build_scope(["chat"], ["chat completions · gx-2.5-flash"], [], False, 2)
    with pytest.raises(RequestValidationError, match="time-to-first-token budget"):
        handlers.build_scope(["chat"], ["chat completions · gx-2.5-flash"], ["plain"], False, 0)


def test_gateway_models_join_the_picker() -> None:
    shown = dict(handlers.model_choices(True, ["my-own-model", "text-embedding-9", "cl-sonnet-4-5-20250929"]))
    choices = list(shown.values())
    assert all(label.startswith("__i18n__") and label.endswith(f" · {value.split(' · ')[1]}") for label, value in shown.items()), \
        "the format's name is translated in the page, the model id shown as it is"
    assert "chat completions · my-own-model" in choices
    assert "embeddings (list) · text-embedding-9" in choices
    assert "messages · cl-sonnet-4-5-20250929" in choices


async def test_a_run_writes_json_markdown_and_a_self_contained_page(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = handlers.ReportSession()
    scope = handlers.build_scope(["chat"], ["chat completions · gx-2.5-flash"], ["plain", "auth", "json_schema"], False, 5)
    async for _state in handlers.run(client, defaults, "", "", session, scope, 2):
        pass
    report = session.report
    assert report is not None and report.finished
    report.results.append(CheckResult("chat", "evil-model", "plain", FAIL, "<script>alert(1)</script>", arrived="<img src=x onerror=alert(1)>",
                                      exchanges=list(report.results[0].exchanges)))
    paths = [Path(p) for p in views.write_downloads(report)]
    assert [p.name for p in paths] == ["gateway-report.json", "gateway-report.md", "gateway-report.html", "gateway-report-summary.md", "gateway-report-badge.svg"]
    assert all(p.resolve().is_relative_to(media_directory("reports").resolve()) for p in paths)
    page = paths[2].read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page
    assert "curl " in page and "src=\"http" not in page and "<link" not in page
    assert defaults.server_key not in page and defaults.server_key not in paths[0].read_text(encoding="utf-8")
    loaded = handlers.load_saved(str(paths[0]))
    assert [r.key for r in loaded.results] == [r.key for r in report.results]
    assert "evil-model" in views.matrix_html(loaded)


def test_a_version_1_report_loads_in_the_tab() -> None:
    loaded = handlers.load_saved(str(Path(__file__).resolve().parents[4] / "tests" / "fixtures" / "report" / "report-v1.json"))
    assert ("chat", "qwen-plus", "stream") in loaded.by_key() and loaded.by_key()[("chat", "qwen-plus", "stream")].status == FAIL
    assert "qwen-plus" in views.matrix_html(loaded)


def test_a_broken_file_is_refused_before_anything_changes(tmp_path: Path) -> None:
    broken = tmp_path / "report.json"
    broken.write_text('{"schema": "gateway-playground-report", "version": 1}', encoding="utf-8")
    with pytest.raises(document.ReportFileError, match="damaged"):
        handlers.load_saved(str(broken))
    with pytest.raises(document.ReportFileError, match="no longer on the server"):
        handlers.load_saved(str(tmp_path / "gone.json"))


async def test_hosted_mode_refuses_the_load_run_with_why(client: GatewayClient, defaults: ServerDefaults) -> None:
    hosted = ServerDefaults(defaults.base_url, defaults.server_key, demo=True, hosted=True)
    with pytest.raises(LoadRunRefused) as refused:
        async for _ in handlers.run_load(client, hosted, "", "", handlers.ReportSession(), "chat", "gx-2.5-flash", 4, 50):
            pass
    assert refused.value.message == HOSTED_REFUSAL


def test_hosted_mode_shows_the_load_run_off_and_why() -> None:
    from playground.settings import Settings
    from playground.ui.app import build_app
    from playground.ui.i18n import CATALOGUE, EN, t

    def load_parts(hosted: bool) -> tuple[object, list[str]]:
        blocks = build_app(Settings(hosted=hosted), ServerDefaults("http://127.0.0.1:9", "k", demo=True, hosted=hosted))
        components = list(blocks.blocks.values())
        button = next(c for c in components if getattr(c, "elem_id", None) == "report-load-run")
        notes = [c.value for c in components if getattr(c, "elem_id", None) == "report-load-refused"]
        return button.interactive, notes

    assert load_parts(hosted=True) == (False, [str(t("report.load_hosted"))])
    assert EN["report.load_hosted"] == HOSTED_REFUSAL and CATALOGUE.texts["zh-CN"]["report.load_hosted"].startswith("公开部署模式下")
    assert load_parts(hosted=False) == (True, [])


async def test_local_load_run_feeds_the_plots_and_the_error_table(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = handlers.ReportSession()
    async for _ in handlers.run_load(client, defaults, "", "", session, "chat", "gx-2.5-flash", 2, 50):
        pass
    ttft, rate, table = views.load_plot_rows(session.report)
    assert sorted({row["concurrency"] for row in ttft}) == [1, 2]
    assert {row["series"] for row in ttft} == {"TTFT p50", "TTFT p95"}
    assert [row["concurrency"] for row in rate] == [1, 2]
    assert table.splitlines()[2].startswith("| 1 | 2 | 0 | 0 | 0 | 0 | 0 | 0% |")
    with pytest.raises(RequestValidationError, match="highest concurrency"):
        async for _ in handlers.run_load(client, defaults, "", "", session, "chat", "gx-2.5-flash", 500, 50):
            pass


async def test_a_running_report_rebuilds_its_views_at_a_paced_rate(monkeypatch: pytest.MonkeyPatch, client: GatewayClient,
                                                                     defaults: ServerDefaults) -> None:
    """The runner hands over its state every 0.1 s, each a matrix to rebuild and redraw: thirty
    states arriving at once give the first view and the finished one, not thirty."""
    scope = handlers.build_scope(["chat"], ["chat completions · gx-2.5-flash"], ["plain"], False, 5)
    report = Report("http://gateway.test", scope)

    async def states(*_: object) -> AsyncIterator[RunState]:
        state = RunState(report, 1)
        for _ in range(29):
            yield state
        report.finished = True
        yield state

    monkeypatch.setattr(handlers, "run", states)
    updates = [update async for update in handlers.ReportHandlers(client, defaults).run_checks(
        handlers.ReportSession(), "", "", ["chat"], ["chat completions · gx-2.5-flash"], ["plain"], "quick", 2, 5, progress=lambda *_, **__: None)]
    assert 2 <= len(updates) <= 4  # the first view, the finished one (and one more on a machine paused for 0.1 s)


def test_a_view_waits_nine_times_what_the_last_cost_and_at_least_a_tenth_of_a_second() -> None:
    now = [10.0]
    pacer = ViewPacer(clock=lambda: now[0])
    assert pacer.due()
    now[0] = 10.04  # a view that took 40 ms to build
    pacer.built(10.0)
    now[0] = 10.39
    assert not pacer.due()
    now[0] = 10.40
    assert pacer.due()
    pacer.built(10.399)  # a cheap view: the pace is never faster than 0.1 s
    now[0] = 10.49
    assert not pacer.due()
