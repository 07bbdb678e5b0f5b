"""A bare page for running the page's scripts in Chromium without the app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

ORIGIN = "http://playground.test"


@pytest.fixture
def bare(browser: Browser) -> Iterator[Page]:
    """A page of its own at `ORIGIN` (served here: nothing but a body), in an English browser."""
    context = browser.new_context(locale="en-US")
    context.route(f"{ORIGIN}/**", lambda route: route.fulfill(status=200, content_type="text/html", body="<html><body></body></html>"))
    page = context.new_page()
    yield page
    context.close()
