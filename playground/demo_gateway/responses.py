"""`POST /v1/responses` on the demo gateway, written from the spec (not from the client).

Streams the whole event sequence (every event with `sequence_number`, text deltas with an
`obfuscation` field), reasoning summaries for reasoning models, function calls with arguments
valid against their schema and an answer that uses a `function_call_output`, a simulated
`web_search_preview` with URL citations, `input_image` / `input_file` understood (the reply says
what it received), `previous_response_id` continuing a stored conversation (per key,
bounded), and a long input sent again reported as cached (`input_tokens_details.cached_tokens`,
inside `input_tokens`; `prompt_cache.automatic_units`). Function tools and a forced `tool_choice` are accepted nested (the spec's form) and
flat (the openai SDK's form). Structured output, which the spec does not list, is read where the
responses format of real gateways puts it: `text.format` `{type: json_schema, name, schema}`
answers with JSON valid against the schema.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from playground.demo_gateway import cited, scripted, text
from playground.demo_gateway.catalog import CHAT_MODELS, resolve_chat_model
from playground.demo_gateway.characters import pace as model_pace
from playground.demo_gateway.common import (
    HTTPProblem,
    bearer_key,
    count_tokens,
    first_pieces,
    number_in_range,
    pace,
    positive_int,
    split_pieces,
    sse_data,
    sse_response,
)
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.parallel_calls import call_prompts
from playground.demo_gateway.prompt_cache import PromptCache, Unit, automatic_units
from playground.demo_gateway.faults import Fault, inject_stream_fault, strip_markers

MAX_FILE_BYTES = 50 * 1024 * 1024
STORED_RESPONSES = 256
EFFORTS = ("none", "low", "medium", "high")
SUMMARIES = ("auto", "none", "detailed")
SEARCH_SOURCES = (("Gateway Playground documentation", "https://docs.example.com/gateway-playground"),
                  ("Demo gateway release notes", "https://news.example.com/demo-gateway"))


def _invalid(message: str) -> HTTPProblem:
    return HTTPProblem(400, "invalid_request_error", message)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict) and "text" in part)
    return ""


def _file_size(data_url: str, where: str) -> int:
    match = re.match(r"^data:[\w.+/-]+;base64,(.*)$", data_url, re.DOTALL)
    if not match:
        raise _invalid(f"{where}.file_data: must be a data URL with base64 data")
    try:
        return len(base64.b64decode(match.group(1), validate=True))
    except (binascii.Error, ValueError):
        raise _invalid(f"{where}.file_data: the base64 data is not valid") from None


def _received(content: Any, where: str) -> tuple[list[str], int]:
    """What a user item carried besides text (for the reply), and its file bytes."""
    notes, total = [], 0
    for index, part in enumerate(content if isinstance(content, list) else []):
        kind = part.get("type") if isinstance(part, dict) else None
        spot = f"{where}.content[{index}]"
        if kind == "input_image":
            if not isinstance(part.get("image_url"), str) or not part["image_url"]:
                raise _invalid(f"{spot}.image_url: required for input_image")
            if part.get("detail") not in (None, "low", "high", "auto"):
                raise _invalid(f"{spot}.detail: must be low, high or auto")
            notes.append(f"an image ({part.get('detail') or 'auto'} detail)")
        elif kind == "input_file":
            if part.get("file_url"):
                notes.append(f"a file at {part['file_url']}")
            elif part.get("filename") and isinstance(part.get("file_data"), str):
                size = _file_size(part["file_data"], spot)
                if size > MAX_FILE_BYTES:
                    raise _invalid(f"{spot}: {part['filename']} is {size / 1e6:.1f} MB; files may be at most 50 MB")
                total += size
                media = part["file_data"][5:].split(";", 1)[0]
                notes.append(f"the file {part['filename']} ({media}, {size} bytes)")
            else:
                raise _invalid(f"{spot}: input_file needs file_url, or filename with file_data")
        elif kind not in ("input_text", "output_text", "text"):
            raise _invalid(f"{spot}.type: must be input_text, input_image or input_file")
    return notes, total


def _validate(body: dict[str, Any]) -> None:
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise _invalid("model: field required")
    if resolve_chat_model(model) is None:
        raise HTTPProblem(404, "not_found_error", f"model: {model} is not served by this gateway")
    if body.get("input") in (None, [], ""):
        raise _invalid("input: field required")
    positive_int(body, "max_output_tokens")
    positive_int(body, "max_tool_calls")
    number_in_range(body, "temperature", 0, 2)
    number_in_range(body, "top_p", 0, 1)
    reasoning = body.get("reasoning") or {}
    if reasoning.get("effort") not in (None, *EFFORTS):
        raise _invalid("reasoning.effort: must be none, low, medium or high")
    if reasoning.get("summary") not in (None, *SUMMARIES):
        raise _invalid("reasoning.summary: must be auto, none or detailed")
    if body.get("truncation") not in (None, "auto", "disabled"):
        raise _invalid("truncation: must be auto or disabled")
    for index, tool in enumerate(body.get("tools") or []):
        kind = tool.get("type") if isinstance(tool, dict) else None
        if kind == "function" and not _function(tool).get("name"):
            raise _invalid(f"tools[{index}]: a function tool needs a name")
        if kind == "web_search_preview" and tool.get("search_context_size") not in (None, "low", "medium", "high"):
            raise _invalid(f"tools[{index}].search_context_size: must be low, medium or high")
        if kind not in ("function", "web_search_preview", "file_search"):
            raise _invalid(f"tools[{index}].type: must be function, web_search_preview or file_search")


def _function(tool: dict[str, Any]) -> dict[str, Any]:
    """A function tool's definition, nested (spec) or flat (SDK)."""
    return tool["function"] if isinstance(tool.get("function"), dict) else tool


