""""Import a curl command": paste a call (from the gateway's docs or a browser's "copy as curl")
and the playground opens the tab for that interface with its fields filled.

Each tab registers a `FormImport` (which interfaces it takes, its components, and how a parsed
request becomes their values). The key in the pasted command goes into the key box of this
session only; the pasted text is cleared and the key is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.client.curl_import import CurlRequest, parse_curl
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.import_check import check_body
from playground.ui.connection import ServerDefaults
from playground.ui.conversation import Session
from playground.ui.form_check import RequestCheck, check_whole
from playground.ui.render import error_text

PLACEHOLDER = """curl https://your-gateway/v1/chat/completions \\
  -H "Authorization: Bearer $GATEWAY_API_KEY" \\
  -d '{"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "Hi"}]}'"""


@dataclass(frozen=True)
class FormImport:
    tab_id: str
    label: str
    interfaces: tuple[str, ...]
    components: list[Any]
    values_from: Callable[[CurlRequest], list[Any]]
    """Values for `components` (gr.skip() leaves one as it is); raises `GatewayError` if unusable."""
    names: tuple[str, ...] = ()
    """Field names of the leading `components` (the tab's form), for `check`."""
    check: RequestCheck | None = None
    """The tab's request check (see `form_check.turn_check`): an import fills the form only if it passes."""

    def checked_values(self, request: CurlRequest) -> list[Any]:
        """`values_from`, after the body passed the interface's request model, and only if the
        values fit their components and build the request a send would build."""
        check_body(request.interface, request.body)
        try:
            values = self.values_from(request)
        except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
            raise RequestValidationError([f"the command's body does not have the shape of a {self.label} call ({type(exc).__name__})"]) from None
        sent = next((value.messages for value in values if isinstance(value, Session)), [])
        check_whole(dict(zip(self.names, self.components)), dict(zip(self.names, values)), sent, self.check)
        return values


@dataclass
class ImportRegistry:
    forms: list[FormImport] = field(default_factory=list)

    def register(self, form: FormImport) -> None:
        self.forms.append(form)

    def for_interface(self, interface: str | None) -> FormImport | None:
        return next((form for form in self.forms if interface in form.interfaces), None)


def imported_values(registry: ImportRegistry, defaults: ServerDefaults, command: str) -> tuple[str | None, str, Any, Any, list[Any]]:
    """(tab id, status, url value, key value, values for every registered component in order)."""
    untouched = [gr.skip() for form in registry.forms for _ in form.components]
    try:
        request = parse_curl(command or "")
        form = registry.for_interface(request.interface)
        if form is None:
            names = ", ".join(form.label for form in registry.forms)
            return None, f"⚠️ This command calls `{request.path}`, which no tab here imports (tabs that do: {names}).", gr.skip(), gr.skip(), untouched
        values = form.checked_values(request)
    except GatewayError as error:
        return None, error_text(error), gr.skip(), gr.skip(), untouched
    filled: list[Any] = []
    for other in registry.forms:
        filled.extend(values if other is form else [gr.skip()] * len(other.components))
    url = "" if request.base_url == defaults.base_url.rstrip("/") else request.base_url
    key_note = " The key from the command is used for this session only." if request.api_key else ""
    status = f"✅ Opened the **{form.label}** tab with the command's fields ({request.method} `{request.path}`).{key_note} Press Enter to send."
    return form.tab_id, status, url, (request.api_key if request.api_key else gr.skip()), filled


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def conversation_from(messages: list[Any], skip_roles: tuple[str, ...] = ("system",)) -> tuple[dict[str, Any], list[dict[str, Any]], Session]:
    """(draft, chatbot history, session) for an imported message list: the last user message
    becomes the draft; the turns before it are the conversation, sent as they were."""
    turns = [m for m in messages if isinstance(m, dict) and m.get("role") not in skip_roles]
    draft = ""
    if turns and turns[-1].get("role") == "user" and isinstance(turns[-1].get("content"), str):
        draft = turns.pop()["content"]
    history = [{"role": "user" if m.get("role") == "user" else "assistant", "content": _text_of(m.get("content")) or f"({m.get('role')} turn)"}
               for m in turns]
    return {"text": draft, "files": []}, history, Session(messages=[dict(m) for m in turns])


@dataclass
class CurlImport:
    command: gr.Textbox
    run: gr.Button
    status: gr.Markdown

    @classmethod
    def build(cls) -> CurlImport:
        with gr.Accordion("Import a curl command", open=False, elem_id="curl-import"):
            command = gr.Textbox(label="curl command (from the gateway's docs or a browser's “copy as curl”)", lines=5,
                                 placeholder=PLACEHOLDER, elem_id="curl-command")
            run = gr.Button("Open it in the right tab", size="sm", elem_id="curl-import-button")
            status = gr.Markdown(elem_id="curl-status")
        return cls(command, run, status)

    def wire(self, registry: ImportRegistry, defaults: ServerDefaults, tabs: gr.Tabs, url_box: gr.Textbox, key_box: gr.Textbox) -> None:
        """Call after every tab registered its `FormImport`."""
        components = [component for form in registry.forms for component in form.components]

        def on_import(text: str) -> tuple[Any, ...]:
            tab_id, message, url, key, values = imported_values(registry, defaults, text)
            return (gr.update(selected=tab_id) if tab_id else gr.skip(), "" if tab_id else gr.skip(), message, url, key, *values)

        self.run.click(on_import, self.command, [tabs, self.command, self.status, url_box, key_box, *components], queue=False)
