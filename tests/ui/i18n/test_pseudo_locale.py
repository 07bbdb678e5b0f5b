"""A language is its files plus one entry in the list of locales: a pseudo-locale ("en-XA", every
English text wrapped as ⟦…⟧ with its `{places}` kept) is registered the way a real language is,
and the whole page's layout and a set of run-time texts are rendered through it. Any text still
readable outside ⟦…⟧ bypassed the catalogue (or is data a test names, with the reason)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.i18n import I18nData

from playground.client.chat import ChatRequest
from playground.client.errors import RequestValidationError
from playground.client.intent import Intent, to_request
from playground.client.report.model import FAIL, CheckResult
from playground.client.texts import TEMPLATES
from playground.settings import Settings
from playground.ui import i18n
from playground.ui.i18n import Catalogue
from playground.ui.i18n.client_words import NOT_IN_SOURCE, NOT_SHOWN, word_list
from playground.ui.i18n.language import Locale, remembered_js, switch_choices
from tests.ui.client_texts import client_templates
from tests.ui.i18n.visitor import visitor

PSEUDO = Locale("en-XA", "Pseudo", list_separator=" ‖ ")
WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
MARKER = re.compile(r'__i18n__(\{"__type__": "translation_metadata", "key": "[^"]*"\})')
NOT_WORDS = [re.compile(pattern) for pattern in (r"`[^`]*`", r"<[^>]*>", r"https?://\S+")]
"""Code spans, markup and addresses: what is left of a text once its words are wrapped."""
SHOWN_VALUE = (gr.Button, gr.Markdown, gr.HTML, gr.UploadButton)
"""Components whose value is text the interface writes (a Textbox's or Dropdown's value is data)."""
LAYOUT_DATA: dict[tuple[str, str], tuple[str, set[str] | None]] = {
    ("language-switch", "choice"): ("each language's name in its own words", None),
    ("batch-prices-csv", "label"): ("the CSV's column names, as the file must spell them", None),
    ("video-model-notes", "value"): ("the model's id and family", {"vidA"}),
    ("report-models", "choice"): ("a format's name (worded through the catalogue) and a model's id", None),
}
"""Texts of the page with data in them: (elem_id, where) -> (why, the data's words; None: all)."""


def pseudo(text: str) -> str:
    return f"⟦{text}⟧"


@pytest.fixture
def catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalogue:
    """The shipped locales and the pseudo one, loaded from one folder through the same list."""
    for path in i18n.LOCALES_DIR.glob("*.json"):
        shutil.copy(path, tmp_path)
    (tmp_path / f"{PSEUDO.code}.json").write_text(json.dumps({key: pseudo(text) for key, text in i18n.EN.items()}), encoding="utf-8")
    needed = {text for _, _, text in client_templates()} - NOT_SHOWN | NOT_IN_SOURCE
    messages = {message_id: pseudo(template) for message_id, template in TEMPLATES.items()}  # the client's messages, by id
    (tmp_path / f"client.{PSEUDO.code}.json").write_text(json.dumps({**{text: pseudo(text) for text in needed}, **messages}), encoding="utf-8")
    loaded = i18n.load([*i18n.LOCALES, PSEUDO], tmp_path)
    monkeypatch.setattr(i18n, "CATALOGUE", loaded)
    return loaded


def residue(text: str) -> str:
    """What a reader of the pseudo-locale would still read as English."""
    while WRAPPED.search(text):
        text = WRAPPED.sub(" ", text)
    for pattern in NOT_WORDS:
        text = pattern.sub(" ", text)
    return text


def english_in(text: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    return [found for found in re.findall(r"[A-Za-z][A-Za-z_]+", residue(text)) if found not in allowed]


def layout_texts(blocks: gr.Blocks, words: dict[str, str]) -> list[tuple[str, str, str]]:
    """(elem_id or type, where, the text as the pseudo-locale's page shows it) for every label,
    info, placeholder, shown value and labelled choice of the page."""
    def shown(value: str | I18nData) -> str:
        if isinstance(value, I18nData):
            return words[value.key]
        return MARKER.sub(lambda match: words[json.loads(match.group(1))["key"]], value)

    found = []
    for block in blocks.blocks.values():
        name = getattr(block, "elem_id", None) or type(block).__name__
        texts: list[tuple[str, Any]] = [(where, getattr(block, where, None)) for where in ("label", "info", "placeholder")]
        if isinstance(block, SHOWN_VALUE):
            texts.append(("value", block.value))
        texts += [("choice", label) for label, value in getattr(block, "choices", None) or [] if label != value]  # a label of its own
        found += [(name, where, shown(text)) for where, text in texts if isinstance(text, (str, I18nData)) and str(text).strip()]
    return found


def bypasses(blocks: gr.Blocks, words: dict[str, str]) -> list[str]:
    found = []
    for name, where, text in layout_texts(blocks, words):
        _, data = LAYOUT_DATA.get((name, where), ("", set()))
        if data is not None and english_in(text, data):
            found.append(f"{name} {where}: {english_in(text, data)} in {text[:80]!r}")
    return found


def test_the_pseudo_locale_is_a_language_like_any_other(catalogue: Catalogue) -> None:
    assert catalogue.locale("en-XA") == PSEUDO and catalogue.locale("en-US") == catalogue.source
    assert (PSEUDO.name, PSEUDO.code) in switch_choices(i18n.languages())
    assert '"en-xa": "en-XA"' in remembered_js(i18n.languages()), "the page reads the pseudo-locale's cookie as a known one"
    assert "en-XA" in catalogue.i18n().translations_dict
    with visitor("en-XA"):
        assert i18n.visitor_language() == "en-XA"
        assert i18n.say("note.branch_shown", branch=3) == pseudo(i18n.EN["note.branch_shown"].format(branch=3))
    with visitor("xx-unknown"):
        assert i18n.visitor_language() == "en"


def test_the_whole_page_writes_its_texts_through_the_catalogue(catalogue: Catalogue) -> None:
    from playground.ui.app import build_app
    from playground.ui.shared.connection import ServerDefaults

    with visitor("en-XA"):  # texts a layout builds with `say` or `word` come in the visitor's language too
        blocks = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))
    texts = layout_texts(blocks, catalogue.page_words("en-XA"))
    assert len(texts) > 500 and sum(text.startswith("⟦") for _, _, text in texts) > 500
    found = bypasses(blocks, catalogue.page_words("en-XA"))
    assert not found, "texts of the page outside the catalogue:\n" + "\n".join(found)


