"""How a report looks: the matrix (HTML, the reason in each cell's tooltip), the latency table,
a cell's details, the diff, and the downloads (JSON, Markdown, a self-contained HTML page, the
client's pull-request summary and status badge in the visitor's language).
Every upstream string is escaped; no Gradio here."""

from __future__ import annotations

import html
import tempfile
import time
from pathlib import Path
from typing import Any

from playground.client.media import media_directory
from playground.client.report import clients, document, summary
from playground.client.report.latency import latency_rows
from playground.client.report.model import CHECKS, CHECKS_BY_ID, COMPATIBLE, FORMAT_LABELS, TEXT_FORMATS, CheckResult, Report
from playground.client.texts import Text
from playground.ui.i18n.client_words import word
from playground.ui.shared.codegen import curl_snippet
from playground.ui.i18n import say
from playground.ui.shared.render import inspector_request, inspector_response, plain

SYMBOLS = {"pass": "✓", "fail": "✗", "unsupported": "—", "skipped": "○", "absent": "∅"}
"""A mark for every status, and for "absent": a check made only for other formats (no result)."""
ABSENT = "absent"
STYLE = """
.report-matrix-wrap{overflow:auto;max-width:100%;min-width:0;max-height:75vh;overscroll-behavior-x:contain}
.report-matrix tr:first-child th{position:sticky;top:0;z-index:1;background:var(--background-fill-primary,#fff)}
.report-matrix th.row{position:sticky;left:0;z-index:2;background:var(--background-fill-primary,#fff)}
.report-matrix tr:first-child th.row{z-index:3}
.report-matrix{border-collapse:collapse;font:12px system-ui,sans-serif;margin-bottom:10px}
.report-matrix th.col{font-weight:600;width:84px;min-width:84px;max-width:84px;line-height:1.15;font-size:11px;overflow-wrap:break-word}
.gradio-container .report-matrix th.col{overflow-wrap:break-word !important;padding:3px 4px !important}
.report-matrix th.row{min-width:max-content}
.report-matrix th,.report-matrix td{border:1px solid #d0d4dc;padding:3px 4px;text-align:center}
.report-matrix th.row{text-align:left;white-space:nowrap}
.report-matrix td.pass{background:#e3f6e8;color:#17692f}.report-matrix td.fail{background:#fde4e4;color:#a11b1b;font-weight:600}
.report-matrix td.unsupported{background:#f3f4f6;color:#9aa0a6}.report-matrix td.skipped{background:#fff7e0;color:#8a6d00}
.report-matrix td.absent{background:#fafafa;color:#9aa0a6}
.report-matrix td[data-cell]{cursor:pointer}
ul#report-legend{font:12px system-ui,sans-serif;margin:0 0 10px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:4px 16px}
ul#report-legend li{list-style:none;margin:0;padding:0}ul#report-legend li::before{content:none}
ul#report-legend b{display:inline-block;min-width:1.2em;text-align:center}
.report-legend-title{font:12px system-ui,sans-serif;margin:6px 0 2px}
.report-matrix sup.compat{font-size:9px;margin-left:2px;color:#17692f;font-weight:400}
table#report-clients td.ready{background:#e3f6e8;color:#17692f}table#report-clients td.not_ready{background:#fde4e4;color:#a11b1b;font-weight:600}
table#report-clients td.not_checked{color:#9aa0a6}
"""


LATENCY_STYLE = (".report-latency{border-collapse:collapse;font:13px system-ui,sans-serif}"
                 ".report-latency th,.report-latency td{border:1px solid #d0d4dc;padding:3px 8px;text-align:right}"
                 ".report-latency td:first-child,.report-latency th:first-child{text-align:left}")


def check_label(check: str) -> str:
    """A check's name in the visitor's language (worded by the client's message id)."""
    return word(CHECKS_BY_ID[check].label)


def format_label(fmt: str) -> str:
    """A format's name in the visitor's language (worded by the client's message id); an unknown one as it is."""
    return word(FORMAT_LABELS[fmt]) if fmt in FORMAT_LABELS else fmt


