"""The client's messages (`playground.client.texts.Text`) are worded by their id: every id has a
template in every locale with the same `{places}`, no id is kept that the client does not write,
a Chinese visitor reads converted messages in Chinese (a refused request, a data set's refusal, a
Report check's rule), and a message read back from disk as plain English is recognised by its
template, which does not depend on the code that filled it in."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from playground.client.batch.dataset import read_paste
from playground.client.batch.dataset_budget import DatasetError
from playground.client.batch.plan import PlanError
from playground.client.batch.report import column_label
from playground.client.chat import ChatRequest
from playground.client.errors import RequestValidationError
from playground.client.report.model import CHECKS_BY_ID, FAIL, CheckResult
from playground.client.texts import TEMPLATES, Text
from playground.client.validation import strict_json
from playground.ui import i18n
from playground.ui.i18n import CATALOGUE, Catalogue
from playground.ui.i18n.client_words import NOT_SHOWN, message_of, split_template, word, word_list
from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.render import error_text
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.tabs.embeddings.handlers import EmbeddingsForm, embed_texts
from playground.ui.tabs.video.board import VideoBoard
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from playground.ui.tabs.video.handlers import submit_job
from tests.conftest import DEMO_KEY
from playground.ui.tabs.batch.form import plan_from_form
from playground.ui.tabs.report import views as report_views
from tests.ui.client_texts import prose_in
from tests.ui.conversation.conversation_screen import send
from tests.client.batch.test_column_settings import _plan as column_settings_plan
from tests.ui.i18n.test_i18n_views import assert_language, both, chinese

CLIENT = Path(__file__).resolve().parents[3] / "playground" / "client"
CJK = re.compile(r"[\u4e00-\u9fff]")
STILL_IN_ENGLISH: frozenset[str] = frozenset()
"""Modules of `playground/client` that still write English sentences (f-strings the UI recognises
by their body); every other module speaks in message ids only."""


def place_set(template: str) -> set[str]:
    return {text for kind, text in split_template(template) if kind == "value"}


def written_ids() -> tuple[set[str], list[re.Pattern[str]], list[str]]:
    """(the ids the client writes as constants, patterns of the ids it builds (f"report.format.{fmt}"),
    `Text(...)` calls whose keywords are not the template's places)."""
    constants: set[str] = {"list.items"}  # texts.joined
    built: list[re.Pattern[str]] = []
    wrong: list[str] = []
    for path in CLIENT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Text" and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                constants.add(first.value)
                given = {keyword.arg for keyword in node.keywords}
                expected = {name.split(":")[0] for name in place_set(TEMPLATES.get(first.value, ""))}
                if given != expected:
                    wrong.append(f"{path.name}:{node.lineno} {first.value}: {sorted(given)} != {sorted(expected)}")
            elif isinstance(first, ast.JoinedStr):
                built.append(re.compile("".join(re.escape(part.value) if isinstance(part, ast.Constant) else r"[\w-]+" for part in first.values) + r"\Z"))
    return constants, built, wrong


def english_sentences(source: str) -> list[str]:
    """The prose a module writes outside a `Text` id (texts never shown, such as prompts, aside)."""
    return [f"{line}: {text!r}" for line, text in prose_in(source) if text not in NOT_SHOWN]


@pytest.mark.parametrize("module", sorted(str(path.relative_to(CLIENT)) for path in CLIENT.rglob("*.py") if str(path.relative_to(CLIENT)) not in STILL_IN_ENGLISH))
def test_a_module_that_speaks_in_ids_writes_no_english_sentence(module: str) -> None:
    found = english_sentences((CLIENT / module).read_text(encoding="utf-8"))
    assert not found, f"playground/client/{module} writes English outside a message id (make each a Text):\n" + "\n".join(found)


def test_the_check_finds_an_english_sentence_a_module_regained() -> None:
    source = (CLIENT / "video_requests.py").read_text(encoding="utf-8")
    assert not english_sentences(source)
    regained = source.replace('Text("video.fps_not_positive", got=self.fps)', 'f"fps must be a positive whole number (got {self.fps})"')
    assert regained != source and [found.split(": ", 1)[1] for found in english_sentences(regained)] == ["'fps must be a positive whole number (got {self.fps})'"]
    assert english_sentences('problems = ["a prompt is needed"]') == ["1: 'a prompt is needed'"]
    assert not STILL_IN_ENGLISH - {str(path.relative_to(CLIENT)) for path in CLIENT.rglob("*.py")}, "a module listed here no longer exists"


def test_every_message_has_a_template_in_every_locale_with_the_same_places() -> None:
    for locale in CATALOGUE.locales[1:]:
        own = CATALOGUE.client[locale.code]
        missing = sorted(TEMPLATES.keys() - own.keys())
        assert not missing, f"messages without words in client.{locale.code}.json: {missing}"
        differ = [(message_id, TEMPLATES[message_id], own[message_id]) for message_id in TEMPLATES if place_set(TEMPLATES[message_id]) != place_set(own[message_id])]
        assert not differ, differ


def test_every_message_is_written_by_the_client_and_every_written_id_exists() -> None:
    constants, built, wrong = written_ids()
    unknown = sorted(constants - TEMPLATES.keys())
    assert not unknown, f"Text ids the client writes that client/locales/en.json lacks: {unknown}"
    unused = sorted(message_id for message_id in TEMPLATES if message_id not in constants and not any(pattern.match(message_id) for pattern in built))
    assert not unused, f"messages nobody writes (remove them from every locale): {unused}"
    assert not wrong, "Text calls whose parameters are not the template's places:\n" + "\n".join(wrong)


def test_the_unused_check_finds_a_message_nobody_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    constants, built, _ = written_ids()
    extra = {**TEMPLATES, "dataset.never_written": "never written"}
    assert [m for m in extra if m not in constants and not any(p.match(m) for p in built)] == ["dataset.never_written"]


def test_the_check_finds_a_sentence_or_f_string_a_report_module_regains() -> None:
    source = (CLIENT / "report" / "text_probes.py").read_text(encoding="utf-8")
    assert not english_sentences(source)
    regained = source.replace('Text("report.system.ignored")', '"the answer ignores the system prompt"').replace(
        'Text("report.system.passed", word=word)', 'f"the answer carries {word}"')
    assert {found.split(": ", 1)[1] for found in english_sentences(regained)} == {"'the answer ignores the system prompt'", "'the answer carries {word}'"}


def test_a_refused_chat_request_reads_in_chinese_by_its_ids() -> None:
    def banner() -> str:
        with pytest.raises(RequestValidationError) as caught:
            ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": "hi"}], temperature=5)
        return error_text(caught.value)

    assert_language(both(banner), ["Please check the request", "Invalid request:", "Fix what is named above"],
                    ["请检查请求", "请求无效：", "请修正上面指出的问题后重试"])

    def refused_json() -> str:
        with pytest.raises(RequestValidationError) as caught:
            strict_json('{"a": [1, NaN]}')
        return error_text(caught.value)

    assert_language(both(refused_json), ["not valid JSON (NaN is not a JSON number)"], ["不是有效的 JSON（NaN 不是 JSON 数字）"])


def test_a_data_set_refusal_reads_in_chinese_by_its_ids_and_from_its_plain_english() -> None:
    with pytest.raises(DatasetError) as caught:
        read_paste("city,country\nParis,France,extra", ["city", "country"], max_rows=10)
    message = message_of(caught.value)
    assert isinstance(message, Text) and message.id == "dataset.at_line"
    assert_language(both(lambda: word(message)), ["line 2: 3 fields, but the header has 2"], ["第 2 行：3 个字段，但表头有 2 个"])
    with chinese():
        assert word(str(caught.value)) == word(message), "the English read back from a file is recognised by the id's template"
    with pytest.raises(PlanError) as blocked:
        plan_from_form("", "", None, [], 1, 1, "", 0, False, False, [], 10, 4)
    assert_language(both(lambda: word_list(blocked.value.problems)), ["write the user prompt", "add a data set"], ["请填写用户提示", "请加入数据集"])


def test_a_report_checks_rule_reads_in_chinese_by_its_id() -> None:
    result = CheckResult("chat", "m", "plain", FAIL, "no text")
    english, chinese_text = both(lambda: report_views.cell_verdict(result))
    assert CHECKS_BY_ID["plain"].meaning.id == "report.check.plain.meaning"
    assert "The model answers a short question" in english and "The model answers" not in chinese_text
    assert CATALOGUE.client["zh-CN"]["report.check.plain.meaning"][:12] in chinese_text


def test_a_messages_key_is_its_id_not_the_code_that_filled_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chinese is found by id, whatever the English says or which variable held the value:
    the same message built from differently named locals is one key, and a reworded English
    template keeps its translation (stored English is then recognised by the new template)."""
    def from_limit(limit: int) -> Text:
        return Text("dataset.too_many_rows", limit=limit)

    def from_rows(max_rows_of_this_run: int) -> Text:
        return Text("dataset.too_many_rows", limit=max_rows_of_this_run)

    first, second = from_limit(5), from_rows(5)
    assert (first.id, first.params) == (second.id, second.params)
    reworded = dict(TEMPLATES, **{"dataset.too_many_rows": "over {limit:,} rows: the run's limit"})
    monkeypatch.setattr("playground.client.texts.TEMPLATES", reworded)
    monkeypatch.setattr("playground.ui.i18n.client_words.TEMPLATES", reworded)
    monkeypatch.setattr(i18n, "CATALOGUE", Catalogue(CATALOGUE.locales, CATALOGUE.texts, {code: dict(words) for code, words in CATALOGUE.client.items()}))
    text = Text("dataset.too_many_rows", limit=5)
    assert text == "over 5 rows: the run's limit"
    with chinese():
        assert word(text) == CATALOGUE.client["zh-CN"]["dataset.too_many_rows"].format(limit=5)
        assert word("over 7 rows: the run's limit") == CATALOGUE.client["zh-CN"]["dataset.too_many_rows"].format(limit=7)


def test_a_message_a_locale_lacks_shows_its_english(monkeypatch: pytest.MonkeyPatch) -> None:
    words = {code: {k: v for k, v in own.items() if k != "plan.write_user_prompt"} for code, own in CATALOGUE.client.items()}
    monkeypatch.setattr(i18n, "CATALOGUE", Catalogue(CATALOGUE.locales, CATALOGUE.texts, words))
    with chinese():
        assert word(Text("plan.write_user_prompt")) == "write the user prompt"
        assert CJK.search(word(Text("dataset.at_line", line=1, reason=Text("plan.write_user_prompt")))), "its frame is still worded"


def test_a_list_of_messages_is_worded_by_their_ids_not_their_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """`word_list` hands each `Text` to `word` as it is: without recognition of the English (none
    here) the Chinese still comes from the ids."""
    from playground.ui.i18n import client_words
    monkeypatch.setattr(client_words, "translated_text", lambda text, locale: None)
    problems = [Text("dataset.too_many_rows", limit=1000), Text("dataset.too_many_rows", limit=5)]
    with chinese():
        worded = word_list(problems)
    assert "more than" not in worded and worded.count("一次运行的上限") == 2 and "1,000" in worded


async def test_a_refused_video_request_reads_in_chinese_with_the_field_named(client: GatewayClient, gateway: RunningGateway) -> None:
    """The Video tab's own submit: a duration the model does not offer and a missing first frame,
    refused before anything is sent, each problem worded by its id."""
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    fields: dict[str, object] = dict.fromkeys(FIELD_NAMES)
    form = VideoForm(**{**fields, "model": "vidB-3.1-fast-generate-preview", "mode": "text-to-video", "prompt": "a lighthouse", "duration": 5})
    english = (await submit_job(client, defaults, VideoBoard(), "", "", form)).error
    with chinese():
        board = VideoBoard()
        shown = (await submit_job(client, defaults, board, "", "", form)).error
    assert board.jobs == {}
    assert_language((english, shown), ["durationSeconds must be 4, 6 or 8 (got 5)", "needs a first frame image"],
                    ["durationSeconds 必须是 4、6 或 8（收到的是 5）", "vidB-3.1-fast-generate-preview 需要一张首帧图片", "请检查请求"])


async def test_a_refused_embeddings_request_reads_in_chinese(client: GatewayClient, gateway: RunningGateway) -> None:
    """The Embeddings tab's own Embed: a size asked of a model whose vectors have one size, and a
    text longer than one text may be, refused by id before anything is sent."""
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    fixed = EmbeddingsForm(texts="bread\ncake", list_model="text-embedding-ada-002", dimensions=256)
    long = EmbeddingsForm(texts="bread\n" + "x" * 40_000)
    english = [(await embed_texts(client, defaults, "", "", form)).error for form in (fixed, long)]
    with chinese():
        shown = [await embed_texts(client, defaults, "", "", form) for form in (fixed, long)]
    assert all(view.exchange is None for view in shown), "nothing was sent"
    assert_language((english[0], shown[0].error), ["always returns 1536 numbers: leave dimensions empty"],
                    ["text-embedding-ada-002 总是返回 1536 个数：请把 dimensions 留空", "请检查请求"])
    assert_language((english[1], shown[1].error), ["text 2 has 40,000 characters; one text may have at most 32,000"],
                    ["第 2 条文本有 40,000 个字符；一条文本最多 32,000 个字符"])


async def test_a_stream_problem_reads_in_chinese(client: GatewayClient, gateway: RunningGateway) -> None:
    """The Chat tab's own send: a stream cut before its end marker, and a whole answer of another
    shape, each named by the client's message in the visitor's language."""
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)

    async def banners() -> list[str]:
        cut = await send(defaults, ChatAdapter(client, ChatForm(model="gx-2.5-flash")), "story [[fault:break_no_done]]")
        shape = await send(defaults, ChatAdapter(client, ChatForm(model="gx-2.5-flash", stream=False)), "story [[fault:body_shape]]")
        return [cut[-1].error, shape[-1].error]

    english = await banners()
    with chinese():
        shown = await banners()
    assert_language((english[0], shown[0]), ["The stream ended before the gateway said it was finished."], [CATALOGUE.client["zh-CN"]["streaming.ended_before_finished"]])
    assert "chat completion" in english[1] and CATALOGUE.client["zh-CN"]["chat.answer_name"] in shown[1]


def test_a_batch_columns_label_reads_in_chinese_by_its_id() -> None:
    plan = column_settings_plan()
    assert column_label(plan, 1) == "C2 chat completions · gx-2.5-flash (temperature 0.2 · max 5 tokens · stream off)"
    with chinese():
        assert word(column_label(plan, 0)) == "C1 对话补全接口 · gx-2.5-flash"
        assert word(column_label(plan, 1)).startswith("C2 对话补全接口 · gx-2.5-flash（")
