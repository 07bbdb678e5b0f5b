"""How often a running report's views are rebuilt. The runner hands over its state every 0.1 s;
rebuilding the summary and the matrix costs more as the matrix grows (39 ms and 110 KB of HTML
for a thorough run's 704 cells), and the page redraws all of it, on the same cores as the
probes. So a new view waits until its time since the last one is at least nine times what that
one cost to build: the views take at most a tenth of the run, and a small run still updates
every 0.1 s."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

VIEW_SHARE = 0.1
MIN_INTERVAL_S = 0.1


@dataclass
class ViewPacer:
    share: float = VIEW_SHARE
    clock: Callable[[], float] = field(default=time.perf_counter)
    next_at: float = float("-inf")

    def due(self) -> bool:
        return self.clock() >= self.next_at

    def built(self, started: float) -> None:
        """A view was built from `started` (a `clock` reading) to now."""
        now = self.clock()
        cost = now - started
        self.next_at = now + max(MIN_INTERVAL_S, cost / self.share - cost)
