"""The message box's keys: what the page tells the server while a person types and sends. Nothing,
unless what a side panel shows could change (issue 41: a send cost two server events on the box).

The Variables panel and the Messages token count listen to a hidden box (a "key") that a page
script fills from the message box with no server call; the server is asked only when the key
changes. The Variables key is the `{{...}}` tokens of the message and of the system box (the
same regular expression the template parser uses, `client/batch/template.TOKEN_PATTERN`), so a
message without placeholders never asks. The token count's key is the message itself (every
keystroke changes the count). The box emptied by a send (`record_js`, on the send event) keeps
both keys as they were: the Variables panel then shows the message just sent (`Session.typed`,
what the server would answer), and the count the request just sent. Any other change (a person
deleting the text, a link, an example, a loaded prompt, an import, a restored session, Clear)
goes through the scripts like typing does, so the panels follow it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import gradio as gr

from playground.client.batch.template import TOKEN_PATTERN

PYTHON_BLANK = "^[\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$"
"""A text `str.strip()` empties (JavaScript's `trim` differs: it strips U+FEFF and keeps U+001C-U+001F and U+0085)."""
EMPTY_MESSAGE = "\u2205"
"""The Variables key's message part for a box emptied other than by a send: the server decides (from `Session.typed`)."""

_COMMON = """
const drafts = (window.__playgroundDrafts = window.__playgroundDrafts || {});
const box = (drafts[PREFIX] = drafts[PREFIX] || {sends: 0, sentText: null, sentDraft: null});
const textOf = (d) => (d && typeof d === "object" ? d.text : d) || "";
const blank = (s) => new RegExp(BLANK, "u").test(s);
const tokens = (s) => (typeof s === "string" ? s.match(new RegExp(TOKEN, "g")) : null) || [];
const filesOf = (d) => (d && Array.isArray(d.files) ? d.files.map((f) => (f && (f.path || f.url)) || String(f)) : []);
const whole = (d) => JSON.stringify([textOf(d), filesOf(d)]);
"""


def _script(prefix: str, body: str) -> str:
    constants = f"const PREFIX = {json.dumps(prefix)}, BLANK = {json.dumps(PYTHON_BLANK)}, TOKEN = {json.dumps(TOKEN_PATTERN)}, EMPTY = {json.dumps(EMPTY_MESSAGE)};"
    return f"(...args) => {{\n{constants}{_COMMON}{body}\n}}"


def record_js(prefix: str) -> str:
    """The send's own page step: it remembers what was sent (the box's emptying that follows keeps
    the keys) and passes the send's inputs on unchanged. On the send itself, not an event of its
    own: the page runs a trigger's events one after another, a streamed send to its end."""
    return _script(prefix, """const [draft] = args;
box.sends += 1;
box.sentDraft = whole(draft);
if (!blank(textOf(draft))) box.sentText = textOf(draft);
return args;""")


def variables_key_js(prefix: str) -> str:
    """(message, system?) -> the Variables key: the message part is remembered until the message changes."""
    return _script(prefix, """const [draft, system] = args;
const text = textOf(draft);
const mine = (box.variables = box.variables || {last: "", part: [], sends: 0});
if (text !== mine.last) {
  const emptiedBySend = mine.sends !== box.sends && box.sentText !== null && mine.last === box.sentText;
  mine.part = !blank(text) ? tokens(text) : emptiedBySend ? tokens(box.sentText) : EMPTY;
  mine.last = text;
  mine.sends = box.sends;
}
return JSON.stringify([mine.part, tokens(system)]);""")


def draft_key_js(prefix: str) -> str:
    """message -> the token count's key: the message and the sends so far (a message sent again is counted again)."""
    return _script(prefix, """const [draft] = args;
const value = whole(draft);
const mine = (box.count = box.count || {last: null, key: "", sends: 0});
if (value === mine.last) return mine.key;
const emptiedBySend = mine.sends !== box.sends && mine.last === box.sentDraft && value === whole({text: "", files: []});
mine.last = value;
mine.sends = box.sends;
if (!emptiedBySend) mine.key = JSON.stringify([box.sends, value]);
return mine.key;""")


def initial_variables_key(system: Any | None = None) -> str:
    """The Variables key of a new page (an empty message, `system`'s first value): equal to what
    the page script computes then, so the first keystroke does not ask the server."""
    found = [match.group(0) for match in re.finditer(TOKEN_PATTERN, system)] if isinstance(system, str) else []
    return json.dumps([[], found], separators=(",", ":"), ensure_ascii=False)


def key_box(elem_id: str, value: str = "") -> gr.Textbox:
    """A hidden box holding a key (in the page, so its `change` fires; never read by the server)."""
    return gr.Textbox(value, visible="hidden", elem_id=elem_id, show_label=False, container=False)


def watch_variables(prefix: str, sources: list[Any], key: gr.Textbox) -> None:
    """The message box (and the system box) -> the Variables key, in the page."""
    gr.on([source.change for source in sources], None, sources, key, js=variables_key_js(prefix), queue=False, show_progress="hidden")


def watch_draft(prefix: str, draft: gr.MultimodalTextbox, key: gr.Textbox) -> None:
    """The message box -> the token count's key, in the page."""
    draft.change(None, draft, key, js=draft_key_js(prefix), queue=False, show_progress="hidden")
