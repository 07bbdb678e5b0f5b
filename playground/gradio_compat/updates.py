"""What Gradio 6.31 repeats per event and per streamed update (patches `skipped_outputs`,
`inline_processing`, `output_messages`, `whole_updates`, `no_matplotlib`; measured in
docs/benchmarks.md, issue 25).

Skips: Gradio answers each `gr.skip()` in an event's outputs by constructing a new component for
the session, on every streamed update; an output that is skipped now costs nothing.

Threads: Gradio runs every input's `preprocess` and every output's `postprocess` in a worker thread,
per event and per streamed update; for components that only reshape data, they now run inline.

Messages: the queue's event stream copies every output message with pydantic's `model_dump`
before writing it as JSON; a message carrying values is now written without the copy.

Updates in a stream: the page applies a streamed update's diffs to the very objects it handed on
with the previous update; a diff between two `gr.update(...)` values deleted keys in place, so
when updates arrived faster than the page used them, a later one emptied an earlier one before it
was shown. Such a value is now sent whole when it changes. (Without this patch the app does not
end a send with an update of skips, `conversation_panel`, which is what exposed it.)
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import inspect
import sys
import types
from collections.abc import Callable
from typing import Any

import anyio
import gradio as gr
from gradio import blocks as gradio_blocks
from gradio import utils as gradio_utils
from gradio.blocks import BlockFunction, Blocks
from gradio.server_messages import ProcessCompletedMessage, ProcessGeneratingMessage

from playground.gradio_compat import display_updates
from playground.gradio_compat.marks import mark, patch_of

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
    if patch_of(postprocess) is not None:
        return

    async def postprocess_data(self: Blocks, block_fn: BlockFunction, predictions: Any, state: Any) -> Any:
        outputs = block_fn.outputs
        if block_fn.batch or block_fn.is_validator_function or not outputs:
            return await postprocess(self, block_fn, predictions, state)
        if len(outputs) == 1:  # one output: the value is not in a list (and is seldom a display update)
            if display_updates.shown_update is None or not display_updates.display_only(outputs[0], predictions):
                return await postprocess(self, block_fn, predictions, state)
            return [await display_updates.shown_update(block_fn, outputs[0], predictions, state)]
        if not isinstance(predictions, (list, tuple)) or len(predictions) != len(outputs):
            return await postprocess(self, block_fn, predictions, state)
        answered: list[Any] = [dict(SKIP) for _ in outputs]
        if display_updates.shown_update is not None:  # `display_updates`: no component built for them either
            for index, (block, value) in enumerate(zip(outputs, predictions)):
                if display_updates.display_only(block, value):
                    answered[index] = await display_updates.shown_update(block_fn, block, value, state)
                    predictions = [*predictions[:index], SKIP, *predictions[index + 1:]]
        kept = [index for index, value in enumerate(predictions) if not is_skip(value)]
        if len(kept) == len(outputs):
            return await postprocess(self, block_fn, predictions, state)
        if kept:
            some = copy.copy(block_fn)
            some.outputs = [outputs[index] for index in kept]
            values = [predictions[index] for index in kept]
            done = await postprocess(self, some, values[0] if len(kept) == 1 else values, state)
            for index, value in zip(kept, done, strict=True):
                answered[index] = value
        return answered

    Blocks.postprocess_data = mark(postprocess_data, "skipped_outputs", postprocess)  # type: ignore[method-assign]  # the patch itself


DATA_ONLY_COMPONENTS = (gr.Textbox, gr.Number, gr.Slider, gr.Checkbox, gr.CheckboxGroup, gr.Dropdown, gr.Radio, gr.Markdown,
                        gr.HTML, gr.Code, gr.JSON, gr.Chatbot, gr.MultimodalTextbox, gr.Button, gr.Label, gr.BrowserState)
"""Components whose `preprocess`/`postprocess` reshape values in pure Python: no file, image or
table work that would be worth a thread (Image, Gallery, File, Video, Audio, Dataframe keep it)."""
SMALL_TABLE_ROWS = 50
"""A table read from the page with at most this many rows is turned into a DataFrame inline: each send
of a text tab reads its variables table (a row per `{{placeholder}}`), and the thread round trip cost
more than the table; a data set's table keeps its thread."""


