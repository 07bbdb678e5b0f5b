"""A report in short, for a pull-request comment and a README: a Markdown summary (totals, every
failed cell with its reason, what was not checked) and a status badge (an SVG in the shields.io
style, "gateway conformance | 97% passed").

Both speak in the client's message ids (`report.md.*`, `report.badge.*`) through `word`: the
command line passes `str` (English), the Report tab its visitor's language.

The badge's share is the checks passed of those judged (pass or fail; not supported and not run
are left out), rounded down so a failing report never shows 100%. Its colour: green when nothing
failed, amber from `AMBER_FROM` (90%) up, red below; grey when nothing was judged."""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Callable

import time

from playground.client.report import clients, coverage
from playground.client.report.document import ReportDiff
from playground.client.report.model import CHECKS_BY_ID, COMPATIBLE, FAIL, FORMAT_LABELS, PASS, SKIPPED, UNSUPPORTED, CheckResult, Report
from playground.client.texts import Items, Text

Word = Callable[[str], str]
MAX_FAILED_ROWS = 50
"""A pull-request comment holds at most 65,536 characters: the rest are counted, not listed."""
MAX_REASON = 300
AMBER_FROM = 90
GREEN, AMBER, RED, GREY, LABEL_GREY = "#2e9e44", "#dfb317", "#e05d44", "#9f9f9f", "#555"
MARKDOWN_SPECIAL = set("\\`*_{}[]()<>#+!|~&")


def _literal(text: str, limit: int | None = None) -> str:
    """Upstream text on one line of Markdown, shown as it is (never markup, HTML or a table cell
    break), cut at `limit` characters."""
    flat = " ".join(str(text).split())
    flat = flat if limit is None or len(flat) <= limit else flat[:limit] + "…"
    return "".join("\\" + char if char in MARKDOWN_SPECIAL else char for char in flat)


def judged_share(report: Report) -> int | None:
    """Percent of judged checks that passed, rounded down; None when nothing was judged."""
    counts = report.counts()
    judged = counts[PASS] + counts[FAIL]
    return math.floor(100 * counts[PASS] / judged) if judged else None


def _not_checked(report: Report, word: Word) -> list[str]:
    by_status: dict[str, list[Text]] = {}
    for row in coverage.checks(report):
        by_status.setdefault(row["status"], []).append(CHECKS_BY_ID[row["id"]].label)
    sentences: dict[str, Callable[[Items], Text]] = {coverage.NOT_IN_PROFILE: lambda checks: Text("report.md.checks_not_in_profile", checks=checks),
                 coverage.NOT_RUN: lambda checks: Text("report.md.checks_not_run", checks=checks),
                 coverage.NOT_SUPPORTED: lambda checks: Text("report.md.checks_not_supported", checks=checks)}
    lines = ["- " + _literal(word(sentence(Items(by_status[status])))) for status, sentence in sentences.items() if by_status.get(status)]
    left_out = [FORMAT_LABELS[row["id"]] for row in coverage.formats(report) if row["status"] == coverage.NOT_IN_PROFILE]
    if left_out:
        lines.append("- " + _literal(word(Text("report.md.formats_not_in_profile", formats=Items(left_out)))))
    return lines or [word(Text("report.md.everything_checked"))]


def _cell(result: CheckResult, word: Word) -> str:
    return " · ".join((word(FORMAT_LABELS.get(result.format, result.format)), result.model, word(CHECKS_BY_ID[result.check].label)))


def _cells(results: list[CheckResult], word: Word) -> str:
    shown = ", ".join(_cell(r, word) for r in results[:MAX_FAILED_ROWS])
    return shown + (f" (+{len(results) - MAX_FAILED_ROWS})" if len(results) > MAX_FAILED_ROWS else "")


def readiness_markdown(report: Report, word: Word = str) -> list[str]:
    """The client readiness table: one row per official client, the cells that break it."""
    lines = ["### " + word(Text("report.md.clients_head")), "", word(Text("report.md.clients_columns")), "|---|---|---|---|"]
    for row in clients.readiness(report):
        formats = ", ".join(word(FORMAT_LABELS[fmt]) for fmt in row.formats) or "—"
        lines.append(f"| {_literal(row.client)} | {_literal(formats)} | {_literal(word(Text(f'report.clients.status.{row.status}')))} "
                     f"| {_literal(_cells(row.breaking, word), MAX_REASON) or '—'} |")
    return lines


