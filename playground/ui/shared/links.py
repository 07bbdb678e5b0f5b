"""Links that open a ready state: `?tab=chat&model=gx-2.5-flash&preset=...&q=Hello` opens the Chat
tab with the model picked, the preset applied and the message typed in (not sent).

Values are checked as a whole before the screen changes: a tab, model, preset or parameter this
page does not know is named in a notice and ignored (the first `MAX_NAMED`, then how many more).
A link too long to open arrives cut (`long_links`) and is said to be; text whose bytes were not
valid UTF-8 (the browser turns each into U+FFFD) is said to be damaged. Each tab has a "Copy link" button that writes
its current settings as such a link; the key and the gateway's address are never part of a link.
The fields are found by their `elem_id`s, so a tab need not know about links.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.ui.i18n import languages, say, t
from playground.ui.i18n.language import LANGUAGE_PARAMETER, link_language_js
from playground.ui.web.long_links import CUT_PARAMETER, MAX_LINK_BYTES
from playground.ui.shared.presentation import PRESENT_CLASS, PRESENT_PARAMETER, PRESENT_VALUES
from playground.ui.shared.presets import preset_names
from playground.ui.shared.render import plain
from playground.ui.shared.scrolling import shown_into_view_js

MAX_TEXT = 4000
MAX_NAMED = 10
"""Unknown parameters named in the notice at most; the rest are counted."""
REPLACED = "\ufffd"


@dataclass(frozen=True)
class TabLink:
    model: str | None
    text: str | None
    draft: bool
    """True when the text box is a conversation input (its value is `{"text", "files"}`)."""
    preset: str | None
    settings: tuple[tuple[str, str], ...] = ()
    """More of the tab's settings a link holds: (query parameter, `elem_id`), e.g. Images' aspect
    ratio, Batch's columns, the Report's profile. A value is taken only as its component allows
    (`setting_value`)."""
    written: tuple[str, ...] = ()
    """Query parameters no box holds, which the tab's server writes for Copy link (`LinkWriter`) and
    reads itself when a link opens it, e.g. Batch's data set and graders: here they are only known."""


@dataclass(frozen=True)
class LinkWriter:
    """What a tab's server writes into its link (`TabLink.written`) when Copy link is pressed:
    `write(*inputs)` answers one value per written parameter ("" leaves it out), then the update of
    the note under Copy link (what could not be linked, and why) and the link box's update (its label
    saying in a few words what was left out, beside the button where the person looks)."""

    write: Callable[..., tuple[Any, ...]]
    inputs: list[Any]


KNOWN_PARAMETERS = ("tab", "model", "preset", "q", "run", PRESENT_PARAMETER, LANGUAGE_PARAMETER)
"""`run`: the Batch run a link opens (read by the Batch tab itself, for the run's owner only);
`present` (presentation mode, `presentation.py`) is applied in the browser, here it is only checked;
`lang` (the page's language, `i18n.language`) is applied in the browser and read by the handlers,
here it is passed over: a value no language answers to is ignored without a word."""
MAX_SETTING = 200
MAX_NUMBER = 24
"""A number in a link: its text at most (`-1234567.5`, `1e6`)."""
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
"""A decimal number as a link writes one (no `nan`, `inf`, `0x10`, spaces or signs Python alone accepts)."""
MAX_LISTED = 64
"""Values of a multiple choice a link may hold."""


def _choices(component: Any) -> list[str]:
    return [choice[1] if isinstance(choice, (tuple, list)) else choice for choice in getattr(component, "choices", None) or []]


def _clean_text(text: str) -> str | None:
    if len(text) > MAX_TEXT or any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        return None
    return text


