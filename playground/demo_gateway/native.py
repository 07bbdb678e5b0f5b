"""The native generate-content format on the demo gateway, written from the spec (not from the
client): `/v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`.

Thinking (thought parts with a `thoughtSignature` and a thoughts token count) for budgets,
levels and the model suffixes; `responseModalities` with `IMAGE` returns a real PNG as
`inlineData` (the image models `gx-2.5-flash-image` and `gx-3-pro-image-preview` draw unless
asked for text only); function calls (and an answer that uses the `functionResponse`); grounded answers
with `groundingMetadata` (citations by UTF-8 byte offsets) when `svcSearch` is among the tools;
`cachedContent` accepted; the `prompt_blocked` fault answers with `promptFeedback.blockReason`
and no candidates. Stream frames are separated by CRLF, as some gateways do. Errors use
`{"error": {"code", "message", "status"}}`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.responses import JSONResponse, Response

from playground.demo_gateway import cited, scenes, scripted, text
from playground.demo_gateway.catalog import IMAGE_MODELS, resolve_chat_model
from playground.demo_gateway.characters import pace as model_pace
from playground.demo_gateway.common import HTTPProblem, count_tokens, first_pieces, pace, split_pieces, sse_response
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.grading import is_grading_prompt
from playground.demo_gateway.faults import Fault, inject_stream_fault, strip_markers

MODES = ("AUTO", "ANY", "NONE")
SEARCH_SOURCES = (("Gateway guide", "https://docs.example.com/gateway"), ("Gateway news", "https://news.example.com/gateway"))
STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


def native_error(status: int, _type: str, message: str, _code: str | None = None, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": {"code": status, "message": message, "status": STATUS_NAMES.get(status, "UNKNOWN")}}, status, headers=headers)


def _invalid(message: str) -> HTTPProblem:
    return HTTPProblem(400, "invalid", message)


def _validate(model: str, body: dict[str, Any]) -> None:
    if (resolve_chat_model(model) is None and model not in IMAGE_MODELS) or not model.startswith("gx"):
        raise HTTPProblem(404, "not_found", f"models/{model} is not found or does not support generateContent")
    if "model" in body:
        raise _invalid("model: the model goes in the path, not in the body")
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise _invalid("contents: must be a non-empty array")
    for index, content in enumerate(contents):
        if not isinstance(content, dict) or content.get("role", "user") not in ("user", "model"):
            raise _invalid(f"contents[{index}].role: must be user or model")
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts:
            raise _invalid(f"contents[{index}].parts: must be a non-empty array")
        calls = [part for part in parts if isinstance(part, dict) and "functionCall" in part]
        if calls and content.get("role") == "model":
            following = contents[index + 1] if index + 1 < len(contents) else None
            if following is not None and not any("functionResponse" in p for p in following.get("parts") or []):
                raise _invalid(f"contents[{index + 1}]: a model turn with a functionCall must be followed by a functionResponse")
    config = body.get("generationConfig") or {}
    temperature = config.get("temperature")
    if temperature is not None and not (isinstance(temperature, (int, float)) and 0 <= temperature <= 2):
        raise _invalid("generationConfig.temperature: must be between 0 and 2")
    thinking = config.get("thinkingConfig") or {}
    if "thinkingBudget" in thinking and "thinkingLevel" in thinking:
        raise _invalid("generationConfig.thinkingConfig: give thinkingBudget or thinkingLevel, not both")
    if thinking.get("thinkingLevel") not in (None, "LOW", "HIGH"):
        raise _invalid("generationConfig.thinkingConfig.thinkingLevel: must be LOW or HIGH")
    stops = config.get("stopSequences")
    if stops is not None and not (isinstance(stops, list) and all(isinstance(stop, str) and stop for stop in stops)):
        raise _invalid("generationConfig.stopSequences: must be an array of non-empty strings")
    mode = ((body.get("toolConfig") or {}).get("functionCallingConfig") or {}).get("mode")
    if mode not in (None, *MODES):
        raise _invalid("toolConfig.functionCallingConfig.mode: must be AUTO, ANY or NONE")


def _camel_key(key: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key)


def _camel(value: Any) -> Any:
    """Field names as the proto JSON mapping reads them: `thinking_budget` and `thinkingBudget` alike."""
    if isinstance(value, dict):
        return {_camel_key(key): _camel(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_camel(item) for item in value]
    return value


def _lower_types(schema: Any) -> Any:
    """Schemas in the uppercase OpenAPI style (`OBJECT`, `STRING`) read as JSON Schema."""
    if isinstance(schema, dict):
        return {key: (item.lower() if key == "type" and isinstance(item, str) else _lower_types(item)) for key, item in schema.items()}
    if isinstance(schema, list):
        return [_lower_types(item) for item in schema]
    return schema


def _thinking(model: str, config: dict[str, Any]) -> tuple[bool, str]:
    _, suffix = resolve_chat_model(model) or (model, None)
    thinking = config.get("thinkingConfig") or {}
    if suffix == "off" or thinking.get("thinkingBudget") == 0:
        return False, "medium"
    if thinking.get("thinkingLevel"):
        return True, "low" if thinking["thinkingLevel"] == "LOW" else "high"
    if thinking.get("thinkingBudget") or suffix not in (None, "off"):
        return True, suffix if suffix in ("low", "high") else "medium"
    return False, "medium"


def _png(prompt: str, seed: str) -> str:
    """A real PNG made for the prompt: its subject drawn as a simple scene (`scenes.py`)."""
    image = scenes.draw(scenes.read(prompt), (256, 160), variant=int(seed[:2], 16))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _function(body: dict[str, Any], prompt: str) -> dict[str, Any] | None:
    declarations = [d for tool in body.get("tools") or [] for d in (tool.get("functionDeclarations") or [])]
    mode = ((body.get("toolConfig") or {}).get("functionCallingConfig") or {}).get("mode", "AUTO")
    if not declarations or mode == "NONE":
        return None
    words = set(re.findall(r"[a-z0-9]+", prompt.lower()))
    for declaration in declarations:
        if any(part.lower() in words for part in re.split(r"[_\W]+", declaration.get("name", "")) if len(part) >= 4):
            return declaration
    return declarations[0] if mode == "ANY" else None


def _before_stop(reply: str, stops: Any) -> str:
    """The answer cut before the earliest of `generationConfig.stopSequences` it contains."""
    cuts = [reply.find(stop) for stop in stops or [] if isinstance(stop, str) and stop and stop in reply]
    return reply[: min(cuts)] if cuts else reply


def _answer_schema(config: dict[str, Any]) -> dict[str, Any] | None:
    """Structured output (not in the spec's list; where the native format of real gateways puts it):
    `responseMimeType` `application/json` with `responseJsonSchema` or `responseSchema`."""
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if config.get("responseMimeType") != "application/json" or not isinstance(schema, dict):
        return None
    return schema


def _grounded(prompt: str) -> tuple[str, dict[str, Any]]:
    intro, sentences = cited.cited_sentences(prompt, [title for title, _ in SEARCH_SOURCES])
    answer = intro + " "
    supports = []
    for sentence, index in sentences:
        start = len(answer.encode())
        answer += sentence + " "
        supports.append({"segment": {"startIndex": start, "endIndex": start + len(sentence.encode()), "text": sentence},
                         "groundingChunkIndices": [index]})
    metadata = {"webSearchQueries": [prompt.strip()[:60]], "groundingSupports": supports,
                "groundingChunks": [{"web": {"uri": uri, "title": title}} for title, uri in SEARCH_SOURCES],
                "searchEntryPoint": {"renderedContent": "<div class='chip'><script>alert(1)</script>search</div>"}}
    return answer.strip(), metadata


def plan(model: str, body: dict[str, Any]) -> dict[str, Any]:
    """The whole answer (one candidate) as the non-streaming call returns it."""
    contents = body["contents"]
    last = contents[-1]
    prompt = strip_markers(" ".join(p.get("text", "") for p in last.get("parts") or [] if isinstance(p, dict) and "text" in p))
    responses = [p["functionResponse"] for p in last.get("parts") or [] if isinstance(p, dict) and "functionResponse" in p]
    config = body.get("generationConfig") or {}
    seed = hashlib.sha256(json.dumps(contents, sort_keys=True).encode()).hexdigest()
    parts: list[dict[str, Any]] = []
    think, effort = _thinking(model, config)
    thoughts = 0
    if think:
        reasoning = text.reasoning_text(prompt, effort, model)
        thoughts = count_tokens(reasoning)
        parts.append({"text": reasoning, "thought": True, "thoughtSignature": base64.b64encode(seed[:24].encode()).decode()})
    candidate: dict[str, Any] = {"index": 0, "finishReason": "STOP"}
    declaration = None if responses else _function(body, prompt)
    if responses:
        parts.append({"text": text.tool_answer_text([(r.get("name", ""), json.dumps(r.get("response"))) for r in responses])})
    elif declaration is not None:
        args = scripted.tool_arguments(_lower_types(declaration.get("parameters") or {"type": "object"}), prompt)
        parts.append({"functionCall": {"name": declaration["name"], "args": args}})
    elif any("svcSearch" in tool for tool in body.get("tools") or []):
        answer, candidate["groundingMetadata"] = _grounded(prompt)
        parts.append({"text": answer})
    elif (schema := _answer_schema(config)) is not None:
        parts.append({"text": json.dumps(scripted.structured(_lower_types(schema), prompt))})
    else:
        images = sum(1 for p in last.get("parts") or [] if isinstance(p, dict) and "inlineData" in p)
        settings = {k: config.get(k) for k in ("temperature", "topP", "maxOutputTokens")}
        modalities = [str(m).upper() for m in config.get("responseModalities") or []]
        drawing = "IMAGE" in modalities or (model in IMAGE_MODELS and not modalities)
        reply = text.reply_text(prompt, model, settings, images)
        if drawing and scripted.answer(prompt) is None and not is_grading_prompt(prompt):
            reply = scenes.caption(prompt)
        reply = _before_stop(reply, config.get("stopSequences"))
        limit = config.get("maxOutputTokens")
        if isinstance(limit, int) and not isinstance(limit, bool) and 0 < limit < count_tokens(reply):
            reply, candidate["finishReason"] = first_pieces(reply, limit), "MAX_TOKENS"
        parts.append({"text": reply})
        if think:  # the answer after thoughts is signed too; a stream sends it on an empty last part
            parts[-1]["thoughtSignature"] = base64.b64encode(seed[24:48].encode()).decode()
        if drawing:
            parts.append({"inlineData": {"mimeType": "image/png", "data": _png(prompt, seed)}})
    candidate["content"] = {"role": "model", "parts": parts}
    prompt_tokens = sum(count_tokens(p.get("text", "")) for c in contents for p in c.get("parts") or [] if isinstance(p, dict))
    visible = sum(count_tokens(p.get("text", "")) for p in parts if not p.get("thought"))
    usage = {"promptTokenCount": prompt_tokens, "candidatesTokenCount": visible, "totalTokenCount": prompt_tokens + visible + thoughts}
    if thoughts:
        usage["thoughtsTokenCount"] = thoughts
    if body.get("cachedContent"):
        usage["cachedContentTokenCount"] = min(prompt_tokens, 16)
    return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": model}


async def _fragments(answer: dict[str, Any], delay: float) -> AsyncIterator[str]:
    candidate = answer["candidates"][0]
    parts = candidate["content"]["parts"]

    def frame(fragment_parts: list[dict[str, Any]], last: bool) -> str:
        piece: dict[str, Any] = {"index": 0, "content": {"role": "model", "parts": fragment_parts}}
        body: dict[str, Any] = {"candidates": [piece], "modelVersion": answer["modelVersion"]}
        if last:
            piece["finishReason"] = candidate["finishReason"]
            if "groundingMetadata" in candidate:
                piece["groundingMetadata"] = candidate["groundingMetadata"]
            body["usageMetadata"] = answer["usageMetadata"]
        return "data: " + json.dumps(body, ensure_ascii=False) + "\r\n\r\n"

    pending: list[dict[str, Any]] = []
    closing: list[dict[str, Any]] = []
    for part in parts:
        if "text" in part:
            words = split_pieces(part["text"])
            for index, word in enumerate(words):
                piece = {"text": word, **({"thought": True} if part.get("thought") else {})}
                if index == len(words) - 1 and part.get("thoughtSignature") and part.get("thought"):
                    piece["thoughtSignature"] = part["thoughtSignature"]
                elif index == len(words) - 1 and part.get("thoughtSignature"):
                    closing = [{"text": "", "thoughtSignature": part["thoughtSignature"]}]
                if pending:
                    yield frame(pending, False)
                    pending = []
                    await pace(delay)
                pending = [piece]
        else:
            if pending:
                yield frame(pending, False)
            pending = [part]
    yield frame(pending + closing, True)


def _blocked(model: str, body: dict[str, Any]) -> dict[str, Any]:
    """The answer to a prompt refused before generation: no candidates, the reason, the prompt's usage."""
    prompt_tokens = sum(count_tokens(p.get("text", "")) for c in body["contents"] for p in c.get("parts") or [] if isinstance(p, dict))
    ratings = [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]
    return {"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": ratings},
            "usageMetadata": {"promptTokenCount": prompt_tokens, "totalTokenCount": prompt_tokens}, "modelVersion": model}


