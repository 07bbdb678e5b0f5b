"""The Native tab in a real browser: a streamed reply with thoughts, then an image in the chat."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playground.ui.tabs.native.layout import EXAMPLES
from tests.e2e.pages import click_example, open_tab

pytestmark = pytest.mark.browser


def test_thoughts_then_an_image(page: Page) -> None:
    open_tab(page, "Native", "#native-input textarea")
    click_example(page, "native", 0, EXAMPLES[0])
    page.locator("#native-input textarea").press("Enter")
    expect(page.locator("#native-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator("#native-metrics")).to_contain_text("finish: STOP", timeout=30_000)
    page.locator("#native-output-images input").check()
    page.fill("#native-input textarea", "now draw a lighthouse")
    page.locator("#native-input textarea").press("Enter")
    image = page.locator("#native-chatbot img").last
    expect(image).to_be_visible(timeout=30_000)
    size = image.evaluate("img => img.decode().then(() => [img.naturalWidth, img.naturalHeight])")
    assert size == [256, 160]


def test_picking_an_image_model_turns_on_image_output_and_draws(page: Page) -> None:
    open_tab(page, "Native", "#native-input textarea")
    expect(page.locator("#native-output-images input")).not_to_be_checked()
    page.locator("#native-model input").click()
    page.get_by_role("option", name="gx-3-pro-image-preview", exact=True).click()
    expect(page.locator("#native-output-images input")).to_be_checked(timeout=5_000)
    page.fill("#native-input textarea", "a kite over dunes")
    page.locator("#native-input textarea").press("Enter")
    expect(page.locator("#native-chatbot img").last).to_be_visible(timeout=30_000)
    expect(page.locator("#native-metrics")).to_contain_text("finish: STOP", timeout=30_000)