WORDED_ON_LOAD = ("gateway-badge", "images-ratio-preview", "video-model-notes")
"""Texts with values the layout builds in the first locale (outside an event, as the app's start builds the
page) and the server writes again after the page's load, in the visitor's language (issue 40)."""


def _after_load(blocks: gr.Blocks) -> set[int]:
    """The events a page's load runs: its load events and every event chained after one."""
    ran = {fn._id for fn in blocks.fns.values() if any(trigger == "load" for _, trigger in fn.targets)}
    grew = True
    while grew:
        following = {fn._id for fn in blocks.fns.values() if fn.trigger_after in ran} - ran
        ran |= following
        grew = bool(following)
    return ran


def test_a_text_the_layout_builds_in_the_first_locale_is_written_again_on_load(catalogue: Catalogue) -> None:
    from playground.ui.app import build_app
    from playground.ui.shared.connection import ServerDefaults

    blocks = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))  # outside an event: `say` writes English
    built_in_english = {line.split(" ")[0] for line in bypasses(blocks, catalogue.page_words("en-XA"))}
    assert built_in_english <= set(WORDED_ON_LOAD), f"texts built with the page in English that no load rewrites: {built_in_english - set(WORDED_ON_LOAD)}"
    loaded = _after_load(blocks)
    written = {getattr(block, "elem_id", None) for fn in blocks.fns.values() if fn._id in loaded and fn.fn is not None for block in fn.outputs}
    assert set(WORDED_ON_LOAD) <= written, f"not written after the page's load: {set(WORDED_ON_LOAD) - written}"


