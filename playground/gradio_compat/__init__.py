"""The only code that touches Gradio's private internals: its patches, applied by one `apply()`
that refuses them on a Gradio version they were not written for, and the few private reads the UI
needs (`current_request`, `current_blocks`, `I18nText`), so no other module imports a private
Gradio name (`tests/gradio_compat/test_private_imports.py`).

On a version outside `SUPPORTED_VERSIONS` the app runs on Gradio as it is: every patch below is
safe to leave off (slower, never wrong; `tests/gradio_compat/test_patches_off.py` sends a chat
that way). `moved()` names each patch whose internals moved (`internals.py`, checked first by
`tests/gradio_compat/test_internals.py`); docs/gradio-compat.md holds an upstream issue text for
each patch that has none. Figures are from docs/benchmarks.md (issue 25's passes); the links are
related upstream threads, not reports of these problems.

Patches, gated by the version check (T: tests/gradio_compat/):

| patch | Gradio internals it relies on | what it saves (measured) | upstream issue | test (T) |
|---|---|---|---|---|
| `session_ids` (`sessions.py`) | `SessionState.__setitem__`, `_update_config`, `_update_value_in_config`; `Block._id` | config copies rebuilt per update: 21% of the server's CPU at 50 chat sessions (py-spy); a session grew 260 KB a turn, now ~11 KB | not filed yet | `test_session_growth.py` |
| `lazy_session_configs` (`sessions.py`) | `SessionState.__init__` reads `blocks.default_config`, `blocks.blocks` | a new session copied every component config: ~1.3 MB and ~0.3 s of CPU per visitor, now under 200 KB | not filed yet | `test_session_growth.py` |
| `skipped_outputs` (`updates.py`) | `Blocks.postprocess_data(block_fn, predictions, state)`; `BlockFunction.outputs/batch/is_validator_function` | a streamed update with 8 skipped outputs: 5.28 → 1.04 ms CPU (`bench.skipped_outputs`) | not filed yet | `test_skipped_outputs.py` |
| `display_updates` (`display_updates.py`, inside `skipped_outputs`' wrapper) | `Blocks.postprocess_data` builds `block.__class__(**kwargs)` for a `gr.update`; `postprocess_update_dict(block, update_dict, postprocess)`; `Block._constructor_args`; `utils.delete_none`; each component stores `visible`/`placeholder` as given | a send's updates of the message box, banners and tool panel built eight components: the constructors were ~8% of the server's CPU at 50 sessions (in-process sampler, `bench.reply_cpu --sample`) | not filed yet | `test_display_updates.py` |
| `inline_processing` (`updates.py`) | module attribute `gradio.blocks.anyio`; `preprocess_data`/`postprocess_data` call `anyio.to_thread.run_sync(block.preprocess/postprocess)`; `call_function` calls a handler that is not a coroutine function (an async generator function too) through it | an event of 13 form inputs returning skips: 3.30 → 2.03 ms CPU; a chat send's thread round trips 4 → 2 (its generator made on the loop, its variables table read inline) | not filed yet (related: gradio-app/gradio#13168 moved processing into threads; #7796, open, proposes the opposite for latency) | `test_event_processing.py` |
| `output_messages` (`updates.py`) | `ProcessGeneratingMessage`/`ProcessCompletedMessage.model_dump`; the queue writes `orjson.dumps(message.model_dump())` | the deep copy was 22% of a turn's server time at 800 messages (py-spy) | not filed yet | `test_event_processing.py` |
| `whole_updates` (`updates.py`) | `gradio.utils.diff(old, new)`, `is_prop_update`; `handle_streaming_diffs` calls `utils.diff` | a send's closing message carries skips instead of repeating the chat and the inspector (O(history) bytes per send) without emptying the last update's banners; off, the app sends no closing skips (`applied("whole_updates")`) | not filed yet (related, another diff bug: gradio-app/gradio#11506) | `test_event_processing.py`, `test_patches_off.py` |
| `no_matplotlib` (`updates.py`) | `utils.MatplotlibBackendMananger` imports matplotlib around every event | ~0.2 ms per event and streamed update when matplotlib is absent | not filed yet (related: gradio-app/gradio#7157) | `test_internals.py` |
| `chatbot_memo` (`chatbot.py`) | `Chatbot._postprocess`, `_check_format`, `reasoning_tags`, `ChatbotDataMessages`; `processing_utils.async_move_files_to_cache`, `add_root_url` | one streamed update of an 800-message chat: 37.5 → 1.6 ms (`bench.chat_history`) | not filed yet (related: gradio-app/gradio#4092, #7102) | `test_chatbot_cache.py` |
| `patient_launch` (`launch.py`) | `networking.url_ok(url)`, called by `Blocks.launch` | robustness: launch on a loaded machine no longer fails at the first 3 s HEAD timeout | not filed yet (related: gradio-app/gradio#9817) | `test_launch_check.py` |
| `signatures_once` (`build_cost.py`) | module attributes `gradio.blocks.inspect`, `gradio.component_meta.inspect` | 10,000 signature reads at start-up, a fifth of the build's CPU; with the next three (and the page's compression), start 4.5 → 4.1 s (`bench.startup`) | not filed yet (related: gradio-app/gradio#12482) | `test_gradio_build_cost.py` |
| `one_page_config` (`build_cost.py`) | `App.setup_mcp_server(blocks, app_kwargs, mcp_server)`; config keys `mcp_server`, `i18n_translations` | six page-config builds (1,456 component configs each) at start-up, now two | not filed yet (related: #12482) | `test_gradio_build_cost.py` |
| `upload_button_schema` (`build_cost.py`) | `UploadButton.api_info()` | three JSON-schema generations per button per config build, now one per kind | not filed yet | `test_gradio_build_cost.py` |
| `apps_on_first_use` (`build_cost.py`) | `App.create_app(blocks, mcp_server=False)` as `Blocks.__exit__`/`queue()` call it | the build before launch: 0.67 → 0.42 s | not filed yet | `test_gradio_build_cost.py` |
| `page_without_api` (`page_config.py`) | `BlocksConfig.get_config(self, renderable)` calls `self.config_for_block`, which adds `api_info`, `api_info_as_input`, `api_info_as_output`, `example_inputs`; only `Blocks.get_api_info` reads them, for events not private | a page whose events are all private is configured without them: the app's config 1.75 → 1.20 MB (components 1.34 → 0.79 MB), the page on the wire 321 → 270 KB; no schemas generated at the builds after `keep_api_private` (`bench.startup`, docs/benchmarks.md, issue 41) | not filed yet (a Blocks-wide private API that leaves the schemas out) | `test_page_config.py` |
| `lean_page_config` (`lean_config.py`) | `Blocks.get_config_file` (the config built once per launch, deep-copied per visit); `BlockFunction.get_config`'s keys; `component_class_id` in `config_for_block`; the page route's per-visit `layout` passed through `route_utils.update_root_in_config`; what the 6.31 bundle reads of them (`lean_config.FRONTEND_RELIES_ON`) | the config without Gradio's own components' class ids, the event keys the frontend never reads or reads as absent, and the top-level `layout` the page does not read (figures in docs/benchmarks.md, issue 41) | not filed yet (a config that leaves out defaults the frontend knows) | `test_lean_config.py` |
| `indexed_page_tree` (`page_bundle.py`) | `gradio.routes.file_response(developer_path, user_path)`, called by the `/assets/{path}` route with `BUILD_PATH_LIB`; the 6.31 frontend's `AppTree.find_attached_events`, `DependencyManager.set_event_args`, `update_loading_stati_state` and the two re-runs of a deferred event as written (`page_bundle.REWRITES`, each found exactly once) | the page's tree built without two per-node searches over the whole page: usable 3.08 → 1.67 s in Chromium (`bench.startup --before a6d1829`; CDP profile: 1.2 s in `find_attached_events`, 0.5 s in the lookups of `set_event_args`; docs/benchmarks.md, issue 41); a streaming Batch run and the filled sample no longer hold the renderer at a whole core (`bench.batch_page_cpu`) | not filed yet (index the attached events; skip the lookup for events without arguments; hand on changed statuses only; run a deferred event, not its trigger) | `test_page_bundle.py` |
| `tracked_states` (`state_tracking.py`) | `Blocks.get_state_ids_to_track(self, block_fn, state)` as 6.31 writes it (a stateful output is tracked when `(id, "change")` is among the targets of any of `state.blocks_config.fns`); `BlocksConfig.fns`; `utils.deep_hash` | run before every event and every streamed update, it read all 375 events' targets per stateful output: 6% of the server's CPU in a burst of 100 chat sessions (py-spy); now one set per session's list of events (docs/benchmarks.md, issue 41) | not filed yet (index the change-triggered states once) | `test_state_tracking.py` |
| `keep_thinking_open` (`thinking.py`, a page script, not in `PATCHES`) | the chatbot's thought component in the page bundle: `.thought-group > [role=button]` with class `expanded` while open; closes itself when `metadata.status` is "done" unless its title was clicked (`thinking.FRONTEND_RELIES_ON`) | presentation mode: Thinking stays open after the answer ends (the script clicks each title once or twice; off this version it does nothing) | not filed yet (a `gr.ChatMessage` option to keep a finished thought open) | `test_thinking_open.py`, `tests/e2e/test_presentation_browser.py` |
| `keep_typed_on_reveal` (`revealed.py`, a page script, not in `PATCHES`) | the page's core bundle: `AppTree` exported, its `render_previously_invisible_children` (called through the tree on `gradio_expand`/`gradio_tab_select`) pushing every prop of each revealed node a frame after the components mount, `get_state` (`revealed.FRONTEND_RELIES_ON`) | a value typed into a box of a closed accordion or an unvisited tab before the frame after it appeared was replaced by the value it was built with (issue 40: Chat's "Max tokens" 1.5 read back 0 in a loaded run); while a reveal runs, each input reads the revealed components' live state back into their nodes, so the push carries it | not filed yet (docs/gradio-compat.md) | `test_revealed_inputs.py`, `tests/e2e/test_revealed_inputs_browser.py` |
| `first_paint_locale` (`first_paint.py`, a script in the page's HTML, not in `PATCHES`) | `gradio.routes.templates.TemplateResponse` renders `frontend/index.html`, whose app is a deferred module script; the core bundle's `setupi18n` picks the first locale from `navigator.language` among Gradio's own `lang/*.json` only (`first_paint.FRONTEND_RELIES_ON`) | a `zh-SG`, `zh-Hans` or `zh` browser was painted in English for about a second before the page's load script applied Chinese; the page now starts in the app's choice (link, cookie, browser) when Gradio would fall back to English | not filed yet (let `setupi18n` count the app's `gr.I18n` locales, or take the locale from the server) | `test_first_paint.py`, `tests/e2e/test_first_paint_language_browser.py` |
| `progress_targets` (`page.py`, per page) | `Blocks.fns`; `BlockFunction.show_progress_on/show_progress/queue/outputs` | the browser after 20 turns and a video job: 1.36 → 1.01 of a fresh tab (`bench.browser_trace`) | not filed yet | `test_progress_targets.py` |

Used on every version (the app needs them; not patches of behaviour):

| use | Gradio internals it relies on | why | upstream issue | test (T) |
|---|---|---|---|---|
| `keep_api_private` (`page.py`) | `Blocks.fns`; `BlockFunction.api_visibility` | the app has no API of its own; fails closed when the attribute is gone | not filed yet (a Blocks-wide default for `api_visibility`) | `tests/ui/test_hosted_ui.py` |
| `current_request` (`context.py`) | `gradio.context.LocalContext.request` | session quotas, the visitor's language, the price table, without a `gr.Request` parameter in every handler | none needed (`gr.Request` parameter is the public way) | `test_internals.py` |
| `current_blocks` (`context.py`) | `gradio.context.Context.root_block` | the Batch tab adds page-load events while it is built | none needed | `test_internals.py` |
| `I18nText`, `translation_key` (`context.py`) | `gradio.i18n.I18nData` and its `.key` | the type of `gr.I18n(...)(key)` | not filed yet (export the type) | `test_internals.py` |
| `drawn_as_gradios_own` (`page.py`) | `Block.get_block_name` honours `is_template` | component subclasses (the chatbot, the checked image input) drawn as Gradio's own; a subclass survives a session's copy of the component | not filed yet (a public way to subclass a component) | `tests/security/test_crash_inputs.py` |
| `forget_closed_sessions` (`forget.py`; only with the patches on: off, Gradio's own hour) | `App.state_holder` (`StateHolder.session_data`, `time_last_used` (set at each event), `lock`, `delete_state`); the page's client never reopens a broken heartbeat (`heartbeat_event` stays set), so recent events keep a session; `App.get_blocks()._queue` (`pending_event_ids_session`, `event_ids_to_events`, `pending_messages_per_session`); `Blocks.pending_streams`, `pending_diff_streams` | a closed page's session state (about 137 KB a visitor after the page's load events and one message; RSS: a second wave of 400 visitors left 9 KB a visitor, 56 KB without) released minutes after its heartbeat closed instead of never (`bench.closed_visitors`) | not filed yet (a closed session's `SessionState` is never removed) | `tests/ui/web/test_session_release.py` |

Replaced by public settings or the app's own code: `one_page_config` no longer re-implements
`App.setup_mcp_server`'s reading of `GRADIO_MCP_SERVER`: the app launches with the public
`launch(mcp_server=False)` and the patch acts only on that; the image input's `preprocess`,
replaced on one instance (lost on a session's copy after a `gr.update`), is a subclass's method.
Kept, with no public alternative in Gradio 6.31: the `gradio.blocks.anyio` view (`inline_processing`:
no setting keeps a component's processing out of the thread pool; the events' public
`preprocess=False`/`postprocess=False` would hand every handler raw payloads) and the rest above.
`whole_updates` fixes what the page shows, but the app no longer needs it: without it a send keeps
Gradio's own closing message (`conversation_panel`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio
from gradio import networking, processing_utils
from gradio import utils as gradio_utils
from gradio.blocks import Blocks, BlocksConfig
from gradio.components.upload_button import UploadButton
from gradio.routes import App
from gradio.server_messages import ProcessGeneratingMessage
from gradio.state_holder import SessionState

from playground.gradio_compat import build_cost, chatbot, display_updates, first_paint, forget, launch, lean_config, page_bundle, page_config, sessions, state_tracking, updates
from playground.gradio_compat.revealed import KEEP_TYPED_JS
from playground.gradio_compat.thinking import keep_thinking_open_js
from playground.gradio_compat.context import I18nText, current_blocks, current_request, translation_key
from playground.gradio_compat.internals import moved
from playground.gradio_compat.marks import patch_of
from playground.gradio_compat.page import drawn_as_gradios_own, keep_api_private
from playground.gradio_compat.page import narrow_progress_targets as _narrow_progress_targets

__all__ = ["PATCHES", "SUPPORTED_VERSIONS", "I18nText", "active", "applied", "apply", "current_blocks", "current_request",
           "drawn_as_gradios_own", "first_paint_in_language", "forget_closed_session", "keep_api_private", "keep_thinking_open_js", "keep_typed_on_reveal", "moved", "narrow_progress_targets", "translation_key"]

SUPPORTED_VERSIONS = ("6.31.0",)
"""The Gradio versions the patches were written for (and their internals recorded from)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Patch:
    name: str
    install: Callable[[], None]
    installed: Callable[[], Any] | None = None
    """What carries the patch's mark once installed (None: nothing to mark)."""


