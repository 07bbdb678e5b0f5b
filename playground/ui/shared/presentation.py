"""Presentation mode, for showing the playground to a room on a projector: a switch in the header
and the link parameter `?present=1` (`?present=0` turns it off) put a class on the page that
`assets/style.css` uses (larger text for messages, inputs and labels; hints, info and Thinking
readable, not small and grey; Compare's answers within 1280x720). Thinking stays open after an
answer ends (`gradio_compat.thinking`). All of it is done in the browser: no server round trip.

With the built-in demo gateway, a "Demo pace" control shows beside the switch in presentation mode:
slow, medium, normal or fast streaming, for this browser only. The choice and the switch are
remembered in this browser in two cookies (like the language); every event carries them, and the
connection of a call to the built-in demo gateway asks for that pace (`visitor_pace`, read by
`connection.resolve_connection`; the header the client sends is `transport.DEMO_PACE_HEADER`).
A real gateway is never asked. Only the names below are read from the cookie; anything else is
ignored.
"""

from __future__ import annotations

import json
from http.cookies import CookieError, SimpleCookie

import gradio as gr

from playground.gradio_compat import current_request, keep_thinking_open_js
from playground.ui.i18n import t

PRESENT_COOKIE = "gateway-playground-present"
PACE_COOKIE = "gateway-playground-pace"
PRESENT_CLASS = "presentation-mode"
"""The class on the page's root element (`<html>`) while presentation mode is on."""
PRESENT_PARAMETER = "present"
"""The link parameter: `1` turns the mode on, `0` off (anything else is named as ignored)."""
PRESENT_VALUES = ("0", "1")
NORMAL_PACE = "normal"
PACES: dict[str, float] = {"slow": 0.25, "medium": 0.1, "fast": 0.0}
"""Seconds between the demo's streamed pieces for each choice; "normal" is the demo's own pace (nothing asked)."""
PACE_CHOICES = ("slow", "medium", NORMAL_PACE, "fast")

_COOKIE_JS = """(name, value) => {
  document.cookie = name + "=" + encodeURIComponent(value) + "; path=/; max-age=31536000; SameSite=Strict";
}"""
_READ_COOKIE_JS = """(name) => {
  const kept = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  try { return kept ? decodeURIComponent(kept.slice(name.length + 1)) : ""; } catch (error) { return ""; }
}"""


def _apply_js() -> str:
    """`(on) => ...`: put the class on the page (or take it off) and, while it is on, keep every
    reasoning block open, also those drawn later (one observer for the page's life)."""
    keep_open = keep_thinking_open_js()
    return f"""(on) => {{
  const root = document.documentElement;
  root.classList.toggle({json.dumps(PRESENT_CLASS)}, Boolean(on));
  const keepOpen = {keep_open};
  if (on) keepOpen(document);
  if (!window.__presentationObserver) {{
    window.__presentationObserver = new MutationObserver(() => {{
      if (root.classList.contains({json.dumps(PRESENT_CLASS)})) keepOpen(document);
    }});
    window.__presentationObserver.observe(document.body, {{childList: true, subtree: true}});
  }}
}}"""


def remembered_js(with_pace: bool) -> str:
    """On load: the link's `present=1`/`0` when it has one (then remembered), else the switch's cookie;
    the pace chosen before. Returns the switch's value (and the pace's, `with_pace`)."""
    return f"""() => {{
  const cookie = {_COOKIE_JS};
  const read = {_READ_COOKIE_JS};
  const asked = new URLSearchParams(window.location.search).get({json.dumps(PRESENT_PARAMETER)});
  const on = asked === "1" || asked === "0" ? asked === "1" : read({json.dumps(PRESENT_COOKIE)}) === "1";
  cookie({json.dumps(PRESENT_COOKIE)}, on ? "1" : "0");
  ({_apply_js()})(on);
  const pace = read({json.dumps(PACE_COOKIE)});
  return {"true" if with_pace else "false"} ? [on, {json.dumps(list(PACE_CHOICES))}.includes(pace) ? pace : {json.dumps(NORMAL_PACE)}] : on;
}}"""


def switch_js() -> str:
    """The switch was turned: apply and remember it."""
    return f"""(on) => {{
  ({_COOKIE_JS})({json.dumps(PRESENT_COOKIE)}, on ? "1" : "0");
  ({_apply_js()})(on);
  return on;
}}"""


PACE_JS = f"""(pace) => {{
  ({_COOKIE_JS})({json.dumps(PACE_COOKIE)}, pace || {json.dumps(NORMAL_PACE)});
  return pace;
}}"""


def pace_from_cookies(cookie_header: str | None) -> float | None:
    """The seconds between streamed pieces a browser's cookies ask of the demo gateway: only in
    presentation mode and only for a known pace name; None for the demo's own pace."""
    try:
        cookies = SimpleCookie(cookie_header or "")
    except CookieError:
        return None
    present, pace = cookies.get(PRESENT_COOKIE), cookies.get(PACE_COOKIE)
    if present is None or present.value != "1" or pace is None:
        return None
    return PACES.get(pace.value)


def visitor_pace() -> float | None:
    """`pace_from_cookies` of the event being handled (None outside an event)."""
    request = current_request()
    if request is None:
        return None
    try:
        return pace_from_cookies(request.headers.get("cookie"))
    except (AttributeError, KeyError, ValueError):
        return None


class Presentation:
    """The header's presentation switch and, with the built-in demo gateway, its pace control."""

    def __init__(self, demo: bool) -> None:
        self.switch = gr.Checkbox(False, label=t("presentation.switch"), elem_id="presentation-switch", scale=0, min_width=200)
        self.pace = (gr.Dropdown([(t(f"presentation.pace_{name}"), name) for name in PACE_CHOICES], value=NORMAL_PACE,
                                 label=t("presentation.pace_label"), elem_id="demo-pace", scale=0, min_width=170) if demo else None)

    def wire(self, blocks: gr.Blocks) -> None:
        outputs = [self.switch] if self.pace is None else [self.switch, self.pace]
        blocks.load(None, None, outputs, js=remembered_js(self.pace is not None))
        self.switch.input(None, self.switch, None, js=switch_js())
        if self.pace is not None:
            self.pace.input(None, self.pace, None, js=PACE_JS)
