"""Prices and cost: a price table (input, output and cached input per 1M tokens, per model)
turns a reply's usage into money. Unknown prices give None (shown as "—"), never 0.

In the chat, responses and native formats the input count includes the cached tokens, so
cost = (input - cached) x input + cached x cached input + output x output. In the messages format
`input_tokens` excludes cache reads and cache writes: reads are added at the cached price and
writes at the input price. Reasoning tokens are billed as output and are inside the output count.
"""

from __future__ import annotations

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
        raise PriceError(f"{where}: a price is needed")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise PriceError(f"{where}: {str(value)[:30]!r} is not a price")
    try:
        number = float(str(value).strip().lstrip("$")) if not isinstance(value, (int, float)) else float(value)
    except ValueError:
        raise PriceError(f"{where}: {str(value)[:30]!r} is not a number") from None
    if not math.isfinite(number) or number < 0:
        raise PriceError(f"{where}: a price is a number of 0 or more (got {str(value)[:30]})")
    return number


def table_from_rows(rows: list[list[Any]]) -> dict[str, Price]:
    """Editor rows [model, input, output, cached input] -> the table (blank rows skipped)."""
    table: dict[str, Price] = {}
    for number, row in enumerate(rows or [], 1):
        if not isinstance(row, (list, tuple)):
            raise PriceError(f"row {number}: not a row of [model, input, output, cached input]")
        cells = list(row) + [None] * 4
        if not isinstance(cells[0], (str, type(None))):
            raise PriceError(f"row {number}: the model must be text")
        model = (cells[0] or "").strip()
        if not model and not any(str(c or "").strip() for c in cells[1:4]):
            continue
        if not model:
            raise PriceError(f"row {number}: the model is missing")
        if model in table:
            raise PriceError(f"row {number}: {model} is priced twice")
        where = f"row {number} ({model[:40]})"
        table[model] = Price(_money(cells[1], where + " input"), _money(cells[2], where + " output"),
                             _money(cells[3], where + " cached input", optional=True))
        if len(table) > MAX_MODELS:
            raise PriceError(f"at most {MAX_MODELS} models")
    return table


def table_from_csv(text: str) -> dict[str, Price]:
    """CSV with a header naming model, input, output and optionally cached_input (per 1M tokens)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = [h.strip().lower().replace(" ", "_") for h in next(reader, [])]
        if "model" not in header or "input" not in header or "output" not in header:
            raise PriceError("line 1: the header must name model, input and output (and optionally cached_input)")
        index = {name: header.index(name) for name in COLUMNS if name in header}
        rows = []
        for values in reader:
            rows.append([values[index[name]] if name in index and index[name] < len(values) else None for name in COLUMNS])
    except csv.Error as error:
        raise PriceError(f"line {reader.line_num}: not valid CSV ({error})") from None
    return table_from_rows(rows)


def table_rows(table: dict[str, Price]) -> list[list[Any]]:
    return [[model, p.input, p.output, p.cached_input if p.cached_input is not None else ""] for model, p in table.items()]


def price_for(table: dict[str, Price], model: str) -> Price | None:
    """Exact model id first, then the id without a `-suffix` variant the catalog adds."""
    if model in table:
        return table[model]
    base = model
    while "-" in base:
        base = base.rsplit("-", 1)[0]
        if base in table:
            return table[base]
    return None


def cost(table: dict[str, Price], model: str, usage: Usage | None, fmt: str = "chat") -> float | None:
    """Money for one reply in format `fmt`, or None when the price or the usage is unknown."""
    price = price_for(table, model) if table else None
    if price is None or usage is None or usage.input_tokens is None or usage.output_tokens is None:
        return None
    cached_price = price.cached_input if price.cached_input is not None else price.input
    if fmt == "messages":
        cached, fresh = usage.cached_tokens or 0, usage.input_tokens + (usage.cache_creation_tokens or 0)
    else:
        cached = min(usage.cached_tokens or 0, usage.input_tokens)
        fresh = usage.input_tokens - cached
    return (fresh * price.input + cached * cached_price + usage.output_tokens * price.output) / PER


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
