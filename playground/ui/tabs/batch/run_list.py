"""The Batch tab's list of kept runs: the filters (part of the data set's name, part of a model's
name, a date range in UTC) read into a `RunFilter` for the visitor (locally every run; hosted
only the visitor's own: the owner goes into the query, so no filter can widen it), and the table
the page shows, newest first, whose rows open their run. Locally it also names the run files of
before that could not be imported; hosted it never does (a file name is a run id)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from playground.client.batch.stored_run import list_runs
from playground.store import runs as stored
from playground.store.database import Database
from playground.ui.i18n import say
from playground.ui.shared.render import plain
from playground.ui.web.owners import EVERYONE

HEADINGS = ("started", "dataset", "models", "rows", "cells", "errors", "passed", "run")
ID_SHOWN = 12
"""How much of a run's id its line shows (the line is found again by it, whatever order the table is sorted in)."""
DAY = dt.timedelta(days=1)


class DateError(ValueError):
    """A date box that does not hold YYYY-MM-DD (its message names the box)."""


def _day(text: str, box: str) -> dt.datetime | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return dt.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=dt.UTC)
    except ValueError:
        raise DateError(say("bview.runs_bad_date", box=say(box))) from None


def run_filter(owner: str | None, dataset: str, model: str, since: str, until: str) -> stored.RunFilter | None:
    """What to list for `owner` (None when nobody may be shown anything); raises `DateError`.
    `until` is the last day listed, included."""
    first, last = _day(since, "batch.runs_since"), _day(until, "batch.runs_until")
    if owner is None:
        return None
    return stored.RunFilter(owner=None if owner == EVERYONE else owner, dataset=(dataset or "")[:200], model=(model or "")[:200],
                            since=first.timestamp() if first else None, until=(last + DAY).timestamp() if last else None)


def table(summaries: list[stored.RunSummary]) -> dict[str, Any]:
    """The Dataframe value: one line per run, the start of its id last."""
    headers = [say(f"bview.runs.{name}") for name in HEADINGS]
    data = [[dt.datetime.fromtimestamp(s.created, dt.UTC).strftime("%Y-%m-%d %H:%M"), s.dataset[:80], ", ".join(s.models)[:160],
             f"{s.rows:,} × {s.repeats}", f"{s.done:,} / {s.total:,}", s.errors,
             f"{s.passed / s.graded * 100:.0f}%" if s.graded else "—", s.id[:ID_SHOWN]] for s in summaries]
    return {"headers": headers, "data": data or [[""] * len(headers)]}


def find(database: Database, owner: str | None, hosted: bool, dataset: str, model: str, since: str, until: str) -> tuple[list[str], dict[str, Any], str]:
    """(the listed runs' ids in order, the table, the note under it)."""
    try:
        chosen = run_filter(owner, dataset, model, since, until)
    except DateError as problem:
        return [], table([]), f"⚠ {problem}"
    summaries = list_runs(database, chosen) if chosen is not None else []
    note = say("bview.runs_count", count=f"{len(summaries):,}") if summaries else say("bview.runs_none")
    refused = [] if hosted else database.call(stored.import_problems)
    if refused:
        note += "\n\n" + say("bview.runs_refused", files=plain("; ".join(f"{name} ({why})" for name, why in refused)))
    return [s.id for s in summaries], table(summaries), note


def picked(listed: list[str], row_value: Any) -> str:
    """The run of a clicked line: among the runs listed for this visitor, the one its id starts ("" if none)."""
    shown = row_value[-1] if isinstance(row_value, (list, tuple)) and row_value else ""
    if not isinstance(shown, str) or len(shown) != ID_SHOWN:
        return ""
    found = [run_id for run_id in listed if run_id.startswith(shown)]
    return found[0] if len(found) == 1 else ""
