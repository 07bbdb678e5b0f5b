"""The Compare tab's work: run one intent through up to four (format, model) columns at once,
each streaming on its own (one column's error stays in that column), then the metrics table with
the best value of each row marked, a word diff of two answers, and the comparison exported as
JSON and Markdown; then the handlers the tab's events run (`layout` wires them): `begin`, and
`CompareHandlers` for the run and what it ends with."""

from __future__ import annotations

import asyncio
import difflib
import html
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.client.batch.cost import Price
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.intent import Intent, Mapped, to_request
from playground.client.media import image_data_url
from playground.client.report.model import FORMAT_LABELS
from playground.client.results import TextResult
from playground.client.tools.loop import MockedCall, with_tools
from playground.client.tools.mock import MockTool
from playground.client.transport import Connection, Exchange
from playground.client.validation import BROKEN_TEXT, is_utf8
from playground.ui.shared.codegen import shorten_long_strings
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.i18n.client_words import word
from playground.ui.i18n import say
from playground.ui.shared.column_picker import slots
from playground.ui.shared.forms import optional_positive, whole
from playground.ui.shared.metrics import metrics_text
from playground.ui.shared.prices import SessionPrices, cost_text
from playground.ui.shared.render import error_text, plain, result_messages
from playground.ui.shared.widgets import banner_update
from playground.ui.shared.worded_defaults import reworded_default
from playground.ui.web.shown_files import new_file
from playground.ui.tabs.compare.mocked import answered_by_mocks, calls_messages

UPDATE_INTERVAL = 0.05
PRESETS: dict[str, list[tuple[str, str]]] = {
    "One model family through all four formats": [("chat", "gx-2.5-flash"), ("responses", "gx-2.5-flash"),
                                                  ("messages", "cl-sonnet-4-5-20250929"), ("native", "gx-2.5-flash")],
    "Three models through chat completions": [("chat", "gx-2.5-flash"), ("chat", "gpt-4.1"), ("chat", "cl-sonnet-4-5-20250929"), ("", "")],
}
SHARED = ("system prompt", "user message", "temperature", "max output tokens", "thinking", "stream")
SHARED_KEYS = dict(zip(SHARED, ("cmp.shared.system", "cmp.shared.user", "cmp.shared.temperature", "cmp.shared.max_tokens",
                                "cmp.shared.thinking", "cmp.shared.stream"), strict=True))
"""The shared parameters' names are the client's mapping keys (and the JSON export's); shown through the catalogue."""
ROW_KEYS = {"time to first token (ms)": "cmp.row.ttft", "tokens per second": "cmp.row.rate", "total time (ms)": "cmp.row.total",
            "input tokens": "cmp.row.input", "output tokens": "cmp.row.output", "reasoning tokens": "cmp.row.reasoning",
            "cached tokens": "cmp.row.cached"}
"""The metrics rows' names are the JSON export's keys; the table shows them through the catalogue."""


@dataclass
class ColumnRun:
    fmt: str
    model: str
    mapped: Mapped | None = None
    result: TextResult = field(default_factory=TextResult)
    exchange: Exchange | None = None
    error: str = ""
    done: bool = False
    tools: tuple[MockTool, ...] = ()
    """The mocked tools the column offers (answered by themselves, `mocked`)."""
    calls: list[MockedCall] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{word(FORMAT_LABELS[self.fmt]) if self.fmt in FORMAT_LABELS else self.fmt} · {self.model}"


async def _drive(client: GatewayClient, conn: Connection, run: ColumnRun) -> None:
    api = getattr(client, run.fmt)
    try:
        assert run.mapped is not None
        if run.tools:
            def shown(result: TextResult, exchange: Exchange) -> None:
                run.result, run.exchange = result, exchange

            mocked = await answered_by_mocks(client, conn, run.fmt, run.model, run.mapped.request, run.tools, shown)
            run.result, run.calls = mocked.result, mocked.calls
        elif run.mapped.request.stream:
            async with api.stream(conn, run.mapped.request) as stream:
                run.result, run.exchange = stream.result, stream.exchange
                async for _ in stream:
                    pass
        else:
            run.result, run.exchange = await api.create(conn, run.mapped.request)
    except GatewayError as error:
        partial = getattr(error, "partial", None)
        run.result = partial if isinstance(partial, TextResult) else run.result
        run.exchange = error.exchange or run.exchange
        run.error = error_text(error)
        run.calls = list(getattr(error, "tool_calls", run.calls))
    finally:
        run.done = True


