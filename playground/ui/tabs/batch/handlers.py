"""The Batch tab's work without layout: the data set and template checks, the plan from the
form, starting, watching, stopping and resuming a run, the grid, a cell's details, blind A/B
votes, exports and the session file. Plain functions the tests call directly."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playground.client.batch.call import exchange_from_dict
from playground.client.batch.cost import Price
from playground.client.batch.dataset import Dataset, read_file, read_in_worker, read_paste
from playground.client.batch.elo import Vote
from playground.client.batch.exports import write_exports
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.report import leaderboard, leaderboard_markdown
from playground.client.batch.runner import Progress
from playground.client.batch.store import RunFile
from playground.client.batch.template import TemplateError, check_variables, variables_of
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.json_depth import deeper_than
from playground.client.transport import Connection, Exchange
from playground.client.validation import MAX_DATA_DEPTH
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.batch.columns import columns_with_settings, temperature_of
from playground.ui.i18n.client_words import word, word_list
from playground.ui.shared.forms import optional_positive, whole
from playground.ui.i18n import EN, say
from playground.ui.shared.render import plain

GRADER_SLOTS = 6
WATCH_INTERVAL_S = 0.4
MAX_SESSION_BYTES = 20_000_000


@dataclass
class BatchState:
    dataset: Dataset | None = None
    run_id: str = ""
    pair: dict[str, Any] | None = None


async def load_dataset(path: str | None, paste: str, system: str, user: str, max_rows: int) -> Dataset:
    """The uploaded file, or else the pasted rows, read on the data-set readers' threads within
    their budget (raises `DatasetError`, `TemplateError` or `OSError`)."""
    if path:
        return await read_in_worker(read_file, path, max_rows)
    return await read_in_worker(read_paste, paste, variables_of([system, user]), max_rows)


def dataset_status(dataset: Dataset) -> str:
    shown = ", ".join(f"`{plain(name)}`" for name in dataset.columns)
    rows = say("bview.row_one" if len(dataset.rows) == 1 else "bview.row_many")
    return say("bview.rows", count=f"{len(dataset.rows):,}", rows=rows, source=dataset.source, columns=shown)


def template_check(system: str, user: str, dataset: Dataset | None) -> str:
    """Which variables the prompt uses and what is missing or unused (shown before sending)."""
    try:
        used = variables_of([system, user])
    except TemplateError as error:
        return f"⚠️ {plain(word(str(error)))}"
    if not used:
        return say("bview.no_variables")
    found = say("bview.variables", names=", ".join(f"`{{{{{plain(name)}}}}}`" for name in used))
    if dataset is None:
        return found + say("bview.add_dataset")
    problems = check_variables(used, dataset.columns)
    return found + ("" if not problems else " · ⚠️ " + plain("; ".join(problems)))


def graders_from(values: list[Any]) -> list[GraderSpec]:
    """Grader slots (kind, value, min, max, model) -> specs, each checked (raises `PlanError`)."""
    specs, problems = [], []
    for slot in range(0, len(values), 5):
        kind, value, low, high, model = values[slot:slot + 5]
        if not kind:
            continue
        try:
            spec = GraderSpec.from_dict({"kind": kind, "value": value or "", "model": model or "",
                                         "minimum": whole("min length", low) if low else None,
                                         "maximum": whole("max length", high) if high else None})
            specs.append(spec)
        except RequestValidationError as error:
            problems.append(say("bview.grader_problem", number=slot // 5 + 1, problem=word_list(error.problems)))
        except (GraderError, ValueError, TypeError) as error:
            problems.append(say("bview.grader_problem", number=slot // 5 + 1, problem=word(str(error))))
    if problems:
        raise PlanError(problems)
    return specs


def plan_from_form(system: str, user: str, dataset: Dataset | None, column_values: list[Any], repeats: Any, concurrency: Any,
                   temperature: Any, max_tokens: Any, stream: bool, cache: bool, grader_values: list[Any],
                   max_rows: int, max_concurrency: int, setting_values: list[Any] | None = None) -> tuple[Plan, list[str]]:
    """The plan and its warnings (raises `PlanError` naming every blocking problem). `setting_values`
    are the columns' own boxes (`batch_columns`), three per column slot."""
    problems: list[str] = []

    def read(reader: Any, *args: Any) -> Any:
        try:
            return reader(*args)
        except PlanError as error:
            problems.extend(error.problems)
        except RequestValidationError as error:  # sent as typed: 1.5 repeats or tokens is refused, never rounded
            problems.extend(error.problems)
        return None

    graders = read(graders_from, grader_values) or []
    columns, own = read(columns_with_settings, column_values, list(setting_values or [])) or ([], [])
    repeat_count = read(whole, "repeat each row N times", repeats) or 1
    tokens = read(optional_positive, max_tokens, "max output tokens")
    shared_temperature = read(temperature_of, "temperature", temperature)
    if problems:  # every field's problem at once, each named
        raise PlanError(problems)
    plan = Plan(user or "", system or "", dataset or Dataset([]), columns, repeat_count, graders,
                shared_temperature, tokens, bool(stream), bool(cache), int(concurrency or 1), own)
    blocking, warnings = plan.problems(max_rows, max_concurrency)
    if blocking:
        raise PlanError(blocking)
    return plan, warnings