class LinkOpener:
    """Reads the page's query parameters on load and fills the tab they name."""

    @staticmethod
    def notice_box() -> gr.Markdown:
        """Where a link's ignored values are named (made above the tabs)."""
        return gr.Markdown(visible=False, elem_id="link-notice")

    def __init__(self, blocks: gr.Blocks, tabs: gr.Tabs, links: dict[str, TabLink | None], presets: gr.BrowserState | None,
                 notice: gr.Markdown) -> None:
        """`links`: every tab a link may open, with the fields it fills (None: it only opens)."""
        by_id = {getattr(block, "elem_id", None): block for block in blocks.blocks.values()}
        self.tabs, self.links, self.presets = tabs, links, presets
        self.fields: dict[str, dict[str, Any]] = {}
        for tab, link in links.items():
            if link is None:
                self.fields[tab] = {}
                continue
            named = {"model": link.model, "text": link.text, "preset": link.preset, **dict(link.settings)}
            found = {name: by_id.get(elem_id) for name, elem_id in named.items() if elem_id is not None}
            self.fields[tab] = {name: component for name, component in found.items() if component is not None}
        self.outputs = [component for fields in self.fields.values() for component in fields.values()]
        self.notice = notice

    def values(self, params: dict[str, str], store: Any) -> tuple[Any, Any, list[Any]]:
        """(tab update, notice update, one value or skip per output), from the query parameters."""
        untouched = [gr.skip() for _ in self.outputs]
        params = {name: value for name, value in params.items() if not name.startswith("__")}
        notes = link_notes(params)
        params.pop(CUT_PARAMETER, None)
        present = params.pop(PRESENT_PARAMETER, None)
        params.pop(LANGUAGE_PARAMETER, None)
        bad_present = [say("link.bad_present", value=plain(present[:20]))] if present is not None and present not in PRESENT_VALUES else []
        if not params:
            return gr.skip(), _notice(bad_present, notes), untouched
        tab = params.get("tab", "chat")
        if tab not in self.fields:
            ignored = bad_present + unknown_parameters(params)
            ignored.append(say("link.unknown_tab", name=plain(tab[:40])))
            return gr.skip(), _notice(ignored, notes), untouched
        ignored = bad_present + unknown_parameters(params, [*self.settings_of(tab), *(self.links[tab] or TabLink(None, None, False, None)).written])
        chosen: dict[int, Any] = {}
        fields = self.fields[tab]
        model = params.get("model")
        if model is not None:
            component = fields.get("model")
            allowed = _choices(component) if component is not None else []
            if component is not None and model in allowed:
                chosen[id(component)] = model
            else:
                ignored.append(say("link.unknown_model", name=plain(model[:60])))
        preset = params.get("preset")
        if preset is not None:
            component = fields.get("preset")
            built_in = _choices(component) if isinstance(component, gr.Radio) else None
            saved = preset_names(store, tab) if built_in is None else []
            if component is not None and preset in (built_in if built_in is not None else saved):
                chosen[id(component)] = preset if built_in is not None else gr.update(choices=saved, value=preset)
            else:
                ignored.append(say("link.unknown_preset", name=plain(preset[:60])))
        text = params.get("q")
        link = self.links[tab]
        if text is not None:
            component = fields.get("text")
            cleaned = _clean_text(text)
            if component is not None and link is not None and cleaned is not None:
                chosen[id(component)] = {"text": cleaned, "files": []} if link.draft else cleaned
            else:
                ignored.append(say("link.bad_text"))
        for name in self.settings_of(tab):
            if name in params:
                component = fields[name]
                value = setting_value(component, params[name])
                if value is None:
                    ignored.append(say("link.bad_setting", name=plain(name)))
                else:
                    chosen[id(component)] = value
        values = [chosen.get(id(component), gr.skip()) for component in self.outputs]
        return gr.Tabs(selected=tab), _notice(ignored, notes), values

    def settings_of(self, tab: str) -> list[str]:
        """The query parameters of `tab`'s settings (`TabLink.settings`) this page has components for."""
        link = self.links.get(tab)
        return [name for name, _ in link.settings if name in self.fields.get(tab, {})] if link is not None else []

    def wire(self, blocks: gr.Blocks) -> None:
        store = self.presets if self.presets is not None else gr.State(None)
        blocks.load(self.on_load, store, [self.tabs, self.notice, *self.outputs], queue=False)

    def on_load(self, stored: Any, request: gr.Request) -> tuple[Any, ...]:
        """The page's load: (tab, notice, one value or skip per output) from its query parameters."""
        tab, notice, values = self.values(dict(request.query_params), stored)
        return (tab, notice, *values)