async def compare(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, intent: Intent,
                  columns: list[tuple[str, str]], tools: list[tuple[MockTool, ...]] | None = None) -> AsyncIterator[list[ColumnRun]]:
    """Yield every column's state at a bounded rate until all are done; cancelling stops all.
    `tools` are the mocked tools each column slot offers."""
    offered = list(tools or []) + [()] * len(columns)
    runs = [ColumnRun(fmt, model.strip(), tools=offered[index]) for index, (fmt, model) in enumerate(columns) if fmt and model and model.strip()]
    try:
        conn = resolve_connection(defaults, url, key)
    except GatewayError as error:
        for run in runs:
            run.error, run.done = error_text(error), True
        yield runs
        return
    tasks = []
    for run in runs:
        try:
            run.mapped = to_request(intent, run.fmt, run.model)
            run.mapped.request = with_tools(run.mapped.request, run.fmt, run.model, run.tools)
        except (GatewayError, ValueError) as error:
            run.error = error_text(error) if isinstance(error, GatewayError) else plain(str(error))
            run.done = True
            continue
        tasks.append(asyncio.create_task(_drive(client, conn, run)))
    try:
        while tasks and not all(task.done() for task in tasks):
            yield runs
            await asyncio.wait(tasks, timeout=UPDATE_INTERVAL)
        yield runs
    finally:
        for task in tasks:
            task.cancel()


def _number(value: float | None, scale: float = 1.0, digits: int = 0) -> str:
    return "—" if value is None else f"{value * scale:,.{digits}f}"


def metrics_rows(runs: list[ColumnRun]) -> list[tuple[str, list[float | None], str]]:
    """(row name, value per column, which is best: "low", "high" or "")."""
    def usage(run: ColumnRun, name: str) -> float | None:
        return getattr(run.result.usage, name) if run.result.usage else None

    return [
        ("time to first token (ms)", [r.result.first_token_at * 1000 if r.result.first_token_at is not None else None for r in runs], "low"),
        ("tokens per second", [r.result.tokens_per_second() for r in runs], "high"),
        ("total time (ms)", [r.result.finished_at * 1000 if r.result.finished_at is not None else None for r in runs], "low"),
        ("input tokens", [usage(r, "input_tokens") for r in runs], ""),
        ("output tokens", [usage(r, "output_tokens") for r in runs], ""),
        ("reasoning tokens", [usage(r, "reasoning_tokens") for r in runs], ""),
        ("cached tokens", [usage(r, "cached_tokens") for r in runs], ""),
    ]


def metrics_table(runs: list[ColumnRun], prices: dict[str, Price] | None = None) -> str:
    """A Markdown table, one column per run, the best value of each timed row marked ★."""
    if not runs:
        return ""
    lines = ["| | " + " | ".join(plain(run.label) for run in runs) + " |", "|---" * (len(runs) + 1) + "|"]
    for name, values, best in metrics_rows(runs):
        known = [v for v in values if v is not None]
        target = (min(known) if best == "low" else max(known)) if known and best and len(known) > 1 else None
        cells = [("★ " if v is not None and v == target else "") + _number(v, digits=1 if name == "tokens per second" else 0) for v in values]
        lines.append(f"| {say(ROW_KEYS[name])} | " + " | ".join(cells) + " |")
    lines.append(f"| {say('cmp.row.finish')} | " + " | ".join(plain(r.result.finish_reason or (say("cmp.error") if r.error else "—")) for r in runs) + " |")
    costs = [cost_text(r.result, r.exchange, prices or {}).removeprefix("cost ") for r in runs]
    if any(costs):
        lines.append(f"| {say('cmp.row.cost')} | " + " | ".join(value or "—" for value in costs) + " |")
    return "\n".join(lines)


def word_diff(left: str, right: str) -> str:
    """HTML: words only in the first answer struck through, words only in the second underlined."""
    a, b = left.split(), right.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            out.append(f"<del>{html.escape(' '.join(a[i1:i2]))}</del>")
        if op in ("insert", "replace"):
            out.append(f"<ins>{html.escape(' '.join(b[j1:j2]))}</ins>")
        if op == "equal":
            out.append(html.escape(" ".join(a[i1:i2])))
    return '<div class="word-diff">' + " ".join(out) + "</div>"


