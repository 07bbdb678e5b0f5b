"""The code the page runs is the code the tests call: every event on the page (the conversation
column's, the tabs', the shared widgets' and the header's) is wired to a named handler
(`ConversationHandlers`, each tab's `handlers` module, the widget's own methods and functions),
never to a closure a layout function holds, so a test that calls a handler calls what the page runs."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

from playground.settings import Settings
from playground.ui.tabs.video import handlers as video_handlers
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.handlers import ConversationHandlers
from playground.ui.tabs.video.handlers import VideoHandlers
from playground.ui.tabs.report import handlers as report_handlers
from playground.ui.tabs.report.handlers import ReportHandlers
from playground.ui.tabs.report.history import ReportHistory
from playground.ui.tabs.images import handlers as images_handlers
from playground.ui.tabs.images.handlers import ImagesHandlers
from playground.ui.tabs.embeddings import handlers as embeddings_handlers
from playground.ui.tabs.embeddings.handlers import EmbeddingsHandlers
from playground.ui.tabs.compare import handlers as compare_handlers
from playground.ui.tabs.compare.handlers import CompareHandlers
from playground.ui.tabs.chat import handlers as chat_handlers
from playground.ui.tabs.messages import handlers as messages_handlers
from playground.ui.tabs.native import handlers as native_handlers
from playground.ui.tabs.responses import handlers as responses_handlers
from playground.ui.tabs.batch.changes import ChangesHandlers
from playground.ui.tabs.batch.form import DATA_OUTPUTS
from playground.ui.tabs.batch.handlers import BatchHandlers, closed_cell
from playground.ui.tabs.batch.linked import BatchLink
from playground.ui.tabs.registry import TABS
from playground.ui.conversation import branches, prompt_move, template_vars
from playground.ui.conversation.branches import BranchBar
from playground.ui.conversation.prompt_move import BatchSend
from playground.ui.conversation.prompt_handlers import PromptHandlers
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared import guide, links
from playground.ui.shared.curl_panel import CurlImporter
from playground.ui.shared.column_picker import CUSTOM, ColumnPicker
from playground.ui.tabs.batch.layout import PRESETS as BATCH_PRESETS
from playground.ui.shared.links import LinkOpener
from playground.ui.shared.presets import PresetBar
from playground.ui.shared.prices import PriceEditor

TEXT_TABS = ("chat", "responses", "messages", "native")
PRESET_TABS = ("chat", "responses", "messages", "native", "embeddings", "images", "video")
"""The tabs with a preset bar and a session file bar."""
TABS_LINKED = tuple(tab.id for tab in TABS if tab.link is not None)
"""The tabs with a "Copy link" button."""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


def handler(page: Any, elem_id: str, event: str) -> Any:
    component = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == elem_id)
    return next(fn.fn for fn in page.fns.values() if (component._id, event) in fn.targets and fn.fn is not None)  # not a browser-only event


def plain(fn: Any) -> Any:
    """The function behind a bound method."""
    return getattr(fn, "__func__", fn)


def constant(fn: Any) -> bool:
    """A `lambda: CONSTANT`: no parameters and nothing of the layout closed over (it may stay)."""
    code = fn.__code__
    return fn.__name__ == "<lambda>" and code.co_argcount == 0 and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) \
        and fn.__closure__ is None


def behind(fn: Any) -> Any:
    """The function an event runs: through `functools.partial` and bound methods."""
    while isinstance(fn, partial):
        fn = fn.func
    return plain(fn)


def test_no_event_on_the_page_runs_a_closure(page: Any) -> None:
    """Every event of the page (tabs, conversation, shared widgets, header, links), not only the tabs'."""
    events = [behind(fn.fn) for fn in page.fns.values() if fn.fn is not None]
    held = sorted({f"{fn.__module__}.{fn.__qualname__}" for fn in events if "<locals>" in getattr(fn, "__qualname__", "") and not constant(fn)})
    assert not held, f"events wired to closures (lift them into named handlers): {held}"
    assert all(getattr(fn, "__module__", "").startswith("playground.") for fn in events if not constant(fn)), "only the app's own handlers"


def test_a_constant_lambda_is_told_from_one_with_logic() -> None:
    table = "x"
    assert constant(lambda: 3) and constant(lambda: ("a", True))
    assert not constant(lambda value: value) and not constant(lambda *v: v) and not constant(lambda: table)


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


