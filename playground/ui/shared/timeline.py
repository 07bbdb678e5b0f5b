"""The stream timeline of the inspector: one SVG strip with a mark per event (its type on hover),
time to first byte and first token marked, long gaps highlighted, the count per event type, and
what the protocol validator found. Every upstream string is escaped: it is plain text here."""

from __future__ import annotations

import json
from collections import Counter
from html import escape
from itertools import pairwise

from playground.client.stream_check import check_stream
from playground.client.exchange import Exchange, RecordedEvent

WIDTH = 1000
HEIGHT = 64
LONG_GAP_S = 1.0
PALETTE = ("#6366f1", "#0ea5e9", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#14b8a6", "#f97316", "#64748b", "#ec4899")


def event_type(event: RecordedEvent) -> str:
    """The `event:` name, else the JSON `type`/`object` field, else `data`."""
    if event.event:
        return event.event
    payload = event.data.strip()
    if payload == "[DONE]":
        return "[DONE]"
    try:
        data = json.loads(payload)
    except ValueError:
        return "not JSON"
    if isinstance(data, dict):
        return str(data.get("type") or data.get("object") or "data")
    return "data"


def long_gaps(events: list[RecordedEvent], threshold: float = LONG_GAP_S) -> list[tuple[float, float]]:
    """(start, end) of every silence longer than `threshold` seconds between two events."""
    times = [event.at for event in events]
    return [(a, b) for a, b in pairwise(times) if b - a > threshold]


def _x(at: float, span: float) -> float:
    return round(20 + (WIDTH - 40) * (at / span if span > 0 else 0), 1)


def timeline_html(exchange: Exchange | None, threshold: float = LONG_GAP_S) -> str:
    """The timeline for a streamed exchange ('' when the call was not streamed)."""
    if exchange is None or not exchange.events:
        return ""
    events = exchange.events
    end = max(exchange.finished_at or 0, events[-1].at)
    span = end or 1e-3
    types = Counter(event_type(event) for event in events)
    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(types)}
    svg = [f'<svg class="timeline" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-label="stream timeline">',
           f'<line x1="20" y1="40" x2="{WIDTH - 20}" y2="40" stroke="#94a3b8"/>']
    for start, stop in long_gaps(events, threshold):
        x1, x2 = _x(start, span), _x(stop, span)
        svg.append(f'<rect class="gap" x="{x1}" y="14" width="{max(x2 - x1, 1)}" height="34" fill="#fecaca">'
                   f'<title>silence of {stop - start:.2f} s</title></rect>')
    for index, event in enumerate(events):
        name = event_type(event)
        svg.append(f'<line class="mark" x1="{_x(event.at, span)}" y1="24" x2="{_x(event.at, span)}" y2="40" stroke="{colours[name]}">'
                   f'<title>#{index} {escape(name)} at {event.at * 1000:.0f} ms</title></line>')
    markers = (("first byte", exchange.first_byte_at, "#0f172a", 10), ("first token", exchange.first_token_at, "#16a34a", 60))
    for label, at, colour, label_y in markers:
        if at is not None:
            x = _x(at, span)
            anchor, offset = ("end", -3) if x > WIDTH * 0.75 else ("start", 3)
            svg.append(f'<line x1="{x}" y1="12" x2="{x}" y2="48" stroke="{colour}" stroke-dasharray="3 2"/>'
                       f'<text x="{x + offset}" y="{label_y}" font-size="10" text-anchor="{anchor}" fill="{colour}">{label} {at * 1000:.0f} ms</text>')
    svg.append(f'<text x="{WIDTH - 20}" y="22" font-size="10" text-anchor="end" fill="#475569">end {end * 1000:.0f} ms</text></svg>')
    counts = "".join(
        f'<tr><td><span style="color:{colours[name]}">■</span> {escape(name)}</td><td>{count}</td></tr>' for name, count in types.items()
    )
    gaps = long_gaps(events, threshold)
    gap_note = f"{len(gaps)} silence(s) longer than {threshold:g} s (red)" if gaps else f"no silence longer than {threshold:g} s"
    return (f'<div class="stream-timeline">{"".join(svg)}<p>{len(events)} events · {gap_note}</p>'
            f'<table class="event-counts"><tr><th>event type</th><th>count</th></tr>{counts}</table>'
            f"{validation_html(exchange)}</div>")


def validation_html(exchange: Exchange) -> str:
    problems = check_stream(exchange.url, exchange.events)
    if problems is None:
        return ""
    if not problems:
        return '<p class="stream-valid">✓ The stream follows the protocol rules of its format.</p>'
    items = "".join(f"<li>{escape(str(problem))}</li>" for problem in problems)
    return f'<div class="stream-invalid"><p>⚠ The stream broke {len(problems)} protocol rule(s):</p><ul>{items}</ul></div>'
