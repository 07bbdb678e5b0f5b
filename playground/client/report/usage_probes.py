"""Probes of token accounting: messages `count_tokens` with tools and an image against the
answer's usage, native `usageMetadata` with thoughts, and cache tokens where a format reports
them (chat and responses: cached tokens are part of the input; messages: reads and writes are
apart from `input_tokens`). Each failure names the rule and where it comes from."""

from __future__ import annotations

from typing import Any

from playground.client import catalog
from playground.client.intent import Intent
from playground.client.report.probe import NONE, Fail, Probe, Skip, excerpt, usage_problem
from playground.client.report.text_probes import QUESTION, tiny_png
from playground.client.results import TextResult, Usage
from playground.client.texts import Text

TOOL = {"name": "get_weather", "description": "The current weather in a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
IMAGE_ESTIMATE = 1000
"""The spec: count_tokens counts an image with a fixed estimate of about 1000 tokens."""
IMAGE_RANGE = (IMAGE_ESTIMATE // 2, IMAGE_ESTIMATE * 3 // 2)
TOLERANCE = 0.1
COUNT_RULE = Text("report.spec.count_tokens")
MESSAGE_USAGE_RULE = Text("report.spec.message_usage")
RESPONSES_USAGE_RULE = Text("report.spec.response_usage")
CHAT_USAGE_RULE = Text("report.spec.chat_usage")


def _input_total(usage: Usage | None) -> int:
    """Every input token of a messages answer: the non-cached input, the cache writes and the reads."""
    return (usage.input_tokens or 0) + (usage.cache_creation_tokens or 0) + (usage.cached_tokens or 0) if usage else 0


def _close(a: int, b: int) -> bool:
    return abs(a - b) <= TOLERANCE * max(a, b)


async def _count(probe: Probe, request: Any) -> int:
    counted, exchange = await probe.call(lambda: probe.client.messages.count_tokens(probe.conn, request))
    probe.keep(exchange)
    return int(counted)


async def count_tokens_extras(probe: Probe) -> str:
    info = catalog.find(probe.model)
    if info is not None and not info.vision:
        raise Skip(Text("report.image.model_takes_no_images", model=probe.model))
    question = "What is the weather like in the city shown in this picture?"
    plain = await _count(probe, probe.request(Intent(question, stream=False)))
    with_tools = await _count(probe, probe.request(Intent(question, stream=False), tools=[TOOL]))
    if with_tools <= plain:
        raise Fail(Text("report.count_tokens_extras.tools_not_counted", rule=COUNT_RULE), Text("report.count_tokens_extras.expected_more", tokens=plain),
                   str(with_tools), tag="count-without-tools")
    with_image = await _count(probe, probe.request(Intent(question, image=tiny_png(), stream=False)))
    if not IMAGE_RANGE[0] <= with_image - plain <= IMAGE_RANGE[1]:
        raise Fail(Text("report.count_tokens_extras.image_estimate", tokens=with_image - plain, rule=COUNT_RULE),
                   Text("report.count_tokens_extras.expected_image", low=IMAGE_RANGE[0], high=IMAGE_RANGE[1]), str(with_image - plain))
    both = probe.request(Intent(question, image=tiny_png(), stream=False), tools=[TOOL])
    counted = await _count(probe, both)
    used = _input_total((await probe.create(both)).usage)
    if not used:
        raise Fail(Text("report.count_tokens.no_input_tokens"), Text("report.count_tokens.expected_input_tokens"), NONE)
    if not _close(counted, used):
        raise Fail(Text("report.count_tokens_extras.differs", counted=counted, used=used, rule=COUNT_RULE),
                   Text("report.count_tokens.expected_within", tokens=used), str(counted))
    return Text("report.count_tokens_extras.passed", plain=plain, tools=with_tools - plain, image=with_image - plain, counted=counted, used=used)


def _thoughts_problem(result: TextResult) -> str | None:
    """Why a native answer's usageMetadata does not add up (None: it does)."""
    usage = result.usage
    if usage is None or not usage.input_tokens or not usage.output_tokens:
        return usage_problem(result)  # missing or zero counts: the Report's one usage rule says so
    if result.reasoning.strip() and not usage.reasoning_tokens:
        return Text("report.native_usage.thoughts_not_counted")
    whole = usage.input_tokens + usage.output_tokens + (usage.reasoning_tokens or 0)
    if usage.total_tokens != whole:
        return Text("report.native_usage.total_differs", total=usage.total_tokens, prompt=usage.input_tokens,
                    candidates=usage.output_tokens, thoughts=usage.reasoning_tokens or 0, whole=whole)
    return None


async def native_usage(probe: Probe) -> str:
    info = catalog.find(probe.model)
    thinking = info is None or bool(info.thinking_suffixes) or info.reasoning
    whole = await probe.create(probe.request(Intent(QUESTION, thinking=thinking, budget=1024, stream=False)))
    streamed = await probe.stream(probe.request(Intent(QUESTION, thinking=thinking, budget=1024)))
    for answer, result in ((Text("report.plain.whole"), whole), (Text("report.plain.streamed"), streamed)):
        problem = _thoughts_problem(result)
        if problem:
            raise Fail(Text("report.native_usage.problem", answer=answer, problem=problem), Text("report.native_usage.expected"),
                       excerpt(result.usage.__dict__ if result.usage else Text("report.no_usage")), tag="usage-sum")
    usage = whole.usage
    assert usage is not None
    return Text("report.native_usage.passed", prompt=usage.input_tokens, candidates=usage.output_tokens,
                thoughts=usage.reasoning_tokens or 0, total=usage.total_tokens)


def long_prompt(nonce: str) -> str:
    """A prompt long enough to be cached (over 2,048 tokens as the demo and the vendors count)."""
    return " ".join(f"Entry {i} of ledger {nonce}: the gateway keeps line {i} in its cache." for i in range(260))


def _cached_request(probe: Probe) -> Any:
    question = "Which entry is number 7?"
    base = probe.request(Intent(question, stream=False))
    if probe.format != "messages":
        return probe.request(Intent(f"{long_prompt(probe.nonce)}\n\n{question}", stream=False))
    body = base.to_body()
    body["messages"] = [{"role": "user", "content": [{"type": "text", "text": long_prompt(probe.nonce), "cache_control": {"type": "ephemeral"}},
                                                     {"type": "text", "text": question}]}]
    return type(base).build(**body)


def _cached_within_input(fmt: str, usage: Usage | None) -> str | None:
    if usage is None or usage.cached_tokens is None:
        return None
    if usage.cached_tokens < 0 or usage.cached_tokens > (usage.input_tokens or 0):
        rule = RESPONSES_USAGE_RULE if fmt == "responses" else CHAT_USAGE_RULE
        return Text("report.cache_usage.cached_over_input", cached=usage.cached_tokens, input=usage.input_tokens, rule=rule)
    return None


def _same_input(fmt: str, first: Usage | None, second: Usage | None) -> None:
    """Chat and responses count cached tokens inside the input: a cache hit changes how many are
    cached, never how many there are, so the same request has the same input tokens twice."""
    if first is None or second is None or not first.input_tokens or not second.input_tokens or first.input_tokens == second.input_tokens:
        return
    rule = RESPONSES_USAGE_RULE if fmt == "responses" else CHAT_USAGE_RULE
    raise Fail(Text("report.cache_usage.input_changed", first=first.input_tokens, second=second.input_tokens, cached=second.cached_tokens or 0, rule=rule),
               Text("report.cache_usage.expected_same_input", tokens=first.input_tokens), excerpt(second.__dict__), tag="cache-accounting")


async def cache_usage(probe: Probe) -> str:
    request = _cached_request(probe)
    first = await probe.create(request)
    second = await probe.create(request)
    if probe.format != "messages":
        for usage in (first.usage, second.usage):
            problem = _cached_within_input(probe.format, usage)
            if problem:
                raise Fail(problem, Text("report.cache_usage.expected_within_input"), excerpt(usage.__dict__ if usage else NONE), tag="cache-accounting")
        _same_input(probe.format, first.usage, second.usage)
        cached = [u.cached_tokens for u in (first.usage, second.usage) if u is not None and u.cached_tokens is not None]
        return Text("report.cache_usage.passed_within_input", cached=max(cached)) if cached else Text("report.cache_usage.not_reported")
    return await _messages_cache(probe, request, first.usage, second.usage)


async def _messages_cache(probe: Probe, request: Any, first: Usage | None, second: Usage | None) -> str:
    written = first.cache_creation_tokens if first else None
    read = second.cached_tokens if second else None
    if not written or not read:
        raise Skip(Text("report.cache_usage.nothing_cached"))
    if second is not None and second.cache_creation_tokens:
        raise Fail(Text("report.cache_usage.written_twice", tokens=second.cache_creation_tokens, rule=MESSAGE_USAGE_RULE),
                   Text("report.cache_usage.expected_no_second_write"), excerpt(second.__dict__), tag="cache-accounting")
    if read != written:
        raise Fail(Text("report.cache_usage.read_differs", read=read, written=written), Text("report.cache_usage.expected_read", tokens=written),
                   str(read), tag="cache-accounting")
    counted = await _count(probe, request)
    for usage in (first, second):
        if not _close(_input_total(usage), counted):
            raise Fail(Text("report.cache_usage.input_differs", total=_input_total(usage), counted=counted, rule=MESSAGE_USAGE_RULE),
                       Text("report.count_tokens.expected_within", tokens=counted), excerpt(usage.__dict__ if usage else NONE), tag="cache-accounting")
    return Text("report.cache_usage.passed_messages", written=written, read=read, counted=counted)


PROBES = {"count_tokens_extras": count_tokens_extras, "native_usage": native_usage, "cache_usage": cache_usage}
