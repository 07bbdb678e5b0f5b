"""Fixes to Gradio 6.31's per-session and per-update cost, applied once when the app is built
(`apply_gradio_fixes`, which also applies `gradio_build_cost`'s); each is measured in
docs/benchmarks.md and tested in tests/ui/test_session_growth.py and test_skipped_outputs.py.

Ids: Gradio answers `gr.update(...)` (and `gr.skip()`) by building a new component for the session
and storing it under the original component's key, but the new component keeps its own fresh
`_id`. The next event that reads or writes that component looks it up by the fresh id, finds
nothing, and registers it again under that id with a full copy of its config and value
(`Blocks.preprocess_data` / `postprocess_data`). A chat input whose placeholder changes on every
send thus added one entry per turn; the inspector's code views, one each holding the whole
conversation's request. Giving the session's copy the key it is stored under ends that growth.

Skips: Gradio answers each `gr.skip()` in an event's outputs by constructing a new component for
the session, on every streamed update; an output that is skipped now costs nothing.

Threads: Gradio runs every input's `preprocess` and every output's `postprocess` in a worker thread,
per event and per streamed update; for components that only reshape data, they now run inline.

Messages: the queue's event stream copies every output message with pydantic's `model_dump`
before writing it as JSON; a message carrying values is now written without the copy.

Updates in a stream: the page applies a streamed update's diffs to the very objects it handed on
with the previous update; a diff between two `gr.update(...)` values deleted keys in place, so
when updates arrived faster than the page used them, a later one emptied an earlier one before it
was shown (an error banner vanished when the last update was followed at once by one of skips).
Such a value is now sent whole when it changes.
"""

from __future__ import annotations

import copy
import datetime
import importlib.util
import sys
import time
import types
from collections.abc import Callable
from typing import Any

import anyio
import gradio as gr
from gradio import blocks as gradio_blocks
from gradio import networking
from gradio import utils as gradio_utils
from gradio.blocks import Block, BlockFunction, Blocks
from gradio.server_messages import ProcessCompletedMessage, ProcessGeneratingMessage
from gradio.state_holder import SessionState

from playground.ui.chatbot import pass_text_through
from playground.ui.gradio_build_cost import apply_build_cost_fixes

_PATCHED = "_playground_keeps_ids"


