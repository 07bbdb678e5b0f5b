"""Prices and cost: a price table (input, output and cached input per 1M tokens, per model)
turns a reply's usage into money. Unknown prices give None (shown as "—"), never 0.

A model is priced only under its exact id: a model missing from the table has no price (None),
never a neighbour's (`gpt-4o-mini` is not `gpt-4o`; a dated snapshot is its own row).

In the chat, responses and native formats the input count includes the cached tokens, so
cost = (input - cached) x input + cached x cached input + output x output. In the messages format
`input_tokens` excludes cache reads and cache writes: reads are added at the cached price and
writes at a premium on the input price, 1.25x for a 5-minute write (`ephemeral`, the default) and
2x for a 1-hour write (`persistent`). The spec reports writes as one `cache_creation_input_tokens`;
a gateway that also sends the providers' split (`cache_creation.ephemeral_1h_input_tokens`) has its
1-hour part billed at 2x, else the request decides: writes of a request whose every cache
breakpoint is `persistent` are 1-hour writes, any other's 5-minute writes.
Reasoning tokens are billed as output: in chat, responses and messages they are inside the output
count; in the native format `thoughtsTokenCount` is outside `candidatesTokenCount` and is added.
"""

from __future__ import annotations

from playground.client.texts import Text

import csv
import io
import math
from dataclasses import dataclass
from typing import Any, Literal, overload
from urllib.parse import unquote

from playground.client.results import Usage

PER = 1_000_000
MAX_MODELS = 500
COLUMNS = ("model", "input", "output", "cached_input")
WRITE_5M = 1.25
"""A 5-minute cache write (messages format) costs this times the input price."""
WRITE_1H = 2.0
"""A 1-hour cache write costs this times the input price."""


class PriceError(ValueError):
    """A price table that cannot be used: the line (or row) and the reason."""


@dataclass(frozen=True)
class Price:
    input: float
    output: float
    cached_input: float | None = None
    """None: cached input is billed at the input price."""


@overload
def _money(value: Any, where: str, *, optional: Literal[False] = False) -> float: ...


@overload
def _money(value: Any, where: str, *, optional: bool) -> float | None: ...


def _money(value: Any, where: str, *, optional: bool = False) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if optional:
            return None
        raise PriceError(Text("batch.cost.price_needed", where=where))
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise PriceError(Text("batch.cost.not_price", where=where, value=repr(str(value)[:30])))
    try:
        number = float(str(value).strip().lstrip("$")) if not isinstance(value, (int, float)) else float(value)
    except ValueError:
        raise PriceError(Text("batch.cost.not_number", where=where, value=repr(str(value)[:30]))) from None
    if not math.isfinite(number) or number < 0:
        raise PriceError(Text("batch.cost.price_number_0_more_got", where=where, value=str(value)[:30]))
    return number


def table_from_rows(rows: list[list[Any]]) -> dict[str, Price]:
    """Editor rows [model, input, output, cached input] -> the table (blank rows skipped)."""
    table: dict[str, Price] = {}
    for number, row in enumerate(rows or [], 1):
        if not isinstance(row, (list, tuple)):
            raise PriceError(Text("batch.cost.row_not_row_model_input", number=number))
        cells = list(row) + [None] * 4
        if not isinstance(cells[0], (str, type(None))):
            raise PriceError(Text("batch.cost.row_model_text", number=number))
        model = (cells[0] or "").strip()
        if not model and not any(str(c or "").strip() for c in cells[1:4]):
            continue
        if not model:
            raise PriceError(Text("batch.cost.row_model_missing", number=number))
        if model in table:
            raise PriceError(Text("batch.cost.row_priced_twice", number=number, model=model))
        where = f"row {number} ({model[:40]})"
        table[model] = Price(_money(cells[1], where + " input"), _money(cells[2], where + " output"),
                             _money(cells[3], Text("batch.cost.cached_input", where=where), optional=True))
        if len(table) > MAX_MODELS:
            raise PriceError(Text("batch.cost.most_models", max_models=MAX_MODELS))
    return table


