"""Options of the demo gateway."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field


@dataclass
class DemoConfig:
    """`fault` applies to every request (see `faults` for the names); tests usually leave it unset
    and ask per request instead. `token_delay` paces streamed tokens so people can watch them.
    A video task is queued for `video_queue_seconds`, then renders for `video_run_seconds`
    (both on `clock`, which tests replace to run the lifecycle fast)."""

    api_key: str = field(default="demo-key", repr=False)
    token_delay: float = 0.0
    fault: str | None = None
    stall_seconds: float = 30.0
    retry_after_ms: int = 50
    clock: Callable[[], float] = time.monotonic
    video_queue_seconds: float = 2.0
    video_run_seconds: float = 8.0
    list_models: bool = True
    quirks: tuple[str, ...] = ()
    """Misbehaviours switched on (`quirks`: `no-done`, `drop-usage@MODEL`, ...)."""
    slow_first_token_s: float = 2.5
    """How long the `slow-first-token` quirk waits before a stream's first event."""
    callback_transport: Callable[[], Any] | None = field(default=None, repr=False)
    """Makes the httpx transport for vidD callbacks (hosted mode passes one that refuses private
    addresses); None: httpx's own."""
    """False: answer `GET /v1/models` with 404, as gateways that follow the spec alone do."""