PATCHES: tuple[Patch, ...] = (
    Patch("session_ids", sessions.keep_session_component_ids, lambda: SessionState.__setitem__),
    Patch("lazy_session_configs", sessions.lazy_session_configs, lambda: SessionState.__init__),
    Patch("skipped_outputs", updates.skipped_outputs_cost_nothing, lambda: Blocks.postprocess_data),
    Patch("display_updates", display_updates.display_updates_build_nothing, lambda: display_updates.shown_update),
    Patch("inline_processing", updates.process_data_inline, lambda: gradio.blocks.anyio),
    Patch("output_messages", updates.output_messages_without_copies, lambda: ProcessGeneratingMessage.model_dump),
    Patch("whole_updates", updates.updates_sent_whole, lambda: gradio_utils.diff),
    Patch("no_matplotlib", updates.fail_fast_without_matplotlib),
    Patch("chatbot_memo", chatbot.remember_messages, lambda: processing_utils.async_move_files_to_cache),
    Patch("patient_launch", launch.patient_launch_check, lambda: networking.url_ok),
    Patch("signatures_once", build_cost.remember_signatures, lambda: gradio.blocks.inspect),
    Patch("one_page_config", build_cost.one_page_config_per_build, lambda: App.setup_mcp_server),
    Patch("upload_button_schema", build_cost.remember_upload_button_schemas, lambda: UploadButton.api_info),
    Patch("apps_on_first_use", build_cost.apps_built_when_used, lambda: App.create_app),
    Patch("page_without_api", page_config.page_configs_without_api, lambda: BlocksConfig.get_config),
    Patch("lean_page_config", lean_config.lean_page_configs, lambda: Blocks.get_config_file),
    Patch("indexed_page_tree", page_bundle.index_page_tree, lambda: gradio.routes.file_response),
    Patch("tracked_states", state_tracking.track_states_from_a_set, lambda: Blocks.get_state_ids_to_track),
)

