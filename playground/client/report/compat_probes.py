"""Probes a compatibility kit makes of the text formats' answers, where the spec has the field:
stop sequences (messages `stop_sequences`, native `generationConfig.stopSequences`) and a
stream's usage against the same request's whole answer. Each failure names the spec's section.
`PROBES` also holds the kit's tool probes (`tool_modes`), so the runner picks them all up here."""

from __future__ import annotations

import re
from typing import Any

from playground.client.intent import Intent
from playground.client.report import tool_modes
from playground.client.report.probe import EMPTY, NONE, Fail, Probe, excerpt
from playground.client.results import TextResult, Usage
from playground.client.texts import Text

STOP_ASK = "How do I bake bread?"
WORD = re.compile(r"[A-Za-z]{4,}")
USAGE_ASK = "Explain in two sentences why the sky is blue."
USAGE_REQUIRED = {"responses": Text("report.stream_usage.rule.responses"), "messages": Text("report.stream_usage.rule.messages")}
"""The formats whose streams must carry usage, with the spec's words for it. The chat chunk's usage
is "usually" sent and the native stream's is not shown: there it is checked when it arrives."""


def _with_stop(probe: Probe, stop: str) -> Any:
    request = probe.request(Intent(STOP_ASK, stream=False))
    body = request.to_body()
    if probe.format == "messages":
        body["stop_sequences"] = [stop]
        return type(request).build(**body)
    body.setdefault("generationConfig", {})["stopSequences"] = [stop]
    return type(request).build(model=probe.model, **body)


def _stop_word(text: str) -> str | None:
    """A word from the middle of an answer (a stop sequence the same answer would reach)."""
    words = WORD.findall(text)
    return words[len(words) // 2] if len(words) >= 3 else None


async def stop_sequences(probe: Probe) -> str:
    section = Text(f"report.stop_sequences.section.{probe.format}")
    free = await probe.create(probe.request(Intent(STOP_ASK, stream=False)))
    stop = _stop_word(free.text)
    if stop is None:
        raise Fail(Text("report.stop_sequences.no_words"), Text("report.an_answer"), excerpt(free.text) if free.text else EMPTY)
    cut = await probe.create(_with_stop(probe, stop))
    if stop in cut.text:
        raise Fail(Text("report.stop_sequences.went_past", stop=repr(stop), section=section), Text("report.stop_sequences.expected_before", stop=repr(stop)),
                   excerpt(cut.text), tag="ignores-stop")
    reached = cut.text.rstrip() == free.text[: free.text.find(stop)].rstrip()
    if probe.format == "messages":
        body = probe.exchanges[-1].response_body if probe.exchanges else None
        body = body if isinstance(body, dict) else {}
        said = (body.get("stop_reason"), body.get("stop_sequence"))
        if said[0] == "stop_sequence" and said[1] != stop:
            raise Fail(Text("report.stop_sequences.wrong_sequence", section=section), repr(stop), repr(said[1]))
        if reached and said != ("stop_sequence", stop):
            raise Fail(Text("report.stop_sequences.reason_not_said", section=section), Text("report.stop_sequences.expected_reason", stop=repr(stop)),
                       f"stop_reason={said[0]!r}, stop_sequence={said[1]!r}")
    if reached:
        return Text("report.stop_sequences.passed", stop=repr(stop), characters=len(cut.text))
    return Text("report.stop_sequences.not_reached", stop=repr(stop))


def _visible(usage: Usage) -> int | None:
    return None if usage.output_tokens is None else usage.output_tokens - (usage.reasoning_tokens or 0)


def _calls(result: TextResult) -> list[tuple[str, str]]:
    return [(call.name, call.arguments) for call in result.tool_calls]


def _counts(usage: Usage | None) -> str:
    if usage is None:
        return NONE
    return Text("report.stream_usage.counts", input=usage.input_tokens, output=usage.output_tokens, total=usage.total_tokens)


async def stream_usage(probe: Probe) -> str:
    whole = await probe.create(probe.request(Intent(USAGE_ASK, stream=False)))
    streamed = await probe.stream(probe.request(Intent(USAGE_ASK)))
    if streamed.usage is None:
        if probe.format in USAGE_REQUIRED:
            raise Fail(Text("report.stream_usage.missing", section=USAGE_REQUIRED[probe.format]), Text("report.stream_usage.expected_usage"), NONE, tag="no-usage")
        return Text("report.stream_usage.not_sent", section=Text(f"report.stream_usage.rule.{probe.format}"))
    if whole.usage is None:
        raise Fail(Text("report.stream_usage.whole_missing"), Text("report.stream_usage.expected_usage"), NONE, tag="no-usage")
    return _compare(probe.format, whole, streamed)


def _compare(fmt: str, whole: TextResult, streamed: TextResult) -> str:
    assert whole.usage is not None and streamed.usage is not None
    section = Text(f"report.stream_usage.rule.{fmt}")
    if whole.usage.input_tokens != streamed.usage.input_tokens:
        raise Fail(Text("report.stream_usage.input_differs", section=section), _counts(whole.usage), _counts(streamed.usage))
    same_answer = whole.text == streamed.text and whole.reasoning == streamed.reasoning and _calls(whole) == _calls(streamed)
    if same_answer and _visible(whole.usage) != _visible(streamed.usage):
        raise Fail(Text("report.stream_usage.output_differs", section=section), _counts(whole.usage), _counts(streamed.usage), tag="usage-differs")
    if same_answer and whole.usage.total_tokens is not None and streamed.usage.total_tokens is not None \
            and whole.usage.total_tokens != streamed.usage.total_tokens:
        raise Fail(Text("report.stream_usage.total_differs", section=section), _counts(whole.usage), _counts(streamed.usage), tag="usage-differs")
    if same_answer:
        return Text("report.stream_usage.passed_equal", input=streamed.usage.input_tokens, output=streamed.usage.output_tokens)
    return Text("report.stream_usage.passed_input", input=streamed.usage.input_tokens)


PROBES = {"stop_sequences": stop_sequences, "stream_usage": stream_usage, **tool_modes.PROBES}