def status_word(status: str) -> str:
    return say(f"rep.status.{status}")


def summary_line(report: Report) -> str:
    """The client's summary line, in the visitor's language."""
    phrases = {name: say(f"rep.summary.{name}") for name in document.SUMMARY_PHRASES}
    return document.summary_line(report, phrases, check_label, say("rep.summary.join"), say("rep.summary.end"))


def cell_name(result: CheckResult) -> str:
    """"format · model · check" of a cell, as shown."""
    return f"{format_label(result.format)} · {result.model} · {check_label(result.check)}"


def cell_id(result: CheckResult) -> str:
    return "|".join(result.key)


def clients_note(result: CheckResult) -> str:
    """What the official clients make of a failed cell: the ones it breaks, or that they all accept it ("" otherwise)."""
    if result.breaks:
        return word(Text("report.clients.breaks", clients=", ".join(result.breaks)))
    if result.status == "fail" and result.verdict(COMPATIBLE) == "pass":
        return word(Text("report.clients.tolerated"))
    return ""


def _tooltip(result: CheckResult) -> str:
    text = f"{check_label(result.check)} — {status_word(result.status)}: {word(result.reason)}"
    if result.status == "fail" and result.expected:
        text += "\n" + say("rep.doc.expected", text=word(result.expected)) + "\n" + say("rep.doc.arrived", text=word(result.arrived))
    note = clients_note(result)
    return html.escape(text[:560] + (f"\n{note}" if note else ""), quote=True)


def _mark(result: CheckResult) -> str:
    """The strict mark, and the compatible one beside it when it differs."""
    compatible = result.verdict(COMPATIBLE)
    if compatible == result.status:
        return SYMBOLS[result.status]
    note = html.escape(word(Text("report.page.compatible", status=status_word(compatible))), quote=True)
    return f'{SYMBOLS[result.status]}<sup class="compat" title="{note}">{SYMBOLS[compatible]}</sup>'


GROUPS = (("text", TEXT_FORMATS), ("embeddings", ("embeddings", "embeddings-native")), ("images", ("images",)), ("video", ("video",)))


def _table(results: list[CheckResult], clickable: bool) -> str:
    """One table: rows = format x model, columns = the checks these rows ran."""
    columns = [c for c in CHECKS if any(r.check == c.id for r in results)]
    rows: dict[tuple[str, str], dict[str, CheckResult]] = {}
    for result in results:
        rows.setdefault((result.format, result.model), {})[result.check] = result
    head = "".join(f'<th class="col" title="{html.escape(word(c.meaning), quote=True)}">{html.escape(check_label(c.id))}</th>' for c in columns)
    lines = [f'<table class="report-matrix"><tr><th class="row">{html.escape(say("rep.matrix_rows"))}</th>{head}</tr>']
    for (fmt, model), cells in rows.items():
        tds = []
        for check in columns:
            result = cells.get(check.id)
            if result is None:
                tds.append(_absent_cell(fmt, model, check.id, clickable))
                continue
            target = f' data-cell="{html.escape(cell_id(result), quote=True)}"' if clickable else ""
            tds.append(f'<td class="{result.status}" title="{_tooltip(result)}"{target}>{_mark(result)}</td>')
        label = f"{format_label(fmt)} · {model}"
        lines.append(f'<tr><th class="row">{html.escape(label)}</th>{"".join(tds)}</tr>')
    return "\n".join(lines) + "</table>"


def _absent_cell(fmt: str, model: str, check: str, clickable: bool) -> str:
    """A check this row's format is not checked for: its mark, why in the tooltip, and (on the page) a click that says so."""
    target = f' data-cell="{html.escape("|".join((fmt, model, check)), quote=True)}"' if clickable else ""
    why = html.escape(f"{check_label(check)} — {status_word(ABSENT)}: {say('rep.legend.absent')}", quote=True)
    return f'<td class="{ABSENT}" title="{why}"{target}>{SYMBOLS[ABSENT]}</td>'


