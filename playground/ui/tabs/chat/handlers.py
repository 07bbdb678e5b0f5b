"""The Chat tab's wire format: its form (`ChatForm`) and its `TurnAdapter` for the conversation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.chat import ChatRequest, ChatStream
from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.results import TextResult, ToolCall
from playground.client.schema.rules import problems_for
from playground.client.transport import Connection, Exchange
from playground.ui.conversation.imported import conversation_from, panel_values
from playground.ui.conversation.turns import TurnAdapter, View
from playground.ui.shared.schema_form import structured_verdict
from playground.ui.shared.forms import optional_positive, parse_extensions, parse_json_field

EXTENSION_FIELDS = (
    "thinking",
    "enable_thinking",
    "svc_thinking_to_content",
    "parameters",
    "extra_body",
    "generationConfig",
    "web_search_options",
    "search_parameters",
)
TOOL_CHOICES = ("auto", "none", "required")


@dataclass
class ChatForm:
    model: str
    system: str = ""
    stream: bool = True
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: float | None = None
    tool_choice: str = "auto"
    tools_json: str = ""
    schema_json: str = ""
    extensions_json: str = ""
    reasoning_effort: str = ""
    stream_usage: bool = True

    def request(self, messages: list[dict[str, Any]]) -> ChatRequest:
        problems: list[str] = []
        tools = parse_json_field("Tools", self.tools_json, list, problems)
        schema = parse_json_field("Response schema", self.schema_json, dict, problems)
        extensions = parse_extensions(self.extensions_json, EXTENSION_FIELDS, problems)
        if problems:
            raise RequestValidationError(problems)
        choice = (self.tool_choice or "").strip()
        tool_choice: Any = None
        if tools and choice:
            tool_choice = choice if choice in TOOL_CHOICES else {"type": "function", "function": {"name": choice}}
        response_format = None
        if schema is not None:
            json_schema = schema if {"name", "schema"} <= set(schema) else {"name": "response", "schema": schema}
            if json_schema.get("strict") is True:  # what strict mode would refuse, named before anything is sent
                problems += problems_for(json_schema["schema"], "chat")
            response_format = {"type": "json_schema", "json_schema": json_schema}
        if problems:
            raise RequestValidationError(problems)
        system = [{"role": "system", "content": self.system}] if self.system.strip() else []
        return ChatRequest.build(
            model=self.model,
            messages=system + messages,
            stream=self.stream,
            temperature=self.temperature,
            top_p=self.top_p,
            max_tokens=optional_positive(self.max_tokens, "max_tokens"),
            tools=tools or None,
            tool_choice=tool_choice,
            response_format=response_format,
            reasoning_effort=self.reasoning_effort or None,
            stream_options={"include_usage": True} if self.stream and self.stream_usage else None,
            **{name: extensions[name] for name in EXTENSION_FIELDS if name in extensions},
        )


@dataclass
class ChatAdapter:
    client: GatewayClient
    form: ChatForm

    def build_request(self, messages: list[dict[str, Any]]) -> ChatRequest:
        return self.form.request(messages)

    async def create(self, conn: Connection, request: ChatRequest) -> tuple[TextResult, Exchange]:
        return await self.client.chat.create(conn, request)

    def stream(self, conn: Connection, request: ChatRequest) -> ChatStream:
        return self.client.chat.stream(conn, request)

    def user_message(self, text: str, image_urls: list[str]) -> dict[str, Any]:
        if not image_urls:
            return {"role": "user", "content": text}
        parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        parts += [{"type": "image_url", "image_url": {"url": url}} for url in image_urls]
        return {"role": "user", "content": parts}

    def assistant_message(self, result: TextResult) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": result.text}
        if result.tool_calls:
            message["tool_calls"] = [
                {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                for call in result.tool_calls
            ]
            message["content"] = result.text or None
        return message

    def add_tool_result(self, messages: list[dict[str, Any]], call: ToolCall, text: str, first_of_round: bool) -> None:
        messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": text})


FORM_FIELDS_IN_BODY = ("model", "messages", "stream", "temperature", "top_p", "max_tokens", "tools", "tool_choice", "response_format",
                       "reasoning_effort", "stream_options")


def chat_form_values(body: Any) -> dict[str, Any]:
    """ChatForm field values for an imported request body; fields without a control of their
    own go into the extension JSON, none dropped."""
    if not isinstance(body, dict):
        raise RequestValidationError(["the command has no JSON body to import"])
    messages = body.get("messages") if isinstance(body.get("messages"), list) else []
    system = "\n\n".join(str(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "system" and isinstance(m.get("content"), str))
    choice = body.get("tool_choice", "auto")
    if isinstance(choice, dict):
        choice = (choice.get("function") or {}).get("name") or "auto"
    schema = (body.get("response_format") or {}).get("json_schema") if isinstance(body.get("response_format"), dict) else None
    extensions = {k: v for k, v in body.items() if k not in FORM_FIELDS_IN_BODY}
    return {
        "model": body.get("model") or "",
        "system": system,
        "stream": bool(body.get("stream", False)),
        "temperature": body.get("temperature", 0.7),
        "top_p": body.get("top_p", 1.0),
        "max_tokens": body.get("max_tokens") or 0,
        "tool_choice": choice if isinstance(choice, str) else "auto",
        "tools_json": json.dumps(body["tools"], indent=2) if body.get("tools") else "",
        "schema_json": json.dumps(schema, indent=2) if schema else "",
        "extensions_json": json.dumps(extensions, indent=2) if extensions else "",
        "reasoning_effort": body.get("reasoning_effort") or "",
        "stream_usage": bool((body.get("stream_options") or {}).get("include_usage")),
    }


def chat_adapter(client: GatewayClient, *form: Any) -> ChatAdapter:
    """The adapter a send uses, from the form's values in order (`ConversationPanel.wire`)."""
    return ChatAdapter(client, ChatForm(*form))


def chat_adapter_of(client: GatewayClient, values: dict[str, Any]) -> ChatAdapter:
    """The adapter a loaded or imported form is checked with (`turn_check`), from its values by name."""
    return ChatAdapter(client, ChatForm(**values))


def schema_line(view: View, adapter: TurnAdapter | None) -> tuple[Any, ...]:
    """After a turn: whether the answer matches the schema it was asked for (the panel's extra output)."""
    if not view.done:
        return (gr.skip(),)
    return (structured_verdict(adapter.form.schema_json if isinstance(adapter, ChatAdapter) else "", view.result),)


def form_from_curl(request: CurlRequest) -> list[Any]:
    """An imported curl command as the form's values, then the draft, the chat and the session."""
    values = chat_form_values(request.body)
    draft, history, session = conversation_from(request.body.get("messages") or [])
    return [*values.values(), *panel_values(draft, history, session)]
