"""The page's tabs, in the order they appear: one entry each. The app builds the page from this
list, the links and the Copy link buttons read their fields here, and the catalogue and page tests
check every entry, so a new tab is its folder and one line below."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from playground.client.batch.plan import MAX_COLUMNS
from playground.ui.session_files import kept
from playground.ui.shared.links import TabLink
from playground.ui.tabs.batch.layout import batch_stores, build_batch_tab
from playground.ui.tabs.batch.linked import DATA, GRADERS, SUITE
from playground.ui.tabs.chat.layout import build_chat_tab
from playground.ui.tabs.compare.layout import build_compare_tab
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.tabs.embeddings.layout import build_embeddings_tab
from playground.ui.tabs.images.layout import build_images_tab
from playground.ui.tabs.messages.layout import build_messages_tab
from playground.ui.tabs.native.layout import build_native_tab
from playground.ui.tabs.report.layout import build_report_tab
from playground.ui.tabs.responses.layout import build_responses_tab
from playground.ui.tabs.video.layout import build_video_tab, video_stores


@dataclass(frozen=True)
class Tab:
    id: str
    """The tab's id: `?tab=` in links, `tab-<id>` its `elem_id`, `tab.<id>` its name in the catalogue."""
    build: Callable[[TabContext], TabParts | None]
    """Lays out the tab's content (inside its `gr.Tab`) and wires its events."""
    link: TabLink | None = None
    """The fields a link fills and Copy link writes (None: the tab has no Copy link)."""
    example_box: str | None = None
    """The `elem_id` of the box a clicked example fills with its prompt."""
    stores: Callable[[], Any] | None = None
    """Makes the tab's browser stores (and the states its page-load events read), before the `gr.Tabs` (`TabContext.stores[id]`)."""

    @property
    def label_key(self) -> str:
        return f"tab.{self.id}"

    @property
    def elem_id(self) -> str:
        return f"tab-{self.id}"


BATCH_SETTINGS = (("system", "batch-system"), ("temperature", "batch-temperature"), ("repeats", "batch-repeats"),
                  ("concurrency", "batch-concurrency"), ("tokens", "batch-max-tokens"), ("stream", "batch-stream"), ("cache", "batch-cache"),
                  ("mocks", "batch-mock-tools"),
                  *((name, f"batch-{kind}-{index}") for index in range(MAX_COLUMNS)
                    for name, kind in ((f"format{index + 1}", "format"), (f"model{index + 1}", "model"), (f"temperature{index + 1}", "col-temperature"),
                                       (f"tokens{index + 1}", "col-max-tokens"), (f"stream{index + 1}", "col-stream"),
                                       (f"tools{index + 1}", "col-tools"), (f"prompt{index + 1}", "col-prompt"))))
"""A Batch link: the prompt templates (`q` the user's), the run's settings (temperature, repeats, requests at once, max output
tokens, stream and the cache for all columns, the mocked tools), and each column's format, model and own temperature, max
output tokens, stream, whether it offers the mocked tools and its prompt library version (as typed: Run checks them, a
version against the opener's own library)."""
BATCH_WRITTEN = (DATA, GRADERS, SUITE)
"""A Batch link's data set, graders and an imported suite's graders, packed by the tab's server (`tabs/batch/linked.py`)."""
REPORT_SETTINGS = (("depth", "report-depth"), ("formats", "report-formats"), ("models", "report-models"), ("checks", "report-checks"))
"""A Report link: the report's profile (depth, formats, models, checks)."""


def _conversation(tab: str, build: Callable[[TabContext], TabParts | None]) -> Tab:
    return Tab(tab, build, TabLink(f"{tab}-model", f"{tab}-input", True, f"{tab}-preset-pick"), f"{tab}-input", partial(kept.store, tab))


TABS: tuple[Tab, ...] = (
    _conversation("chat", build_chat_tab),
    _conversation("responses", build_responses_tab),
    _conversation("messages", build_messages_tab),
    _conversation("native", build_native_tab),
    Tab("embeddings", build_embeddings_tab, TabLink("embeddings-list-model", "embeddings-query", False, "embeddings-preset-pick",
                                                    (("texts", "embeddings-texts"),)),
        "embeddings-texts"),
    Tab("images", build_images_tab, TabLink("images-model", "images-prompt", False, "images-preset-pick", (("ratio", "images-ratio"),)),
        "images-prompt"),
    Tab("compare", build_compare_tab, TabLink(None, "compare-message", False, "compare-preset"), "compare-message"),
    Tab("batch", build_batch_tab, TabLink(None, "batch-user", False, None, BATCH_SETTINGS, BATCH_WRITTEN), stores=batch_stores),
    Tab("report", build_report_tab, TabLink(None, None, False, None, REPORT_SETTINGS)),
    Tab("video", build_video_tab, TabLink("video-model", "video-prompt", False, "video-preset-pick"), "video-prompt",
        stores=video_stores),
)


def links() -> dict[str, TabLink | None]:
    """Every tab by id, with the fields a link fills (None: a link only opens it)."""
    return {tab.id: tab.link for tab in TABS}
