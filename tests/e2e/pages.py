"""Small page actions the browser tests share."""

from __future__ import annotations

from playwright.sync_api import Page


def open_tab(page: Page, name: str, ready_selector: str) -> None:
    """Select the tab called `name` and wait until `ready_selector` is on the page."""
    page.get_by_role("tab", name=name).click()
    page.wait_for_selector(ready_selector)