def progress_of(run: RunFile, plan: Plan) -> Progress:
    cells = run.cells.values()
    return Progress(plan.total, len(run.cells), sum(1 for c in cells if c.error), running=False)


async def watch(runs: BatchRuns, run_id: str) -> AsyncIterator[Progress]:
    """The run's progress at a bounded rate while it runs (also for a run another page started)."""
    task, runner = runs.task(run_id), runs.active(run_id)
    while task is not None and runner is not None and not task.done():
        yield runner.progress
        await asyncio.wait([task], timeout=WATCH_INTERVAL_S)
    if runner is not None:
        yield runner.progress


def run_problem(runs: BatchRuns, run_id: str) -> str:
    """What went wrong inside a finished runner task, if anything did (its exception)."""
    task = runs.task(run_id)
    if task is None or not task.done() or task.cancelled() or task.exception() is None:
        return ""
    return say("bview.run_error", error=plain(type(task.exception()).__name__))


def start(runs: BatchRuns, client: GatewayClient, conn: Connection, plan: Plan, owner: str) -> str:
    run = runs.create(plan, owner)
    runs.start(client, conn, plan, run)
    return run.run_id


def resume(runs: BatchRuns, client: GatewayClient, conn: Connection, run_id: str, rerun_errors: bool, owner: str | None) -> Plan:
    run, plan = runs.open(run_id, owner)
    runs.start(client, conn, plan, run, rerun_errors)
    return plan


def leaderboard_heading(name: str) -> str:
    """A leaderboard column's heading in the visitor's language (the client names them in English)."""
    if f"bview.head.{name}" in EN:
        return say(f"bview.head.{name}")
    if name.startswith("pass: "):
        return say("bview.head.pass", grader=name.removeprefix("pass: "))
    if name.startswith("TTFT ") and name.endswith(" ms"):
        return say("bview.head.ttft", which=name.removeprefix("TTFT ").removesuffix(" ms"))
    return word(name)


def leaderboard_text(plan: Plan, run: RunFile, prices: dict[str, Price]) -> str:
    if not run.cells:
        return ""
    return say("bview.leaderboard") + "\n\n" + leaderboard_markdown(plan, leaderboard(plan, run, prices), plain, leaderboard_heading) + "\n\n" + say("bview.legend")


def cell_exchange(run: RunFile, key: str) -> tuple[Exchange | None, dict[str, Any]]:
    detail = run.detail(key)
    return exchange_from_dict(detail.get("exchange")), detail


def vote(run: RunFile, pair: dict[str, Any] | None, outcome: str) -> bool:
    """Record a blind vote on the pair shown ("a", "b" or "tie"); False when no pair is shown."""
    if not pair or outcome not in ("a", "b", "tie"):
        return False
    run.add_vote(Vote(int(pair["a"]), int(pair["b"]), outcome, int(pair["row"])))
    return True


def rng_for(run: RunFile) -> random.Random:
    return random.Random(f"{run.run_id}:{len(run.votes)}")


def exports(plan: Plan, run: RunFile, folder: Path, prices: dict[str, Price]) -> list[str]:
    """The run's five files, written into `folder` (the caller's, from `owned_files.owned_folder`:
    a fresh name that holds no run id, served only to its owner)."""
    return [str(path) for path in write_exports(folder, plan, run, prices).values()]


def read_session(path: str | None, max_rows: int) -> Plan:
    """A saved batch session file, checked whole (raises `PlanError`)."""
    if not path:
        raise PlanError([say("bview.choose_session")])
    file = Path(path)
    if file.stat().st_size > MAX_SESSION_BYTES:
        raise PlanError([say("bview.session_too_large", mb=MAX_SESSION_BYTES // 1_000_000)])
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise PlanError([say("bview.not_json", error=str(error)[:80])]) from None
    if deeper_than(text, MAX_DATA_DEPTH):  # measured before json recurses into it
        raise PlanError([say("bview.session_too_deep", depth=MAX_DATA_DEPTH)])
    try:
        data = json.loads(text)
    except ValueError as error:
        raise PlanError([say("bview.not_json", error=str(error)[:80])]) from None
    return Plan.from_dict(data, max_rows)


def session_values(plan: Plan, columns: int) -> list[Any]:
    """Form values for a loaded plan: column pickers (interleaved), then grader slots."""
    pairs = list(plan.columns) + [("", "")] * columns
    column_values = [value for fmt, model in pairs[:columns] for value in (fmt, model)]
    grader_values: list[Any] = []
    for spec in list(plan.graders)[:GRADER_SLOTS] + [None] * GRADER_SLOTS:
        grader_values += [spec.kind, spec.value, spec.minimum, spec.maximum, spec.model] if spec else ["", "", None, None, ""]
    return column_values + grader_values[:GRADER_SLOTS * 5]

