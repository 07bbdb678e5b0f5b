"""The texts the Compare, Video, Images, Report, Batch and Embeddings views build at run time
follow the visitor's language (`i18n.say`): Chinese inside an event from a zh-CN browser, English
outside an event. The choice words those tabs take from `playground/client` are catalogue keys,
with the values the handlers read unchanged."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gradio.context import LocalContext
from gradio.i18n import I18nData

from playground.client.batch.graders import FORM_KINDS, KINDS
from playground.client.batch.plan import PlanError
from playground.client.batch.runner import Progress
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.images import GeneratedImage, ImagesResult
from playground.client.intent import Intent, to_request
from playground.client.report import document
from playground.client.report.model import CHECKS, FAIL, FORMAT_LABELS, FORMATS, PASS, CheckResult, Report, Scope
from playground.client.texts import TEMPLATES
from playground.ui import i18n
from playground.ui.tabs.report import handlers as report_handlers
from playground.ui.tabs.report import views as report_views
from playground.ui.tabs.images.state import Generation
from playground.ui.tabs.batch.form import read_session, template_check
from playground.ui.tabs.batch.views import preview_rows, progress_html
from playground.ui.tabs.compare.handlers import ColumnRun, export_files, mapping_table, metrics_table
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.embeddings.handlers import LESSONS, NATIVE_FORMAT, EmbeddingsForm, embed_texts
from playground.ui.tabs.images.views import delivered_html, ratio_preview_html, settings_line
from playground.ui.tabs.video.board import CALLS, VideoBoard, VideoJob, board_html, job_choices
from tests.ui.i18n.test_i18n_catalogue import FakeRequest


@contextmanager
def chinese() -> Iterator[None]:
    """Inside an event from a browser that asks for Chinese."""
    token = LocalContext.request.set(FakeRequest({"accept-language": "zh-CN,zh;q=0.9"}))  # type: ignore[arg-type]
    try:
        yield
    finally:
        LocalContext.request.reset(token)


def both(build: object) -> tuple[str, str]:
    """(English outside an event, Chinese inside a zh-CN one) of what `build()` returns."""
    english = build()  # type: ignore[operator]
    with chinese():
        return english, build()  # type: ignore[operator]


def assert_language(texts: tuple[str, str], english: list[str], chinese_words: list[str]) -> None:
    shown_en, shown_zh = texts
    for word in english:
        assert word in shown_en and word not in shown_zh, word
    for word in chinese_words:
        assert word in shown_zh and word not in shown_en, word


def test_compare_tables_and_download() -> None:
    run = ColumnRun("chat", "gx-2.5-flash", mapped=to_request(Intent("hi", temperature=0.5), "chat", "gx-2.5-flash"), error="boom", done=True)
    assert_language(both(lambda: metrics_table([run])), ["time to first token (ms)", "tokens per second", "cached tokens", "| finish |", "error"],
                    ["首个 token 用时（毫秒）", "每秒 token 数", "缓存 token", "结束原因", "出错"])
    assert_language(both(lambda: mapping_table([run])), ["shared parameter", "| system prompt |", "| max output tokens |"],
                    ["共用参数", "系统提示（system prompt）", "随机程度（temperature）"])
    assert "`temperature`" in mapping_table([run]), "the lookup by the internal name still finds the field"
    english, chinese_paths = export_files(Intent("hi"), [run]), None
    with chinese():
        chinese_paths = export_files(Intent("hi"), [run])
    texts = (Path(english[1]).read_text(encoding="utf-8"), Path(chinese_paths[1]).read_text(encoding="utf-8"))
    assert_language(texts, ["# Comparison", "**Message:**", "## Metrics", "## How each format carries"], ["# 比较结果", "**消息：**", "## 指标"])
    data = json.loads(Path(chinese_paths[0]).read_text(encoding="utf-8"))
    assert "time to first token (ms)" in data["columns"][0]["metrics"] and "system prompt" in data["columns"][0]["mapping"], "JSON keys are data"


def test_video_board_states_durations_and_empty_board() -> None:
    board = VideoBoard()
    board.add(VideoJob("task-1", "vidA-2", "", time.time() - 75, state="queued"))
    texts = both(lambda: board_html(board))
    assert_language(texts, ["Queued", "1 min 15 s", "(no prompt)"], ["排队中", "1 分 15 秒", "（没有提示词）"])
    assert_language(both(lambda: job_choices(board)[0][0]), ["Queued"], ["排队中"])
    assert_language(both(lambda: board_html(VideoBoard())), ["No video jobs yet"], ["还没有视频任务"])


def test_images_delivered_against_asked() -> None:
    square = GeneratedImage(Path("/x/a.png"), "PNG", 1024, 1024, 2048, None)
    generation = Generation(1, "text", "p", {}, {"model": "m", "size": "16:9", "image_size": "2K", "n": 2, "mime_type": "image/jpeg"},
                            None, ImagesResult([square]))
    assert_language(both(lambda: delivered_html(generation)), ["1 of 2 images", "asked 16:9, got 1:1", "px long side", "<th>pixels</th>", "Asked:"],
                    ["2 张图片中交付了 1 张", "请求 16:9，得到 1:1", "长边 1024 像素", "<th>像素</th>", "请求："])
    unset = Generation(1, "text", "p", {}, {"model": "m"}, None, ImagesResult([square]))
    assert_language(both(lambda: delivered_html(unset)), ["(n not sent: 1 expected)", "the gateway defaults"], ["（没有发送 n：预期 1 张）", "网关的默认值"])
    assert_language(both(lambda: settings_line(unset)), ["default ratio", "default size"], ["默认比例", "默认尺寸"])
    assert_language(both(lambda: ratio_preview_html("(not set)", "1K")), ["default shape"], ["网关默认的形状"])
    assert_language(both(lambda: ratio_preview_html("16:9", "2K")), ["about 2048×1152 px at 2K"], ["在 2K 档约为 2048×1152 像素"])
    assert_language(both(lambda: delivered_html(None)), ["Generate an image"], ["生成一张图片"])


def _report() -> Report:
    report = Report("http://gateway", Scope({"chat": ["m"]}, ("plain", "stream")))
    report.results += [CheckResult("chat", "m", "plain", PASS, "ok"), CheckResult("chat", "m", "stream", FAIL, "bad order", expected="a", arrived="b"),
                       CheckResult("chat", "m", "finish", FAIL, "no [DONE]", tag="no-done")]
    return report


def test_report_summary_matrix_verdict_and_downloads() -> None:
    report = _report()
    assert_language(both(lambda: report_views.summary_markdown(report)),
                    ["1 of 3 checks passed", "streams of chat completions · m end without", "also failing: stream conformance", "passed ·"],
                    ["3 项检查中通过了 1 项", "chat completions · m 的流式回答结尾没有", "另外失败的：流式格式是否合规", "通过 1 项"])
    assert report_views.summary_line(report) == document.summary_line(report), "English is the client's own line"
    assert_language(both(lambda: report_views.matrix_html(report)), [">plain answer<"], [">普通回答<"])
    assert_language(both(lambda: report_views.matrix_html(None)), ["Run a report"], ["生成一份报告"])
    assert_language(both(lambda: report_views.latency_markdown(None)), ["No streamed probes yet."], ["还没有流式探测。"])
    assert_language(both(lambda: report_views.cell_verdict(report.results[1])), ["*Rule:*", "*Expected:* a", ": fail**"], ["*规则：*", "*预期：* a", ": 失败**"])
    assert_language(both(lambda: report_views.diff_markdown(document.ReportDiff())), ["nothing changed"], ["没有变化"])
    assert_language(both(lambda: report_views.markdown_report(report)), ["# Gateway report: http://gateway", "## Latency"], ["# 网关报告：http://gateway", "## 延迟"])
    assert_language(both(lambda: report_views.html_report(report)), ["<h2>Failing checks</h2>"], ["<h2>未通过的检查</h2>"])


def test_report_validation_messages() -> None:
    def problems() -> str:
        with pytest.raises(RequestValidationError) as caught:
            report_handlers.build_scope([], [], [], False, 2)
        return "; ".join(caught.value.problems)

    assert_language(both(problems), ["pick at least one format"], ["请至少选一种格式"])


def test_batch_progress_grid_texts_and_messages() -> None:
    progress = Progress(10, 3, 1, running=False)
    assert_language(both(lambda: progress_html(progress)), ["stopped:", "cells · errors 1"], ["已停止：", "格 · 出错 1"])
    assert 'data-status="stopped"' in both(lambda: progress_html(progress))[1], "the status attribute stays data"
    assert_language(both(lambda: progress_html(None)), ["No run yet."], ["还没有运行。"])
    assert_language(both(lambda: preview_rows(None)["headers"][0]), ["(no data set)"], ["（没有数据集）"])
    assert_language(both(lambda: template_check("", "Answer {{question}}", None)), ["Variables:", "add a data set"], ["变量：", "请加入一个含有这些列的数据集"])
    assert_language(both(lambda: template_check("", "no variables", None)), ["No `{{variables}}` in the prompt"], ["提示词中没有变量（`{{…}}`）"])

    def refused() -> str:
        with pytest.raises(PlanError) as caught:
            read_session(None, 10)
        return "; ".join(caught.value.problems)

    assert_language(both(refused), ["choose a session file"], ["请选择一个会话文件"])


async def test_embeddings_lessons_and_validation(client: GatewayClient, defaults: ServerDefaults) -> None:
    form = EmbeddingsForm(texts="Bake the bread.\nThe train leaves at nine.", query="How do I bake bread?", formats=[NATIVE_FORMAT],
                          lesson="RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT")
    english = (await embed_texts(client, defaults, "", "", form)).lesson
    with chinese():
        shown = (await embed_texts(client, defaults, "", "", form)).lesson
        empty = (await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=""))).error
    assert_language((english, shown), ["No task type", "documents changed place", "see the scores move"], ["不设任务类型", "份换了位置", "看分数如何变化"])
    assert "请输入要生成向量的文本" in empty
    assert "type some texts to embed" in (await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=""))).error


def _values_and_keys(choices: list[tuple[object, str]], prefix: str) -> tuple[list[str], list[str]]:
    labels = [label for label, _ in choices]
    assert all(isinstance(label, I18nData) and label.key in i18n.EN and label.key in i18n.CATALOGUE.texts["zh-CN"] for label in labels)
    assert all(label.key.startswith(prefix) for label in labels)  # type: ignore[attr-defined]
    return [value for _, value in choices], [label.key for label in labels]  # type: ignore[attr-defined]


def _client_values_and_ids(choices: list[tuple[object, str]]) -> tuple[list[str], list[str]]:
    """The values and the labels' keys of choices named by the client's message ids: each id has
    its words on the page in every locale (the client's English, the locale's template)."""
    labels = [label for label, _ in choices]
    assert all(isinstance(label, I18nData) for label in labels)
    keys = [label.key for label in labels]  # type: ignore[attr-defined]
    for locale in i18n.CATALOGUE.locales:
        words = i18n.I18N.translations_dict[locale.page_tag]
        assert all(words[key] == i18n.CATALOGUE.client.get(locale.code, TEMPLATES)[key] for key in keys), locale.code
    return [value for _, value in choices], keys


def test_client_choices_keep_their_values_and_are_named_by_the_catalogue() -> None:
    from playground.ui.tabs.batch.layout import KIND_CHOICES
    from playground.ui.tabs.report.layout import CHECK_CHOICES, FORMAT_CHOICES

    values, keys = _client_values_and_ids(CHECK_CHOICES)
    assert values == [check.id for check in CHECKS] and keys == [check.label.id for check in CHECKS]
    values, keys = _client_values_and_ids(FORMAT_CHOICES)
    assert values == list(FORMATS) and keys == [FORMAT_LABELS[fmt].id for fmt in FORMATS]
    values, keys = _values_and_keys(KIND_CHOICES[:1], "bgrader.")
    assert values == [""] and keys == ["bgrader.none"]
    values, keys = _client_values_and_ids(KIND_CHOICES[1:])
    assert values == list(FORM_KINDS) and keys == [KINDS[kind].id for kind in FORM_KINDS]  # named by the client's ids alone
    assert list(LESSONS) == ["None", "float vs base64", "RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT", "Full vs reduced dimensions"]
    assert all(key in i18n.EN for key in LESSONS.values() if key)
    assert all(f"vboard.call.{call}" in i18n.EN for call in CALLS)
    from playground.ui.tabs.images.layout import NOT_SHOWN
    from playground.ui.tabs.images.state import NOT_SET

    assert _values_and_keys([NOT_SHOWN], "imgview.") == ([NOT_SET], ["imgview.not_set"])


def test_summary_phrases_are_the_clients_in_english() -> None:
    """The report's summary phrases: one catalogue text per client phrase, the same English words and places."""
    assert {f"rep.summary.{name}": phrase for name, phrase in document.SUMMARY_PHRASES.items()}.items() <= i18n.EN.items()