def legend_html(clickable: bool = True) -> str:
    """Every mark the matrix uses, with what it means (on the page: click a cell; in the file: its tooltip)."""
    items = "".join(f'<li class="{status}"><b>{SYMBOLS[status]}</b> {html.escape(status_word(status))}: {html.escape(say(f"rep.legend.{status}"))}</li>'
                    for status in SYMBOLS)
    items += f'<li class="compat"><b>✗<sup>✓</sup></b> {html.escape(say("rep.legend.compat"))}</li>'
    return f'<p class="report-legend-title">{html.escape(say("rep.legend.title" if clickable else "rep.legend.title_file"))}</p><ul class="report-legend" id="report-legend">{items}</ul>'


def matrix_html(report: Report | None, clickable: bool = True) -> str:
    """One table per kind of format (text, embeddings, images, video), scrolling sideways inside its
    box; each cell's reason in its tooltip; the legend of the marks below."""
    if report is None or not report.results:
        return say("report.p_run_a_report")
    tables = []
    for _name, formats in GROUPS:
        results = [r for r in report.results if r.format in formats]
        if results:
            tables.append(_table(results, clickable))
    return (f'<style>{STYLE}</style><div class="report-matrix-wrap" id="report-matrix-table">' + "".join(tables) + "</div>" + legend_html(clickable)
            + clients_html(report))


def clients_html(report: Report) -> str:
    """The readiness rows: per official client, the formats checked, ready or not, the cells that break it."""
    head = "".join(f"<th>{html.escape(name.strip())}</th>" for name in word(Text("report.md.clients_columns")).strip().strip("|").split("|"))
    rows = []
    for row in clients.readiness(report):
        formats = ", ".join(format_label(f) for f in row.formats) or "—"
        breaking = ", ".join(cell_name(r) for r in row.breaking) or "—"
        rows.append(f'<tr data-client="{html.escape(row.client, quote=True)}"><th class="row">{html.escape(row.client)}</th><td>{html.escape(formats)}</td>'
                    f'<td class="{row.status}">{html.escape(word(Text(f"report.clients.status.{row.status}")))}</td><td>{html.escape(breaking)}</td></tr>')
    return (f'<p class="report-legend-title">{html.escape(say("rep.clients_title"))}</p>'
            f'<table class="report-matrix" id="report-clients"><tr>{head}</tr>{"".join(rows)}</table>')


def absent_verdict(report: Report | None, key: str) -> str | None:
    """Why a matrix cell has no result ("format|model|check" of a row of `report`, a check made
    for other formats only), or None for any other key."""
    fmt, _, rest = key.partition("|")
    model, _, check = rest.rpartition("|")
    if report is None or check not in CHECKS_BY_ID or fmt in CHECKS_BY_ID[check].formats:
        return None
    if not any(r.format == fmt and r.model == model for r in report.results):
        return None
    formats = ", ".join(format_label(f) for f in CHECKS_BY_ID[check].formats)
    cell = f"{format_label(fmt)} · {model} · {check_label(check)}"
    return say("rep.absent", cell=plain(cell), check=plain(check_label(check)), formats=plain(formats)) + "\n\n" + say(
        "rep.rule", rule=plain(word(CHECKS_BY_ID[check].meaning)))


def summary_markdown(report: Report | None, progress: str = "") -> str:
    if report is None:
        return progress
    counts = report.counts()
    line = plain(summary_line(report))
    tally = say("rep.counts", passed=counts["pass"], failed=counts["fail"], unsupported=counts["unsupported"], skipped=counts["skipped"],
                seconds=f"{report.wall_s:.1f}")
    compatible = report.counts(COMPATIBLE)
    tally += "\n\n" + say("rep.compat_counts", passed=compatible["pass"], failed=compatible["fail"])
    return f"**{line}**\n\n{tally}" + (f"\n\n{progress}" if progress else "")


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value * 1000:,.0f}"


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"


