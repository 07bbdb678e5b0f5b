"""The Report's words and the curl import's refusals come from the client's message ids: a Chinese
visitor reads a check's explanation (a real run against the demo gateway with quirks) and a
refused curl command in Chinese, a report saved by an older version (plain English, no ids) is
worded from the ids' English templates, and the names the page takes from the client (checks,
formats) have one home."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.client.gateway import GatewayClient
from playground.client.report import document, summary
from playground.client.report.model import FAIL, SKIPPED, Report, Scope
from playground.client.report.runner import run_report
from playground.client.texts import TEMPLATES, Text
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.ui import i18n
from playground.ui.i18n import CATALOGUE, LAYOUT_MESSAGES
from playground.ui.i18n.client_words import word
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.curl_panel import ImportRegistry, imported_values
from playground.ui.tabs.report import views
from playground.ui.tabs.report.handlers import ReportSession, saved_uploaded, show_cell
from tests.ui.i18n.test_i18n_views import assert_language, both, chinese

KEY = "sk-report-words-key-123456"
QUIRKS = ("no-done", "drop-usage@gpt-4o-mini", "ignore-system@cl-sonnet-4-5-20250929")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def quirky_gateway() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, quirks=QUIRKS))
    yield running
    running.stop()


async def _run(url: str) -> Report:
    client = GatewayClient(Transport())
    try:
        scope = Scope({"chat": ["gpt-4o-mini"], "messages": ["cl-sonnet-4-5-20250929"]}, ("plain", "stream", "system", "json_schema"))
        state = None
        async for state in run_report(client, Connection(url, KEY), scope, concurrency=2):
            pass
    finally:
        await client.aclose()
    assert state is not None
    return state.report


def _verdict(session: ReportSession, key: tuple[str, str, str]) -> str:
    result = next(r for r in (session.report.results if session.report else []) if r.key == key)
    return str(show_cell(session, views.cell_id(result))[2])


async def test_a_chinese_visitor_reads_a_checks_explanation_in_chinese_and_so_does_a_saved_copy(quirky_gateway: RunningGateway, tmp_path: Path) -> None:
    report = await _run(quirky_gateway.url)
    results = {r.key: r for r in report.results}
    plain, system, stream = ("chat", "gpt-4o-mini", "plain"), ("messages", "cl-sonnet-4-5-20250929", "system"), ("chat", "gpt-4o-mini", "stream")
    assert {key for key, r in results.items() if r.status == FAIL} == {plain, system, stream}
    assert isinstance(results[plain].reason, Text) and results[plain].reason.id == "report.plain.usage_problem"
    live = ReportSession(report=report)
    assert_language(both(lambda: _verdict(live, plain)), ["streamed answer: no usage was reported", "*Expected:* usage with input and output tokens above zero"],
                    ["流式回答：没有报告用量", "用量中输入和输出 token 都大于零"])
    assert_language(both(lambda: _verdict(live, system)), ["the answer ignores the system prompt", "an answer starting with ZEBRA"],
                    ["回答没有遵守系统提示", "开头的回答"])
    unsupported = ("messages", "cl-sonnet-4-5-20250929", "json_schema")
    assert_language(both(lambda: _verdict(live, unsupported)), ["the messages format has no JSON-schema output in the spec"], ["规范中Messages 接口没有“按 JSON schema 输出”这一项"])

    assert_language(both(lambda: views.matrix_html(report)), ["format · model"], ["格式 · 模型"])

    saved = tmp_path / "report.json"
    saved.write_text(document.dumps(report), encoding="utf-8")
    reopened = ReportSession()
    saved_uploaded(reopened, str(saved))
    assert reopened.report is not None and not isinstance(reopened.report.results[0].reason, Text), "a file keeps plain English"
    for key in (plain, system, stream, unsupported):
        with chinese():
            assert _verdict(reopened, key) == _verdict(live, key), key


OLDER_DOCUMENT = {
    "schema": "gateway-playground-report", "version": 1, "created": 1_760_000_000.0, "gateway": "http://old-gateway", "wall_s": 3.5, "stopped": True,
    "scope": {"models": {"chat": ["gx-2.5-flash"], "embeddings": ["text-embedding-3-small"]}, "checks": ["plain", "image", "ttft", "order"],
              "thorough": False, "ttft_budget_s": 0.5},
    "summary": "1 of 3 checks passed.",
    "results": [
        {"format": "chat", "model": "gx-2.5-flash", "check": "plain", "status": "fail", "reason": "the whole answer has no text",
         "expected": "a non-empty answer", "arrived": "(empty)"},
        {"format": "chat", "model": "gx-2.5-flash", "check": "image", "status": "fail", "reason": "the image made no difference",
         "expected": "more than 12 input tokens, or another answer", "arrived": "12 input tokens, the same answer"},
        {"format": "chat", "model": "gx-2.5-flash", "check": "ttft", "status": "fail", "reason": "the first token took 0.93 s",
         "expected": "at most 0.5 s", "arrived": "0.93 s", "tag": "slow-first-token"},
        {"format": "embeddings", "model": "text-embedding-3-small", "check": "order", "status": "skipped", "reason": "not run: the run was stopped"},
    ],
}
"""A report as an older version saved it: every reason, expectation and arrival in plain English."""


def test_a_report_saved_by_an_older_version_is_worded_in_chinese_by_the_ids_templates(tmp_path: Path) -> None:
    saved = tmp_path / "older.json"
    saved.write_text(json.dumps(OLDER_DOCUMENT), encoding="utf-8")
    session = ReportSession()
    saved_uploaded(session, str(saved))
    assert session.report is not None and len(session.report.results) == 4
    assert_language(both(lambda: _verdict(session, ("chat", "gx-2.5-flash", "plain"))),
                    ["the whole answer has no text", "*Expected:* a non-empty answer", "*Arrived:* (empty)"], ["完整回答没有文字", "非空的回答", "（空）"])
    assert_language(both(lambda: _verdict(session, ("chat", "gx-2.5-flash", "image"))),
                    ["the image made no difference", "more than 12 input tokens"], ["带上图片后没有任何变化", "输入 token 多于 12 个", "输入 token 12 个，回答相同"])
    assert_language(both(lambda: _verdict(session, ("chat", "gx-2.5-flash", "ttft"))), ["the first token took 0.93 s", "at most 0.5 s"], ["首个 token 用了 0.93 s", "最多 0.5 s"])
    assert_language(both(lambda: _verdict(session, ("embeddings", "text-embedding-3-small", "order"))), ["not run: the run was stopped"], ["未运行：这次运行被停止了"])
    assert session.report.results[3].status == SKIPPED


def test_a_chinese_visitor_reads_a_curl_imports_refusal_in_chinese(defaults: ServerDefaults) -> None:
    def refused(command: str) -> str:
        tab, status, request, _ = imported_values(ImportRegistry(), defaults, command)
        assert tab is None and request is None
        return status

    assert_language(both(lambda: refused("curl http://127.0.0.1:9/v1/chat/completions -d @body.json")),
                    ["-d @body.json reads a file; paste the JSON body itself instead"], ["-d @body.json 会读取一个文件；请改为直接粘贴 JSON 请求体本身"])
    assert_language(both(lambda: refused("wget http://127.0.0.1:9/v1/chat/completions")), ["paste a command that starts with curl"], ["请粘贴一条以 curl 开头的命令"])
    assert_language(both(lambda: refused("curl http://127.0.0.1:9/v1/chat/completions -H")), ["-H needs a value"], ["-H 需要一个值"])


def test_the_names_the_page_takes_from_the_client_have_one_home() -> None:
    """A check's or format's name is the client's message (its English in client/locales/en.json,
    its Chinese by id): the interface's catalogue holds no copy of it, and the page's catalogue
    carries it by id in every locale."""
    assert not [key for key in i18n.EN if key.startswith(("rep.check.", "rep.format."))]
    for message_id in LAYOUT_MESSAGES:
        copies = [key for key in i18n.EN if all(CATALOGUE.texts[locale.code][key] == CATALOGUE.page_words(locale.code)[message_id] for locale in CATALOGUE.locales)]
        assert not copies, f"{message_id} has a second home in the interface's catalogue: {copies}"
        assert i18n.I18N.translations_dict["en"][message_id] == TEMPLATES[message_id]
        chinese = i18n.I18N.translations_dict[CATALOGUE.locale("zh-CN").page_tag][message_id]  # type: ignore[union-attr]
        assert CJK.search(chinese) or chinese == CATALOGUE.client["zh-CN"][message_id]
    with pytest.raises(KeyError):
        i18n.t_client(Text("report.none"))


def test_the_summary_and_badge_downloads_read_in_chinese() -> None:
    report = document.loads((Path(__file__).resolve().parents[2] / "fixtures" / "report" / "report-v1.json").read_bytes())
    assert_language(both(lambda: summary.markdown_summary(report, word)), ["Failed cells", "Not checked", "stream conformance"],
                    ["失败的单元格", "未检查"])
    assert_language(both(lambda: summary.badge_svg(report, word)), ["gateway conformance", "% passed"], ["网关一致性", "% 通过"])
