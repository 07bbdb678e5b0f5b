""""Import a curl command": paste a call (from the gateway's docs or a browser's "copy as curl")
and the playground opens the tab for that interface with its fields filled.

Each tab registers a `FormImport` (which interfaces it takes, its components, and how a parsed
request becomes their values). The session switches to the command's host, and the status line
says from where to where, unless the person presses "keep my base URL" or that host does not
resolve (or hosted mode refuses it). The key in the pasted command goes into the key box of this
session only, and only together with its host; the pasted text is cleared and the key is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.client.curl_import import CurlRequest, parse_curl
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.import_check import check_body
from playground.ui.shared.connection import ServerDefaults, without_version
from playground.ui.shared.form_check import RequestCheck, check_whole
from playground.ui.i18n import t, say
from playground.ui.shared.render import error_text, plain

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
    sent: Callable[[list[Any]], list[dict[str, Any]]] = lambda values: []
    """The messages the imported values would send before the draft (a conversation tab's history)."""

    def checked_values(self, request: CurlRequest) -> list[Any]:
        """`values_from`, after the body passed the interface's request model, and only if the
        values fit their components and build the request a send would build."""
        check_body(request.interface, request.body)
        try:
            values = self.values_from(request)
        except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
            raise RequestValidationError([f"the command's body does not have the shape of a {self.label} call ({type(exc).__name__})"]) from None
        check_whole(dict(zip(self.names, self.components)), dict(zip(self.names, values)), self.sent(values), self.check)
        return values


@dataclass
class ImportRegistry:
    forms: list[FormImport] = field(default_factory=list)

    def register(self, form: FormImport) -> None:
        self.forms.append(form)

    def for_interface(self, interface: str | None) -> FormImport | None:
        return next((form for form in self.forms if interface in form.interfaces), None)


def imported_values(registry: ImportRegistry, defaults: ServerDefaults, command: str) -> tuple[str | None, str, CurlRequest | None, list[Any]]:
    """(tab id, status, the parsed request, values for every registered component in order); the
    connection is settled by `connection_after_import`."""
    untouched = [gr.skip() for form in registry.forms for _ in form.components]
    try:
        request = parse_curl(command or "")
        form = registry.for_interface(request.interface)
        if form is None:
            names = ", ".join(form.label for form in registry.forms)
            return None, say("curl.say.command_calls_which_no_tab", path=request.path, names=names), None, untouched
        values = form.checked_values(request)
    except GatewayError as error:
        return None, error_text(error), None, untouched
    filled: list[Any] = []
    for other in registry.forms:
        filled.extend(values if other is form else [gr.skip()] * len(other.components))
    status = say("curl.say.opened_tab_command_fields", label=form.label, method=request.method, path=request.path)
    return form.tab_id, status, request, filled


async def connection_after_import(client: GatewayClient, defaults: ServerDefaults, request: CurlRequest, current_url: str | None,
                                  keep: bool) -> tuple[Any, Any, str]:
    """(base URL box value, key box value, what the status line says about them) after an import.

    The session switches to the command's host only when asked (not `keep`) and when that host
    resolves (and hosted mode's guard allows it); a key goes only with the host it came with,
    and a switch to another host never carries the key typed for the previous one."""
    current = without_version((current_url or "").strip() or defaults.base_url)[0]
    target = without_version(request.base_url)[0]
    shown_current, shown_target = plain(current[:200]), plain(target[:200])
    key = request.api_key
    if target == current:
        return gr.skip(), key or gr.skip(), say("curl.say.base_url_stays", shown_current=shown_current) + (say("curl.say.key_command_used_session_only") if key else "")
    unused_key = say("curl.say.command_key_not_used_belongs", shown_target=shown_target) if key else ""
    if keep:
        return gr.skip(), gr.skip(), say("curl.say.kept_base_url_command", shown_current=shown_current, shown_target=shown_target) + unused_key
    problem = await client.host_problem(target)
    if problem:
        return gr.skip(), gr.skip(), (say("curl.say.kept_base_url_command_host", shown_current=shown_current, problem=plain(problem)) + unused_key
                                      + say("curl.say.use_gateway_anyway_type_base"))
    url_value = "" if target == without_version(defaults.base_url)[0] else target
    note = say("curl.say.switched_base_url_command_host", shown_current=shown_current, shown_target=shown_target)
    if key:
        return url_value, key, note + say("curl.say.key_command_used_session_only")
    return url_value, "", note + say("curl.say.command_carries_no_key_key", shown_target=shown_target)


@dataclass
class CurlImport:
    command: gr.Textbox
    run: gr.Button
    keep: gr.Button
    status: gr.Markdown

    @classmethod
    def build(cls) -> CurlImport:
        with gr.Accordion(t("curl.panel"), open=False, elem_id="curl-import"):
            command = gr.Textbox(label=t("curl.command"), lines=5,
                                 placeholder=t("curl.placeholder"), elem_id="curl-command")
            with gr.Row():
                run = gr.Button(t("curl.open"), size="sm", elem_id="curl-import-button")
                keep = gr.Button(t("curl.open_keep"), size="sm", elem_id="curl-import-keep")
            status = gr.Markdown(elem_id="curl-status")
        return cls(command, run, keep, status)

    def wire(self, registry: ImportRegistry, defaults: ServerDefaults, tabs: gr.Tabs, url_box: gr.Textbox, key_box: gr.Textbox,
             client: GatewayClient) -> list[Any]:
        """Call after every tab registered its `FormImport`; returns the two import events (each may fill a conversation)."""
        importer = CurlImporter(registry, defaults, client)
        components = [component for form in registry.forms for component in form.components]
        outputs = [tabs, self.command, self.status, url_box, key_box, *components]
        return [self.run.click(importer.switch, [self.command, url_box], outputs, queue=False),
                self.keep.click(importer.keep_url, [self.command, url_box], outputs, queue=False)]


@dataclass(frozen=True)
class CurlImporter:
    """What the import buttons run: a pasted command into its tab's form, with or without its host."""

    registry: ImportRegistry
    defaults: ServerDefaults
    client: GatewayClient

    async def on_import(self, text: str, current_url: str, keep: bool) -> tuple[Any, ...]:
        """(tab, command box, status, base URL, key, every form's values) for a pasted command."""
        tab_id, message, request, values = imported_values(self.registry, self.defaults, text)
        url, key, note = gr.skip(), gr.skip(), ""
        if request is not None:
            url, key, note = await connection_after_import(self.client, self.defaults, request, current_url, keep)
        status = message + note + (say("curl.say.press_enter_send") if tab_id else "")
        return (gr.update(selected=tab_id) if tab_id else gr.skip(), "" if tab_id else gr.skip(), status, url, key, *values)

    async def switch(self, text: str, current_url: str) -> tuple[Any, ...]:
        """"Open it": the command's host becomes the session's base URL (when the guard allows it)."""
        return await self.on_import(text, current_url, keep=False)

    async def keep_url(self, text: str, current_url: str) -> tuple[Any, ...]:
        """"Open it, keep my base URL": no host lookup, the base URL stays."""
        return await self.on_import(text, current_url, keep=True)
