"""The Images tab in a real browser: two 16:9 images in the gallery at that shape, one downloaded
with its original bytes; refine with source and result side by side, the history brought back;
Stop while the gateway is silent, and a refused prompt."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser


def open_images_tab(page: Page) -> None:
    open_tab(page, "Images", "#images-prompt textarea")


def choose(page: Page, elem_id: str, option: str) -> None:
    page.locator(f"#{elem_id} input").click()
    page.get_by_role("option", name=option, exact=True).click()


def set_count(page: Page, count: int) -> None:
    box = page.locator("#images-n input[type=number]")
    box.fill(str(count))
    box.press("Enter")


def shapes(page: Page, selector: str) -> list[float]:
    """width / height of each loaded image under `selector` (as the browser decoded it)."""
    return page.locator(selector).evaluate_all(
        """async (images) => Promise.all(images.map(async (img) => {
            if (!img.complete || !img.naturalWidth) await new Promise(r => img.addEventListener('load', r, {once: true}));
            return img.naturalWidth / img.naturalHeight;
        }))""")


def test_two_16_9_images_are_shown_at_that_shape_and_one_downloads(page: Page, tmp_path: Path) -> None:
    open_images_tab(page)
    page.fill("#images-prompt textarea", "two lighthouses at dusk")
    choose(page, "images-ratio", "16:9")
    expect(page.locator("#images-ratio-preview .ratio-box")).to_have_text("16:9")
    box = page.locator("#images-ratio-preview .ratio-box").bounding_box()
    assert box is not None and abs(box["width"] / box["height"] - 16 / 9) < 0.1
    set_count(page, 2)
    page.click("#images-generate")
    expect(page.locator("#images-status")).to_contain_text("2 images generated", timeout=30_000)
    thumbnails = page.locator("#images-gallery .thumbnail-item img")
    expect(thumbnails).to_have_count(2)
    assert [round(ratio, 2) for ratio in shapes(page, "#images-gallery .thumbnail-item img")] == [1.78, 1.78]
    expect(page.locator("#images-gallery .caption-label").first).to_contain_text("two lighthouses at dusk — drawn by the demo gateway")
    expect(page.locator("#images-delivered tbody tr")).to_have_count(2)
    expect(page.locator("#images-delivered")).to_contain_text("✓ 2 of 2 images")
    expect(page.locator("#images-delivered .not-honoured")).to_have_count(0)

    links = page.locator("#images-downloads a[download]")
    expect(links).to_have_count(2)
    with page.expect_download() as downloading:
        links.first.click()
    download = downloading.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    data = saved.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and saved.suffix == ".png"
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (1024, 576)
    shown = page.locator("#images-gallery .thumbnail-item img").first.get_attribute("src") or ""
    assert page.request.get(shown).body() == data, "the download is the file the gallery shows, not a re-encoded copy"
    assert download.suggested_filename == "two-lighthouses-at-dusk-1.png"


def test_refine_side_by_side_and_the_history_brings_a_generation_back(page: Page) -> None:
    open_images_tab(page)
    page.get_by_role("button", name="Turn a photo into a watercolour").click()
    expect(page.locator("#images-refine-instruction textarea")).to_have_value("Turn it into a watercolour")
    page.click("#images-generate")
    expect(page.locator("#images-status")).to_contain_text("#1", timeout=30_000)
    page.locator("#images-gallery .thumbnail-item").first.click()
    expect(page.locator("#images-picked img")).to_be_visible()
    page.keyboard.press("Escape")
    page.click("#images-refine")
    expect(page.locator("#images-status")).to_contain_text("#2: 1 image refined", timeout=30_000)
    expect(page.locator("#images-refine-compare")).to_be_visible()
    source = page.locator("#images-refine-source img").get_attribute("src")
    result = page.locator("#images-refine-result img").get_attribute("src")
    assert source and result and source != result
    assert [round(r, 2) for r in shapes(page, "#images-refine-compare img")] == [1.5, 1.5]
    history = page.locator("#images-history .thumbnail-item")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text("#2 refine: Turn it into a watercolour")
    page.get_by_role("button", name="Inspector and code").click()
    expect(page.locator("#images-inspector-request")).to_contain_text('"role": "model"')

    page.fill("#images-prompt textarea", "something else")
    history.nth(1).click()
    expect(page.locator("#images-status")).to_contain_text("#1: 1 image generated")
    expect(page.locator("#images-prompt textarea")).to_have_value("A photo of a harbour town at sunrise")
    expect(page.locator("#images-refine-compare")).to_be_hidden()


def test_stop_gives_up_waiting_and_a_refused_prompt_is_explained(page: Page) -> None:
    open_images_tab(page)
    page.fill("#images-prompt textarea", "a slow picture [[fault:stall]]")
    page.click("#images-generate")
    expect(page.locator("#images-status")).to_contain_text("Waiting for the gateway")
    tracker = page.locator("#images-gallery [data-testid=status-tracker]")
    expect(tracker.locator(".progress-level")).to_contain_text("Asking the gateway for 1 image")
    page.click("#images-stop")
    expect(tracker).to_have_class(re.compile(r"\bhide\b"), timeout=5_000)  # the event ended (the client would wait 10 s)
    expect(page.locator("#images-notice")).to_contain_text("Stopped")
    expect(page.locator("#images-status")).not_to_contain_text("Waiting")
    expect(page.locator("#images-error")).to_be_hidden()
    page.get_by_role("button", name="See a refused prompt").click()
    page.click("#images-generate")
    banner = page.locator("#images-error")
    expect(banner).to_contain_text("rejected by the safety system", timeout=30_000)
    expect(banner).to_contain_text("HTTP 400")
    expect(page.locator("#images-notice")).to_be_hidden()
    page.fill("#images-prompt textarea", "a calm lake")
    page.click("#images-generate")
    expect(page.locator("#images-status")).to_contain_text("1 image generated", timeout=30_000)
    expect(banner).to_be_hidden()