def test_the_layout_check_finds_a_text_outside_the_catalogue(catalogue: Catalogue) -> None:
    with gr.Blocks() as blocks:
        gr.Button(i18n.t("conversation.stop"), elem_id="fine")
        gr.Textbox(label=i18n.t("chat.model") + " 2", placeholder="type here", elem_id="placeholder")
        gr.Dropdown([("Your own choice", "custom"), "gx-2.5-flash"], elem_id="labelled-choice")
        gr.Markdown("**Note:** send again", elem_id="note")
    found = bypasses(blocks, catalogue.texts["en-XA"])
    assert [line.split(":")[0] for line in found] == ["placeholder placeholder", "labelled-choice choice", "note value"]


def _refused_request() -> str:
    from playground.ui.shared.render import error_text

    with pytest.raises(RequestValidationError) as caught:
        ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": "hi"}], temperature=5, top_p="x")
    return error_text(caught.value)


def _batch_problems() -> str:
    from playground.client.batch.plan import PlanError
    from playground.ui.tabs.batch.form import plan_from_form

    with pytest.raises(PlanError) as caught:
        plan_from_form("", "", None, [], 1.5, 1, "", 0, False, False, [], 10, 4)
    return word_list(caught.value.problems)


def _dataset_refusal() -> str:
    from playground.client.batch.dataset import read_paste
    from playground.client.batch.dataset_budget import DatasetError
    from playground.ui.i18n.client_words import message_of, word

    with pytest.raises(DatasetError) as caught:
        read_paste('city,country\n"Paris",France,extra', ["city", "country"], max_rows=10)
    return word(message_of(caught.value))


def _run_time_texts() -> list[tuple[str, Callable[[], Any], set[str]]]:
    """(what, the handler's call, the words of the values it shows: model ids)."""
    from playground.ui.tabs.report import views as report_views
    from playground.ui.tabs.batch.handlers import leaderboard_heading
    from playground.ui.tabs.compare.handlers import ColumnRun, mapping_table, metrics_table
    from playground.ui.shared.connection import ServerDefaults, badge_text
    from playground.ui.tabs.embeddings.views import vector_headers
    from playground.ui.shared.presets import save_preset
    from playground.ui.tabs.video.form import model_notes

    run = ColumnRun("chat", "gx-2.5-flash", mapped=to_request(Intent("hi", temperature=1.5), "chat", "gx-2.5-flash"), error="boom", done=True)
    verdict = CheckResult("chat", "m", "stream", FAIL, "the stream ended before its end marker", expected="the format's end marker", arrived="3 events, no end")
    return [
        ("the error banner: heading, the client's problems, pydantic's refusals", _refused_request, set()),
        ("a batch problem, worded", _batch_problems, set()),
        ("a data set's refusal (the client's messages, nested)", _dataset_refusal, set()),
        ("the metrics table", lambda: metrics_table([run]), {"gx", "flash"}),
        ("the mapping table", lambda: mapping_table([run]), {"gx", "flash"}),
        ("a report cell's verdict", lambda: report_views.cell_verdict(verdict), set()),
        ("a preset without a name", lambda: save_preset({}, "chat", "", {})[1], set()),
        ("a video model's notes", lambda: model_notes("vidA-2"), {"vidA"}),
        ("the embeddings table's headings", lambda: " ".join(vector_headers()), set()),
        ("a leaderboard heading with a grader's words in it", lambda: leaderboard_heading("pass: contains 'Paris'"), set()),
        ("the gateway badge", lambda: badge_text(ServerDefaults("http://127.0.0.1:9", "k", demo=True), ""), set()),
    ]


def test_run_time_texts_come_through_the_catalogue_in_the_visitors_language(catalogue: Catalogue) -> None:
    leaks = []
    for what, call, values in _run_time_texts():
        english = str(call())
        with visitor("en-XA"):
            shown = str(call())
        assert "⟦" not in english, f"{what}: outside an event texts are the source language's"
        assert "⟦" in shown, f"{what}: nothing came through the pseudo-locale: {shown[:200]!r}"
        leaked = english_in(shown, values)
        if leaked:
            leaks.append(f"{what}: {leaked} in {shown[:300]!r}")
    assert not leaks, "run-time texts outside the catalogue:\n" + "\n".join(leaks)
    with visitor("en-XA"):
        assert word_list(["gx-2.5-flash", "gx-2.5-pro"]) == "gx-2.5-flash ‖ gx-2.5-pro", "problems on one line are joined by the locale's own separator"