@pytest.mark.parametrize("tab", TEXT_TABS)
def test_each_prompt_library_event_runs_the_handler_the_tests_call(page: Any, tab: str) -> None:
    wired = {name: handler(page, f"{tab}-plib-{elem}", event) for name, elem, event in (
        ("save", "save", "click"), ("open", "open", "click"), ("label", "set-label", "click"), ("diff", "diff-button", "click"),
        ("save_partial", "partial-save", "click"), ("export", "export", "click"), ("import_file", "import", "upload"),
        ("example", "example", "click"), ("pick", "prompt", "change"), ("prompt_names", "prompt", "focus"))}
    for name, fn in wired.items():
        assert plain(fn) is getattr(PromptHandlers, name), f"{tab}: {name} runs {fn!r}"
    assert len({id(fn.__self__) for fn in wired.values()}) == 1, "one tab, one set of handlers"


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


def test_the_report_tabs_events_run_its_handlers(page: Any) -> None:
    bound = {"report-run": ("click", "run_checks"), "report-refresh-models": ("click", "refresh_models"),
             "report-load-run": ("click", "load_test")}
    for elem_id, (event, name) in bound.items():
        assert plain(handler(page, elem_id, event)) is getattr(ReportHandlers, name), elem_id
    for elem_id, event, name in (("report-stop", "click", "stop"), ("report-depth", "input", "depth_changed"),
                                 ("report-matrix", "click", "matrix_clicked"), ("report-cell", "input", "show_cell"),
                                 ("report-call", "input", "show_call"), ("report-load-file", "upload", "saved_uploaded")):
        assert handler(page, elem_id, event) is getattr(report_handlers, name), elem_id
    assert any(fn.fn is report_handlers.finished for fn in page.fns.values()), "the run's summary after it ends"
    for elem_id, event, name in (("report-history-compare", "click", "compare"), ("report-history-refresh", "click", "listed"),
                                 ("report-history-panel", "expand", "listed")):
        assert plain(handler(page, elem_id, event)) is getattr(ReportHistory, name), elem_id
    assert sum(plain(fn.fn) is ReportHistory.keep_finished for fn in page.fns.values()) == 2, "kept after a run ends and after Stop"


def test_the_images_tabs_events_run_its_handlers(page: Any) -> None:
    for elem_id, name in (("images-generate", "generate_images"), ("images-refine", "refine_image")):
        waiting = handler(page, elem_id, "click")
        assert waiting is images_handlers.waiting, elem_id
        then = [fn for fn in page.fns.values() if plain(fn.fn) is getattr(ImagesHandlers, name)]
        assert len(then) == 1 and then[0].concurrency_id == "images-generate", name
    for elem_id, event, name in (("images-stop", "click", "stop_clicked"), ("images-gallery", "select", "pick_image"),
                                 ("images-history", "select", "restore_generation")):
        assert handler(page, elem_id, event) is getattr(images_handlers, name), elem_id
    restore = next(fn for fn in page.fns.values() if fn.fn is images_handlers.restore_generation)
    assert len(restore.outputs) == images_handlers.RESTORE_COUNT, "the skips restore returns match its outputs"


def test_the_embeddings_tabs_events_run_its_handlers(page: Any) -> None:
    for elem_id, event in (("embeddings-run", "click"), ("embeddings-texts", "submit"), ("embeddings-query", "submit")):
        assert handler(page, elem_id, event) is embeddings_handlers.arm_stop, elem_id
    embed = [fn for fn in page.fns.values() if plain(fn.fn) is EmbeddingsHandlers.embed]
    assert len(embed) == 1 and len(embed[0].outputs) == embeddings_handlers.RUN_OUTPUTS
    assert handler(page, "embeddings-stop", "click") is embeddings_handlers.stop_clicked
    assert handler(page, "embeddings-text-exports", "click") is embeddings_handlers.write_text_exports


def test_the_compare_tabs_events_run_its_handlers(page: Any) -> None:
    assert handler(page, "compare-send", "click") is compare_handlers.begin
    assert plain(handler(page, "compare-stop", "click")) is CompareHandlers.stopped
    for elem_id in ("compare-diff-left", "compare-diff-right"):
        assert plain(handler(page, elem_id, "change")) is CompareHandlers.diff_picked, elem_id
    stream = [fn for fn in page.fns.values() if plain(fn.fn) is CompareHandlers.stream]
    ended = [fn for fn in page.fns.values() if plain(fn.fn) is CompareHandlers.ended]
    assert len(stream) == 1 and len(ended) == 1 and len(ended[0].outputs) == compare_handlers.ENDS


