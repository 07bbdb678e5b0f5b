"""How fast the demo gateway streams, per request: the header `x-demo-pace` asks for the seconds
between streamed pieces (a word, or part of a long one) for this request only, in place of
`DemoConfig.token_delay`. A presenter slows the demo to reading pace for a class without
changing it for anyone else.

The value is a number of seconds from 0 to `MAX_PACE_S` (a larger one is read as `MAX_PACE_S`);
anything else (not a number, NaN, negative, longer than `MAX_PACE_CHARS`) is ignored and the
gateway's own pace is used. Only streamed answers are paced; whole answers come at once.
"""

from __future__ import annotations

import math
from contextvars import ContextVar

PACE_HEADER = "x-demo-pace"
MAX_PACE_S = 1.0
"""The slowest pace a request may ask for: at most a second between pieces (a stream times out on silence, not on length)."""
MAX_PACE_CHARS = 16

REQUEST_PACE: ContextVar[float | None] = ContextVar("request_pace", default=None)
"""The pace the request being answered asked for (None: the gateway's own). Set by the app for each
request; a streamed body runs in a copy of the request's context, so it sees the same value."""


def parse_pace(text: str | None) -> float | None:
    """Seconds between streamed pieces asked by a header value, bounded to 0..`MAX_PACE_S`; None when it asks nothing readable."""
    if not text or len(text) > MAX_PACE_CHARS:
        return None
    try:
        seconds = float(text.strip())
    except ValueError:
        return None
    if not math.isfinite(seconds) or seconds < 0:
        return None
    return min(seconds, MAX_PACE_S)


def paced(delay: float) -> float:
    """The wait between two streamed pieces: the request's pace when it asked for one, else `delay` (the gateway's own)."""
    asked = REQUEST_PACE.get()
    return delay if asked is None else asked