def comparison_markdown(before: Report | None, changes: ReportDiff | None, word: Word = str) -> list[str]:
    """What changed since a kept report (`document.diff`): what broke, what was fixed, latency moved."""
    if before is None or changes is None:
        return [word(Text("report.md.compare_first"))]
    lines = ["### " + word(Text("report.md.compare_head", gateway=before.gateway, created=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(before.created)))), ""]
    if changes.empty:
        return [*lines, word(Text("report.md.compare_nothing"))]
    moves = ", ".join(f"{word(FORMAT_LABELS.get(m.format, m.format))} · {m.model} {m.before_s * 1000:,.0f} → {m.after_s * 1000:,.0f} ms"
                      for m in changes.latency_moved)
    for name, count, text in (("broke", len(changes.newly_failing), _cells(changes.newly_failing, word)),
                              ("fixed", len(changes.newly_passing), _cells(changes.newly_passing, word)),
                              ("latency", len(changes.latency_moved), moves)):
        if count:
            lines.append("- " + _literal(word(Text(f"report.md.compare_{name}", count=count, **{"moves" if name == "latency" else "cells": text}))))
    if changes.new_cells or changes.gone_cells:
        lines.append("- " + _literal(word(Text("report.md.compare_cells", new=len(changes.new_cells), gone=len(changes.gone_cells)))))
    return lines


def markdown_summary(report: Report, word: Word = str, comparison: list[str] | None = None) -> str:
    """Totals (strict and compatible), the failed cells with their reasons (at most
    `MAX_FAILED_ROWS`), the client readiness rows, what was not checked, and (given) the
    comparison with a kept report (`comparison_markdown`)."""
    counts, compatible = report.counts(), report.counts(COMPATIBLE)
    lines = ["## " + _literal(word(Text("report.md.title", gateway=report.gateway))), "",
             word(Text("report.md.totals", passed=counts[PASS], judged=counts[PASS] + counts[FAIL], failed=counts[FAIL],
                       unsupported=counts[UNSUPPORTED], skipped=counts[SKIPPED], seconds=f"{report.wall_s:.1f}")), "",
             word(Text("report.md.compatible_totals", passed=compatible[PASS], judged=compatible[PASS] + compatible[FAIL], failed=compatible[FAIL])), "",
             "### " + word(Text("report.md.failed_head")), ""]
    failed = [result for result in report.results if result.status == FAIL]
    if failed:
        lines += [word(Text("report.md.failed_columns")), "|---|---|---|---|"]
        lines += [f"| {_literal(word(FORMAT_LABELS.get(r.format, r.format)))} | {_literal(r.model)} | {_literal(word(CHECKS_BY_ID[r.check].label))} "
                  f"| {_literal(word(r.reason), MAX_REASON)} |" for r in failed[:MAX_FAILED_ROWS]]
        if len(failed) > MAX_FAILED_ROWS:
            lines += ["", word(Text("report.md.more_failed", count=len(failed) - MAX_FAILED_ROWS))]
    else:
        lines.append(word(Text("report.md.no_failures")))
    lines += ["", *readiness_markdown(report, word)]
    lines += ["", "### " + word(Text("report.md.not_checked_head")), "", *_not_checked(report, word)]
    if comparison is not None:
        lines += ["", *comparison]
    return "\n".join(lines) + "\n"


def _width(text: str) -> int:
    """About how wide `text` is at 11 px Verdana (wide East Asian characters count double)."""
    return sum(12 if unicodedata.east_asian_width(char) in "WF" else 7 for char in text) + 10


def badge_colour(share: int | None) -> str:
    if share is None:
        return GREY
    return GREEN if share == 100 else AMBER if share >= AMBER_FROM else RED


def badge_svg(report: Report, word: Word = str) -> str:
    """The badge: the label on grey, the share on its colour."""
    share = judged_share(report)
    counts = report.counts()
    if share == 100 and counts[FAIL]:
        share = 99
    label = word(Text("report.badge.label"))
    value = word(Text("report.badge.value", percent=share)) if share is not None else word(Text("report.badge.none"))
    left, right = _width(label), _width(value)
    title = html.escape(f"{label}: {value}", quote=True)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + right}" height="20" role="img" aria-label="{title}">'
            f"<title>{title}</title>"
            f'<rect width="{left}" height="20" fill="{LABEL_GREY}"/><rect x="{left}" width="{right}" height="20" fill="{badge_colour(share)}"/>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{left / 2:.1f}" y="14">{html.escape(label)}</text><text x="{left + right / 2:.1f}" y="14">{html.escape(value)}</text></g></svg>\n')
