"""Images results in a real browser (issue 21 item 16): a refused prompt leaves no stale gallery
or "✓ 4 of 4" table and its reason is where the eye is; the table and the download list give
one size in one unit; downloads are named after the prompt and their number."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser


def test_a_refused_prompt_clears_the_earlier_results_and_shows_why_above_the_fold(page: Page) -> None:
    open_tab(page, "Images", "#images-prompt textarea")
    expect(page.locator("#images-generate")).to_be_in_viewport()
    page.get_by_role("button", name="Four variations").click()
    expect(page.locator("#images-prompt textarea")).to_have_value("A cosy reading corner with a cat")
    page.click("#images-generate")
    expect(page.locator("#images-delivered")).to_contain_text("✓ 4 of 4 images", timeout=30_000)
    rows = page.locator("#images-downloads tr")
    expect(rows).to_have_count(4)
    listed = [" ".join(rows.nth(i).inner_text().replace("\xa0", " ").split()).replace(" .png", ".png") for i in range(4)]
    for number, row in enumerate(listed, start=1):
        assert row.startswith(f"a-cosy-reading-corner-with-a-cat-{number}.png"), listed
    table = page.locator("#images-delivered tbody tr").first.locator("td").nth(4).inner_text()
    assert table.endswith("KB") and f" {table}" in listed[0], f"table says {table!r}, download list says {listed[0]!r}"

    page.fill("#images-prompt textarea", "A forbidden temple in the jungle")
    page.click("#images-generate")
    banner = page.locator("#images-error")
    expect(banner).to_contain_text("rejected by the safety system", timeout=30_000)
    expect(page.locator("#images-gallery .thumbnail-item")).to_have_count(0)
    expect(page.locator("#images-delivered")).not_to_contain_text("4 of 4")
    expect(page.locator("#images-delivered")).to_contain_text("delivered no image")
    expect(page.locator("#images-downloads a[download]")).to_have_count(0)
    expect(page.locator("#images-history .thumbnail-item")).to_have_count(1)  # the earlier generation is kept there
    page.evaluate("window.scrollTo(0, 0)")
    expect(banner).to_be_in_viewport()