def mapping_table(runs: list[ColumnRun]) -> str:
    """How each shared parameter is written in each column's format (or why it is not sent)."""
    mapped = [(run.label, run.mapped.mapping) for run in runs if run.mapped is not None]
    if not mapped:
        return ""
    lines = [f"| {say('cmp.shared_parameter')} | " + " | ".join(plain(label) for label, _ in mapped) + " |", "|---" * (len(mapped) + 1) + "|"]
    for name in SHARED:
        lines.append(f"| {say(SHARED_KEYS[name])} | " + " | ".join(f"`{word(mapping.get(name, '—'))}`" if not mapping.get(name, "").startswith("not sent")
                                                  else plain(word(mapping[name])) for _, mapping in mapped) + " |")
    return "\n".join(lines)


def adjusted_text(run: ColumnRun) -> str:
    """What the column sends differently from what was asked, in words, under its metrics line ("" when nothing)."""
    if run.mapped is None or not run.mapped.adjustments:
        return ""
    return "\n\n" + say("cmp.adjusted") + "".join(f"\n- {plain(word(text))}" for text in run.mapped.adjustments)


def request_json(run: ColumnRun) -> str:
    if run.exchange is not None:
        shown = {"method": run.exchange.method, "url": run.exchange.url, "body": shorten_long_strings(run.exchange.request_body)}
    elif run.mapped is not None:
        shown = {"body": shorten_long_strings(run.mapped.request.to_body())}
    else:
        return ""
    return json.dumps(shown, indent=2, ensure_ascii=False)


def export_files(intent: Intent, runs: list[ColumnRun], prices: dict[str, Price] | None = None) -> tuple[str, str]:
    """(JSON path, Markdown path) of the comparison: inputs, each column's request, answer, metrics."""
    columns = []
    for run in runs:
        metrics = {name: values[runs.index(run)] for name, values, _ in metrics_rows(runs)}
        columns.append({"format": run.fmt, "model": run.model, "request": run.exchange.request_body if run.exchange else None,
                        "answer": run.result.text, "reasoning": run.result.reasoning, "finish": run.result.finish_reason,
                        "error": run.error, "metrics": metrics, "mapping": run.mapped.mapping if run.mapped else {},
                        "adjustments": list(run.mapped.adjustments) if run.mapped else []})
    document = {"inputs": {k: v for k, v in intent.__dict__.items() if k != "image"} | {"image": bool(intent.image)}, "columns": columns}
    json_path = new_file("compare", "comparison.json", json.dumps(document, indent=2, ensure_ascii=False))
    report = [say("cmp.md.title"), "", say("cmp.md.system", system=intent.system or "—"), "", say("cmp.md.message", message=intent.user), "",
              say("cmp.md.metrics"), "", metrics_table(runs, prices), "", say("cmp.md.mapping"), "", mapping_table(runs), ""]
    for run in runs:
        report += [f"## {run.label}", "", run.result.text or run.error or say("cmp.md.no_answer"), ""]
    md_path = new_file("compare", "comparison.md", "\n".join(report))
    return json_path, md_path


def transcript(intent: Intent, run: ColumnRun) -> list[dict[str, Any]]:
    """The column's chat: the user's message, then the answer as it stands."""
    shown: list[dict[str, Any]] = [{"role": "user", "content": intent.user}, *calls_messages(run.calls)]
    if run.result.text or run.result.reasoning or run.result.tool_calls:
        shown += result_messages(run.result, run.done)
    if run.error:
        shown.append({"role": "assistant", "content": "⚠ " + run.error})
    return shown


@dataclass
class CompareState:
    intent: Intent | None = None
    runs: list[ColumnRun] = field(default_factory=list)
    ready: bool = False
    tools: list[tuple[MockTool, ...]] = field(default_factory=list)
    """The mocked tools each column slot offers (`mocked.offer_mocks`)."""


def _column_outputs(runs: list[ColumnRun], intent: Intent | None, slots: list[tuple[str, str]]) -> list[Any]:
    """One chat per column slot (empty for unused slots)."""
    by_slot, outputs = list(runs), []
    for fmt, model in slots:
        run = next((r for r in by_slot if r.fmt == fmt and r.model == model.strip()), None) if fmt and model else None
        if run is not None:
            by_slot.remove(run)
        outputs.append(transcript(intent, run) if run is not None and intent is not None else [])
    return outputs


