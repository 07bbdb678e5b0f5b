"""The Native tab's wire format: its form (`NativeForm`) and its `TurnAdapter`. Model turns go
back with every part they came with (thought signatures, function calls); the key travels as
the person chose (Bearer, `x-svc-api-key` or `key=`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.catalog import IMAGE_MODELS
from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.native import NativeRequest, NativeStream
from playground.client.results import TextResult, ToolCall
from playground.client.schema.rules import problems_for
from playground.client.transport import Connection, Exchange
from playground.ui.conversation.imported import conversation_from, panel_values
from playground.ui.conversation.turns import Session, TurnAdapter, View
from playground.ui.shared.schema_form import structured_verdict
from playground.ui.shared.forms import optional_positive, whole, parse_extensions, parse_json_field
from playground.ui.i18n import say
from playground.ui.shared.render import plain

AUTH_CHOICES = {"Authorization: Bearer": "bearer", "x-svc-api-key header": "header", "key= in the URL": "query"}
THINKING_CHOICES = ("model default", "budget", "level LOW", "level HIGH", "off")
EXTENSION_FIELDS = ("cachedContent", "generationConfig", "toolConfig")
_DATA_URL = re.compile(r"^data:(?P<type>[\w.+/-]+);base64,(?P<data>.+)$", re.DOTALL)


@dataclass
class NativeForm:
    model: str
    system: str = ""
    stream: bool = True
    temperature: float | None = None
    top_p: float | None = None
    top_k: float | None = None
    max_output_tokens: float | None = None
    thinking: str = THINKING_CHOICES[0]
    budget: float | None = 1024
    output_images: bool = False
    functions_json: str = ""
    grounding: bool = False
    mode: str = "AUTO"
    safety_json: str = ""
    auth: str = "Authorization: Bearer"
    extensions_json: str = ""
    schema_json: str = ""

    def _thinking(self) -> dict[str, Any] | None:
        if self.thinking == "budget":
            return {"thinkingBudget": whole("thinkingBudget", self.budget) or 0, "includeThoughts": True}
        if self.thinking.startswith("level"):
            return {"thinkingLevel": self.thinking.split()[-1], "includeThoughts": True}
        if self.thinking == "off":
            return {"thinkingBudget": 0}
        return None

    def request(self, contents: list[dict[str, Any]]) -> NativeRequest:
        problems: list[str] = []
        functions = parse_json_field("Function declarations", self.functions_json, list, problems)
        safety = parse_json_field("Safety settings", self.safety_json, list, problems)
        extensions = parse_extensions(self.extensions_json, EXTENSION_FIELDS, problems)
        schema = parse_json_field("Response schema", self.schema_json, dict, problems)
        if schema is not None:  # what the format's schema subset would refuse, named before anything is sent
            problems += problems_for(schema, "native")
        if problems:
            raise RequestValidationError(problems)
        tools = ([{"functionDeclarations": functions}] if functions else []) + ([{"svcSearch": {}}] if self.grounding else [])
        config = {
            "temperature": self.temperature, "topP": self.top_p, "topK": optional_positive(self.top_k, "topK"),
            "maxOutputTokens": optional_positive(self.max_output_tokens, "maxOutputTokens"), "thinkingConfig": self._thinking(),
            "responseModalities": ["TEXT", "IMAGE"] if self.output_images else None,
            "responseMimeType": "application/json" if schema is not None else None, "responseSchema": schema,
        }
        generation = {**{k: v for k, v in config.items() if v is not None}, **(extensions.get("generationConfig") or {})}
        return NativeRequest.build(
            model=self.model,
            stream=self.stream,
            contents=contents,
            systemInstruction={"parts": [{"text": self.system}]} if self.system.strip() else None,
            generationConfig=generation or None,
            tools=tools or None,
            toolConfig=extensions.get("toolConfig") or ({"functionCallingConfig": {"mode": self.mode}} if functions and self.mode else None),
            safetySettings=safety or None,
            cachedContent=extensions.get("cachedContent"),
        )


@dataclass
class NativeAdapter:
    client: GatewayClient
    form: NativeForm

    def build_request(self, messages: list[dict[str, Any]]) -> NativeRequest:
        return self.form.request(messages)

    def _conn(self, conn: Connection) -> Connection:
        return conn.with_auth(AUTH_CHOICES.get(self.form.auth, "bearer"))

    async def create(self, conn: Connection, request: NativeRequest) -> tuple[TextResult, Exchange]:
        return await self.client.native.create(self._conn(conn), request)

    def stream(self, conn: Connection, request: NativeRequest) -> NativeStream:
        return self.client.native.stream(self._conn(conn), request)

    def user_message(self, text: str, image_urls: list[str]) -> dict[str, Any]:
        parts: list[dict[str, Any]] = [{"text": text}] if text else []
        for url in image_urls:
            match = _DATA_URL.match(url)
            if not match:
                raise RequestValidationError(["an image could not be encoded"])
            parts.append({"inlineData": {"mimeType": match["type"], "data": match["data"]}})
        return {"role": "user", "parts": parts}

    def assistant_message(self, result: TextResult) -> dict[str, Any]:
        if result.complete and result.turn_items:
            return result.turn_items[0]
        parts: list[dict[str, Any]] = [{"text": result.text}] if result.text else []
        parts += [{"functionCall": {"name": call.name, "args": _arguments(call)}} for call in result.tool_calls]
        return {"role": "model", "parts": parts or [{"text": ""}]}

    def add_tool_result(self, messages: list[dict[str, Any]], call: ToolCall, text: str, first_of_round: bool) -> None:
        try:
            response: Any = json.loads(text)
        except ValueError:
            response = text
        part = {"functionResponse": {"name": call.name, "response": response if isinstance(response, dict) else {"result": response}}}
        if first_of_round or messages[-1].get("role") != "user":
            messages.append({"role": "user", "parts": [part]})
        else:
            messages[-1]["parts"].append(part)


def _arguments(call: ToolCall) -> dict[str, Any]:
    try:
        value = json.loads(call.arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def output_images_for(model: str | None, current: bool) -> bool:
    """The image output switch after a person picks `model`: on for the image models (they are
    picked to draw), as it was for the others."""
    return True if (model or "").strip() in IMAGE_MODELS else bool(current)


def grounding_note(result: TextResult | None) -> str:
    """The search queries a grounded answer used (its sources are links in the chat)."""
    queries = (result.grounding or {}).get("webSearchQueries") if result is not None else None
    return say("native.grounded") + "; ".join(f"“{plain(str(q))}”" for q in queries) if queries else ""


CONFIG_CONTROLS = {"temperature", "topP", "topK", "maxOutputTokens", "thinkingConfig", "responseModalities"}
SCHEMA_CONTROLS = {"responseMimeType", "responseSchema"}
"""Shown in the schema editor when they say "JSON following this schema"."""


def native_form_values(body: Any, model: str | None, auth_style: str) -> dict[str, Any]:
    """NativeForm field values for an imported request (the model comes from the path); fields
    without a control of their own go into the extension JSON, none dropped."""
    if not isinstance(body, dict):
        raise RequestValidationError(["the command has no JSON body to import"])
    config = body.get("generationConfig") or {}
    thinking = config.get("thinkingConfig") or {}
    level = thinking.get("thinkingLevel")
    mode = "budget" if thinking.get("thinkingBudget") else f"level {level}" if level else "off" if thinking.get("thinkingBudget") == 0 else THINKING_CHOICES[0]
    functions = [d for tool in body.get("tools") or [] for d in tool.get("functionDeclarations") or []]
    extensions: dict[str, Any] = {k: v for k, v in body.items() if k in ("cachedContent", "toolConfig")}
    schema = config.get("responseSchema") if config.get("responseMimeType") == "application/json" else None
    controls = CONFIG_CONTROLS | (SCHEMA_CONTROLS if isinstance(schema, dict) else set())
    extra_config = {k: v for k, v in config.items() if k not in controls}
    if extra_config:
        extensions["generationConfig"] = extra_config
    system = " ".join(p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts") or [])
    auth = next(label for label, style in AUTH_CHOICES.items() if style == auth_style) if auth_style in AUTH_CHOICES.values() else "Authorization: Bearer"
    return {
        "model": model or "", "system": system, "stream": True, "temperature": config.get("temperature", 1.0), "top_p": config.get("topP", 0.95),
        "top_k": config.get("topK") or 0, "max_output_tokens": config.get("maxOutputTokens") or 0, "thinking": mode,
        "budget": thinking.get("thinkingBudget") or 1024, "output_images": "IMAGE" in (config.get("responseModalities") or []),
        "functions_json": json.dumps(functions, indent=2) if functions else "", "grounding": any("svcSearch" in t for t in body.get("tools") or []),
        "mode": ((body.get("toolConfig") or {}).get("functionCallingConfig") or {}).get("mode", "AUTO"),
        "safety_json": json.dumps(body["safetySettings"], indent=2) if body.get("safetySettings") else "", "auth": auth,
        "extensions_json": json.dumps(extensions, indent=2) if extensions else "",
        "schema_json": json.dumps(schema, indent=2) if isinstance(schema, dict) else "",
    }


def native_adapter(client: GatewayClient, *form: Any) -> NativeAdapter:
    """The adapter a send uses, from the form's values in order (`ConversationPanel.wire`)."""
    return NativeAdapter(client, NativeForm(*form))