def setting_value(component: Any, text: str) -> Any:
    """A setting's value from a link's text, or None when the component cannot take it: one of its
    choices, a comma-separated list of them for a multiple choice (each at most once), text as `q`
    is taken for a text box, one printable line of at most `MAX_SETTING` characters for a
    picker that takes values of its own (a model name, an aspect ratio), `true` or `false` for a
    tick box, and a number within a number box's or a slider's bounds (a slider's on its steps)."""
    if len(text) > MAX_TEXT:
        return None
    if isinstance(component, gr.Checkbox):
        return {"true": True, "false": False}.get(text)
    if isinstance(component, (gr.Number, gr.Slider)):
        return _number(component, text)
    allowed = _choices(component)
    if isinstance(component, gr.CheckboxGroup) or (isinstance(component, gr.Dropdown) and component.multiselect):
        picked = [part for part in text.split(",") if part] if text else []
        if len(picked) > MAX_LISTED or len(set(picked)) != len(picked) or not all(part in allowed for part in picked):
            return None
        return picked
    if text in allowed:
        return text
    if isinstance(component, (gr.Textbox, gr.Code)):
        return _clean_text(text)
    if isinstance(component, gr.Dropdown) and component.allow_custom_value and len(text) <= MAX_SETTING and text.isprintable():
        return text
    return None


def _number(component: Any, text: str) -> int | float | None:
    """A number box's or slider's value from a link: a finite decimal of at most `MAX_NUMBER` characters within the
    component's bounds (a slider's on one of its steps), a whole number kept whole; a 1.5 for a whole-number box is
    left for Run to refuse by name, as if typed."""
    if len(text) > MAX_NUMBER or not NUMBER.fullmatch(text):
        return None
    number = float(text)
    low, high = getattr(component, "minimum", None), getattr(component, "maximum", None)
    if not math.isfinite(number) or (low is not None and number < low) or (high is not None and number > high):
        return None
    if isinstance(component, gr.Slider):
        steps = (number - component.minimum) / component.step
        if abs(steps - round(steps)) > 1e-9:
            return None
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


def unknown_parameters(params: dict[str, str], settings: list[str] | None = None) -> list[str]:
    """The notice's items for parameters a link cannot hold (`settings`: the tab's own besides
    `KNOWN_PARAMETERS`): the first `MAX_NAMED`, then a count."""
    known = {*KNOWN_PARAMETERS, *(settings or [])}
    unknown = [name for name in params if name not in known]
    items = [say("link.unknown_parameter", name=plain(name[:40])) for name in unknown[:MAX_NAMED]]
    if len(unknown) > MAX_NAMED:
        items.append(say("link.more_unknown", count=f"{len(unknown) - MAX_NAMED:,}"))
    return items


def opened_with(request: Any, tab: str) -> dict[str, str]:
    """The page link's parameters when it opens `tab` (`tab`, "chat" when it names none), else none:
    what `LinkOpener` fills there, for a load event that writes a default to leave those to it."""
    try:
        params = {name: value for name, value in request.query_params.items() if isinstance(value, str)}
    except AttributeError:
        return {}
    return params if params.get("tab", "chat") == tab else {}


def link_notes(params: dict[str, str]) -> list[str]:
    """What the notice says besides what was ignored: a link cut for its length, and values whose
    bytes were not valid UTF-8 (the browser made each such byte sequence a U+FFFD)."""
    notes = []
    size = params.get(CUT_PARAMETER, "")
    if size.isdigit() and len(size) <= 12:
        notes.append(say("link.too_long", kb=f"{int(size) / 1000:,.0f}", limit=f"{MAX_LINK_BYTES // 1000:,}"))
    damaged = [name for name, value in params.items() if REPLACED in value or REPLACED in name]
    if damaged:
        names = ", ".join(plain(name.replace(REPLACED, "?")[:40]) for name in damaged[:MAX_NAMED])
        notes.append(say("link.not_utf8", names=names))
    return notes


