"""Per-session state Gradio 6.31 keeps: session ids kept, no config copies (patches `session_ids`
and `lazy_session_configs`; measured in docs/benchmarks.md, issue 25).

Ids: Gradio answers `gr.update(...)` (and `gr.skip()`) by building a new component for the session
and storing it under the original component's key, but the new component keeps its own fresh
`_id`. The next event that reads or writes that component looks it up by the fresh id, finds
nothing, and registers it again under that id with a full copy of its config and value
(`Blocks.preprocess_data` / `postprocess_data`). A chat input whose placeholder changes on every
send thus added one entry per turn; the inspector's code views, one each holding the whole
conversation's request. Giving the session's copy the key it is stored under ends that growth.
"""

from __future__ import annotations

import datetime
from typing import Any

import gradio as gr
from gradio.blocks import Block
from gradio.state_holder import SessionState

from playground.gradio_compat.marks import mark, patch_of


def keep_session_component_ids() -> None:
    """Make `SessionState` give a component stored under key K the id K, and keep no config copy
    of it (idempotent).

    Gradio 6.31 also rebuilds a full config of a component (props, value and three pydantic JSON
    schemas) into `SessionState.config_values` every time an event updates it or gives it a value.
    Those copies serve only `/gradio_api/deep_link`, which the app does not offer (no
    `DeepLinkButton`): building them was 21% of the server's CPU with 50 chat sessions (py-spy),
    and they held a copy of every value a session was sent (its whole chat history)."""
    if patch_of(SessionState.__setitem__) is not None:
        return
    original_setitem = SessionState.__setitem__

    def __setitem__(self: SessionState, key: int, value: Any) -> None:
        original = self.blocks_config.blocks.get(key)
        if isinstance(original, gr.State):
            self._state_ttl[key] = (original.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
            return
        if isinstance(value, Block) and original is not None and value._id != key:
            value._id = key
        self.blocks_config.blocks[key] = value

    def no_config_copy(self: SessionState, key: int) -> None:
        return None

    def no_value_copy(self: SessionState, key: int, value: Any) -> None:
        return None

    SessionState._update_config = mark(no_config_copy, "session_ids", SessionState._update_config)  # type: ignore[method-assign]  # the patch itself
    SessionState._update_value_in_config = mark(no_value_copy, "session_ids",  # type: ignore[method-assign]  # the patch itself
                                                SessionState._update_value_in_config)
    SessionState.__setitem__ = mark(__setitem__, "session_ids", original_setitem)  # type: ignore[method-assign]  # the patch itself


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
    init = SessionState.__init__
    if patch_of(init) is not None:
        return

    def __init__(self: SessionState, blocks: gr.Blocks) -> None:
        init(self, _WithoutBlocks(blocks))  # type: ignore[arg-type]  # reads only default_config and blocks

    SessionState.__init__ = mark(__init__, "lazy_session_configs", init)  # type: ignore[method-assign]  # the patch itself
