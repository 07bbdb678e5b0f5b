"""Examples fill their tab in the browser itself, so an Enter pressed right after the click sends the
example even when the server is slow to answer (issue 26: a busy Space, a loaded CI machine)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from playground.ui.tabs.chat import layout as chat_tab

from playground.ui.tabs.compare import layout as compare_tab

from playground.ui.tabs.embeddings import layout as embeddings_tab

from playground.ui.tabs.images import layout as images_tab

from playground.ui.tabs.messages import layout as messages_tab

from playground.ui.tabs.native import layout as native_tab

from playground.ui.tabs.responses import layout as responses_tab

from playground.ui.tabs.video import layout as video_tab
from tests.e2e.pages import EXAMPLE_PROMPT_BOX, example_prompt, open_tab

pytestmark = pytest.mark.browser

TABS = {
    "chat": ("Chat", chat_tab.EXAMPLES), "responses": ("Responses", responses_tab.EXAMPLES),
    "messages": ("Messages", messages_tab.EXAMPLES), "native": ("Native", native_tab.EXAMPLES),
    "compare": ("Compare", compare_tab.EXAMPLES), "embeddings": ("Embeddings", embeddings_tab.EXAMPLES),
    "images": ("Images", images_tab.EXAMPLES), "video": ("Video", video_tab.EXAMPLES),
}


def test_every_example_fills_its_tab_while_the_server_does_not_answer(page: Page) -> None:
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    for tab, (name, examples) in TABS.items():
        open_tab(page, name, EXAMPLE_PROMPT_BOX[tab])
        page.route("**/gradio_api/**", hold)  # the server gets nothing until the box is checked
        for index, example in enumerate(examples):
            page.click(f"#{tab}-example-{index}")
            expect(page.locator(EXAMPLE_PROMPT_BOX[tab])).to_have_value(example_prompt(example), timeout=3_000)
        page.unroute("**/gradio_api/**", hold)  # the held requests go on to the server


def test_enter_right_after_an_example_click_sends_the_example(page: Page) -> None:
    open_tab(page, "Native", "#native-input textarea")
    page.click("#native-example-0")
    page.locator("#native-input textarea").press("Enter")
    expect(page.locator("#native-chatbot .message.user")).to_contain_text(example_prompt(native_tab.EXAMPLES[0]), timeout=30_000)
    expect(page.locator("#native-chatbot")).to_contain_text("Thinking", timeout=30_000)


def test_compare_example_sets_the_columns_it_runs(page: Page) -> None:
    open_tab(page, "Compare", "#compare-message textarea")
    page.locator("#compare-model-1 input").fill("gpt-4.1")
    page.locator("#compare-model-1 input").press("Enter")
    page.click("#compare-example-0")
    expect(page.locator("#compare-model-1 input")).to_have_value("gx-2.5-flash")
    expect(page.locator("#compare-format-1 input")).to_have_value("responses")