def only_starts_a_generator(func: Callable[..., Any]) -> bool:
    """Whether calling `func` (an event's handler, perhaps with keywords bound) runs none of its body:
    an async generator function's call only makes the generator, which the loop then iterates."""
    while isinstance(func, functools.partial):
        func = func.func
    return inspect.isasyncgenfunction(func)


def runs_inline(func: Callable[..., Any], *args: Any) -> bool:
    if only_starts_a_generator(func):
        return True
    if getattr(func, "__name__", "") not in ("preprocess", "postprocess"):
        return False
    component = getattr(func, "__self__", None)
    if isinstance(component, DATA_ONLY_COMPONENTS):
        return True
    return (isinstance(component, gr.Dataframe) and func.__name__ == "preprocess" and bool(args)
            and len(getattr(args[0], "data", None) or ()) <= SMALL_TABLE_ROWS)


async def run_sync(func: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """`anyio.to_thread.run_sync` as `gradio.blocks` calls it, inline for a data-only component's processing
    and for the call that only makes a streaming handler's generator."""
    if runs_inline(func, *args):
        return func(*args)
    return await anyio.to_thread.run_sync(func, *args, **options)


def process_data_inline() -> None:
    """A data-only component's pre/postprocess runs on the event loop instead of a worker thread
    (idempotent).

    Gradio 6.31 hands each input's `preprocess` and each output's `postprocess` to a worker thread,
    per event and per streamed update: a send's thirteen form inputs made thirteen thread round
    trips (queue, wake-up, GIL hand-over, loop wake-up), each costing more than the work it carried,
    which holds the GIL either way. Gradio also calls a streaming (async generator) handler in a
    thread, although the call only makes the generator: each chat send made that round trip too. The
    user's own sync handlers still run in threads. Gradio has no
    setting for this: `gradio.blocks` is given a view of `anyio` whose `to_thread.run_sync` is
    `run_sync` above."""
    if patch_of(gradio_blocks.anyio) is not None:
        return
    view = types.ModuleType("anyio")
    view.__dict__.update({"__getattr__": lambda name: getattr(anyio, name), "to_thread": types.SimpleNamespace(run_sync=run_sync)})
    gradio_blocks.anyio = mark(view, "inline_processing", gradio_blocks.anyio)  # type: ignore[attr-defined]  # the patch itself


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
        if patch_of(dump) is not None:
            continue

        def model_dump(self: Any, *args: Any, _dump: Callable[..., Any] = dump, **options: Any) -> dict[str, Any]:
            if args or options:
                return _dump(self, *args, **options)
            return {name: getattr(self, name) for name in type(self).model_fields}

        message.model_dump = mark(model_dump, "output_messages", dump)  # type: ignore[method-assign]  # the patch itself


def updates_sent_whole() -> None:
    """A streamed output whose value is or was an update is sent as a whole new value when it
    changes (`[["replace", [], new]]`), never as edits of the previous one (idempotent); every
    other value keeps Gradio's diff. The page replaces such a value instead of editing, in place,
    the object an update it has not used yet still holds."""
    diff = gradio_utils.diff
    if patch_of(diff) is not None:
        return

    def whole_updates(old: Any, new: Any) -> list[Any]:
        if gradio_utils.is_prop_update(old) or gradio_utils.is_prop_update(new):
            return [] if old == new else [["replace", [], new]]
        return diff(old, new)

    gradio_utils.diff = mark(whole_updates, "whole_updates", diff)  # type: ignore[assignment]  # the patch itself


def fail_fast_without_matplotlib() -> None:
    """Gradio imports matplotlib around every event and streamed update (`MatplotlibBackendMananger`);
    when it is not installed each failed import searches `sys.path` again (~0.2 ms a pair).
    Recording the absence once makes those imports fail at once, as they would anyway (idempotent)."""
    if "matplotlib" not in sys.modules and importlib.util.find_spec("matplotlib") is None:
        sys.modules["matplotlib"] = None  # type: ignore[assignment]  # None in sys.modules: "known to be absent"