ENDS = 4 + 1 + 1 + 4 + 1 + 2
"""What a finished comparison updates: each column's metrics line, the table, the mapping, each
column's request, the word diff, the two exports."""


async def begin(compare_state: CompareState, system_text: str, message: str, image_path: str | None, temp: float,
                tokens: float | None, think: bool, budget_tokens: float | None, streamed: bool, *values: Any) -> Any:
    """Send: the shared message checked and kept as the intent every column sends (error banner)."""
    compare_state.ready = False
    try:
        if not (message or "").strip():
            raise RequestValidationError([say("cmp.type_first")])
        broken = [say(key) for key, text in (("cmp.shared.user", message), ("cmp.shared.system", system_text or "")) if not is_utf8(text)]
        if broken:
            raise RequestValidationError([f"{name}: {BROKEN_TEXT}" for name in broken])
        if not any(fmt and model.strip() for fmt, model in slots(values)):
            raise RequestValidationError([say("cmp.no_model")])
        picture = image_data_url(image_path) if image_path else None
        compare_state.intent = Intent(message, system_text or "", picture, temp, optional_positive(tokens, "max output tokens"), bool(think),
                                      whole("thinking budget", budget_tokens) or 2048, bool(streamed))
    except GatewayError as problem:
        return banner_update(error_text(problem))
    compare_state.ready = True
    return banner_update("")


def diff_of(by_slot: list[ColumnRun | None], first: int, second: int) -> str:
    a, b = by_slot[int(first) - 1], by_slot[int(second) - 1]
    if a is None or b is None:
        return say("cmp.pick_two")
    return word_diff(a.result.text, b.result.text)


@dataclass(frozen=True)
class CompareHandlers:
    """The columns' run and what it ends with, with the client, the server's defaults and the page's prices."""

    client: GatewayClient
    defaults: ServerDefaults
    prices: SessionPrices

    async def stream(self, compare_state: CompareState, url: str, key: str, *values: Any) -> AsyncIterator[list[Any]]:
        """After `begin`: every column's chat as the answers stream in."""
        if not compare_state.ready or compare_state.intent is None:
            return
        compare_state.ready = False
        columns = slots(values)
        async for runs in compare(self.client, self.defaults, url, key, compare_state.intent, columns, compare_state.tools):
            compare_state.runs = runs
            yield _column_outputs(runs, compare_state.intent, columns)

    def finished(self, compare_state: CompareState, first: int, second: int, *values: Any) -> tuple[Any, ...]:
        """The `ENDS` outputs for the runs so far (skipped before any)."""
        runs, intent, columns = compare_state.runs, compare_state.intent, slots(values)
        if intent is None or not runs:
            return (gr.skip(),) * ENDS
        by_slot = []
        for fmt, model in columns:
            by_slot.append(next((r for r in runs if r.fmt == fmt and r.model == model.strip()), None) if fmt and model else None)
        prices = self.prices.current()
        column_lines = [(metrics_text(r.result, r.exchange, prices) + (" · " + say("cmp.error") if r.error else "") + adjusted_text(r)) if r else ""
                        for r in by_slot]
        files = export_files(intent, runs, prices)
        return (*column_lines, metrics_table(runs, prices), mapping_table(runs), *[request_json(r) if r else "" for r in by_slot],
                diff_of(by_slot, first, second), *files)

    async def ended(self, compare_state: CompareState, first: int, second: int, *values: Any) -> tuple[Any, ...]:
        return self.finished(compare_state, first, second, *values)

    async def stopped(self, compare_state: CompareState, first: int, second: int, *values: Any) -> tuple[Any, ...]:
        """Stop all: what arrived is kept and measured; a queued run does not start."""
        compare_state.ready = False
        return self.finished(compare_state, first, second, *values)

    def diff_picked(self, compare_state: CompareState, first: int, second: int, *values: Any) -> Any:
        """Two other columns picked for the word diff."""
        return self.finished(compare_state, first, second, *values)[-3]


DEFAULT_MESSAGE = "compare.default_message"


def reworded_message(current: Any) -> Any:
    """After the header's language switch: the default message in the new language, if still untouched."""
    return reworded_default(DEFAULT_MESSAGE, current)
