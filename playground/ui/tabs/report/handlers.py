"""The Report tab's work, without Gradio layout: the scope from the pickers, the run (progress
as it goes, what finished kept on Stop), a saved report loaded and diffed, and the load run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from playground.client import catalog
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.report import document
from playground.client.report.latency import load_run
from playground.client.report.model import CHECKS_BY_ID, FORMATS, FORMAT_LABELS, TEXT_FORMATS, LoadRun, Report, Scope, catalog_models
from playground.client.report.runner import RunState, run_report
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.i18n import say

SEPARATOR = " · "


@dataclass
class ReportSession:
    report: Report | None = None
    baseline: Report | None = None
    state: RunState | None = None


def model_value(fmt: str, model: str) -> str:
    return f"{FORMAT_LABELS[fmt]}{SEPARATOR}{model}"


def model_choices(thorough: bool = True, gateway_ids: list[str] | None = None) -> list[str]:
    """Every (format, model) the picker offers: the catalog's, plus the gateway's own ids."""
    choices = [model_value(fmt, model) for fmt in FORMATS for model in catalog_models(fmt, thorough)]
    for model in gateway_ids or []:
        for fmt in formats_for_gateway_id(model):
            choices.append(model_value(fmt, model))
    return list(dict.fromkeys(choices))


def formats_for_gateway_id(model: str) -> list[str]:
    info = catalog.find(model)
    if info is not None:
        return [fmt for fmt in TEXT_FORMATS if fmt in info.interfaces]
    if "embedding" in model:
        return ["embeddings"]
    if model.endswith("-image") or "-image-" in model:
        return ["images"]
    return ["chat"]


def default_models(thorough: bool) -> list[str]:
    return [model_value(fmt, model) for fmt in FORMATS for model in catalog_models(fmt, thorough)]


def build_scope(formats: list[str], models: list[str], checks: list[str], thorough: bool, budget: float | None) -> Scope:
    """The scope from the pickers, refused with what to fix when it is empty."""
    labels = {label: fmt for fmt, label in FORMAT_LABELS.items()}
    chosen: dict[str, list[str]] = {}
    for value in models or []:
        label, _, model = value.partition(SEPARATOR)
        fmt = labels.get(label)
        if fmt is None or not model.strip():
            raise RequestValidationError([say("rep.bad_model", value=repr(value))])
        if fmt in (formats or []):
            chosen.setdefault(fmt, []).append(model.strip())
    unknown = [c for c in checks or [] if c not in CHECKS_BY_ID]
    if unknown:
        raise RequestValidationError([say("rep.unknown_checks", checks=", ".join(unknown))])
    if not chosen:
        raise RequestValidationError([say("rep.pick_model")])
    if not checks:
        raise RequestValidationError([say("rep.pick_check")])
    if budget is None or not 0 < float(budget) <= 120:
        raise RequestValidationError([say("rep.budget")])
    return Scope(chosen, tuple(checks), bool(thorough), float(budget))


async def run(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, session: ReportSession, scope: Scope,
              concurrency: int) -> AsyncIterator[RunState]:
    """The run's states (the connection is resolved here, so hosted-mode limits bind to the session)."""
    conn = resolve_connection(defaults, url, key)
    session.report = Report(conn.base_url, scope)
    async for state in run_report(client, conn, scope, concurrency=concurrency, report=session.report):
        session.state = state
        yield state


def load_saved(path: str | None) -> Report:
    """A report file the visitor uploaded, read and checked whole before anything changes."""
    if not path:
        raise document.ReportFileError(say("rep.choose_file"))
    file = Path(path)
    try:
        if file.stat().st_size > document.MAX_FILE_BYTES:
            raise document.ReportFileError(say("rep.file_too_large", mb=f"{document.MAX_FILE_BYTES / 1e6:.0f}"))
        text = file.read_bytes()
    except OSError:
        raise document.ReportFileError(say("rep.file_gone")) from None
    return document.loads(text)


async def run_load(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, session: ReportSession, fmt: str, model: str,
                   max_concurrency: int, stop_rate_percent: float) -> AsyncIterator[LoadRun]:
    if defaults.hosted:
        from playground.client.report.latency import HOSTED_REFUSAL, LoadRunRefused

        raise LoadRunRefused(HOSTED_REFUSAL)
    if not (model or "").strip():
        raise RequestValidationError([say("rep.load_model")])
    if not 1 <= int(max_concurrency or 0) <= 64:
        raise RequestValidationError([say("rep.load_concurrency")])
    conn = resolve_connection(defaults, url, key)
    if session.report is None:
        session.report = Report(conn.base_url, Scope({}, ()))
    async for loaded in load_run(client, conn, fmt, model.strip(), max_concurrency=int(max_concurrency),
                                 stop_error_rate=float(stop_rate_percent or 0) / 100, hosted=defaults.hosted):
        session.report.load = loaded
        yield loaded
