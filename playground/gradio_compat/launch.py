"""Gradio's launch check, made patient (patch `patient_launch`)."""

from __future__ import annotations

import time

from gradio import networking

from playground.gradio_compat.marks import mark, patch_of

LAUNCH_CHECK_SECONDS = 30.0


def patient_launch_check() -> None:
    """Gradio's `launch` checks that the page answers with HEAD requests of 3 s each, and gives up at
    the first timeout: on a loaded machine (a busy Space restarting, a test run beside other work)
    building the page took longer and launch raised "localhost is not accessible". The same check
    is repeated for up to `LAUNCH_CHECK_SECONDS` before it says so. Idempotent."""
    check = networking.url_ok
    if patch_of(check) is not None:
        return

    def url_ok(url: str) -> bool:
        deadline = time.monotonic() + LAUNCH_CHECK_SECONDS
        while not check(url):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)
        return True

    networking.url_ok = mark(url_ok, "patient_launch", check)  # type: ignore[assignment]  # the patch itself
