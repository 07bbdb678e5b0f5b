"""The report as a file: a versioned JSON document with a stable schema (written, read back and
checked whole), the summary line, and the diff of a new run against a saved one.

Schema `gateway-playground-report`, version 3 (`docs/report.schema.json`; 3 adds the compatibility-kit checks,
the accounting checks, the compatible verdicts and the client rows): {schema, version,
schema_version, created, gateway, scope, summary, counts, compatible_counts, checks: [{id, label,
status, cells}], formats: [{id, label, status, models}], clients: [{client, read_from, formats,
status, judged, breaking, requirements}], wall_s, stopped, results: [{format, model, check, status,
compatible, breaks, reason, expected, arrived, seconds, tag, timings: [{ttft_s, tokens_per_s}],
exchanges: [...]}], latency, load}. `checks`, `formats`, `clients` and each result's `compatible`
and `breaks` are derived (`coverage`, `clients`), so a version 1 or 2 document (without them)
still loads, judged by this version's client table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from typing import Any

from playground.client.errors import GatewayError
from playground.client.exchange import Exchange, RecordedEvent
from playground.client.report import clients, coverage
from playground.client.report.latency import LatencyMove, latency_moves, latency_rows
from playground.client.report.model import (
    CHECKS_BY_ID,
    COMPATIBLE,
    FAIL,
    FORMAT_LABELS,
    PASS,
    STATUSES,
    CheckResult,
    LoadRun,
    LoadStep,
    Report,
    Scope,
    Timing,
)
from playground.client.texts import Text

SCHEMA, VERSION = "gateway-playground-report", 3
READABLE_VERSIONS = (1, 2, 3)
"""Versions `loads` reads: 2 is version 3 without the compatibility-kit and accounting checks, the
compatible verdicts and client rows; 1 is version 2 without `schema_version`, `checks` and `formats`."""
MAX_SHOWN_STRING = 2000
MAX_FILE_BYTES = 50_000_000


class ReportFileError(GatewayError):
    title = Text("report.file.not_a_report")
    hint = Text("report.file.load_saved_json")


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_SHOWN_STRING:
        return Text("report.file.cut_string", start=value[:MAX_SHOWN_STRING], more=len(value) - MAX_SHOWN_STRING)
    if isinstance(value, dict):
        return {str(k): _short(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_short(v) for v in value]
    return value


def exchange_json(exchange: Exchange) -> dict[str, Any]:
    """What a saved report keeps of a call (already redacted: the key is never in an Exchange)."""
    return {"method": exchange.method, "url": exchange.url, "request_headers": exchange.request_headers,
            "request_body": _short(exchange.request_body), "status": exchange.status, "response_body": _short(exchange.response_body),
            "events": [[round(e.at, 4), e.event, _short(e.data)] for e in exchange.events], "attempts": exchange.attempts,
            "first_token_at": exchange.first_token_at, "finished_at": exchange.finished_at, "error": exchange.error}


def exchange_from_json(data: dict[str, Any]) -> Exchange:
    exchange = Exchange(str(data["method"]), str(data["url"]), {str(k): str(v) for k, v in dict(data.get("request_headers") or {}).items()},
                        data.get("request_body"))
    exchange.status = data.get("status") if isinstance(data.get("status"), int) else None
    exchange.response_body = data.get("response_body")
    exchange.events = [RecordedEvent(float(at), event if isinstance(event, str) else None, str(text)) for at, event, text in data.get("events") or []]
    exchange.attempts = int(data.get("attempts") or 0)
    exchange.first_token_at = _number(data.get("first_token_at"))
    exchange.finished_at = _number(data.get("finished_at"))
    exchange.error = data.get("error") if isinstance(data.get("error"), str) else None
    return exchange


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(Text("report.file.expected_number", value=repr(value)))
    return float(value)


def to_json(report: Report) -> dict[str, Any]:
    load = None
    if report.load is not None:
        load = {"format": report.load.format, "model": report.load.model, "stopped_because": report.load.stopped_because,
                "steps": [step.__dict__ for step in report.load.steps]}
    return {"schema": SCHEMA, "version": VERSION, "schema_version": VERSION, "created": report.created, "gateway": report.gateway,
            "scope": report.scope.to_json(), "summary": summary_line(report), "counts": report.counts(), "compatible_counts": report.counts(COMPATIBLE),
            "checks": coverage.checks(report), "formats": coverage.formats(report), "clients": clients.readiness_json(report),
            "wall_s": report.wall_s, "stopped": report.stopped,
            "results": [{"format": r.format, "model": r.model, "check": r.check, "status": r.status, "compatible": r.verdict(COMPATIBLE),
                         "breaks": list(r.breaks), "reason": r.reason,
                         "expected": r.expected, "arrived": r.arrived, "seconds": r.seconds, "tag": r.tag,
                         "timings": [t.__dict__ for t in r.timings], "exchanges": [exchange_json(e) for e in r.exchanges]}
                        for r in report.results],
            "latency": latency_rows(report), "load": load}


def dumps(report: Report) -> str:
    return json.dumps(to_json(report), indent=1, ensure_ascii=False, default=str)


def loads(text: str | bytes) -> Report:
    """A saved report, checked whole (raises `ReportFileError` saying what is wrong)."""
    if len(text) > MAX_FILE_BYTES:
        raise ReportFileError(Text("report.file.too_large", size_mb=len(text) / 1000000.0, limit_mb=MAX_FILE_BYTES / 1000000.0))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ReportFileError(Text("report.file.not_json")) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ReportFileError(Text("report.file.no_schema", schema=SCHEMA))
    if data.get("version") not in READABLE_VERSIONS or isinstance(data.get("version"), bool):
        raise ReportFileError(Text("report.file.wrong_version", found=repr(data.get("version")), supported=f"{READABLE_VERSIONS[0]}–{READABLE_VERSIONS[-1]}"))
    try:
        return _report(data)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError) as exc:
        raise ReportFileError(Text("report.file.damaged", error_type=type(exc).__name__, error=str(exc)[:120])) from None


def _report(data: dict[str, Any]) -> Report:
    scope_data = data["scope"]
    models = {str(fmt): [str(m) for m in models] for fmt, models in dict(scope_data["models"]).items()}
    checks = tuple(str(c) for c in scope_data["checks"])
    scope = Scope(models, checks, bool(scope_data.get("thorough")), float(scope_data.get("ttft_budget_s", 2.0)))
    report = Report(str(data["gateway"]), scope, float(data["created"]), wall_s=float(data.get("wall_s") or 0.0), stopped=bool(data.get("stopped")))
    for item in data["results"]:
        status, check = str(item["status"]), str(item["check"])
        if status not in STATUSES:
            raise ValueError(Text("report.file.unknown_status", status=repr(status)))
        if check not in CHECKS_BY_ID:
            raise ValueError(Text("report.file.unknown_check", check=repr(check)))
        report.results.append(CheckResult(
            str(item["format"]), str(item["model"]), check, status, str(item.get("reason", "")), str(item.get("expected", "")),
            str(item.get("arrived", "")), float(item.get("seconds") or 0.0), str(item.get("tag", "")),
            [Timing(_number(t.get("ttft_s")), _number(t.get("tokens_per_s"))) for t in item.get("timings") or []],
            [exchange_from_json(e) for e in item.get("exchanges") or []]))
    load = data.get("load")
    if isinstance(load, dict):
        report.load = LoadRun(str(load["format"]), str(load["model"]), [LoadStep(
            int(s["concurrency"]), int(s["requests"]), _number(s.get("ttft_p50_s")), _number(s.get("ttft_p95_s")),
            _number(s.get("tokens_per_s")), {str(k): int(v) for k, v in dict(s["errors"]).items()}, float(s["seconds"]))
            for s in load.get("steps") or []], str(load.get("stopped_because", "")))
    report.finished = True
    return clients.judge_all(report)


TAG_PHRASES = {
    "no-done": "streams of {models} end without [DONE]",
    "no-reasoning-tokens": "{count} model(s) answer thinking requests without reasoning tokens ({models})",
    "no-usage": "streamed answers of {models} carry no usage",
    "slow-first-token": "the first token of {models} comes later than the budget",
    "ignores-schema": "answers of {models} ignore the JSON schema",
}


SUMMARY_PHRASES = {"passed": "{passed} of {judged} checks passed", **TAG_PHRASES, "also": "also failing: {checks}",
                   "skipped": "{count} skipped", "stopped": "the run was stopped"}


def summary_parts(report: Report) -> list[tuple[str, dict[str, Any]]]:
    """The summary line's parts as (phrase name, values): a `SUMMARY_PHRASES` name (a tag of
    `TAG_PHRASES` among them) and what fills it. "also" carries the failing checks' ids, so a
    caller can name them in its own words."""
    judged = [r for r in report.results if r.status in (PASS, FAIL)]
    passed = sum(r.status == PASS for r in judged)
    parts: list[tuple[str, dict[str, Any]]] = [("passed", {"passed": passed, "judged": len(judged)})]
    failed = [r for r in judged if r.status == FAIL]
    by_tag: dict[str, list[str]] = {}
    for result in failed:
        if result.tag in TAG_PHRASES:
            label = f"{FORMAT_LABELS.get(result.format, result.format)} · {result.model}"
            by_tag.setdefault(result.tag, [])
            if label not in by_tag[result.tag]:
                by_tag[result.tag].append(label)
    for tag, labels in by_tag.items():
        parts.append((tag, {"models": ", ".join(labels), "count": len(labels)}))
    other = {r.check for r in failed if r.tag not in TAG_PHRASES}
    if other:
        parts.append(("also", {"checks": sorted(other, key=lambda check: CHECKS_BY_ID[check].label)}))
    skipped = sum(r.status == "skipped" for r in report.results)
    if skipped:
        parts.append(("skipped", {"count": skipped}))
    if report.stopped:
        parts.append(("stopped", {}))
    return parts


def summary_line(report: Report, phrases: Mapping[str, str] = SUMMARY_PHRASES, check_label: Callable[[str], str] | None = None,
                 join: str = "; ", end: str = ".") -> str:
    """"41 of 48 checks passed; streams of X end without [DONE]; ..." (unsupported cells not counted).
    A caller writing another language passes its own `phrases` (same names and places), check
    names, separator and full stop."""
    label = check_label or (lambda check: CHECKS_BY_ID[check].label)
    shown = []
    for name, values in summary_parts(report):
        if name == "also":
            values = {"checks": ", ".join(label(check) for check in values["checks"])}
        shown.append(phrases[name].format(**values))
    return join.join(shown) + end


@dataclass
class ReportDiff:
    newly_failing: list[CheckResult] = field(default_factory=list)
    newly_passing: list[CheckResult] = field(default_factory=list)
    new_cells: list[CheckResult] = field(default_factory=list)
    gone_cells: list[tuple[str, str, str]] = field(default_factory=list)
    latency_moved: list[LatencyMove] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.newly_failing or self.newly_passing or self.new_cells or self.gone_cells or self.latency_moved)


def diff(before: Report, after: Report) -> ReportDiff:
    """What changed from `before` (a saved or kept report) to `after` (a newer one), cell by cell:
    what broke, what was fixed, the cells only one has, and the latency that moved."""
    old, new = before.by_key(), after.by_key()
    changes = ReportDiff()
    for key, result in new.items():
        previous = old.get(key)
        if previous is None:
            changes.new_cells.append(result)
        elif previous.status == PASS and result.status == FAIL:
            changes.newly_failing.append(result)
        elif previous.status == FAIL and result.status == PASS:
            changes.newly_passing.append(result)
    changes.gone_cells = [key for key in old if key not in new]
    changes.latency_moved = latency_moves(latency_rows(before), latency_rows(after))
    return changes
