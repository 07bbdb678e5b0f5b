"""What a report checked and what it did not: every check the suite knows (`model.CHECKS`) with
one status over its cells, and every format with whether the profile ran it, so a reader of a
report sees the checks and formats it left out as well as the ones it ran.

A check's status: `failed` (any cell failed), `passed` (any passed, none failed), `not_run` (its
cells were all skipped: the model cannot do it, a limit, Stop), `not_supported` (no format it ran
on has the feature) or `not_in_profile` (not chosen: the quick profile leaves the thorough-only
checks out, or none of its formats was run)."""

from __future__ import annotations

from typing import Any

from playground.client.report.model import CHECKS, FAIL, FORMAT_LABELS, FORMATS, PASS, SKIPPED, STATUSES, UNSUPPORTED, Report

PASSED, FAILED, NOT_RUN, NOT_SUPPORTED, NOT_IN_PROFILE = "passed", "failed", "not_run", "not_supported", "not_in_profile"
CHECK_STATUSES = (PASSED, FAILED, NOT_RUN, NOT_SUPPORTED, NOT_IN_PROFILE)
CHECKED = "checked"
FORMAT_STATUSES = (CHECKED, NOT_IN_PROFILE)


def check_status(report: Report, check_id: str) -> tuple[str, dict[str, int]]:
    """(the check's status, its cells counted by cell status)."""
    counts = dict.fromkeys(STATUSES, 0)
    for result in report.results:
        if result.check == check_id:
            counts[result.status] += 1
    if check_id not in report.scope.checks or not any(counts.values()):
        return NOT_IN_PROFILE, counts
    if counts[FAIL]:
        return FAILED, counts
    if counts[PASS]:
        return PASSED, counts
    return (NOT_RUN if counts[SKIPPED] else NOT_SUPPORTED), counts


def checks(report: Report) -> list[dict[str, Any]]:
    """Every check the suite knows, in the suite's order: id, label, status and cell counts."""
    rows = []
    for check in CHECKS:
        status, counts = check_status(report, check.id)
        rows.append({"id": check.id, "label": str(check.label), "status": status, "cells": counts})
    return rows


def formats(report: Report) -> list[dict[str, Any]]:
    """Every format the suite knows: id, label, `checked` with the models run, or `not_in_profile`."""
    return [{"id": fmt, "label": str(FORMAT_LABELS[fmt]), "status": CHECKED if report.scope.models.get(fmt) else NOT_IN_PROFILE,
             "models": list(report.scope.models.get(fmt) or [])} for fmt in FORMATS]


__all__ = ["CHECK_STATUSES", "FORMAT_STATUSES", "UNSUPPORTED", "check_status", "checks", "formats"]
