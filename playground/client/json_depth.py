"""How deep JSON text nests, measured on the text before any parser recurses into it: Python's
`json` recurses once per level, so a line of 100,000 brackets is a `RecursionError`, not an
answer. Strings are set aside first (a bracket inside one does not nest); a string left open runs
to the end of the text (a parser stops there, so nothing after it nests). Linear in the text."""

from __future__ import annotations

import re
from itertools import accumulate

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (0 for a scalar). Text that is not
    valid JSON gets a number too, at least the depth a parser reaches before it fails; never raises."""
    if text.count("[") + text.count("{") == 0:
        return 0
    brackets = _STRINGS.sub("", text).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def deeper_than(text: str, limit: int) -> bool:
    """True when `text` nests more than `limit` levels (cheap when it cannot)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    return nesting(text) > limit
