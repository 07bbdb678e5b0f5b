"""A run's files: every cell as CSV and JSONL, the leaderboard as Markdown, a self-contained
HTML report, and the run's settings as a session file that loads and runs again. Written row by
row into a folder the app created."""

from __future__ import annotations

import csv
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playground.client.batch.cost import Price, money
from playground.client.batch.plan import Plan
from playground.client.batch.stability import flipping_rows
from playground.client.batch.report import cell_cost, column_label, leaderboard, leaderboard_markdown, leaderboard_rows
from playground.client.batch.store import RunRecord

MAX_HTML_ROWS = 2_000
MAX_HTML_ANSWER = 600
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
"""Text a spreadsheet reads as a number and nothing else (`-5`, `+1.5`, `-2e3`): no formula in it."""
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]#|~!])")


def cell_dicts(plan: Plan, run: RunRecord, prices: dict[str, Price]) -> Iterator[dict[str, Any]]:
    """Every cell, row by row and repeat by repeat; `verdict_flips` says whether its row's verdict
    in its column differs between repeats."""
    flips = flipping_rows(plan, run)
    for record in sorted(run.cells.values(), key=lambda r: (r.row, r.repeat, r.column)):
        if record.column >= len(plan.columns) or record.row >= len(plan.dataset.rows):
            continue
        fmt, model = plan.columns[record.column]
        temperature, max_tokens, stream = plan.settings_for(record.column)
        item: dict[str, Any] = {"row": record.row + 1, "repeat": record.repeat + 1, "column": record.column + 1, "format": fmt,
                                "model": model, "temperature": temperature, "max_tokens": max_tokens, "stream": stream, **{f"var:{k}": v for k, v in plan.dataset.rows[record.row].items()},
                                "answer": record.answer, "error": record.error, "cached": record.cached,
                                "ttft_ms": round(record.ttft * 1000, 1) if record.ttft is not None else None,
                                "total_ms": round(record.total * 1000, 1) if record.total is not None else None,
                                "input_tokens": record.usage.get("input") if record.usage else None,
                                "output_tokens": record.usage.get("output") if record.usage else None,
                                "cached_tokens": record.usage.get("cached") if record.usage else None,
                                "cost_usd": cell_cost(plan, record, prices),
                                "verdict_flips": record.row in flips.get(record.column, set())}
        for spec, mark in zip(plan.graders, record.marks):
            item[f"pass:{spec.label}"] = mark.get("passed")
            item[f"why:{spec.label}"] = mark.get("detail")
        yield item


def _safe_csv(value: Any) -> Any:
    """Spreadsheet formula injection: a text cell starting with = + - @, a tab or a CR is prefixed
    with ' unless it is a plain number (`-5` stays `-5`); numbers are written as they are."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return "" if value is None else value


def write_exports(folder: Path, plan: Plan, run: RunRecord, prices: dict[str, Price]) -> dict[str, Path]:
    """Write the five files into `folder`; returns {kind: path}."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"csv": folder / "batch-cells.csv", "jsonl": folder / "batch-cells.jsonl", "md": folder / "leaderboard.md",
             "html": folder / "batch-report.html", "session": folder / "batch-session.json"}
    fields = list(dict.fromkeys(k for item in cell_dicts(plan, run, prices) for k in item))
    with paths["csv"].open("w", newline="", encoding="utf-8") as handle, paths["jsonl"].open("w", encoding="utf-8") as lines:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for item in cell_dicts(plan, run, prices):
            writer.writerow({k: _safe_csv(v) for k, v in item.items()})
            lines.write(json.dumps(item, ensure_ascii=False) + "\n")
    stats = leaderboard(plan, run, prices)
    paths["md"].write_text("# Leaderboard\n\n" + leaderboard_markdown(plan, stats, _md_cell) + "\n", encoding="utf-8")
    paths["html"].write_text(html_report(plan, run, prices), encoding="utf-8")
    paths["session"].write_text(json.dumps(plan.to_dict(), indent=2, ensure_ascii=False), encoding="utf-8")
    return paths


def _md_cell(value: str) -> str:
    """A value as literal text in a Markdown table cell: HTML escaped (a gateway's or a visitor's
    `<script>` stays text in every Markdown viewer), Markdown marks escaped, one line."""
    escaped = html.escape(" ".join(str(value).splitlines()), quote=False)
    return _MARKDOWN_SPECIALS.sub(r"\\\1", escaped)


def html_report(plan: Plan, run: RunRecord, prices: dict[str, Price]) -> str:
    """One HTML file, no scripts, no outside resources; every value escaped."""
    e = html.escape
    headers, rows = leaderboard_rows(plan, leaderboard(plan, run, prices))
    board = "<tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + "</tr>" + "".join(
        "<tr>" + "".join(f"<td>{e(v)}</td>" for v in row) + "</tr>" for row in rows)
    labels = [column_label(plan, i) for i in range(len(plan.columns))]
    grid = ["<tr><th>row</th><th>repeat</th>" + "".join(f"<th>{e(label)}</th>" for label in labels) + "</tr>"]
    for row in range(min(len(plan.dataset.rows), MAX_HTML_ROWS)):
        for repeat in range(plan.repeats):
            cells = []
            for column in range(len(plan.columns)):
                record = run.cells.get(f"{row}.{repeat}.{column}")
                if record is None:
                    cells.append("<td class=empty>not run</td>")
                    continue
                marks = " ".join(("✓ " if m.get("passed") else "✗ " if m.get("passed") is False else "· ") + str(m.get("detail", ""))
                                 for m in record.marks)
                body = e(record.error) if record.error else e(record.answer[:MAX_HTML_ANSWER])
                cells.append(f"<td class={'error' if record.error else 'ok'}><div>{body}</div><small>{e(marks)} · "
                             f"{e(money(cell_cost(plan, record, prices)))}</small></td>")
            grid.append(f"<tr><td>{row + 1}</td><td>{repeat + 1}</td>{''.join(cells)}</tr>")
    style = ("body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;font-size:13px}td div{white-space:pre-wrap;max-width:40em}"
             "td.error{background:#fee}td.empty{color:#999}small{color:#555}")
    prompt = f"<p><b>System:</b> {e(plan.system or '—')}</p><p><b>User:</b> {e(plan.user)}</p>"
    more = f"<p>First {MAX_HTML_ROWS:,} rows of {len(plan.dataset.rows):,}.</p>" if len(plan.dataset.rows) > MAX_HTML_ROWS else ""
    return (f"<!doctype html><html><head><meta charset=utf-8><title>Batch report</title><style>{style}</style></head><body>"
            f"<h1>Batch report</h1>{prompt}<p>{len(plan.dataset.rows):,} rows × {len(plan.columns)} columns × {plan.repeats} repeat(s)</p>"
            f"<h2>Leaderboard</h2><table>{board}</table><h2>Cells</h2>{more}<table>{''.join(grid)}</table></body></html>")
