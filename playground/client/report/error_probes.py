"""Probes of error answers (a bad request, an unknown model, a wrong key: status and the
format's error body as the spec draws it, judged by `error_shapes`) and of the messages format's token accounting
(prompt caching, count_tokens)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from playground.client.errors import APIStatusError
from playground.client.intent import Intent
from playground.client.report import error_shapes as shapes
from playground.client.report.probe import NONE, Fail, Probe, excerpt
from playground.client.texts import Text
from playground.client.transport import Connection

WRONG_KEY = "sk-report-probe-wrong-key"
UNKNOWN = {"chat": "no-such-model-report", "responses": "no-such-model-report", "messages": "cl-no-such-model-report",
           "native": "gx-no-such-model-report", "embeddings": "no-such-embedding-report",
           "embeddings-native": "no-such-embedding-report", "images": "no-such-image-model-report"}
COUNT_PATH = "/v1/messages/count_tokens"


def route(fmt: str, model: str) -> str:
    return {"chat": "/v1/chat/completions", "responses": "/v1/responses", "messages": "/v1/messages",
            "native": f"/v1beta/models/{model}:generateContent", "embeddings": "/v1/embeddings",
            "embeddings-native": f"/v1beta/models/{model}:embedContent", "images": "/v1/images/generations"}[fmt]


def body(fmt: str, model: str, bad: bool = False, text: str = "Hello") -> dict[str, Any]:
    """A small valid body of the format, or (`bad`) one that breaks a rule of the spec."""
    if fmt == "chat":
        return {"model": model, "messages": [{"role": "user", "content": text}], **({"temperature": 5} if bad else {})}
    if fmt == "responses":
        return {"model": model, "input": text, **({"temperature": 5} if bad else {})}
    if fmt == "messages":
        return {"model": model, "messages": [{"role": "user", "content": text}], **({} if bad else {"max_tokens": 64})}
    if fmt == "native":
        return {"contents": [{"role": "user", "parts": [{"text": text}]}], **({"generationConfig": {"temperature": 5}} if bad else {})}
    if fmt == "embeddings-native":  # the spec: the body must not contain a model field
        return {"content": {"parts": [{"text": text}]}, **({"model": model} if bad else {})}
    if fmt == "images":  # the spec: response_format is b64_json only for this family
        return {"model": model, "prompt": f"A small red apple. {text}", "n": 1, **({"response_format": "url"} if bad else {})}
    return {"model": model, "input": text, **({"encoding_format": "hex"} if bad else {})}


def error_body_problem(fmt: str, error_body: Any, kind: str = shapes.BAD_BODY, status: int = 400) -> str | None:
    """Why an error body is not the format's error object (None: it is)."""
    return shapes.body_problem(fmt, kind, status, error_body)


def judge(fmt: str, error: APIStatusError, kind: str, what: str) -> str:
    """The error's status and body against the spec's rules for `fmt` (Fail naming the section)."""
    answer = error.exchange.response_body if error.exchange is not None else error.body
    allowed = shapes.statuses(fmt, kind)
    if error.status not in allowed:
        expected = Text("report.errors.expected_status", status=allowed[0]) if len(allowed) == 1 else \
            Text("report.errors.expected_statuses", first=allowed[0], second=allowed[1])
        raise Fail(Text("report.errors.status", request=what, status=error.status, section=shapes.status_section(fmt, kind)),
                   expected, f"HTTP {error.status}: {excerpt(answer)}")
    problem = shapes.body_problem(fmt, kind, error.status, answer)
    if problem:
        raise Fail(Text("report.errors.body_problem", request=what, problem=problem, section=shapes.section(fmt)),
                   Text("report.errors.expected_body", section=shapes.section(fmt)), excerpt(answer), tag="error-shape")
    return f"HTTP {error.status}: {excerpt(answer['error']['message'], 80)}"


async def _count_tokens_error(probe: Probe, conn: Connection, kind: str, what: str) -> str:
    """The messages format's token counting, which has error bodies of its own (spec: Errors, Token counting)."""
    count_body = {"model": probe.model} if kind == shapes.BAD_BODY else {"model": probe.model, "messages": [{"role": "user", "content": "Hello"}]}
    error = await probe.expect_error(conn, "POST", COUNT_PATH, count_body)
    return judge(shapes.COUNT_TOKENS, error, kind, what)


async def bad_request(probe: Probe) -> str:
    error = await probe.expect_error(probe.conn, "POST", route(probe.format, probe.model), body(probe.format, probe.model, bad=True))
    verdict = judge(probe.format, error, shapes.BAD_BODY, Text("report.errors.a_bad_request"))
    if probe.format == "messages":
        counted = await _count_tokens_error(probe, probe.conn, shapes.BAD_BODY, Text("report.errors.a_count_without_messages"))
        return Text("report.errors.and_count_tokens", verdict=verdict, count_tokens=counted)
    return verdict


async def unknown_model(probe: Probe) -> str:
    model = UNKNOWN[probe.format]
    error = await probe.expect_error(probe.conn, "POST", route(probe.format, model), body(probe.format, model))
    return judge(probe.format, error, shapes.UNKNOWN_MODEL, Text("report.errors.an_unknown_model"))


async def auth(probe: Probe) -> str:
    wrong = replace(probe.conn, api_key=WRONG_KEY)
    error = await probe.expect_error(wrong, "POST", route(probe.format, probe.model), body(probe.format, probe.model))
    verdict = judge(probe.format, error, shapes.WRONG_KEY, Text("report.errors.a_wrong_key"))
    if probe.format == "messages":
        counted = await _count_tokens_error(probe, wrong, shapes.WRONG_KEY, Text("report.errors.a_count_with_wrong_key"))
        return Text("report.errors.and_count_tokens", verdict=verdict, count_tokens=counted)
    return verdict


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