def test_the_text_tabs_build_their_turns_and_extras_with_named_handlers(page: Any) -> None:
    """What each text tab hands the conversation column (its adapter factory, the line or report
    after a turn) is a named handler of the tab, not a closure of its layout."""
    named = {"chat": (chat_handlers.chat_adapter, chat_handlers.schema_line), "responses": (responses_handlers.responses_adapter, responses_handlers.chain_line),
             "messages": (messages_handlers.messages_adapter, messages_handlers.lab_report),
             "native": (native_handlers.native_adapter, native_handlers.grounding_line)}
    for tab, (adapter, extra) in named.items():
        column = handler(page, f"{tab}-input", "submit").__self__
        assert isinstance(column.adapter_for, partial) and column.adapter_for.func is adapter, tab
        assert column.extra is extra, tab
    counting = [fn for fn in page.fns.values() if plain(fn.fn) is messages_handlers.MessagesHandlers.count_tokens]
    assert len(counting) == 1 and [block.elem_id for block in counting[0].outputs] == ["messages-token-count"]
    chain = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == "responses-chain")
    assert next(fn.fn for fn in page.fns.values() if (chain._id, "change") in fn.targets) is responses_handlers.chain_changed


BATCH_EVENTS = (("batch-upload", "upload", "on_data"), ("batch-paste-use", "click", "on_paste"), ("batch-system", "change", "on_template"),
                ("batch-user", "change", "on_template"), ("batch-temperature", "change", "on_settings"), ("batch-run", "click", "on_run"),
                ("batch-resume", "click", "on_resume"), ("batch-stop", "click", "on_stop"), ("batch-filter", "input", "on_view"),
                ("batch-sort", "input", "on_view"), ("batch-grid", "select", "on_select"), ("batch-ab-next", "click", "on_pair"),
                ("batch-vote-a", "click", "vote_a"), ("batch-vote-tie", "click", "vote_tie"), ("batch-vote-b", "click", "vote_b"),
                ("batch-export", "click", "on_export"), ("batch-session-load", "upload", "on_load"), ("batch-suite-model", "input", "on_suite_model"))


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
    assert len(events["on_load"].outputs) == 2 + tab.form_size + DATA_OUTPUTS, "state, status, the form, what the page shows of the data set"


def test_the_batch_tabs_what_changed_events_run_its_handlers(page: Any) -> None:
    listed, compared = handler(page, "batch-list-runs", "click"), handler(page, "batch-compare-baseline", "click")
    assert plain(listed) is ChangesHandlers.on_list and plain(compared) is ChangesHandlers.on_diff
    panel = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == "batch-changes-panel")
    assert next(fn.fn for fn in page.fns.values() if (panel._id, "expand") in fn.targets) == listed, "the picker is filled when the section opens"