def latency_markdown(report: Report | None) -> str:
    rows = latency_rows(report) if report is not None else []
    if not rows:
        return say("rep.no_streams")
    lines = [say("rep.latency_head"), "|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {plain(format_label(row['format']))} · {plain(row['model'])} | {row['streams']} | {_ms(row['ttft_p50_s'])} | "
                     f"{_ms(row['ttft_p95_s'])} | {_rate(row['tokens_per_s_p50'])} | {_rate(row['tokens_per_s_p95'])} |")
    return "\n".join(lines)


def latency_html(report: Report | None) -> str:
    """The latency section as an HTML table (the downloaded page has no Markdown renderer)."""
    rows = latency_rows(report) if report is not None else []
    if not rows:
        return f"<p>{html.escape(say('rep.no_streams'))}</p>"
    head = "".join(f"<th>{html.escape(name.strip())}</th>" for name in say("rep.latency_head").strip().strip("|").split("|"))
    body = []
    for row in rows:
        cells = (f"{format_label(row['format'])} · {row['model']}", row["streams"], _ms(row["ttft_p50_s"]), _ms(row["ttft_p95_s"]),
                 _rate(row["tokens_per_s_p50"]), _rate(row["tokens_per_s_p95"]))
        body.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells) + "</tr>")
    return f'<table class="report-latency" id="report-latency-table"><tr>{head}</tr>{"".join(body)}</table>'


def find_cell(report: Report | None, key: str) -> CheckResult | None:
    if report is None:
        return None
    return next((r for r in report.results if cell_id(r) == key), None)


def cell_choices(report: Report | None) -> list[tuple[str, str]]:
    if report is None:
        return []
    return [(f"{SYMBOLS[r.status]} {cell_name(r)}", cell_id(r)) for r in report.results]


def cell_verdict(result: CheckResult) -> str:
    check = CHECKS_BY_ID[result.check]
    lines = [f"**{plain(format_label(result.format))} · {plain(result.model)} · {plain(check_label(check.id))}: {status_word(result.status)}** — {plain(word(result.reason))}",
             "", say("rep.rule", rule=plain(word(check.meaning)))]
    if result.expected or result.arrived:
        lines += ["", say("rep.expected", text=plain(word(result.expected))), "", say("rep.arrived", text=plain(word(result.arrived)))]
    if result.status == "fail":
        lines += ["", say("rep.compat_verdict", status=status_word(result.verdict(COMPATIBLE)), note=plain(clients_note(result)))]
    lines += ["", say("rep.calls", count=len(result.exchanges), ms=f"{result.seconds * 1000:.0f}")]
    return "\n".join(lines)


def diff_markdown(changes: document.ReportDiff | None) -> str:
    if changes is None:
        return ""
    if changes.empty:
        return say("rep.unchanged")

    def names(results: list[CheckResult]) -> str:
        return ", ".join(plain(cell_name(r)) for r in results) or say("rep.none")

    return say("rep.changes", failing=len(changes.newly_failing), failing_names=names(changes.newly_failing),
               passing=len(changes.newly_passing), passing_names=names(changes.newly_passing), new=len(changes.new_cells),
               gone=len(changes.gone_cells))


def _md(text: str) -> str:
    """Literal text on one line of the Markdown file: a gateway's address, model names and the
    reasons that quote its answers never become HTML or markup in a Markdown viewer."""
    return plain(" ".join(str(text).splitlines()))


def markdown_report(report: Report) -> str:
    lines = ["# " + say("rep.doc.title", gateway=_md(report.gateway)), "", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(report.created)), "",
             f"**{_md(summary_line(report))}**", "", say("rep.doc.table_head"), "|---|---|---|---|---|"]
    for r in report.results:
        lines.append(f"| {_md(format_label(r.format))} | {_md(r.model)} | {_md(check_label(r.check))} | {_md(status_word(r.status))} | {_md(word(r.reason))} |")
    lines += ["", *(line.replace("### ", "## ", 1) for line in summary.readiness_markdown(report, word))]
    lines += ["", "## " + say("rep.doc.latency"), "", latency_markdown(report), "", "## " + say("rep.doc.meanings"), ""]
    lines += [f"- **{check_label(c.id)}**: {word(c.meaning)}" for c in CHECKS]
    return "\n".join(lines) + "\n"


