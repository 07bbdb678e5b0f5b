"""Probes of error answers (a bad request, an unknown model, a wrong key: status and the
format's error body as the spec draws it) and of the messages format's token accounting
(prompt caching, count_tokens)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from playground.client.errors import APIStatusError
from playground.client.intent import Intent
from playground.client.report.probe import NONE, Fail, Probe, excerpt
from playground.client.texts import Text

WRONG_KEY = "sk-report-probe-wrong-key"
MESSAGES_ERROR_TYPES = frozenset({"invalid_request", "invalid_request_error", "authentication_error", "rate_limit_error",
                                  "upstream_error", "svc_api_error", "not_found_error", "permission_error"})
UNKNOWN = {"chat": "no-such-model-report", "responses": "no-such-model-report", "messages": "cl-no-such-model-report",
           "native": "gx-no-such-model-report", "embeddings": "no-such-embedding-report"}


def _route(fmt: str, model: str) -> str:
    return {"chat": "/v1/chat/completions", "responses": "/v1/responses", "messages": "/v1/messages",
            "native": f"/v1beta/models/{model}:generateContent", "embeddings": "/v1/embeddings"}[fmt]


def _body(fmt: str, model: str, bad: bool = False) -> dict[str, Any]:
    """A small valid body of the format, or (`bad`) one that breaks a rule of the spec."""
    if fmt == "chat":
        return {"model": model, "messages": [{"role": "user", "content": "Hello"}], **({"temperature": 5} if bad else {})}
    if fmt == "responses":
        return {"model": model, "input": "Hello", **({"temperature": 5} if bad else {})}
    if fmt == "messages":
        return {"model": model, "messages": [{"role": "user", "content": "Hello"}], **({} if bad else {"max_tokens": 64})}
    if fmt == "native":
        return {"contents": [{"role": "user", "parts": [{"text": "Hello"}]}], **({"generationConfig": {"temperature": 5}} if bad else {})}
    return {"model": model, "input": "Hello"}


def error_body_problem(fmt: str, body: Any) -> str | None:
    """Why an error body is not the format's error object (None: it is)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return Text("report.errors.no_error_object")
    if not isinstance(error.get("message"), str) or not error["message"].strip():
        return Text("report.errors.no_message")
    if fmt == "messages" and error.get("type") not in MESSAGES_ERROR_TYPES:
        return Text("report.errors.type_not_messages", type=repr(error.get('type')))
    if fmt in ("chat", "responses", "embeddings") and not isinstance(error.get("type") or error.get("code"), str):
        return Text("report.errors.no_type_or_code")
    return None


def _judge(fmt: str, error: APIStatusError, statuses: tuple[int, int], what: str) -> str:
    body = error.exchange.response_body if error.exchange is not None else error.body
    if error.status not in statuses:
        raise Fail(Text("report.errors.status", request=what, status=error.status), Text("report.errors.expected_statuses", first=statuses[0], second=statuses[1]),
                   f"HTTP {error.status}: {excerpt(body)}")
    problem = error_body_problem(fmt, body)
    if problem:
        raise Fail(Text("report.errors.body_problem", request=what, problem=problem), Text("report.errors.expected_body"), excerpt(body), tag="error-shape")
    return f"HTTP {error.status}: {excerpt(body['error']['message'], 80)}"


async def bad_request(probe: Probe) -> str:
    error = await probe.expect_error(probe.conn, "POST", _route(probe.format, probe.model), _body(probe.format, probe.model, bad=True))
    return _judge(probe.format, error, (400, 422), Text("report.errors.a_bad_request"))


async def unknown_model(probe: Probe) -> str:
    model = UNKNOWN[probe.format]
    error = await probe.expect_error(probe.conn, "POST", _route(probe.format, model), _body(probe.format, model))
    return _judge(probe.format, error, (404, 400), Text("report.errors.an_unknown_model"))


async def auth(probe: Probe) -> str:
    wrong = replace(probe.conn, api_key=WRONG_KEY)
    error = await probe.expect_error(wrong, "POST", _route(probe.format, probe.model), _body(probe.format, probe.model))
    return _judge(probe.format, error, (401, 403), Text("report.errors.a_wrong_key"))


def _long_system(nonce: str) -> list[dict[str, Any]]:
    text = " ".join(f"Fact {i} of report {nonce}: the gateway keeps item {i} in its cache." for i in range(260))
    return [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]


async def caching(probe: Probe) -> str:
    base = probe.request(Intent("Which fact is number 7?", stream=False))
    body = base.to_body()
    body["system"] = _long_system(probe.nonce)
    request = type(base).build(**body)
    first = await probe.create(request)
    second = await probe.create(request)
    written = first.usage.cache_creation_tokens if first.usage else None
    read = second.usage.cached_tokens if second.usage else None
    if not written:
        raise Fail(Text("report.caching.not_written"), Text("report.caching.expected_write"), excerpt(first.usage.__dict__ if first.usage else Text("report.no_usage")))
    if not read:
        raise Fail(Text("report.caching.not_read"), Text("report.caching.expected_read"), excerpt(second.usage.__dict__ if second.usage else Text("report.no_usage")))
    return Text("report.caching.passed", written=written, read=read)


async def count_tokens(probe: Probe) -> str:
    request = probe.request(Intent("How many tokens does this question take?", system="Answer briefly.", stream=False))
    counted = await probe.call(lambda: probe.client.messages.count_tokens(probe.conn, request))
    probe.keep(counted[1])
    result = await probe.create(request)
    usage = result.usage
    used = (usage.input_tokens or 0) + (usage.cache_creation_tokens or 0) + (usage.cached_tokens or 0) if usage else 0
    if not used:
        raise Fail(Text("report.count_tokens.no_input_tokens"), Text("report.count_tokens.expected_input_tokens"), NONE)
    if abs(counted[0] - used) > 0.1 * used:
        raise Fail(Text("report.count_tokens.differs", counted=counted[0], used=used), Text("report.count_tokens.expected_within", tokens=used), str(counted[0]))
    return Text("report.count_tokens.passed", counted=counted[0], used=used)


PROBES = {"bad_request": bad_request, "unknown_model": unknown_model, "auth": auth, "caching": caching, "count_tokens": count_tokens}