@dataclass
class Planned:
    model: str
    output: list[dict[str, Any]] = field(default_factory=list)
    input_tokens: int = 0
    prefix: list[Unit] = field(default_factory=list)
    """The input as the automatic prompt cache reads it (`prompt_cache.automatic_units`)."""
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    status: str = "completed"
    incomplete: str | None = None


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    raw = body["input"]
    items = [{"role": "user", "content": raw}] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise _invalid("input: must be a string or an array of items")
    return items


def _reasoning_wanted(body: dict[str, Any]) -> tuple[bool, str, str]:
    base, mode = resolve_chat_model(body["model"]) or (body["model"], None)
    reasoning = body.get("reasoning") or {}
    effort = reasoning.get("effort") or "medium"
    reasoning_model = bool(CHAT_MODELS.get(base, {}).get("reasoning")) or mode not in (None, "off")
    return reasoning_model and effort != "none" and mode != "off", effort, reasoning.get("summary") or "auto"


def plan(body: dict[str, Any], history: list[dict[str, Any]]) -> Planned:
    items = history + _items(body)
    planned = Planned(body["model"])
    total_files, notes = 0, []
    for index, item in enumerate(items):
        if item.get("role") == "user" or (item.get("type") == "message" and item.get("role") == "user"):
            got, size = _received(item.get("content"), f"input[{index}]")
            notes, total_files = got, total_files + size
    if total_files > MAX_FILE_BYTES:
        raise _invalid(f"input: the files of one request may be at most 50 MB together ({total_files / 1e6:.1f} MB sent)")
    tokens = [count_tokens(_text_of(item.get("content")) or str(item.get("output", ""))) for item in items]
    planned.input_tokens = sum(tokens)
    planned.prefix = automatic_units([(json.dumps(item, sort_keys=True), count) for item, count in zip(items, tokens)])
    last = items[-1]
    prompt = strip_markers(_text_of(last.get("content"))) if last.get("role") == "user" else ""
    think, effort, summary = _reasoning_wanted(body)
    seed = hashlib.sha256(repr(items).encode()).hexdigest()[:20]
    if think:
        reasoning = text.reasoning_text(prompt, effort, body["model"])
        planned.reasoning_tokens = count_tokens(reasoning)
        summary_parts = [] if summary == "none" else [{"type": "summary_text", "text": reasoning}]
        if summary == "detailed":  # one part per step, each under a bold heading, as real gateways send
            steps = text.reasoning_steps(prompt, effort, body["model"])
            summary_parts = [{"type": "summary_text", "text": f"**Step {n}**\n\n{step}"} for n, step in enumerate(steps, 1)]
        planned.output.append({"id": f"rs_{seed}", "type": "reasoning", "summary": summary_parts})
    outputs = [item for item in items if item.get("type") == "function_call_output"]
    tools = [tool for tool in body.get("tools") or [] if isinstance(tool, dict)]
    if last.get("type") == "function_call_output":
        answer = text.tool_answer_text([(item.get("call_id", ""), str(item.get("output", ""))) for item in outputs[-1:]])
        planned.output.append(_message(seed, answer))
    elif (tool := _chosen_function(tools, body.get("tool_choice"), prompt)) is not None:
        definition = _function(tool)
        for index, asked in enumerate(call_prompts(prompt, body.get("parallel_tool_calls") is not False)):
            arguments = scripted.tool_arguments(definition.get("parameters") or {"type": "object"}, asked)
            suffix = f"_{index}" if index else ""
            planned.output.append({"id": f"fc_{seed}{suffix}", "type": "function_call", "status": "completed", "name": definition["name"],
                                   "call_id": f"call_{seed}{suffix}", "arguments": _json(arguments)})
    elif any(tool.get("type") == "web_search_preview" for tool in tools):
        planned.output.append({"id": f"ws_{seed}", "type": "web_search_call", "status": "completed"})
        planned.output.append(_cited_message(seed, prompt))
    elif (schema := _answer_schema(body)) is not None:
        planned.output.append(_message(seed, json.dumps(scripted.structured(schema, prompt))))
    else:
        settings = {name: body.get(name) for name in ("temperature", "top_p", "max_output_tokens")}
        answer = text.reply_text(prompt, body["model"], settings, sum("image" in note for note in notes))
        if notes:
            answer += " I received " + " and ".join(notes) + "."
        if body.get("max_output_tokens"):
            cut = first_pieces(answer, body["max_output_tokens"])
            if cut != answer:
                answer, planned.status, planned.incomplete = cut, "incomplete", "max_output_tokens"
        planned.output.append(_message(seed, answer))
    return planned