def html_report(report: Report) -> str:
    """One page, no outside resources: summary, matrix, latency, and every failing cell's calls with curl."""
    details = []
    for result in report.results:
        if result.status != "fail":
            continue
        calls = "".join(f"<h4>{say('rep.doc.call', number=i + 1)}</h4><pre>{html.escape(inspector_request(e))}</pre><pre>{html.escape(inspector_response(e)[:20000])}</pre>"
                        f"<pre>{html.escape(curl_snippet(e))}</pre>" for i, e in enumerate(result.exchanges))
        details.append(f"<details><summary>{html.escape(cell_name(result))}: {html.escape(word(result.reason))}</summary>"
                       f"<p>{html.escape(say('rep.doc.expected', text=word(result.expected)))}<br>{html.escape(say('rep.doc.arrived', text=word(result.arrived)))}</p>"
                       f"{calls}</details>")
    meanings = "".join(f"<li><b>{html.escape(check_label(c.id))}</b>: {html.escape(word(c.meaning))}</li>" for c in CHECKS)
    words = {name: html.escape(say(f"rep.doc.{name}")) for name in ("page_title", "latency", "failing", "meanings")}
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{words['page_title']}</title><style>body{{font:14px system-ui,sans-serif;margin:2em}}"
            f"pre{{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap}}{LATENCY_STYLE}</style></head><body>"
            f"<h1 id='report-title'>{html.escape(say('rep.doc.title', gateway=report.gateway))}</h1>"
            f"<p id='report-summary-line'><b>{html.escape(summary_line(report))}</b></p>"
            f"{matrix_html(report, clickable=False)}<h2>{words['latency']}</h2>{latency_html(report)}"
            f"<h2>{words['failing']}</h2>{''.join(details) or '<p>' + say('rep.none') + '</p>'}<h2>{words['meanings']}</h2><ul>{meanings}</ul></body></html>")


def report_files_dir() -> Path:
    """Where the app writes the files it offers for download (swap for the shared helper later)."""
    root = media_directory("reports")
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="report-", dir=root))


def write_downloads(report: Report) -> list[str]:
    folder = report_files_dir()
    files = {"gateway-report.json": document.dumps(report), "gateway-report.md": markdown_report(report), "gateway-report.html": html_report(report),
             "gateway-report-summary.md": summary.markdown_summary(report, word), "gateway-report-badge.svg": summary.badge_svg(report, word)}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [str(folder / name) for name in files]


def load_plot_rows(report: Report | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """(TTFT rows, tokens/s rows, error table Markdown) of the load run."""
    if report is None or report.load is None or not report.load.steps:
        return [], [], ""
    ttft, rate = [], []
    lines = [say("rep.load_head"), "|---|---|---|---|---|---|---|---|"]
    for step in report.load.steps:
        for name, value in (("TTFT p50", step.ttft_p50_s), ("TTFT p95", step.ttft_p95_s)):
            if value is not None:
                ttft.append({"concurrency": step.concurrency, "ms": value * 1000, "series": name})
        if step.tokens_per_s is not None:
            rate.append({"concurrency": step.concurrency, "tokens/s": step.tokens_per_s, "series": "tokens/s p50"})
        e = step.errors
        lines.append(f"| {step.concurrency} | {step.requests} | {e.get('429', 0)} | {e.get('5xx', 0)} | {e.get('cut stream', 0)} | "
                     f"{e.get('timeout', 0)} | {e.get('other', 0)} | {step.error_rate:.0%} |")
    if report.load.stopped_because:
        lines.append(f"\n{plain(word(report.load.stopped_because))}")
    return ttft, rate, "\n".join(lines)


