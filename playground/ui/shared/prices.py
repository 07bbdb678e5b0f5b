"""The price table: edited in the Batch tab, kept in this browser (`gr.BrowserState`), importable
as CSV, and applied to every reply's metrics line, Compare and Batch.

The table of the browser session an event runs for is looked up through Gradio's request
context (as the session quotas are), so the metrics line of every tab shows a cost without each
tab passing the table along. Tables of idle sessions are dropped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr

from playground.ui.i18n import t, say
from playground.gradio_compat import current_request

from playground.client.batch.cost import COLUMNS, Price, PriceError, cost, format_of_url, model_of, money, one_hour_only, table_from_csv, table_from_rows, table_rows
from playground.client.results import TextResult
from playground.client.transport import Exchange
from playground.ui.shared.render import plain
from playground.ui.web.browser_stores import kept_in_browser

STORAGE_KEY = "gateway-playground-prices"
MAX_CSV_BYTES = 200_000
IDLE_AFTER_S = 6 * 3600.0
HEADER_KEYS = ("prices.head.model", "prices.head.input", "prices.head.output", "prices.head.cached_input")
"""The table's headings (what is shown only: the table is read as rows, and a CSV's columns are `COLUMNS`)."""


def headers() -> list[str]:
    """The table's headings in the visitor's language (a value of Gradio's table, so written by the server)."""
    return [say(key) for key in HEADER_KEYS]


def shown_table(rows: list[list[Any]]) -> dict[str, Any]:
    """The table's value: its rows under the headings in the visitor's language."""
    return {"data": rows, "headers": headers()}


@dataclass
class SessionPrices:
    """The page's price tables, one per browser session (by Gradio's session hash): made once per
    page by the app (`TabContext.prices`), read by the handlers that show a cost."""

    _tables: dict[str, tuple[dict[str, Price], float]] = field(default_factory=dict)

    @staticmethod
    def _session() -> str | None:
        request = current_request()
        return getattr(request, "session_hash", None)

    def set(self, table: dict[str, Price]) -> None:
        session = self._session()
        if not session:
            return
        now = time.monotonic()
        for stale in [key for key, (_, seen) in self._tables.items() if now - seen > IDLE_AFTER_S]:
            del self._tables[stale]
        self._tables[session] = (table, now)

    def current(self) -> dict[str, Price]:
        session = self._session()
        entry = self._tables.get(session) if session else None
        return entry[0] if entry else {}


def cost_text(result: TextResult, exchange: Exchange | None, table: dict[str, Price]) -> str:
    """"cost $…" for a reply, "cost —" when the table has no price for its model, "" with no table."""
    if not table or exchange is None:
        return ""
    value = cost(table, model_of(exchange.url, exchange.request_body), result.usage, format_of_url(exchange.url),
                 one_hour_only(exchange.request_body))
    return f"cost {money(value)}"


def parse_stored(stored: Any) -> dict[str, Price]:
    """The table kept in the browser, checked whole (an unusable one is ignored)."""
    rows = stored.get("rows") if isinstance(stored, dict) else None
    try:
        return table_from_rows(rows) if isinstance(rows, list) else {}
    except PriceError:
        return {}


@dataclass
class PriceEditor:
    table: gr.Dataframe
    upload: gr.File
    status: gr.Markdown
    saved: gr.BrowserState
    prices: SessionPrices

    @staticmethod
    def store() -> gr.BrowserState:
        """The browser's copy of the table (create it outside any tab, so it is read on page load)."""
        return kept_in_browser({"rows": []}, STORAGE_KEY)

    @classmethod
    def build(cls, prefix: str, saved: gr.BrowserState, prices: SessionPrices) -> PriceEditor:
        with gr.Accordion(t("prices.prices_per_1m_tokens"), open=False, elem_id=f"{prefix}-prices"):
            gr.Markdown(t("prices.cost_input_input_price"))
            table = gr.Dataframe(headers=headers(), column_count=4, type="array", interactive=True, row_count=3,
                                 datatype=["str", "number", "number", "number"], elem_id=f"{prefix}-prices-table")
            with gr.Row():
                upload = gr.File(label=t("prices.import") + f" ({', '.join(COLUMNS)})", file_types=[".csv"], type="filepath", elem_id=f"{prefix}-prices-csv")
            status = gr.Markdown(elem_id=f"{prefix}-prices-status")
        return cls(table, upload, status, saved, prices)

    def wire(self, blocks: gr.Blocks) -> None:
        blocks.load(self.restore, self.saved, self.table, queue=False)
        self.table.input(self.edited, self.table, [self.status, self.saved], queue=False)
        self.upload.upload(self.imported, self.upload, [self.table, self.status, self.saved], queue=False)

    def restore(self, stored: Any) -> Any:
        """The page's load: the browser's table applied to this session and shown."""
        table = parse_stored(stored)
        self.prices.set(table)
        return shown_table(table_rows(table) or [["", None, None, None]])

    def reworded(self, rows: Any) -> Any:
        """After the header's language switch: the table as it is, under the headings in the new language."""
        return shown_table(rows if isinstance(rows, list) and rows else [["", None, None, None]])

    def edited(self, rows: Any) -> tuple[Any, Any]:
        """(status, browser copy) after the table was edited: applied when it is whole, else refused."""
        try:
            table = table_from_rows(rows if isinstance(rows, list) else [])
        except PriceError as error:
            return say("prices.say.prices_not_applied", error=plain(str(error))), gr.skip()
        self.prices.set(table)
        return (say("prices.say.model_price_use", table_count=len(table)) if table else say("prices.say.no_prices_costs_show")), {"rows": table_rows(table)}

    def imported(self, path: str | None) -> tuple[Any, Any, Any]:
        """(table, status, browser copy) from an uploaded CSV, read within `MAX_CSV_BYTES` and checked whole."""
        if not path:
            return gr.skip(), gr.skip(), gr.skip()
        try:
            data = Path(path).read_bytes()
            if len(data) > MAX_CSV_BYTES:
                raise PriceError(f"the file is {len(data):,} bytes; at most {MAX_CSV_BYTES:,}")
            table = table_from_csv(data.decode("utf-8"))
        except (PriceError, UnicodeDecodeError, OSError) as error:
            return gr.skip(), say("prices.say.not_imported", error=plain(str(error))), gr.skip()
        self.prices.set(table)
        return shown_table(table_rows(table)), say("prices.say.imported_model_price", table_count=len(table)), {"rows": table_rows(table)}
