"""The Embeddings tab in a real browser: five texts embedded, the heatmap and the labelled 2-D
map drawn; an example with a search query ranks the documents; a curl command opens the tab."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import import_curl, open_tab

pytestmark = pytest.mark.browser

FIVE = ["The cat sat on the mat.", "A cat was sitting on a mat.", "Revenue grew ten percent.", "Sales rose this quarter.", "Bake bread at home."]


def test_five_texts_give_a_heatmap_and_a_labelled_map(page: Page) -> None:
    open_tab(page, "Embeddings", "#embeddings-texts textarea")
    page.fill("#embeddings-texts textarea", "\n".join(FIVE))
    page.click("#embeddings-run")
    heatmap = page.locator("#embeddings-heatmap table")
    expect(heatmap).to_be_visible(timeout=30_000)
    expect(heatmap.locator("td")).to_have_count(25)
    expect(heatmap.locator("tbody th").first).to_have_text("1. The cat sat on the mat.")
    cell = heatmap.locator("tbody tr").nth(0).locator("td").nth(1)
    assert "1. The cat sat on the mat. ↔ 2. A cat was sitting on a mat.:" in (cell.get_attribute("title") or "")
    expect(page.locator("#embeddings-summary")).to_contain_text("5 vectors × 1,536 numbers")
    page.get_by_role("tab", name="Map").click()
    labels = page.locator("#embeddings-map svg text")
    expect(labels).to_have_count(5)
    expect(labels.nth(2)).to_have_text("3. Revenue grew ten percent.")
    box = page.locator("#embeddings-map svg").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 150


def test_search_example_ranks_the_documents(page: Page) -> None:
    open_tab(page, "Embeddings", "#embeddings-texts textarea")
    page.click("#embeddings-example-1")
    expect(page.locator("#embeddings-query textarea")).to_have_value("How do I bake bread?")
    page.click("#embeddings-run")
    expect(page.locator("#embeddings-summary")).to_contain_text("6 vectors", timeout=30_000)
    page.get_by_role("tab", name="Search").click()
    first = page.locator("#embeddings-search li").first
    expect(first).to_contain_text("Bake bread in a hot oven")


def test_a_curl_command_opens_the_embeddings_tab(page: Page) -> None:
    import_curl(page, """curl https://gw.example/v1/embeddings -H "Authorization: Bearer sk-pasted-9999" -d '{"model": "text-embedding-3-large", "input": ["alpha", "beta"], "dimensions": 128}'""")
    expect(page.locator("#embeddings-texts textarea")).to_have_value("alpha\nbeta", timeout=30_000)
    expect(page.locator("#embeddings-list-model input")).to_have_value("text-embedding-3-large")
    page.click("#embeddings-settings")
    expect(page.locator("#embeddings-dimensions input")).to_have_value("128")
    assert "sk-pasted-9999" not in page.content()


def test_stop_gives_up_and_keeps_what_was_shown(page: Page) -> None:
    open_tab(page, "Embeddings", "#embeddings-texts textarea")
    page.fill("#embeddings-texts textarea", "one\ntwo")
    page.click("#embeddings-run")
    expect(page.locator("#embeddings-heatmap table td")).to_have_count(4, timeout=30_000)
    page.fill("#embeddings-texts textarea", "[[fault:stall]] slow")
    page.click("#embeddings-run")
    page.wait_for_timeout(500)
    page.click("#embeddings-stop")
    expect(page.locator("#embeddings-notice")).to_contain_text("Stopped", timeout=5_000)
    expect(page.locator("#embeddings-heatmap table td")).to_have_count(4)
    expect(page.locator(".error")).to_have_count(0)
    page.fill("#embeddings-texts textarea", "three\nfour\nfive")
    page.click("#embeddings-run")
    expect(page.locator("#embeddings-heatmap table td")).to_have_count(9, timeout=30_000)
