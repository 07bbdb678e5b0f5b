"""The Report's matrix as a person reads it: every cell has a mark, every mark is in the legend,
and every cell opens when clicked: a skipped or unsupported cell says why, and so does a cell of a
check made only for other formats (native embeddings have no base64 check)."""

from __future__ import annotations

from html.parser import HTMLParser
from types import SimpleNamespace

from playground.client.gateway import GatewayClient
from playground.ui.i18n import say
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.report import handlers, views

SCOPE = (["chat", "embeddings", "embeddings-native"],
         ["chat completions · deepseek-reasoner", "embeddings (list) · text-embedding-3-small", "embeddings (native) · gx-embedding-001"],
         ["image", "caching", "base64", "dimensions"])


class Cells(HTMLParser):
    """The matrix's cells (class, data-cell, text) and the legend's items (class, text); the client
    readiness table's rows (client, status class) apart."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, str]] = []
        self.legend: list[dict[str, str]] = []
        self.clients: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None
        self._in_clients = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "table" and found.get("id") == "report-clients":
            self._in_clients = True
        if self._in_clients:
            if tag == "tr" and found.get("data-client"):
                self.clients.append({"client": found["data-client"], "status": ""})
            elif tag == "td" and self.clients and found.get("class"):
                self.clients[-1]["status"] = found["class"]
            return
        if tag in ("td", "li"):
            self._open = {"class": found.get("class", ""), "cell": found.get("data-cell", ""), "text": ""}
            (self.cells if tag == "td" else self.legend).append(self._open)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_clients = False
        if tag in ("td", "li"):
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data


async def run_scope(client: GatewayClient, defaults: ServerDefaults) -> handlers.ReportSession:
    session = handlers.ReportSession()
    async for _ in handlers.run(client, defaults, "", "", session, handlers.build_scope(*SCOPE, False, 5), 2):
        pass
    return session


async def test_every_cell_has_a_mark_in_the_legend_and_opens(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = await run_scope(client, defaults)
    assert session.report is not None
    parsed = Cells()
    parsed.feed(views.matrix_html(session.report))
    legend = {item["class"]: item["text"] for item in parsed.legend}
    assert say("rep.legend.compat") in legend.pop("compat"), "the compatible verdict's mark is explained too"
    assert set(legend) == set(views.SYMBOLS) == {"pass", "fail", "unsupported", "skipped", "absent"}
    assert parsed.clients == [{"client": "openai", "status": "ready"}, {"client": "anthropic", "status": "not_checked"},
                              {"client": "google-genai", "status": "ready"}]
    for status, text in legend.items():
        assert text.startswith(views.SYMBOLS[status]) and say(f"rep.legend.{status}") in text
    shown = {cell["class"] for cell in parsed.cells}
    assert {"pass", "unsupported", "skipped", "absent"} <= shown
    for cell in parsed.cells:
        assert cell["text"].strip() == views.SYMBOLS[cell["class"]], f"a cell without its mark: {cell}"
        assert cell["cell"], f"a cell that does nothing when clicked: {cell}"
        opened = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": cell["cell"]}))
        assert opened[0]["open"] is True and len(opened) == 9
    skipped = next(c["cell"] for c in parsed.cells if c["class"] == "skipped")
    assert skipped == "chat|deepseek-reasoner|image"
    opened = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": skipped}))
    assert opened[1] == skipped and "skipped" in opened[2] and "deepseek-reasoner takes no images" in opened[2]
    assert opened[3] == say("rep.no_calls"), "a cell with no calls says so instead of showing another cell's call"
    unsupported = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": "chat|deepseek-reasoner|caching"}))
    assert "unsupported" in unsupported[2] and "has no prompt caching in the spec" in unsupported[2]
    absent = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": "embeddings-native|gx-embedding-001|base64"}))
    assert "not checked here" in absent[2] and "embeddings (list)" in absent[2] and absent[1] is None
    assert absent[-1] == {"__type__": "update", "choices": [], "value": None}


async def test_a_cell_that_is_not_in_the_report_opens_nothing(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = await run_scope(client, defaults)
    for key in ("embeddings-native|some-other-model|base64", "embeddings|text-embedding-3-small|nope", "chat|deepseek-reasoner|plain"):
        opened = handlers.matrix_clicked(session, SimpleNamespace(_data={"cell": key}))
        assert all(value == {"__type__": "update"} for value in opened), key


async def test_every_cell_is_in_the_cell_picker(client: GatewayClient, defaults: ServerDefaults) -> None:
    session = await run_scope(client, defaults)
    assert session.report is not None
    assert [key for _, key in views.cell_choices(session.report)] == [views.cell_id(r) for r in session.report.results]
