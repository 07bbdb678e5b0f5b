"""Debian's Chromium for the browser tests: where it is, how it is started, and the module-scoped
`browser` fixture every browser test uses (made available by the root conftest)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# An assertion with no wait of its own waits as long as the page may take on a starved machine
# (the suite beside busy loops); a passing page answers in well under a second.
PAGE_WAIT_MS = 30_000
expect.set_options(timeout=PAGE_WAIT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Module-scoped: sync Playwright runs an event loop that must be gone before async tests run."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
