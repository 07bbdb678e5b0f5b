"""The Messages tab's wire format (`MessagesForm`, `MessagesAdapter`), the live token count
and the prompt-cache lab report."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client import catalog
from playground.client.curl_import import CurlRequest
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import image_data_url
from playground.client.messages import MessagesRequest, MessagesStream
from playground.client.results import TextResult, ToolCall, Usage
from playground.client.transport import Connection, Exchange
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.conversation.imported import conversation_from, panel_values
from playground.ui.conversation.template_vars import fill_draft, fill_form
from playground.ui.conversation.turns import Session, TurnAdapter, View
from playground.ui.shared.forms import optional_positive, whole, parse_extensions, parse_json_field
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import error_words, plain

COUNT_DEBOUNCE_S = 0.4
TOOL_CHOICE_TYPES = ("auto", "any", "none")
_DATA_URL = re.compile(r"^data:(?P<type>[\w/+.-]+);base64,(?P<data>.+)$", re.S)


def _split_stops(text: str) -> list[str] | None:
    stops = [s for s in (part.strip() for part in re.split(r"[\n,]", text or "")) if s]
    return stops or None


EXTENSION_FIELDS = ("metadata", "mcp_servers", "context_management", "cache_control")
FORM_FIELDS_IN_BODY = ("model", "messages", "system", "max_tokens", "stream", "temperature", "top_p", "top_k", "stop_sequences",
                       "thinking", "tools", "tool_choice")


def messages_form_values(body: Any) -> dict[str, Any]:
    """MessagesForm field values for an imported request body; fields without a control of
    their own go into the extension JSON, none dropped."""
    if not isinstance(body, dict):
        raise RequestValidationError(["the command has no JSON body to import"])
    system = body.get("system")
    cache_system = isinstance(system, list) and any(isinstance(b, dict) and b.get("cache_control") for b in system)
    if isinstance(system, list):
        system = "\n\n".join(str(b.get("text", "")) for b in system if isinstance(b, dict))
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
    search = next((t for t in tools if t.get("type") == "web_search_20250305"), None)
    location = (search or {}).get("user_location") or {}
    thinking = body.get("thinking") if isinstance(body.get("thinking"), dict) else {}
    choice = body.get("tool_choice") if isinstance(body.get("tool_choice"), dict) else {}
    extensions = {k: v for k, v in body.items() if k not in FORM_FIELDS_IN_BODY}
    functions = [t for t in tools if t is not search]
    return {
        "model": body.get("model") or "",
        "system": system or "",
        "cache_system": cache_system,
        "cache_last_message": False,
        "cache_type": "ephemeral",
        "max_tokens": body.get("max_tokens"),
        "stream": bool(body.get("stream", False)),
        "temperature": body.get("temperature", 1.0),
        "top_p": body.get("top_p", 1.0),
        "top_k": body.get("top_k") or 0,
        "stop_sequences": "\n".join(body.get("stop_sequences") or []),
        "thinking": thinking.get("type") == "enabled",
        "budget_tokens": thinking.get("budget_tokens", 2048),
        "tools_json": json.dumps(functions, indent=2) if functions else "",
        "web_search": search is not None,
        "web_search_max_uses": (search or {}).get("max_uses"),
        "web_search_city": location.get("city", ""),
        "web_search_country": location.get("country", ""),
        "tool_choice": choice.get("name") or choice.get("type") or "auto",
        "disable_parallel": bool(choice.get("disable_parallel_tool_use")),
        "extensions_json": json.dumps(extensions, indent=2) if extensions else "",
    }


@dataclass
class MessagesForm:
    model: str
    system: str = ""
    cache_system: bool = False
    cache_last_message: bool = False
    cache_type: str = "ephemeral"
    max_tokens: float | None = 1024
    stream: bool = True
    temperature: float | None = None
    top_p: float | None = None
    top_k: float | None = None
    stop_sequences: str = ""
    thinking: bool = False
    budget_tokens: float | None = 2048
    tools_json: str = ""
    web_search: bool = False
    web_search_max_uses: float | None = None
    web_search_city: str = ""
    web_search_country: str = ""
    tool_choice: str = "auto"
    disable_parallel: bool = False
    extensions_json: str = ""

    def _system(self) -> Any:
        if not self.system.strip():
            return None
        if self.cache_system:
            return [{"type": "text", "text": self.system, "cache_control": {"type": self.cache_type}}]
        return self.system

    def _messages(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not self.cache_last_message or not messages:
            return messages
        marked = copy.deepcopy(messages)
        last = marked[-1]
        if isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"]}]
        last["content"][-1]["cache_control"] = {"type": self.cache_type}
        return marked

    def _tools(self, problems: list[str]) -> list[dict[str, Any]] | None:
        tools = parse_json_field("Tools", self.tools_json, list, problems) or []
        if self.web_search:
            search: dict[str, Any] = {"type": "web_search_20250305", "name": "web_search"}
            if self.web_search_max_uses:
                search["max_uses"] = whole("max_uses", self.web_search_max_uses)
            location = {k: v.strip() for k, v in (("city", self.web_search_city), ("country", self.web_search_country)) if v.strip()}
            if location:
                search["user_location"] = {"type": "approximate", **location}
            tools.append(search)
        return tools or None

    def _tool_choice(self, tools: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        choice = (self.tool_choice or "").strip()
        if not tools or not choice:
            return None
        result: dict[str, Any] = {"type": choice} if choice in TOOL_CHOICE_TYPES else {"type": "tool", "name": choice}
        if self.disable_parallel and choice != "none":
            result["disable_parallel_tool_use"] = True
        return result

    def request(self, messages: list[dict[str, Any]]) -> MessagesRequest:
        problems: list[str] = []
        tools = self._tools(problems)
        extensions = parse_extensions(self.extensions_json, EXTENSION_FIELDS, problems)
        if problems:
            raise RequestValidationError(problems)
        return MessagesRequest.build(
            **{name: extensions[name] for name in EXTENSION_FIELDS if name in extensions},
            model=self.model,
            messages=self._messages(messages),
            system=self._system(),
            max_tokens=whole("max_tokens", self.max_tokens),
            stream=self.stream,
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=optional_positive(self.top_k, "top_k"),
            stop_sequences=_split_stops(self.stop_sequences),
            thinking={"type": "enabled", "budget_tokens": whole("budget_tokens", self.budget_tokens) or 0} if self.thinking else None,
            tools=tools,
            tool_choice=self._tool_choice(tools),
        )


def image_block(data_url: str) -> dict[str, Any]:
    match = _DATA_URL.match(data_url)
    if not match:
        raise RequestValidationError(["an image could not be encoded"])
    return {"type": "image", "source": {"type": "base64", "media_type": match["type"], "data": match["data"]}}


@dataclass
class MessagesAdapter:
    client: GatewayClient
    form: MessagesForm

    def build_request(self, messages: list[dict[str, Any]]) -> MessagesRequest:
        return self.form.request(messages)

    async def create(self, conn: Connection, request: MessagesRequest) -> tuple[TextResult, Exchange]:
        return await self.client.messages.create(conn, request)

    def stream(self, conn: Connection, request: MessagesRequest) -> MessagesStream:
        return self.client.messages.stream(conn, request)

    def user_message(self, text: str, image_urls: list[str]) -> dict[str, Any]:
        if not image_urls:
            return {"role": "user", "content": text}
        blocks: list[dict[str, Any]] = [image_block(url) for url in image_urls]
        if text:
            blocks.append({"type": "text", "text": text})
        return {"role": "user", "content": blocks}

    def assistant_message(self, result: TextResult) -> dict[str, Any]:
        if result.complete and result.turn_items:
            return {"role": "assistant", "content": result.turn_items}
        blocks: list[dict[str, Any]] = [{"type": "text", "text": result.text}] if result.text else []
        for call in result.tool_calls:
            try:
                arguments = json.loads(call.arguments or "{}")
            except ValueError:
                arguments = {}
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": arguments})
        return {"role": "assistant", "content": blocks or result.text}

    def add_tool_result(self, messages: list[dict[str, Any]], call: ToolCall, text: str, first_of_round: bool) -> None:
        block = {"type": "tool_result", "tool_use_id": call.id, "content": text}
        if first_of_round:
            messages.append({"role": "user", "content": [block]})
        else:
            messages[-1]["content"].append(block)


async def count_draft_tokens(
    client: GatewayClient, defaults: ServerDefaults, draft: dict[str, Any] | str | None, session: Session | None,
    url: str, key: str, form: MessagesForm, debounce: float = COUNT_DEBOUNCE_S,
) -> str:
    """The input tokens of the request that Send would make now (count_tokens; no generation)."""
    await asyncio.sleep(debounce)
    session = session or Session()
    text = draft if isinstance(draft, str) else (draft or {}).get("text") or ""
    paths = [] if isinstance(draft, str) else [f if isinstance(f, str) else f.get("path", "") for f in (draft or {}).get("files") or []]
    try:
        adapter = MessagesAdapter(client, form)
        pending = [adapter.user_message(text, [image_data_url(p) for p in paths if p])] if (text.strip() or paths) else []
        if not session.messages and not pending:
            return say("messages.say.token_count_type_message_many")
        request = form.request(session.messages + pending)
        tokens, _ = await client.messages.count_tokens(resolve_connection(defaults, url, key), request)
    except GatewayError as error:
        return say("messages.say.token_count_unavailable", message=plain(error_words(error)))
    return say("messages.say.input_tokens_request_send_would", tokens=tokens)


def cache_report(model: str, usage_log: list[Usage]) -> str:
    """Creation vs read tokens for the last requests, with the saving the spec states."""
    if not usage_log:
        return say("messages.say.send_message_cache_breakpoint_then")
    rows = [say("messages.say.uncached_input_cache_creation_cache"), "|---|---|---|---|---|---|"]
    for number, usage in list(enumerate(usage_log, 1))[-6:]:
        uncached, created, read = usage.input_tokens or 0, usage.cache_creation_tokens or 0, usage.cached_tokens or 0
        total = uncached + created + read
        effective = uncached + created + read * (1 - catalog.CACHED_READ_DISCOUNT)
        saving = f"{(1 - effective / total) * 100:.0f}% cheaper" if total and read else "—"
        rows.append(f"| {number} | {uncached:,} | {created:,} | {read:,} | {usage.output_tokens or 0:,} | {saving} |")
    last = usage_log[-1]
    total = (last.input_tokens or 0) + (last.cache_creation_tokens or 0) + (last.cached_tokens or 0)
    minimum = catalog.cache_minimum(model)
    if last.cached_tokens:
        note = f"Cache hit: {last.cached_tokens:,} tokens were read from the cache at a 90% discount."
    elif last.cache_creation_tokens:
        note = "Cache written: send the same prefix again (within its lifetime) to read it."
    elif total < minimum:
        note = f"Nothing was cached: the whole prompt is {total:,} tokens and {model} caches only prefixes of at least {minimum:,} tokens. Use 'Fill with a long document'."
    else:
        note = "Nothing was cached: mark a breakpoint (cache the system prompt or the last message); any change to the prefix invalidates the cache."
    return "\n".join(rows) + "\n\n" + word(note)


def messages_adapter(client: GatewayClient, *form: Any) -> MessagesAdapter:
    """The adapter a send uses, from the form's values in order (`ConversationPanel.wire`)."""
    return MessagesAdapter(client, MessagesForm(*form))


