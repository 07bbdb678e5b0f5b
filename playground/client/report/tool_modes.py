"""Probes of tool use a compatibility kit makes, per format as the spec has it: each `tool_choice`
mode the format's section lists (called or not as the mode says), and a streamed call's arguments
rebuilt from the raw events (the format's own pieces) into JSON that fits the tool's parameters,
and parallel calls (distinct, each valid; one at most when the format's switch turns them off)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from playground.client.intent import Intent
from playground.client.report.tool_stream import ASSEMBLERS, decoded
from playground.client.report.probe import NONE, Fail, Probe, excerpt
from playground.client.results import TextResult
from playground.client.report.tool_probes import ASK, PARAMETERS, TOOL, UNRELATED, tools_fields
from playground.client.texts import Text

MODES: dict[str, tuple[tuple[Any, str, bool], ...]] = {
    "chat": (("auto", ASK, True),),
    "responses": (("auto", ASK, True), ("none", ASK, False)),
    "messages": (({"type": "auto"}, ASK, True), ({"type": "any"}, UNRELATED, True), ({"type": "none"}, ASK, False)),
    "native": (("AUTO", ASK, True), ("ANY", UNRELATED, True), ("NONE", ASK, False)),
}
"""Per format: (the mode as sent, the question, whether a call must come). Only the modes the
spec's request table lists: chat shows `auto` only; its named choice is the `tool_choice` check."""


def _mode_fields(fmt: str, mode: Any) -> dict[str, Any]:
    fields = tools_fields(fmt, forced=False)
    if fmt == "native":
        fields["toolConfig"] = {"functionCallingConfig": {"mode": mode}}
    else:
        fields["tool_choice"] = mode
    return fields


def _mode_name(mode: Any) -> str:
    return str(mode.get("type") if isinstance(mode, dict) else mode)


async def tool_choice_modes(probe: Probe) -> str:
    section = Text(f"report.tool_choice_modes.section.{probe.format}")
    checked = []
    for mode, question, must_call in MODES[probe.format]:
        result = await probe.create(probe.request(Intent(question, stream=False), **_mode_fields(probe.format, mode)))
        names = [call.name for call in result.tool_calls]
        if must_call and TOOL not in names:
            raise Fail(Text("report.tool_choice_modes.no_call", mode=_mode_name(mode), section=section), Text("report.tools.expected_call", tool=TOOL),
                       Text("report.tools.calls_and_text", calls=", ".join(names) or NONE, text=excerpt(result.text, 100)))
        if not must_call and names:
            raise Fail(Text("report.tool_choice_modes.called", mode=_mode_name(mode), section=section), Text("report.tool_choice_modes.expected_no_call"),
                       ", ".join(names), tag="ignores-tool-choice")
        checked.append(_mode_name(mode))
    return Text("report.tool_choice_modes.passed", modes=", ".join(checked))


def _schema_problem(arguments: Any) -> str | None:
    import jsonschema

    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(PARAMETERS).iter_errors(arguments))
    if error is None:
        return None
    return Text("report.schema.at_path", path="/".join(str(step) for step in error.absolute_path) or "/", problem=error.message)


async def tool_arguments(probe: Probe) -> str:
    section = Text(f"report.tool_arguments.section.{probe.format}")
    await probe.stream(probe.request(Intent(ASK), **tools_fields(probe.format, forced=False)))
    exchange = probe.exchanges[-1] if probe.exchanges else None
    calls = ASSEMBLERS[probe.format](decoded(exchange.events if exchange is not None else []))
    if not calls:
        raise Fail(Text("report.tools.no_call"), Text("report.tools.expected_call", tool=TOOL), NONE)
    for text in calls:
        try:
            arguments = json.loads(text)
        except ValueError:
            raise Fail(Text("report.tool_arguments.not_json", section=section), Text("report.tools.expected_json_arguments"), excerpt(text), tag="broken-arguments") from None
        problem = _schema_problem(arguments)
        if problem:
            raise Fail(Text("report.tool_arguments.does_not_fit", problem=problem, section=section), json.dumps(PARAMETERS), excerpt(arguments))
    return Text("report.tool_arguments.passed", calls=len(calls))


PARALLEL_ASK = "What is the weather for each of Paris and Rome? Use the get_weather tool."
PARALLEL_OFF: dict[str, dict[str, Any]] = {"responses": {"parallel_tool_calls": False}, "messages": {"tool_choice": {"type": "auto", "disable_parallel_tool_use": True}}}
"""Per format, the spec's way of turning parallel calls off (chat and native have none)."""


def _parallel_calls(result: TextResult, section: str) -> list[Any]:
    """Every call's arguments, checked: ids distinct, JSON objects that fit the tool's parameters."""
    ids = [call.id for call in result.tool_calls]
    if len(set(ids)) != len(ids):
        raise Fail(Text("report.parallel_tools.same_id", section=section), Text("report.parallel_tools.expected_distinct_ids"), ", ".join(ids))
    found = []
    for call in result.tool_calls:
        try:
            arguments = json.loads(call.arguments or "{}")
        except ValueError:
            raise Fail(Text("report.tools.arguments_not_json"), Text("report.tools.expected_json_arguments"), excerpt(call.arguments)) from None
        problem = _schema_problem(arguments)
        if problem:
            raise Fail(Text("report.tool_arguments.does_not_fit", problem=problem, section=section), json.dumps(PARAMETERS), excerpt(arguments))
        found.append(arguments)
    return found


async def parallel_tools(probe: Probe) -> str:
    section = Text(f"report.parallel_tools.section.{probe.format}")
    offered = tools_fields(probe.format, forced=False)
    together = await probe.stream(probe.request(Intent(PARALLEL_ASK), **offered))
    if not together.tool_calls:
        raise Fail(Text("report.tools.no_call"), Text("report.tools.expected_call", tool=TOOL), excerpt(together.text, 100))
    _parallel_calls(together, section)
    alone = await probe.stream(probe.request(Intent(PARALLEL_ASK), **{**offered, **PARALLEL_OFF[probe.format]}))
    _parallel_calls(alone, section)
    if len(alone.tool_calls) > 1:
        raise Fail(Text("report.parallel_tools.not_off", calls=len(alone.tool_calls), section=section), Text("report.parallel_tools.expected_one"),
                   ", ".join(call.name for call in alone.tool_calls), tag="ignores-parallel-off")
    return Text("report.parallel_tools.passed", together=len(together.tool_calls), alone=len(alone.tool_calls))


PROBES: dict[str, Callable[[Probe], Awaitable[str]]] = {"tool_choice_modes": tool_choice_modes, "tool_arguments": tool_arguments,
                                                        "parallel_tools": parallel_tools}
