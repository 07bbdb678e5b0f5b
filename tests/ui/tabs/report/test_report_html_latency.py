"""The downloaded HTML report's Latency section is an HTML table (it was printed as raw Markdown
pipes): parsed here as a browser would, one row per streamed format and model, in both languages."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from playground.client.gateway import GatewayClient
from playground.client.report.latency import latency_rows
from playground.ui.i18n import say
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.report import handlers, views
from tests.ui.i18n.test_i18n_views import chinese


class LatencyTable(HTMLParser):
    """The rows (header first) of the table with id `report-latency-table`, and the text after the Latency heading."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = False
        self.cell: list[str] | None = None
        self.pipes = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == "report-latency-table":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        if "|---" in data or data.strip().startswith("|"):
            self.pipes += data


async def test_the_html_download_shows_latency_as_a_table(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = handlers.ReportSession()
    scope = handlers.build_scope(["chat", "messages"], ["chat completions · gx-2.5-flash", "messages · cl-sonnet-4-5-20250929"], ["stream", "plain"], False, 5)
    async for _ in handlers.run(client, defaults, "", "", session, scope, 2):
        pass
    assert session.report is not None
    expected = latency_rows(session.report)
    assert len(expected) == 2
    page = Path(views.write_downloads(session.report)[2]).read_text(encoding="utf-8")
    table = LatencyTable()
    table.feed(page)
    assert not table.pipes, f"Markdown pipes printed in the page: {table.pipes[:80]!r}"
    head, *rows = table.rows
    assert head == [name.strip() for name in say("rep.latency_head").strip("|").split("|")] and head[0] == "format · model"
    assert [row[0] for row in rows] == ["chat completions · gx-2.5-flash", "messages · cl-sonnet-4-5-20250929"]
    for row, numbers in zip(rows, expected):
        assert len(row) == 6 and row[1] == str(numbers["streams"])
        assert row[2] == f"{numbers['ttft_p50_s'] * 1000:,.0f}"
    with chinese():
        in_chinese = LatencyTable()
        in_chinese.feed(views.html_report(session.report))
    assert in_chinese.rows[0][0] == "格式 · 模型" and len(in_chinese.rows) == 3


def test_a_report_without_streams_says_so_in_the_page() -> None:
    assert views.latency_html(None) == f"<p>{say('rep.no_streams')}</p>"