def messages_adapter_of(client: GatewayClient, values: dict[str, Any]) -> MessagesAdapter:
    """The adapter a loaded or imported form is checked with (`turn_check`), from its values by name."""
    return MessagesAdapter(client, MessagesForm(**values))


def lab_report(view: View, adapter: TurnAdapter | None) -> tuple[Any, ...]:
    """After a turn: the prompt-caching report of the session (the panel's extra output)."""
    if not view.done or not isinstance(adapter, MessagesAdapter):
        return (gr.skip(),) if view.history else (cache_report("", []),)
    return (cache_report(adapter.form.model, view.session.usage_log),)


def form_from_curl(request: CurlRequest) -> list[Any]:
    """An imported curl command as the form's values, then the draft, the chat and the session."""
    draft, history, session = conversation_from(request.body.get("messages") or [])
    return [*messages_form_values(request.body).values(), *panel_values(draft, history, session)]


@dataclass(frozen=True)
class MessagesHandlers:
    """The live token count, with the client, the server's defaults and where the form holds the system prompt."""

    client: GatewayClient
    defaults: ServerDefaults
    system_at: int

    async def count_tokens(self, draft: Any, session: Session, table: Any, url: str, key: str, *form: Any) -> str:
        """The draft's input tokens, counted as Send would send it: the placeholders filled."""
        try:
            draft, filled = fill_draft(draft, table), fill_form(form, self.system_at, table)
        except GatewayError:
            return say("messages.say.token_count_fill_variables_panel")
        return await count_draft_tokens(self.client, self.defaults, draft, session, url, key, MessagesForm(*filled))
