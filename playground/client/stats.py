"""The percentile every suite reports (the Batch leaderboard, the Report's latency and load run).

Nearest-rank: the p-th percentile of n values is the ceil(p x n)-th smallest (1-based), one rule
for any n, odd or even; p95 of 20 values is the 19th, not the largest. A value the method returns
is always one of the values measured (no interpolation between two timings).
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float | None], fraction: float) -> float | None:
    """Nearest-rank percentile of the known values (None when there are none); `fraction` in [0, 1]."""
    ordered = sorted(v for v in values if v is not None)
    if not ordered:
        return None
    rank = math.ceil(round(fraction * len(ordered), 9))  # 0.07 x 100 is 7.000000000000001: still rank 7
    return ordered[min(len(ordered), max(1, rank)) - 1]
