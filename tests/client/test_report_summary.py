"""The report in short: the Markdown summary for a pull-request comment (totals, failed cells with
their reasons shown literally, what was not checked) and the status badge (well-formed SVG, its
share rounded down, green / amber / red / grey by the documented thresholds)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from playground.client.report import summary
from playground.client.report.model import FAIL, PASS, SKIPPED, UNSUPPORTED, CheckResult, Report, Scope

SVG = "{http://www.w3.org/2000/svg}"


def report_of(passed: int, failed: int, reason: str = "no [DONE]") -> Report:
    report = Report("http://gateway.test", Scope({"chat": ["m"]}, ("plain", "stream")))
    report.results = [CheckResult("chat", f"m{i}", "plain", PASS) for i in range(passed)]
    report.results += [CheckResult("chat", f"bad{i}", "stream", FAIL, reason) for i in range(failed)]
    return report


def badge(report: Report) -> tuple[str, str]:
    """(the colour of the value's box, the texts shown) of the badge, parsed as XML."""
    root = ET.fromstring(summary.badge_svg(report))
    assert root.tag == SVG + "svg"
    return root.findall(SVG + "rect")[1].attrib["fill"], " | ".join(text.text or "" for text in root.iter(SVG + "text"))


def test_the_badge_colour_follows_the_thresholds_and_never_rounds_a_failure_up() -> None:
    assert badge(report_of(10, 0)) == (summary.GREEN, "gateway conformance | 100% passed")
    assert badge(report_of(999, 1)) == (summary.AMBER, "gateway conformance | 99% passed")
    assert badge(report_of(9, 1)) == (summary.AMBER, "gateway conformance | 90% passed")
    assert badge(report_of(89, 11)) == (summary.RED, "gateway conformance | 89% passed")
    empty = report_of(0, 0)
    empty.results = [CheckResult("chat", "m", "plain", SKIPPED), CheckResult("responses", "m", "plain", UNSUPPORTED)]
    assert badge(empty) == (summary.GREY, "gateway conformance | no checks judged")


def test_the_summary_lists_failed_cells_literally_and_what_was_not_checked() -> None:
    text = summary.markdown_summary(report_of(3, 2, reason="got <img src=x onerror=alert(1)> | *bold*\nnext line"))
    assert "**3 of 5 checks passed**, 2 failed" in text
    rows = [line for line in text.splitlines() if line.startswith("| chat completions |")]
    assert len(rows) == 2 and rows[0].count(" | ") == 3  # the reason's "|" does not add a column
    assert text.count("<img") == text.count("\\<img") == 2 and "\\*bold\\*" in text and "next line" in rows[0]
    assert "- Checks not in this profile: " in text and "video job" in text and "- Formats not in this profile: " in text
    assert summary.markdown_summary(report_of(3, 0)).count("No check failed.") == 1


def test_a_long_list_of_failures_is_cut_and_counted() -> None:
    text = summary.markdown_summary(report_of(0, summary.MAX_FAILED_ROWS + 7))
    assert sum(line.startswith("| chat completions |") for line in text.splitlines()) == summary.MAX_FAILED_ROWS
    assert "… and 7 more failed cells (see the full report)." in text