def table_from_csv(text: str) -> dict[str, Price]:
    """CSV with a header naming model, input, output and optionally cached_input (per 1M tokens)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = [h.strip().lower().replace(" ", "_") for h in next(reader, [])]
        if "model" not in header or "input" not in header or "output" not in header:
            raise PriceError(Text("batch.cost.line_1_header_name_model"))
        index = {name: header.index(name) for name in COLUMNS if name in header}
        rows = []
        for values in reader:
            rows.append([values[index[name]] if name in index and index[name] < len(values) else None for name in COLUMNS])
    except csv.Error as error:
        raise PriceError(Text("batch.cost.line_not_valid_csv", line_num=reader.line_num, error=error)) from None
    return table_from_rows(rows)


def table_rows(table: dict[str, Price]) -> list[list[Any]]:
    return [[model, p.input, p.output, p.cached_input if p.cached_input is not None else ""] for model, p in table.items()]


def price_for(table: dict[str, Price], model: str) -> Price | None:
    """The price of exactly `model` (None: not in the table, so no price)."""
    return table.get(model)


def billed_output(usage: Usage, fmt: str) -> int:
    """Output tokens billed: the output count, plus the thinking tokens the native format counts
    apart (`thoughtsTokenCount` is not inside `candidatesTokenCount`)."""
    return (usage.output_tokens or 0) + ((usage.reasoning_tokens or 0) if fmt == "native" else 0)


def one_hour_only(body: Any) -> bool:
    """True when a messages request marks cache breakpoints and every one is `persistent` (1 hour)."""
    kinds: set[str] = set()

    def visit(value: Any, depth: int) -> None:
        if depth > 8 or len(kinds) > 1:
            return
        if isinstance(value, dict):
            marker = value.get("cache_control")
            if isinstance(marker, dict):
                kinds.add(str(marker.get("type", "ephemeral")))
            for item in value.values():
                visit(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                visit(item, depth + 1)

    visit(body, 0)
    return kinds == {"persistent"}


def cache_writes(usage: Usage, one_hour: bool = False) -> tuple[int, int]:
    """(5-minute, 1-hour) cache write tokens of a messages reply; `one_hour`: the request asked
    only 1-hour writes (used when the gateway does not split the writes itself)."""
    written = usage.cache_creation_tokens or 0
    hour = usage.cache_creation_1h_tokens
    hour = min(hour, written) if hour is not None else (written if one_hour else 0)
    return written - hour, hour


def cost(table: dict[str, Price], model: str, usage: Usage | None, fmt: str = "chat", one_hour: bool = False) -> float | None:
    """Money for one reply in format `fmt`, or None when the price or the usage is unknown.
    `one_hour`: a messages request whose cache writes are all 1-hour writes (`one_hour_only`)."""
    price = price_for(table, model) if table else None
    if price is None or usage is None or usage.input_tokens is None or usage.output_tokens is None:
        return None
    cached_price = price.cached_input if price.cached_input is not None else price.input
    fresh = float(usage.input_tokens)
    if fmt == "messages":
        cached = usage.cached_tokens or 0
        short, long = cache_writes(usage, one_hour)
        fresh += short * WRITE_5M + long * WRITE_1H
    else:
        cached = min(usage.cached_tokens or 0, usage.input_tokens)
        fresh -= cached
    return (fresh * price.input + cached * cached_price + billed_output(usage, fmt) * price.output) / PER


def format_of_url(url: str) -> str:
    """Which text format a call's URL is (for how its usage counts cached tokens)."""
    for fmt, marker in (("messages", "/messages"), ("responses", "/responses"), ("native", ":"), ("chat", "/chat/")):
        if marker in url.rsplit("/v1", 1)[-1]:
            return fmt
    return "chat"


def model_of(exchange_url: str, body: Any) -> str:
    """The model a call used: the body's `model`, else the native path's `models/<id>:`."""
    if isinstance(body, dict) and isinstance(body.get("model"), str):
        return body["model"]
    tail = exchange_url.split("/models/", 1)[-1] if "/models/" in exchange_url else ""
    return unquote(tail.split(":", 1)[0]) if tail else ""


def money(value: float | None) -> str:
    """"—" for unknown; enough digits that a tiny cost is not shown as 0."""
    if value is None:
        return "—"
    if value == 0:
        return "$0"
    if value >= 1:
        return f"${value:,.2f}"
    return f"${value:.4f}" if value >= 0.01 else "$" + f"{value:.8f}".rstrip("0").rstrip(".")
