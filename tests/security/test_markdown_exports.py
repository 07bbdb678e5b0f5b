"""A gateway's words in the Markdown files the app writes stay text (issue 35): the Report tab's
Markdown download kept a gateway's raw HTML (its address, a model's name, a reason quoting the
answer), so a Markdown viewer ran it. The Batch leaderboard's file is checked beside the client's
exports (tests/client/batch/test_export_cells.py)."""

from __future__ import annotations

import re

from playground.client.report.model import CheckResult, Report, Scope
from playground.ui.tabs.report.views import markdown_report

HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))\n| forged | row |"


def test_the_report_markdown_keeps_a_gateways_html_as_text() -> None:
    report = Report("http://gw.example/<svg onload=alert(5)>", Scope({"chat": ["<b>m</b>"]}, ("stream",)))
    report.results.append(CheckResult("chat", "<b>m</b>", "stream", "fail", reason=f"the gateway answered {HOSTILE}"))
    document = markdown_report(report)
    for raw in ("<script", "<img", "<svg", "<b>"):
        assert raw not in document, raw
    assert not re.search(r"(?<!\\)\]\(javascript", document)  # no link: its brackets are escaped
    assert "&lt;script&gt;" in document and "&lt;b&gt;m&lt;/b&gt;" in document  # still readable as text
    table = [line for line in document.splitlines() if line.startswith("| ") and "stream" in line.lower()]
    assert len(table) == 1 and len(re.findall(r"(?<!\\)\|", table[0])) == 6  # the forged row stayed inside its cell
