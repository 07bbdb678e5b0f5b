"""The Responses tab's wire format: its form (`ResponsesForm`) and its `TurnAdapter`.

Two ways to continue a conversation: resend the whole input (stateless; the items the gateway
returned — reasoning, messages, function calls — go back as they came) or chain with
`previous_response_id` (only the turns after the last response are sent).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import file_data_url
from playground.client.responses import ResponsesRequest, ResponsesStream
from playground.client.results import TextResult, ToolCall
from playground.client.schema.fields import split_wrapper
from playground.client.schema.rules import problems_for
from playground.client.transport import Connection, Exchange
from playground.ui.conversation.imported import conversation_from, panel_values
from playground.ui.conversation.turns import Session, TurnAdapter, View
from playground.ui.shared.forms import optional_positive, parse_extensions, parse_json_field
from playground.ui.shared.schema_form import structured_verdict
from playground.ui.i18n import say

TOOL_FORMATS = ("spec (nested under function)", "flat (as the openai SDK sends)")
CHOICES = ("auto", "none")
EXTENSION_FIELDS = ("parallel_tool_calls", "max_tool_calls", "truncation", "metadata", "user", "previous_response_id")


def _function_tool(tool: dict[str, Any], flat: bool) -> dict[str, Any]:
    definition = tool["function"] if isinstance(tool.get("function"), dict) else {k: v for k, v in tool.items() if k != "type"}
    return {"type": "function", **definition} if flat else {"type": "function", "function": definition}


def replayed(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Session messages -> input items: an assistant turn becomes the items the gateway returned."""
    items: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") == "assistant" and message.get("_items"):
            items.extend(message["_items"])
        elif message.get("role") == "assistant":
            items.append({"role": "assistant", "content": message.get("content") or ""})
        else:
            items.append(message)
    return items


