"""Report documents in the store: each kept whole (the client's versioned JSON, `document.dumps`)
with the fields its list shows (when, which gateway, its totals), and the list of an owner's
reports, newest first, optionally of one gateway. The store keeps what it is given: reading a
document back (and checking it) is the client's `report.history`.

Functions take the connection first and run inside one transaction of `Database` (`db.call`,
`await db.run`). An owner of None in a query means every owner's (a person's own machine)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from playground.store.runs import storable_text

MAX_LISTED = 200


@dataclass(frozen=True)
class ReportListing:
    """What the list shows of a kept report (everything but its document)."""

    id: str
    created: float
    gateway: str
    thorough: bool
    summary: str
    passed: int
    failed: int
    compatible_failed: int
    cells: int
    origin: str


@dataclass(frozen=True)
class KeptReport:
    """A report as it is kept: what its list shows, its owner, `document` (its JSON text) and when it was kept."""

    listing: ReportListing
    owner: str
    document: str
    kept: float


def insert_report(connection: sqlite3.Connection, report: KeptReport) -> str:
    shown = report.listing
    connection.execute("INSERT INTO reports (id, owner, created, gateway, thorough, summary, passed, failed, compatible_failed, cells, origin, document, kept) "
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       (shown.id, report.owner, shown.created, storable_text(shown.gateway), int(shown.thorough), storable_text(shown.summary),
                        shown.passed, shown.failed, shown.compatible_failed, shown.cells, shown.origin, storable_text(report.document), report.kept))
    return shown.id


def list_reports(connection: sqlite3.Connection, owner: str | None, gateway: str | None = None, limit: int = MAX_LISTED) -> list[ReportListing]:
    """`owner`'s reports (None: everyone's), of `gateway` when given, newest first."""
    where, args = [], []
    if owner is not None:
        where.append("owner = ?")
        args.append(owner)
    if gateway is not None:
        where.append("gateway = ?")
        args.append(gateway)
    query = ("SELECT id, created, gateway, thorough, summary, passed, failed, compatible_failed, cells, origin FROM reports"
             + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created DESC, kept DESC, id LIMIT ?")
    return [ReportListing(row[0], row[1], row[2], bool(row[3]), *row[4:])
            for row in connection.execute(query, (*args, max(1, min(limit, MAX_LISTED))))]


def report_document(connection: sqlite3.Connection, report_id: str, owner: str | None) -> str | None:
    """A kept report's JSON text, if there is one of that id that `owner` (None: anyone) kept."""
    found = connection.execute("SELECT document FROM reports WHERE id = ? AND (? IS NULL OR owner = ?)", (report_id, owner, owner)).fetchone()
    return found[0] if found else None
