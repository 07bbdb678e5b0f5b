"""The code the page runs is the code the tests call: the conversation column's, the Video tab's
and the Batch tab's events are wired to named handlers (`conversation_handlers`, `video_handlers`,
`BatchHandlers`), never to closures a layout function holds, so a test that calls a handler calls
what the page runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from playground.settings import Settings
from playground.ui.tabs.video import handlers as video_handlers
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.handlers import ConversationHandlers
from playground.ui.tabs.video.handlers import VideoHandlers
from playground.ui.tabs.batch.handlers import BatchHandlers

TEXT_TABS = ("chat", "responses", "messages", "native")
LAYOUT_MODULES = ("playground.ui.conversation.panel", "playground.ui.conversation.handlers", "playground.ui.tabs.video.layout",
                  "playground.ui.tabs.video.handlers", "playground.ui.tabs.batch.layout", "playground.ui.tabs.batch.handlers")


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


def handler(page: Any, elem_id: str, event: str) -> Any:
    component = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == elem_id)
    return next(fn.fn for fn in page.fns.values() if (component._id, event) in fn.targets)


def plain(fn: Any) -> Any:
    """The function behind a bound method."""
    return getattr(fn, "__func__", fn)


def test_no_event_of_the_conversation_the_video_or_the_batch_tab_runs_a_closure(page: Any) -> None:
    held = [f"{fn.fn.__module__}.{fn.fn.__qualname__}" for fn in page.fns.values()
            if fn.fn is not None and getattr(fn.fn, "__module__", "") in LAYOUT_MODULES and "<locals>" in fn.fn.__qualname__]
    assert not held, f"events wired to closures (lift them into the handlers module): {held}"


@pytest.mark.parametrize("tab", TEXT_TABS)
def test_each_conversation_action_runs_the_handler_the_tests_call(page: Any, tab: str) -> None:
    wired = {
        "send": handler(page, f"{tab}-input", "submit"), "tool_result": handler(page, f"{tab}-tool-send", "click"),
        "retry": handler(page, f"{tab}-retry", "click"), "edit": handler(page, f"{tab}-chatbot", "edit"),
        "clear": handler(page, f"{tab}-clear", "click"), "chatbot_cleared": handler(page, f"{tab}-chatbot", "clear"),
    }
    for name, fn in wired.items():
        assert plain(fn) is getattr(ConversationHandlers, name), f"{tab}: {name} runs {fn!r}"
    wired["stop"] = handler(page, f"{tab}-stop", "click")
    assert len({id(fn.__self__) for fn in wired.values()}) == 1, "one tab, one set of handlers"
    assert plain(handler(page, f"{tab}-stop", "click")) is ConversationHandlers.stop


def test_the_video_tabs_events_run_its_handlers(page: Any) -> None:
    assert plain(handler(page, "video-submit", "click")) is VideoHandlers.submit
    assert plain(handler(page, "video-resume", "click")) is VideoHandlers.resume
    watchers = [fn for fn in page.fns.values() if plain(fn.fn) is VideoHandlers.follow_jobs]
    assert len(watchers) == 3 and all(fn.concurrency_id == "video-watch" for fn in watchers), "after submit, resume and the page's load"
    for elem_id, event, name in (("video-model", "change", "model_changed"), ("video-mode", "change", "mode_changed"),
                                 ("video-cancel", "click", "cancel"), ("video-clear", "click", "clear_board"),
                                 ("video-gallery", "select", "pick_video"), ("video-inspect-job", "input", "inspect_job_call"),
                                 ("video-prompt", "change", "flags_of")):
        assert handler(page, elem_id, event) is getattr(video_handlers, name), elem_id


BATCH_EVENTS = (("batch-upload", "upload", "on_data"), ("batch-paste-use", "click", "on_paste"), ("batch-system", "change", "on_template"),
                ("batch-user", "change", "on_template"), ("batch-temperature", "change", "on_settings"), ("batch-run", "click", "on_run"),
                ("batch-resume", "click", "on_resume"), ("batch-stop", "click", "on_stop"), ("batch-filter", "input", "on_view"),
                ("batch-sort", "input", "on_view"), ("batch-grid", "select", "on_select"), ("batch-ab-next", "click", "on_pair"),
                ("batch-vote-a", "click", "vote_a"), ("batch-vote-tie", "click", "vote_tie"), ("batch-vote-b", "click", "vote_b"),
                ("batch-export", "click", "on_export"), ("batch-session-load", "upload", "on_load"))


def test_the_batch_tabs_events_run_its_handlers(page: Any) -> None:
    wired = {f"{elem_id}.{event}": handler(page, elem_id, event) for elem_id, event, _ in BATCH_EVENTS}
    for elem_id, event, name in BATCH_EVENTS:
        assert plain(wired[f"{elem_id}.{event}"]) is getattr(BatchHandlers, name), f"{elem_id} {event}"
    assert len({id(fn.__self__) for fn in wired.values()}) == 1, "one tab, one set of handlers"
    tab = next(iter(wired.values())).__self__
    chained = [fn for fn in page.fns.values() if getattr(fn.fn, "__self__", None) is tab and fn.name in ("on_watch", "on_end", "on_restore")]
    assert sorted(fn.name for fn in chained) == ["on_end", "on_end", "on_restore", "on_watch", "on_watch"], "after run and resume; on load"
    watchers = [fn for fn in chained if fn.name == "on_watch"]
    assert watchers[0].concurrency_id == watchers[1].concurrency_id and watchers[0].concurrency_limit is None, "one queue, no limit"
    events = {fn.name: fn for fn in page.fns.values() if getattr(fn.fn, "__self__", None) is tab}
    assert len(events["on_run"].inputs) == 3 + tab.form_size, "state, URL, key, then the form as BatchHandlers reads it"
    assert len(events["on_load"].outputs) == 2 + tab.form_size + 3, "state, status, the form, data status, preview, check"