def _notice(ignored: list[str], notes: list[str] | None = None) -> Any:
    parts = ([say("link.ignored", items="; ".join(ignored))] if ignored else []) + list(notes or [])
    if not parts:
        return gr.update(visible=False)
    return gr.update(visible=True, value="\n\n".join(parts))


COPY_JS = """(...values) => {
  const names = NAMES;
  const params = new URLSearchParams({tab: values[0]});
  names.forEach((name, index) => {
    let value = values[index + 1];
    if (value && typeof value === "object" && !Array.isArray(value)) value = value.text;
    if (Array.isArray(value)) value = value.join(",");
    if (value !== null && value !== undefined && value !== "") params.set(name, String(value));
  });
  if (document.documentElement.classList.contains(PRESENT_CLASS)) params.set(PRESENT_PARAMETER, "1");
  const language = (LANGUAGE_JS)();
  if (language) params.set(LANGUAGE_PARAMETER, language);
  const link = window.location.origin + window.location.pathname + "?" + params.toString();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
  return [...values.slice(0, names.length + 1), link];
}""".replace("PRESENT_CLASS", json.dumps(PRESENT_CLASS)).replace("PRESENT_PARAMETER", json.dumps(PRESENT_PARAMETER)).replace(
    "LANGUAGE_PARAMETER", json.dumps(LANGUAGE_PARAMETER)).replace("LANGUAGE_JS", link_language_js(languages()))
"""Writes the link from the tab's fields (`NAMES`: the query parameter of each, after the tab), with
the page's language when it is not the first one (`lang`, so the link opens as the sender sees it)."""


class CopyLink:
    """The "Copy link" button of one tab, the box that shows the link it copied and, for a tab whose
    server writes part of its link (`written`), the note under them that says what was left out."""

    def __init__(self, tab: str, written: tuple[str, ...] = ()) -> None:
        self.tab, self.written = tab, written
        with gr.Row(elem_classes=["copy-link-row"]):
            self.button = gr.Button(t("links.copy"), size="sm", elem_id=f"{tab}-copy-link", scale=0, min_width=180)
            self.box = gr.Textbox(label=t("links.box"), interactive=False,
                                  visible=False, elem_id=f"{tab}-link", scale=4)
        self.note = gr.Markdown(visible=False, elem_id=f"{tab}-link-note", elem_classes=["notice-banner"]) if written else None

    def wire(self, opener: LinkOpener, writer: LinkWriter | None = None) -> None:
        """`writer`: the tab's server part of the link (required when the tab has `written` parameters)."""
        fields = opener.fields[self.tab]
        name = gr.Textbox(self.tab, visible=False)
        parameters = {"model": "model", "text": "q", "preset": "preset", **{setting: setting for setting in opener.settings_of(self.tab)}}
        shown = [(parameter, fields[field]) for field, parameter in parameters.items() if field in fields]
        if not self.written or writer is None or self.note is None:
            script = COPY_JS.replace("NAMES", json.dumps([parameter for parameter, _ in shown]))
            self.button.click(show_link, [name, *(component for _, component in shown), self.box], self.box, js=script, queue=False)
            return
        written = [gr.Textbox("", visible=False, elem_id=f"{self.tab}-link-{parameter}") for parameter in self.written]
        script = COPY_JS.replace("NAMES", json.dumps([parameter for parameter, _ in shown] + list(self.written)))
        prepared = self.button.click(writer.write, writer.inputs, [*written, self.note, self.box], queue=False)
        linked = prepared.then(show_link, [name, *(component for _, component in shown), *written, self.box], self.box, js=script, queue=False)
        linked.then(None, None, None, js=shown_into_view_js(self.note.elem_id), queue=False)  # below the window at 1280x720


def show_link(*values: Any) -> Any:
    """The link `COPY_JS` wrote (and copied) from the tab's fields (the last value), shown in the link box."""
    return gr.update(value=values[-1], visible=True)