def chained_from(messages: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    """(id of the last response, the messages after it) for chaining with previous_response_id."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "assistant" and messages[index].get("_response_id"):
            return messages[index]["_response_id"], messages[index + 1 :]
    return None, messages


@dataclass
class ResponsesForm:
    model: str
    instructions: str = ""
    stream: bool = True
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: float | None = None
    effort: str = ""
    summary: str = ""
    tools_json: str = ""
    web_search: bool = False
    search_context_size: str = "medium"
    tool_choice: str = "auto"
    tool_format: str = TOOL_FORMATS[0]
    chain: bool = False
    extensions_json: str = ""
    schema_json: str = ""

    def request(self, messages: list[dict[str, Any]]) -> ResponsesRequest:
        problems: list[str] = []
        functions = parse_json_field("Tools", self.tools_json, list, problems) or []
        extensions = parse_extensions(self.extensions_json, EXTENSION_FIELDS, problems)
        answer_format = self._answer_format(problems)
        if problems:
            raise RequestValidationError(problems)
        flat = self.tool_format == TOOL_FORMATS[1]
        tools = [_function_tool(tool, flat) if isinstance(tool, dict) and tool.get("type", "function") == "function" else tool
                 for tool in functions]
        if self.web_search:
            tools.append({"type": "web_search_preview", "search_context_size": self.search_context_size or "medium"})
        choice = (self.tool_choice or "").strip()
        tool_choice: Any = None
        if functions and choice:
            named = {"type": "function", "name": choice} if flat else {"type": "function", "function": {"name": choice}}
            tool_choice = choice if choice in CHOICES else named
        previous, sent = chained_from(messages) if self.chain else (None, messages)
        reasoning = {k: v for k, v in (("effort", self.effort), ("summary", self.summary)) if v}
        return ResponsesRequest.build(
            **{"previous_response_id": previous, **extensions},
            model=self.model,
            input=replayed(sent),
            instructions=self.instructions.strip() or None,
            stream=self.stream,
            temperature=self.temperature,
            top_p=self.top_p,
            max_output_tokens=optional_positive(self.max_output_tokens, "max_output_tokens"),
            reasoning=reasoning or None,
            tools=tools or None,
            tool_choice=tool_choice,
            text={"format": answer_format} if answer_format else None,
        )

    def _answer_format(self, problems: list[str]) -> dict[str, Any] | None:
        """`text.format` for the schema box (a bare schema, or `{name, strict, schema}`); what
        strict mode would refuse is added to `problems`, named before anything is sent."""
        box = parse_json_field("Response schema", self.schema_json, dict, problems)
        if box is None:
            return None
        wrapper, schema = split_wrapper(box)
        named = {"name": "response", **(wrapper or {})}
        if named.get("strict") is True:
            problems += problems_for(schema, "responses")
        return {"type": "json_schema", **named, "schema": schema}


@dataclass
class ResponsesAdapter:
    client: GatewayClient
    form: ResponsesForm
    _names: dict[str, str] = field(default_factory=dict)

    def build_request(self, messages: list[dict[str, Any]]) -> ResponsesRequest:
        return self.form.request(messages)

    async def create(self, conn: Connection, request: ResponsesRequest) -> tuple[TextResult, Exchange]:
        return await self.client.responses.create(conn, request)

    def stream(self, conn: Connection, request: ResponsesRequest) -> ResponsesStream:
        return self.client.responses.stream(conn, request)

    def attachments(self, paths: list[str]) -> list[str]:
        """Images and documents (PDF, text) as data URLs, each checked for type and size."""
        urls = []
        for path in paths:
            url = file_data_url(path)
            self._names[url] = Path(path).name
            urls.append(url)
        return urls

    def user_message(self, text: str, urls: list[str]) -> dict[str, Any]:
        if not urls:
            return {"role": "user", "content": text}
        parts: list[dict[str, Any]] = [{"type": "input_text", "text": text}] if text else []
        for url in urls:
            if url.startswith("data:image/"):
                parts.append({"type": "input_image", "image_url": url, "detail": "auto"})
            else:
                parts.append({"type": "input_file", "filename": self._names.get(url, "attachment"), "file_data": url})
        return {"role": "user", "content": parts}

    def assistant_message(self, result: TextResult) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": result.text}
        if result.complete and result.turn_items:
            message["_items"] = result.turn_items
        if result.complete and result.response_id:
            message["_response_id"] = result.response_id
        return message

    def add_tool_result(self, messages: list[dict[str, Any]], call: ToolCall, text: str, first_of_round: bool) -> None:
        messages.append({"type": "function_call_output", "call_id": call.id, "output": text})


def chain_status(messages: list[dict[str, Any]], chain: bool) -> str:
    """The line under the conversation that says how the next turn is sent."""
    previous, _ = chained_from(messages)
    if not chain:
        return say("responses.chain_stateless")
    if previous is None:
        return say("responses.chain_new")
    return say("responses.chain_continues", previous=previous)


def responses_form_values(body: Any) -> dict[str, Any]:
    """ResponsesForm field values for an imported request body; fields without a control of
    their own go into the extension JSON, none dropped."""
    if not isinstance(body, dict):
        raise RequestValidationError(["the command has no JSON body to import"])
    tools = [tool for tool in body.get("tools") or [] if isinstance(tool, dict)]
    functions = [tool for tool in tools if tool.get("type") == "function"]
    search = next((tool for tool in tools if tool.get("type") == "web_search_preview"), None)
    choice = body.get("tool_choice", "auto")
    if isinstance(choice, dict):
        choice = (choice.get("function") or {}).get("name") or choice.get("name") or "auto"
    reasoning = body.get("reasoning") or {}
    known = {"model", "input", "instructions", "stream", "temperature", "top_p", "max_output_tokens", "reasoning", "tools", "tool_choice"}
    answer_format = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    schema_box = None
    if isinstance(answer_format, dict) and answer_format.get("type") == "json_schema" and set(body["text"]) == {"format"}:
        known.add("text")
        schema_box = {k: v for k, v in answer_format.items() if k != "type"}
    extensions = {k: v for k, v in body.items() if k not in known}
    return {
        "model": body.get("model") or "", "instructions": body.get("instructions") or "", "stream": bool(body.get("stream", False)),
        "temperature": body.get("temperature", 1.0), "top_p": body.get("top_p", 0.98), "max_output_tokens": body.get("max_output_tokens") or 0,
        "effort": reasoning.get("effort") or "", "summary": reasoning.get("summary") or "",
        "tools_json": json.dumps(functions, indent=2) if functions else "", "web_search": search is not None,
        "search_context_size": (search or {}).get("search_context_size") or "medium", "tool_choice": str(choice),
        "tool_format": TOOL_FORMATS[1] if any("function" not in tool for tool in functions) else TOOL_FORMATS[0],
        "chain": False, "extensions_json": json.dumps(extensions, indent=2) if extensions else "",
        "schema_json": json.dumps(schema_box, indent=2) if schema_box else "",
    }


def responses_adapter(client: GatewayClient, *form: Any) -> ResponsesAdapter:
    """The adapter a send uses, from the form's values in order (`ConversationPanel.wire`)."""
    return ResponsesAdapter(client, ResponsesForm(*form))


def responses_adapter_of(client: GatewayClient, values: dict[str, Any]) -> ResponsesAdapter:
    """The adapter a loaded or imported form is checked with (`turn_check`), from its values by name."""
    return ResponsesAdapter(client, ResponsesForm(**values))


def chain_line(view: View, adapter: TurnAdapter | None) -> tuple[Any, ...]:
    """After each turn: how the next one is sent, and whether a structured answer matches its
    schema (the panel's extra outputs)."""
    chained = isinstance(adapter, ResponsesAdapter) and adapter.form.chain
    schema_json = adapter.form.schema_json if isinstance(adapter, ResponsesAdapter) else ""
    verdict = structured_verdict(schema_json, view.result) if view.done else gr.skip()
    return chain_status(view.session.messages, chained), verdict


def chain_changed(chain: bool, state: Session) -> str:
    """The chain box ticked or cleared: how the next turn is sent."""
    return chain_status(state.messages, chain)


def form_from_curl(request: CurlRequest) -> list[Any]:
    """An imported curl command as the form's values, then the draft, the chat and the session."""
    raw = request.body.get("input")
    items = [{"role": "user", "content": raw}] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    draft, history, session = conversation_from(items)
    return [*responses_form_values(request.body).values(), *panel_values(draft, history, session)]