async def _one_frame(answer: dict[str, Any]) -> AsyncIterator[str]:
    yield "data: " + json.dumps(answer, ensure_ascii=False) + "\r\n\r\n"


class NativeEndpoints:
    def __init__(self, config: DemoConfig) -> None:
        self.config = config

    async def generate(self, model: str, operation: str, body: dict[str, Any], fault: Fault | None) -> Response:
        if operation not in ("generateContent", "streamGenerateContent"):
            raise HTTPProblem(404, "not_found", f"unknown method {operation}")
        body = {_camel_key(key): value for key, value in body.items()}
        body.update({key: _camel(body[key]) for key in ("generationConfig", "toolConfig") if key in body})
        _validate(model, body)
        answer = plan(model, body) if fault is None or fault.name != "prompt_blocked" else _blocked(model, body)
        if operation == "generateContent":
            return JSONResponse(answer)
        if "candidates" not in answer:
            return sse_response(_one_frame(answer))
        failure = "data: " + json.dumps({"error": {"code": 500, "message": "The upstream model failed mid-stream (demo fault).", "status": "INTERNAL"}}) + "\r\n\r\n"
        return sse_response(inject_stream_fault(_fragments(answer, self.config.token_delay * model_pace(model)), fault, self.config.stall_seconds, failure))
