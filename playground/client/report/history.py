"""Reports kept in the local store (`store.reports`): the Report tab keeps every finished run and
the command line keeps its report with `--keep`; any two are compared cell by cell with
`document.diff` (what broke, what was fixed, the latency that moved).

An owner is who made a report: "" on a person's own machine (one person, who sees every report),
hosted the visitor's digest (`ui.web.owners`), who lists and opens only their own. A kept
document is read back through `document.loads`, checked whole like an uploaded one."""

from __future__ import annotations

import time
import uuid

from playground.client.report import document
from playground.client.report.model import COMPATIBLE, FAIL, PASS, Report
from playground.store.database import Database
from playground.store.reports import KeptReport, ReportListing, insert_report, list_reports, report_document

EVERYONE = ""
"""The owner on a person's own machine: lists and opens every report."""


def _scope(owner: str) -> str | None:
    return None if owner == EVERYONE else owner


async def keep(db: Database, report: Report, owner: str, origin: str = "app") -> str:
    """Keep a finished report for `owner`; its id."""
    return await db.run(insert_report, kept_record(report, owner, origin))


def keep_now(db: Database, report: Report, owner: str, origin: str = "cli") -> str:
    """`keep` from outside an event loop (the command line)."""
    return db.call(insert_report, kept_record(report, owner, origin))


def kept_record(report: Report, owner: str, origin: str) -> KeptReport:
    counts, compatible = report.counts(), report.counts(COMPATIBLE)
    shown = ReportListing(uuid.uuid4().hex, report.created, report.gateway, report.scope.thorough, document.summary_line(report),
                          counts[PASS], counts[FAIL], compatible[FAIL], len(report.results), origin)
    return KeptReport(shown, owner, document.dumps(report), time.time())


def listed(db: Database, owner: str | None, gateway: str | None = None) -> list[ReportListing]:
    """`owner`'s kept reports, newest first (hosted, None names nobody: nothing)."""
    if owner is None:
        return []
    return db.call(list_reports, _scope(owner), gateway)


def open_kept(db: Database, report_id: str, owner: str | None) -> Report | None:
    """A kept report, read and checked whole; None when `owner` has none of that id."""
    if owner is None:
        return None
    text = db.call(report_document, report_id, _scope(owner))
    return None if text is None else document.loads(text)


def last_kept(db: Database, owner: str, gateway: str) -> Report | None:
    """The newest report `owner` kept of `gateway` (for `--compare-last`)."""
    found = listed(db, owner, gateway)
    return open_kept(db, found[0].id, owner) if found else None