def native_adapter_of(client: GatewayClient, values: dict[str, Any]) -> NativeAdapter:
    """The adapter a loaded or imported form is checked with (`turn_check`), from its values by name."""
    return NativeAdapter(client, NativeForm(**values))


def grounding_line(view: View, adapter: TurnAdapter | None) -> tuple[Any, ...]:
    """After a turn: what grounded the answer, and whether a structured answer matches its schema
    (the panel's extra outputs)."""
    if not view.done:
        return gr.skip(), gr.skip()
    schema_json = adapter.form.schema_json if isinstance(adapter, NativeAdapter) else ""
    return grounding_note(view.result), structured_verdict(schema_json, view.result)


def form_from_curl(request: CurlRequest) -> list[Any]:
    """An imported curl command as the form's values, then the draft, the chat and the session."""
    contents = request.body.get("contents") or []
    turns = [{"role": "assistant" if c.get("role") == "model" else "user",
              "content": " ".join(p.get("text", "") for p in c.get("parts") or [] if isinstance(p, dict))} for c in contents if isinstance(c, dict)]
    draft, history, _ = conversation_from(turns)
    session = Session(messages=[dict(c) for c in contents[: len(contents) - (1 if draft["text"] else 0)]], shown=list(history))
    return [*native_form_values(request.body, request.model, request.auth_style).values(), *panel_values(draft, history, session)]