def _answer_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The schema of `text.format` (type `json_schema`), or None for a free-text answer."""
    answer_format = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    if not isinstance(answer_format, dict) or answer_format.get("type") != "json_schema":
        return None
    if not isinstance(answer_format.get("schema"), dict):
        raise _invalid("text.format.schema must be a JSON Schema object.")
    return answer_format["schema"]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _chosen_function(tools: list[dict[str, Any]], choice: Any, prompt: str) -> dict[str, Any] | None:
    functions = [tool for tool in tools if tool.get("type") == "function"]
    if choice == "none" or not functions:
        return None
    if isinstance(choice, dict):
        wanted = (choice.get("function") or {}).get("name") or choice.get("name")
        chosen = next((tool for tool in functions if _function(tool)["name"] == wanted), None)
        if chosen is None:
            raise _invalid(f"tool_choice names {wanted!r}, which is not among the tools")
        return chosen
    words = set(re.findall(r"[a-z0-9]+", prompt.lower()))
    for tool in functions:
        parts = [part for part in re.split(r"[_\W]+", _function(tool)["name"]) if len(part) >= 4]
        if any(part.lower() in words for part in parts):
            return tool
    return None


def _message(seed: str, answer: str, annotations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": f"msg_{seed}", "type": "message", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": answer, "annotations": annotations or []}]}


def _cited_message(seed: str, prompt: str) -> dict[str, Any]:
    intro, sentences = cited.cited_sentences(prompt, [title for title, _ in SEARCH_SOURCES])
    answer, annotations = intro, []
    for sentence, index in sentences:
        title, url = SEARCH_SOURCES[index]
        start = len(answer) + 1
        answer += " " + sentence
        at = sentence.find(title)
        begin, end = (start + at, start + at + len(title)) if at >= 0 else (start, start + len(sentence))
        annotations.append({"type": "url_citation", "start_index": begin, "end_index": end, "url": url, "title": title})
    return _message(seed, answer, annotations)


class ResponsesEndpoints:
    def __init__(self, config: DemoConfig) -> None:
        self.config = config
        self.cache = PromptCache(config.clock)
        self._stored: OrderedDict[tuple[str, str], list[dict[str, Any]]] = OrderedDict()

    def _history(self, key: str, response_id: Any) -> list[dict[str, Any]]:
        if response_id is None:
            return []
        if not isinstance(response_id, str) or (key, response_id) not in self._stored:
            raise _invalid(f"previous_response_id: no response {str(response_id)[:60]!r} is stored for this key (it may have expired)")
        return list(self._stored[(key, response_id)])

    def _store(self, key: str, response_id: str, items: list[dict[str, Any]]) -> None:
        self._stored[(key, response_id)] = items
        while len(self._stored) > STORED_RESPONSES:
            self._stored.popitem(last=False)

    async def create(self, body: dict[str, Any], fault: Fault | None, request: Request) -> Response:
        _validate(body)
        key = bearer_key(request) or ""
        history = self._history(key, body.get("previous_response_id"))
        planned = plan(body, history)
        planned.cached_tokens = self.cache.apply(body["model"], planned.prefix).cache_read_input_tokens
        response_id = "resp_" + hashlib.sha256((repr(history) + repr(body["input"]) + body["model"]).encode()).hexdigest()[:24]
        final = self._response(response_id, body, planned)
        self._store(key, response_id, history + _items(body) + planned.output)
        if not body.get("stream"):
            return JSONResponse(final)
        failure = sse_data({"type": "error", "code": "upstream_error", "message": "The upstream model failed mid-stream (demo fault)."}, "error")
        return sse_response(inject_stream_fault(self._events(final, planned), fault, self.config.stall_seconds, failure))

    def _response(self, response_id: str, body: dict[str, Any], planned: Planned) -> dict[str, Any]:
        output_tokens = sum(count_tokens(_text_of(item.get("content")) + item.get("arguments", "")) for item in planned.output)
        output_tokens += planned.reasoning_tokens
        return {
            "id": response_id, "object": "response", "created_at": int(time.time()), "model": body["model"], "status": planned.status,
            "output": planned.output, "previous_response_id": body.get("previous_response_id"),
            "incomplete_details": {"reason": planned.incomplete} if planned.incomplete else None,
            "usage": {"input_tokens": planned.input_tokens, "output_tokens": output_tokens,
                      "total_tokens": planned.input_tokens + output_tokens, "input_tokens_details": {"cached_tokens": planned.cached_tokens},
                      "output_tokens_details": {"reasoning_tokens": planned.reasoning_tokens}},
        }

    async def _events(self, final: dict[str, Any], planned: Planned) -> AsyncIterator[str]:
        sequence = iter(range(1_000_000))

        def event(kind: str, **fields: Any) -> str:
            return sse_data({"type": kind, "sequence_number": next(sequence), **fields}, kind)

        started = {**final, "status": "in_progress", "output": [], "usage": None}
        yield event("response.created", response=started)
        yield event("response.in_progress", response=started)
        for position, item in enumerate(planned.output):
            added = {**item, "status": "in_progress"}
            if item["type"] == "message":
                added["content"] = []
            if item["type"] == "function_call":
                added["arguments"] = ""
            if item["type"] == "reasoning":
                added["summary"] = []
            yield event("response.output_item.added", output_index=position, item=added)
            async for frame in self._item_events(event, position, item, self.config.token_delay * model_pace(final["model"])):
                yield frame
            yield event("response.output_item.done", output_index=position, item=item)
        kind = "response.incomplete" if planned.status == "incomplete" else "response.completed"
        yield event(kind, response=final)

    async def _item_events(self, event: Any, position: int, item: dict[str, Any], delay: float) -> AsyncIterator[str]:
        item_id = item["id"]
        if item["type"] == "reasoning":
            for index, part in enumerate(item["summary"]):
                yield event("response.reasoning_summary_part.added", item_id=item_id, output_index=position, summary_index=index,
                            part={"type": "summary_text", "text": ""})
                for piece in split_pieces(part["text"]):
                    await pace(delay)
                    yield event("response.reasoning_summary_text.delta", item_id=item_id, output_index=position, summary_index=index, delta=piece)
                yield event("response.reasoning_summary_text.done", item_id=item_id, output_index=position, summary_index=index, text=part["text"])
                yield event("response.reasoning_summary_part.done", item_id=item_id, output_index=position, summary_index=index, part=part)
        elif item["type"] == "function_call":
            for piece in re.findall(r".{1,12}", item["arguments"], re.DOTALL):
                await pace(delay)
                yield event("response.function_call_arguments.delta", item_id=item_id, output_index=position, delta=piece)
            yield event("response.function_call_arguments.done", item_id=item_id, output_index=position, arguments=item["arguments"])
        elif item["type"] == "web_search_call":
            for stage in ("in_progress", "searching", "completed"):
                yield event(f"response.web_search_call.{stage}", item_id=item_id, output_index=position)
        elif item["type"] == "message":
            part = item["content"][0]
            yield event("response.content_part.added", item_id=item_id, output_index=position, content_index=0,
                        part={"type": "output_text", "text": "", "annotations": []})
            for piece in split_pieces(part["text"]):
                await pace(delay)
                yield event("response.output_text.delta", item_id=item_id, output_index=position, content_index=0, delta=piece,
                            obfuscation="x" * (len(piece) % 7), logprobs=[])
            for index, annotation in enumerate(part["annotations"]):
                yield event("response.output_text.annotation.added", item_id=item_id, output_index=position, content_index=0,
                            annotation_index=index, annotation=annotation)
            yield event("response.output_text.done", item_id=item_id, output_index=position, content_index=0, text=part["text"], logprobs=[])
            yield event("response.content_part.done", item_id=item_id, output_index=position, content_index=0, part=part)