def keep_session_component_ids() -> None:
    """Make `SessionState` give a component stored under key K the id K, and keep no config copy
    of it (idempotent).

    Gradio 6.31 also rebuilds a full config of a component (props, value and three pydantic JSON
    schemas) into `SessionState.config_values` every time an event updates it or gives it a value.
    Those copies serve only `/gradio_api/deep_link`, which the app does not offer (no
    `DeepLinkButton`): building them was 21% of the server's CPU with 50 chat sessions (py-spy),
    and they held a copy of every value a session was sent (its whole chat history)."""
    if getattr(SessionState, _PATCHED, False):
        return

    def __setitem__(self: SessionState, key: int, value: Any) -> None:
        original = self.blocks_config.blocks.get(key)
        if isinstance(original, gr.State):
            self._state_ttl[key] = (original.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
            return
        if isinstance(value, Block) and original is not None and value._id != key:
            value._id = key
        self.blocks_config.blocks[key] = value

    def no_config_copy(self: SessionState, key: int, *_: Any) -> None:
        return None

    SessionState.__setitem__ = __setitem__  # type: ignore[method-assign]
    SessionState._update_config = no_config_copy  # type: ignore[method-assign]
    SessionState._update_value_in_config = no_config_copy  # type: ignore[method-assign]
    setattr(SessionState, _PATCHED, True)


def fail_fast_without_matplotlib() -> None:
    """Gradio imports matplotlib around every event and streamed update (`MatplotlibBackendMananger`);
    when it is not installed each failed import searches `sys.path` again (~0.2 ms a pair).
    Recording the absence once makes those imports fail at once, as they would anyway."""
    if "matplotlib" not in sys.modules and importlib.util.find_spec("matplotlib") is None:
        sys.modules["matplotlib"] = None  # type: ignore[assignment]


class _WithoutBlocks:
    """What `SessionState.__init__` reads of a `Blocks`, with no blocks to copy configs of."""

    def __init__(self, blocks: gr.Blocks) -> None:
        self.default_config = blocks.default_config
        self.blocks: dict[int, Block] = {}


def lazy_session_configs() -> None:
    """A new session starts with no copies of component configs (idempotent).

    Gradio 6.31 copies the config of every component into each new session (`config_values`):
    for this page's 700-odd components about 1.3 MB and a third of a second of CPU per visitor.
    Those copies serve only deep links, which the app does not offer; a session now holds the
    configs of the components its events touched (`_update_value_in_config` adds one on first
    use), so a deep link would still carry every value a visitor changed."""
    if getattr(SessionState.__init__, _PATCHED, False):
        return
    init = SessionState.__init__

    def __init__(self: SessionState, blocks: gr.Blocks) -> None:
        init(self, _WithoutBlocks(blocks))

    setattr(__init__, _PATCHED, True)
    SessionState.__init__ = __init__  # type: ignore[method-assign]


SKIP = gr.skip()


def is_skip(value: Any) -> bool:
    return isinstance(value, dict) and value == SKIP


def skipped_outputs_cost_nothing() -> None:
    """`Blocks.postprocess_data` processes only the outputs an event did not skip, and answers a
    skip as Gradio's frontend reads it, `{"__type__": "update"}` (idempotent).

    Gradio 6.31 builds a new component (constructor, props, state entry) for every skipped output
    of every update: with eight outputs skipped, a streamed update cost four times the CPU of the
    chatbot alone (`bench.skipped_outputs`). The session keeps the component it had, which is what
    a skip means."""
    postprocess = Blocks.postprocess_data
    if getattr(postprocess, _PATCHED, False):
        return

    async def postprocess_data(self: Blocks, block_fn: BlockFunction, predictions: Any, state: Any) -> Any:
        outputs = block_fn.outputs
        if (block_fn.batch or block_fn.is_validator_function or len(outputs) < 2 or not isinstance(predictions, (list, tuple))
                or len(predictions) != len(outputs)):
            return await postprocess(self, block_fn, predictions, state)
        kept = [index for index, value in enumerate(predictions) if not is_skip(value)]
        if len(kept) == len(outputs):
            return await postprocess(self, block_fn, predictions, state)
        answered: list[Any] = [dict(SKIP) for _ in outputs]
        if kept:
            some = copy.copy(block_fn)
            some.outputs = [outputs[index] for index in kept]
            values = [predictions[index] for index in kept]
            done = await postprocess(self, some, values[0] if len(kept) == 1 else values, state)
            for index, value in zip(kept, done, strict=True):
                answered[index] = value
        return answered

    setattr(postprocess_data, _PATCHED, True)
    Blocks.postprocess_data = postprocess_data  # type: ignore[method-assign]


DATA_ONLY_COMPONENTS = (gr.Textbox, gr.Number, gr.Slider, gr.Checkbox, gr.CheckboxGroup, gr.Dropdown, gr.Radio, gr.Markdown,
                        gr.HTML, gr.Code, gr.JSON, gr.Chatbot, gr.MultimodalTextbox, gr.Button, gr.Label)
"""Components whose `preprocess`/`postprocess` reshape values in pure Python: no file, image or
table work that would be worth a thread (Image, Gallery, File, Video, Audio, Dataframe keep it)."""


def runs_inline(func: Callable[..., Any]) -> bool:
    return getattr(func, "__name__", "") in ("preprocess", "postprocess") and isinstance(getattr(func, "__self__", None),
                                                                                         DATA_ONLY_COMPONENTS)


async def run_sync(func: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """`anyio.to_thread.run_sync` as `gradio.blocks` calls it, inline for a data-only component's processing."""
    if runs_inline(func):
        return func(*args)
    return await anyio.to_thread.run_sync(func, *args, **options)


def process_data_inline() -> None:
    """A data-only component's pre/postprocess runs on the event loop instead of a worker thread
    (idempotent).

    Gradio 6.31 hands each input's `preprocess` and each output's `postprocess` to a worker thread,
    per event and per streamed update: a send's thirteen form inputs made thirteen thread round
    trips (queue, wake-up, GIL hand-over, loop wake-up), each costing more than the work it carried,
    which holds the GIL either way. The user's own sync handlers still run in threads."""
    if getattr(gradio_blocks.anyio, _PATCHED, False):
        return
    view = types.ModuleType("anyio")
    view.__dict__.update({"__getattr__": lambda name: getattr(anyio, name), _PATCHED: True,
                          "to_thread": types.SimpleNamespace(run_sync=run_sync)})
    gradio_blocks.anyio = view  # type: ignore[attr-defined]


def output_messages_without_copies() -> None:
    """An output message's `model_dump()` gives its fields as they are, without a deep copy of the
    values it carries (idempotent); with arguments it is pydantic's own.

    Gradio 6.31's event stream calls `model_dump()` on each message and writes the result with
    orjson: the copy walked every value of the output (the first update of a send carries the
    whole chat), 22% of the server's time per turn at 800 messages (py-spy), for JSON that orjson
    writes the same from the values themselves (outputs are already plain data: Gradio dumps its
    models in `postprocess_data`)."""
    for message in (ProcessGeneratingMessage, ProcessCompletedMessage):
        dump = message.model_dump
        if getattr(dump, _PATCHED, False):
            continue

        def model_dump(self: Any, *args: Any, _dump: Callable[..., Any] = dump, **options: Any) -> dict[str, Any]:
            if args or options:
                return _dump(self, *args, **options)
            return {name: getattr(self, name) for name in type(self).model_fields}

        setattr(model_dump, _PATCHED, True)
        message.model_dump = model_dump  # type: ignore[method-assign]


def updates_sent_whole() -> None:
    """A streamed output whose value is or was an update is sent as a whole new value when it
    changes (`[["replace", [], new]]`), never as edits of the previous one (idempotent); every
    other value keeps Gradio's diff. The page replaces such a value instead of editing, in place,
    the object an update it has not used yet still holds."""
    diff = gradio_utils.diff
    if getattr(diff, _PATCHED, False):
        return

    def whole_updates(old: Any, new: Any) -> list[Any]:
        if gradio_utils.is_prop_update(old) or gradio_utils.is_prop_update(new):
            return [] if old == new else [["replace", [], new]]
        return diff(old, new)

    setattr(whole_updates, _PATCHED, True)
    gradio_utils.diff = whole_updates  # type: ignore[assignment]


LAUNCH_CHECK_SECONDS = 30.0


def patient_launch_check() -> None:
    """Gradio's `launch` checks that the page answers with HEAD requests of 3 s each, and gives up at
    the first timeout: on a loaded machine (a busy Space restarting, a test run beside other work)
    building the page took longer and launch raised "localhost is not accessible". The same check
    is repeated for up to `LAUNCH_CHECK_SECONDS` before it says so. Idempotent."""
    check = networking.url_ok
    if getattr(check, "_playground_patient", False):
        return

    def url_ok(url: str) -> bool:
        deadline = time.monotonic() + LAUNCH_CHECK_SECONDS
        while not check(url):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)
        return True

    url_ok._playground_patient = True  # type: ignore[attr-defined]
    networking.url_ok = url_ok  # type: ignore[assignment]


def apply_gradio_fixes() -> None:
    keep_session_component_ids()
    lazy_session_configs()
    skipped_outputs_cost_nothing()
    process_data_inline()
    output_messages_without_copies()
    updates_sent_whole()
    fail_fast_without_matplotlib()
    pass_text_through()
    patient_launch_check()
    apply_build_cost_fixes()