_state = {"active": False, "refusal_logged": False}


def apply() -> bool:
    """Install every patch (idempotent) when the installed Gradio is one they were written for;
    otherwise install none and say so once. True when the patches are on."""
    version = gradio.__version__
    if version not in SUPPORTED_VERSIONS:
        if not _state["refusal_logged"]:
            log.warning("Gradio %s is not a version these patches were written for (%s): running without them; slower but correct",
                        version, ", ".join(SUPPORTED_VERSIONS))
            _state["refusal_logged"] = True
        return False
    for patch in PATCHES:
        patch.install()
    _state["active"] = True
    return True


def active() -> bool:
    """Whether `apply()` installed the patches in this process."""
    return _state["active"]


def applied(name: str) -> bool:
    """Whether the patch `name` is installed (its target carries its mark)."""
    patch = next(patch for patch in PATCHES if patch.name == name)
    if patch.installed is None:
        return active()
    return patch_of(patch.installed()) == name


def narrow_progress_targets(blocks: gradio.Blocks) -> None:
    """`page.narrow_progress_targets` (the patch `progress_targets`), when the patches are on."""
    if active():
        _narrow_progress_targets(blocks)


def keep_typed_on_reveal(blocks: gradio.Blocks) -> None:
    """`revealed.KEEP_TYPED_JS` as a page-load script of `blocks` (call inside its `with`), when
    the patches are on: what a person types into a box that has just appeared stays typed."""
    if active():
        blocks.load(None, js=KEEP_TYPED_JS)


def first_paint_in_language(choose_js: str) -> None:
    """`first_paint.install`: the page served with a script that starts Gradio's page in the locale `choose_js`
    (`() => code`) names when Gradio would paint the browser's language in English, when the patches are on."""
    if active():
        first_paint.install(choose_js)


def forget_closed_session(app: Any, session: str, idle_s: float = 0.0) -> bool:
    """`forget.forget_session` (Gradio's `App`, a session hash whose page has closed, kept while it
    ran an event in the last `idle_s` seconds), when the patches are on; off, nothing is dropped
    (Gradio's own deletion, an hour later, of `gr.State` values only). True when the session is gone."""
    return active() and forget.forget_session(app, session, idle_s)
