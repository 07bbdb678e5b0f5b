"""A value typed into a box the moment it first appears is kept (`gradio_compat/revealed.py`):
the number and text boxes of a closed accordion or of a tab not yet visited are mounted when
first shown, and Gradio 6.31's page applied the values they were built with a frame later, over
what had been typed (issue 40: Chat's "Max tokens" read back 0 after 1.5 was typed)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playground.ui.i18n import EN

from tests.e2e.pages import frames_held, open_accordion, open_tab, settle, wait_for_reveals, watch_reveals

BOXES = [
    # (tab, accordion inside it or None, the box, what is typed); Chat is on screen from the start.
    # Each lost what was typed before `keep_typed_on_reveal`.
    ("tab.chat", "chat.parameters", "#chat-max-tokens input", "1.5"),
    ("tab.native", "native.generation", "#native-max-tokens input", "1.5"),
    ("tab.compare", None, "#compare-max-tokens input", "1.5"),
    ("tab.images", None, "#images-n input[type=number]", "3"),
]
ON_SCREEN = {"tab.native": "#native-output-images"}
"""A component of a tab whose box is in an accordion: the tab is open once it shows."""


def type_as_it_appears(page: Page, tab: str, accordion: str | None, box: str, typed: str) -> None:
    """Open `tab` (unless it is Chat) and `accordion` in it (if any), typing `typed` into `box` as
    soon as it shows, while the frame after it appeared has not come yet (held, as on a loaded
    machine); then wait until the page's reveals are over."""
    watch_reveals(page)
    reveals = 0
    if tab != "tab.chat":
        with frames_held(page):
            open_tab(page, EN[tab], box if accordion is None else ON_SCREEN[tab])
            if accordion is None:
                page.fill(box, typed)
        reveals += 1
    if accordion is not None:
        wait_for_reveals(page, reveals)
        with frames_held(page):
            open_accordion(page, EN[accordion], box)
            page.fill(box, typed)
        reveals += 1
    wait_for_reveals(page, reveals)


@pytest.mark.parametrize(("tab", "accordion", "box", "typed"), BOXES, ids=[box.split()[0][1:] for _, _, box, _ in BOXES])
def test_a_value_typed_as_its_box_first_appears_is_kept(page: Page, tab: str, accordion: str | None, box: str, typed: str) -> None:
    page.click("#tour-close")
    type_as_it_appears(page, tab, accordion, box, typed)
    expect(page.locator(box)).to_have_value(typed)


def test_a_batch_column_box_keeps_what_is_typed_as_it_appears(page: Page) -> None:
    """Batch's column boxes did not lose it before either (the events their typing starts have
    Gradio read them back into the page's tree before it re-applies first values): kept still."""
    page.click("#tour-close")
    type_as_it_appears(page, "tab.batch", None, "#batch-col-max-tokens-0 textarea", "1.5")
    expect(page.locator("#batch-col-max-tokens-0 textarea")).to_have_value("1.5")


def test_a_video_number_shown_for_the_model_keeps_what_is_typed(page: Page) -> None:
    """Video's numbers are shown by the model picked (hidden when the page is built), so opening
    "More parameters" mounts them from their current values and nothing is re-applied after: what
    is typed stays, before `keep_typed_on_reveal` as after."""
    page.click("#tour-close")
    open_tab(page, EN["tab.video"], "#video-model input")
    page.locator("#video-model input").click()
    settle(page, page.get_by_role("option", name="vidB-3.0-fast-generate-001", exact=True).click)  # the model's fields are shown
    watch_reveals(page)
    with frames_held(page):
        open_accordion(page, EN["common.more_parameters"], "#video-seed input", within="#video-more")
        page.fill("#video-seed input", "7")
    wait_for_reveals(page)
    expect(page.locator("#video-seed input")).to_have_value("7")