def test_the_shared_widgets_events_run_named_handlers(page: Any) -> None:
    """Presets, session files, Copy link, branches, the Variables panel and "Send to Batch" per
    tab, and the page's guide, prices, curl import and link reader: each event runs the handler
    its tests call."""
    for tab in PRESET_TABS:
        for elem_id, event, name in ((f"{tab}-preset-pick", "focus", "on_focus"), (f"{tab}-preset-save", "click", "on_save"),
                                     (f"{tab}-preset-delete", "click", "on_delete"), (f"{tab}-preset-pick", "change", "on_pick")):
            assert plain(handler(page, elem_id, event)) is getattr(PresetBar, name), elem_id
        assert plain(handler(page, f"{tab}-session-save", "click")) is SessionFileBar.on_save, tab
        assert plain(handler(page, f"{tab}-session-load", "upload")) is SessionFileBar.on_load, tab
    for tab in TABS_LINKED:
        if tab == "batch":  # its server writes the data set and graders first, then the link is written and shown
            assert plain(handler(page, "batch-copy-link", "click")) is BatchLink.on_copy
            assert sum(fn.fn is links.show_link and fn.outputs[0].elem_id == "batch-link" for fn in page.fns.values()) == 1
            continue
        assert handler(page, f"{tab}-copy-link", "click") is links.show_link, tab
    for tab in TEXT_TABS:
        assert handler(page, f"{tab}-chatbot", "select") is branches.picked_message, tab
        assert plain(handler(page, f"{tab}-branch", "click")) is BranchBar.branch, tab
        assert plain(handler(page, f"{tab}-branches", "input")) is BranchBar.switch, tab
        assert plain(handler(page, f"{tab}-to-batch", "click")) is BatchSend.send, tab
        watched = [fn for fn in page.fns.values() if fn.fn is template_vars.variables_changed
                   and any(getattr(block, "elem_id", None) == f"{tab}-variables-table" for block in fn.outputs)]
        assert len(watched) == 1, tab
    assert handler(page, "batch-to-chat", "click") is prompt_move.open_in_chat
    assert handler(page, "shortcuts-open", "click") is guide.toggle
    assert any(fn.fn is guide.first_visit for fn in page.fns.values()), "the tour on a first visit"
    assert plain(handler(page, "batch-prices-table", "input")) is PriceEditor.edited
    assert plain(handler(page, "batch-prices-csv", "upload")) is PriceEditor.imported
    assert any(plain(fn.fn) is PriceEditor.restore for fn in page.fns.values()), "the browser's prices on load"
    assert plain(handler(page, "curl-import-button", "click")) is CurlImporter.switch
    assert plain(handler(page, "curl-import-keep", "click")) is CurlImporter.keep_url
    assert sum(plain(fn.fn) is LinkOpener.on_load for fn in page.fns.values()) == 1, "one reader of the link"


@pytest.mark.parametrize("tab", ["batch", "compare"])
def test_the_column_pickers_however_set_show_the_preset_they_hold(page: Any, tab: str) -> None:
    for index in (0, 1):  # a format and a model picker, of the first and second column
        assert behind(handler(page, f"{tab}-model-{index}", "change")) is ColumnPicker.preset_of
        assert behind(handler(page, f"{tab}-format-{index}", "change")) is ColumnPicker.preset_of
    picker = ColumnPicker("batch", BATCH_PRESETS)
    two = "Two models through chat completions"
    assert picker.preset_of("chat", "gx-2.5-flash", "chat", " gpt-4.1 ", "", "") == two
    assert picker.preset_of("chat", "gx-2.5-flash", "messages", "cl-sonnet-4-5-20250929", "", "") == CUSTOM  # an import's columns
    assert picker.preset_of("chat", "gx-2.5-flash", "", "", "", "") == CUSTOM


@pytest.mark.parametrize(("tab", "shown"), [("batch", 2), ("compare", 4)])
def test_only_the_columns_in_use_are_on_screen_with_add_a_column_for_more(page: Any, tab: str, shown: int) -> None:
    """Compare's three-model preset showed an empty fourth column."""
    behind_add = handler(page, f"{tab}-add-column", "click")
    picker = behind_add.__self__
    model = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == f"{tab}-model-3")
    on_change = {plain(fn.fn) for fn in page.fns.values() if (model._id, "change") in fn.targets}
    assert plain(behind_add) is ColumnPicker.slot_added and ColumnPicker.slots_shown in on_change, "a preset, an import or a link shows its columns"
    assert [box.visible for box in picker.boxes].count(True) == shown, "the first preset's columns when the page opens"
    if tab == "compare":
        three = picker.values_for("Three models through chat completions")
        assert [update["visible"] for update in picker.slots_shown(0, *three)] == [True, True, True, False, True]
        assert [update["visible"] for update in picker.slot_added(0, *three)[1:]] == [True] * 4 + [False], "Add shows the fourth"


def test_starting_or_opening_another_batch_run_empties_the_cell_panel(page: Any) -> None:
    cell = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == "batch-cell")
    for starts in (BatchHandlers.on_run, BatchHandlers.on_open_listed):
        parent = next(fn for fn in page.fns.values() if fn.fn is not None and behind(fn.fn) is starts)
        after = [fn for fn in page.fns.values() if fn.trigger_after == parent._id and fn.fn is closed_cell]
        assert len(after) == 1 and cell in after[0].outputs, starts.__name__
    emptied = closed_cell()
    assert emptied[0] == "" and emptied[-1]["visible"] is False
