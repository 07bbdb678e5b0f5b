"""Copy link on Batch, Report, Images and Embeddings (issue 40): the link holds the tab's settings
(Batch's templates and columns, the Report's profile, Images' aspect ratio, the texts Embeddings
compares) and opens the same state in a new page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, Page, expect


def copied(page: Page, tab: str) -> str:
    page.click(f"#{tab}-copy-link")
    box = page.locator(f"#{tab}-link textarea")
    expect(box).not_to_have_value("", timeout=30_000)
    return box.input_value()


def fresh(browser: Browser, link: str) -> Page:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(link)
    page.wait_for_selector("#chat-input textarea", state="attached")  # built: the link's tab may be shown before the chat's box ever is
    return page


def checked(page: Page, elem_id: str) -> list[str]:
    return page.locator(f"#{elem_id} label:has(input:checked)").all_inner_texts()


def test_images_link_keeps_the_aspect_ratio(page: Page, browser: Browser) -> None:
    page.click("#tour-close")
    page.click("#tab-images-button")
    page.fill("#images-prompt textarea", "A lighthouse at dusk")
    page.locator("#images-ratio input").fill("16:9")
    page.keyboard.press("Enter")
    link = copied(page, "images")
    assert parse_qs(urlsplit(link).query)["ratio"] == ["16:9"]
    other = fresh(browser, link)
    expect(other.locator("#images-prompt textarea")).to_have_value("A lighthouse at dusk", timeout=30_000)
    expect(other.locator("#images-ratio input")).to_have_value("16:9")
    expect(other.locator("#tab-images-button")).to_have_attribute("aria-selected", "true")
    other.context.close()


def test_batch_link_holds_the_templates_and_columns(page: Page, browser: Browser) -> None:
    page.click("#tour-close")
    page.click("#tab-batch-button")
    page.fill("#batch-system textarea", "Answer with one word.")
    page.fill("#batch-user textarea", "Capital of {{question}}?")
    page.locator("#batch-model-1 input").fill("gx-2.5-pro")
    page.keyboard.press("Enter")
    link = copied(page, "batch")
    query = parse_qs(urlsplit(link).query)
    assert query["tab"] == ["batch"] and query["model2"] == ["gx-2.5-pro"] and query["q"] == ["Capital of {{question}}?"]
    other = fresh(browser, link)
    expect(other.locator("#batch-user textarea")).to_have_value("Capital of {{question}}?", timeout=30_000)
    expect(other.locator("#batch-system textarea")).to_have_value("Answer with one word.")
    for elem_id in ("batch-format-0", "batch-model-0", "batch-format-1", "batch-model-1"):
        expect(other.locator(f"#{elem_id} input")).to_have_value(page.locator(f"#{elem_id} input").input_value())
    expect(other.locator("#link-notice")).not_to_be_visible()
    other.context.close()


def test_report_link_holds_the_profile(page: Page, browser: Browser) -> None:
    page.click("#tour-close")
    page.click("#tab-report-button")
    page.locator("#report-depth label").nth(1).click()  # thorough: more formats, models and checks
    expect(page.locator("#report-depth label").nth(1).locator("input")).to_be_checked()
    page.wait_for_timeout(500)  # the depth's own update of the pickers
    link = copied(page, "report")
    query = parse_qs(urlsplit(link).query)
    assert query["depth"] == ["thorough"] and "," in query["formats"][0] and query["checks"][0]
    other = fresh(browser, link)
    expect(other.locator("#tab-report-button")).to_have_attribute("aria-selected", "true", timeout=30_000)
    expect(other.locator("#report-depth label").nth(1).locator("input")).to_be_checked()
    for elem_id in ("report-formats", "report-checks"):
        assert checked(other, elem_id) == checked(page, elem_id), elem_id
    expect(other.locator("#link-notice")).not_to_be_visible()
    other.context.close()


def test_embeddings_link_holds_the_texts_it_compares(page: Page, browser: Browser) -> None:
    page.click("#tour-close")
    page.click("#tab-embeddings-button")
    page.click("#embeddings-example-0")  # the texts an example fills: what a newcomer would share
    texts = page.locator("#embeddings-texts textarea")
    expect(texts).not_to_have_value("", timeout=30_000)
    shown = texts.input_value()
    assert "\n" in shown
    link = copied(page, "embeddings")
    assert parse_qs(urlsplit(link).query)["texts"] == [shown]
    other = fresh(browser, link)
    expect(other.locator("#embeddings-texts textarea")).to_have_value(shown, timeout=30_000)
    expect(other.locator("#tab-embeddings-button")).to_have_attribute("aria-selected", "true")
    expect(other.locator("#link-notice")).not_to_be_visible()
    other.context.close()
