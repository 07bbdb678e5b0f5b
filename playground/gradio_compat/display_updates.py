"""Updates that change only what a component shows (patch `display_updates`; measured in
docs/benchmarks.md, issue 41).

Gradio 6.31 answers every `gr.update(...)` by constructing a new component for the session
(`block.__class__(**kwargs)` in `Blocks.postprocess_data`: the whole constructor, a fresh id, a
random share token), on every event and streamed update. A send updates the message box (its
value and placeholder), the two banners (value and visibility) and the tool panel (visibility)
twice each: with 50 sessions at once, the constructors of `MultimodalTextbox` and `Markdown` took
about 8% of the server's CPU. An update of only the value and the props in `DISPLAY_PROPS` now
gives the session a copy of its component with those attributes set (none for a value alone),
and answers the page exactly as Gradio's rebuilt component would.

It runs inside `skipped_outputs`' `Blocks.postprocess_data` (`updates.py`), which hands it such
outputs while `display_updates` is installed (`shown_update` carries the mark).
"""

from __future__ import annotations

import copy
import functools
import inspect
from typing import Any

from gradio import blocks as gradio_blocks
from gradio import processing_utils
from gradio import utils as gradio_utils
from gradio.blocks import Block, BlockFunction

from playground.gradio_compat.marks import mark

DISPLAY_PROPS = frozenset({"visible", "placeholder"})
"""Props every component's constructor stores as the attribute of that name, unchanged
(`tests/gradio_compat/test_display_updates.py` checks each component the app updates)."""


@functools.cache
def _constructor_params(kind: type) -> frozenset[str]:
    return frozenset(inspect.signature(kind.__init__).parameters)


def display_only(block: Block, value: Any) -> bool:
    """Whether `value` is an update of `block`'s value and display props alone, each one its
    constructor takes (anything else goes to Gradio, which builds the component anew)."""
    if block.stateful or not gradio_utils.is_prop_update(value):
        return False
    props = [key for key in value if key not in ("__type__", "value")]
    if not props and "value" not in value:  # a skip: `skipped_outputs` answers it
        return False
    return all(key in DISPLAY_PROPS and key in _constructor_params(type(block)) for key in props)


async def _shown_update(block_fn: BlockFunction, block: Block, update: dict[str, Any], state: Any) -> Any:
    """What Gradio answers for `update` of `block` (`display_only`), and the session's copy of the
    component with its display props set; no constructor runs."""
    update = gradio_utils.delete_none(dict(update), skip_value=True)  # as Gradio does: a None prop is "unchanged"
    props = {key: value for key, value in update.items() if key not in ("__type__", "value")}
    base = state.get(block._id, block) if state is not None else block
    shown = base
    if props:
        shown = copy.copy(base)
        shown._constructor_args = [{**base.constructor_args, **props}]  # what Gradio's next rebuild starts from
        for key, value in props.items():
            setattr(shown, key, value)
        if state is not None:
            state[block._id] = shown
            state._update_config(block._id)
    answered = gradio_blocks.postprocess_update_dict(block=shown, update_dict=update, postprocess=block_fn.postprocess)
    if state is not None and "value" in answered:
        state._update_value_in_config(block._id, answered["value"])
    return await processing_utils.async_move_files_to_cache(answered, shown, postprocess=True)


shown_update: Any = None
"""`_shown_update` once `display_updates` is installed (marked), else None: Gradio's own path."""


def display_updates_build_nothing() -> None:
    """Install `display_updates` (idempotent): `skipped_outputs`' `postprocess_data` answers a
    display-only update without constructing a component."""
    global shown_update
    if shown_update is None:
        shown_update = mark(_shown_update, "display_updates")
