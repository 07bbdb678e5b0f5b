"""The report as one self-contained HTML page for the command line (the Report tab writes its own,
with every call and its curl): the summary, one table per format, every failing cell with its
reason, and what each check means. Words are the client's message ids through `word` (English by
default); every upstream string is escaped."""

from __future__ import annotations

import html
import time
from collections.abc import Callable

from playground.client.report import clients, document
from playground.client.report.model import CHECKS, CHECKS_BY_ID, COMPATIBLE, FORMAT_LABELS, CheckResult, Report
from playground.client.texts import Text

SYMBOLS = {"pass": "✓", "fail": "✗", "unsupported": "—", "skipped": "○"}
STYLE = ("body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
         "th,td{border:1px solid #d0d4dc;padding:3px 6px;text-align:center}th.row{text-align:left;white-space:nowrap}"
         "td.pass{background:#e3f6e8;color:#17692f}td.fail{background:#fde4e4;color:#a11b1b;font-weight:600}"
         "td.unsupported{background:#f3f4f6;color:#9aa0a6}td.skipped{background:#fff7e0;color:#8a6d00}"
         "pre{background:#f6f8fa;padding:8px;white-space:pre-wrap}sup.compat{font-size:9px;margin-left:2px;color:#17692f}")


def _mark(result: CheckResult, word: Callable[[str], str]) -> str:
    """The strict mark, with the compatible one beside it when they differ (its meaning in the title)."""
    compatible = result.verdict(COMPATIBLE)
    if compatible == result.status:
        return SYMBOLS[result.status]
    note = _e(word(Text("report.page.compatible", status=compatible)))
    return f'{SYMBOLS[result.status]}<sup class="compat" title="{note}">{SYMBOLS[compatible]}</sup>'


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _tip(result: CheckResult, word: Callable[[str], str]) -> str:
    tip = str(word(result.reason))[:600]
    if result.breaks:
        tip += " — " + word(Text("report.clients.breaks", clients=", ".join(result.breaks)))
    elif result.status == "fail" and result.verdict(COMPATIBLE) == "pass":
        tip += " — " + word(Text("report.clients.tolerated"))
    return _e(tip)


def _table(results: list[CheckResult], word: Callable[[str], str]) -> str:
    columns = [c for c in CHECKS if any(r.check == c.id for r in results)]
    rows: dict[tuple[str, str], dict[str, CheckResult]] = {}
    for result in results:
        rows.setdefault((result.format, result.model), {})[result.check] = result
    head = "".join(f'<th title="{_e(c.meaning)}">{_e(c.label)}</th>' for c in columns)
    lines = [f'<table><tr><th class="row">format · model</th>{head}</tr>']
    for (fmt, model), cells in rows.items():
        tds = "".join(f'<td class="{cells[c.id].status}" title="{_tip(cells[c.id], word)}">{_mark(cells[c.id], word)}</td>'
                      if c.id in cells else "<td></td>" for c in columns)
        lines.append(f'<tr><th class="row">{_e(FORMAT_LABELS.get(fmt, fmt))} · {_e(model)}</th>{tds}</tr>')
    return "\n".join(lines) + "</table>"


def _readiness(report: Report, word: Callable[[str], str]) -> str:
    """One row per official client: its formats checked, ready or not, the cells that break it."""
    head = "".join(f"<th>{_e(name.strip())}</th>" for name in word(Text("report.md.clients_columns")).strip().strip("|").split("|"))
    rows = [f"<tr><th class='row'>{_e(row.client)}</th><td>{_e(', '.join(word(FORMAT_LABELS[f]) for f in row.formats) or '—')}</td>"
            f"<td class='{row.status}'>{_e(word(Text(f'report.clients.status.{row.status}')))}</td>"
            f"<td>{_e(', '.join(f'{word(FORMAT_LABELS[r.format])} · {r.model} · {word(CHECKS_BY_ID[r.check].label)}' for r in row.breaking) or '—')}</td></tr>"
            for row in clients.readiness(report)]
    return f"<table id='report-clients'><tr>{head}</tr>{''.join(rows)}</table>"


def html_page(report: Report, word: Callable[[str], str] = str) -> str:
    """The whole page (no outside resources)."""
    formats = list(dict.fromkeys(r.format for r in report.results))
    tables = "".join(_table([r for r in report.results if r.format == fmt], word) for fmt in formats)
    clients = _readiness(report, word)
    failing = "".join(f"<details><summary>{_e(FORMAT_LABELS.get(r.format, r.format))} · {_e(r.model)} · {_e(CHECKS_BY_ID[r.check].label)}: "
                      f"{_e(word(r.reason))}</summary><pre>{_e(word(Text('report.page.expected_arrived', expected=r.expected, arrived=r.arrived)))}</pre>"
                      "</details>" for r in report.results if r.status == "fail") or f"<p>{_e(word(Text('report.page.none')))}</p>"
    meanings = "".join(f"<li><b>{_e(c.label)}</b>: {_e(c.meaning)}</li>" for c in CHECKS)
    created = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(report.created))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_e(word(Text('report.page.window_title')))}</title>"
            f"<style>{STYLE}</style></head><body>"
            f"<h1 id='report-title'>{_e(word(Text('report.page.title', gateway=report.gateway)))}</h1><p>{created}</p>"
            f"<p id='report-summary-line'><b>{_e(document.summary_line(report))}</b></p>{tables}"
            f"<h2>{_e(word(Text('report.page.clients')))}</h2>{clients}"
            f"<h2>{_e(word(Text('report.page.failing')))}</h2>{failing}<h2>{_e(word(Text('report.page.meanings')))}</h2>"
            f"<ul>{meanings}</ul></body></html>")
