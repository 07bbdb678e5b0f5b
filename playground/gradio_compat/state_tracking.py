"""Which of an event's outputs are states some event watches for a change, found in a set instead of by
reading every event of the page (patch `tracked_states`, issue 41).

Before each run of an event, and again for every update a streaming event yields, Gradio 6.31's
`Blocks.get_state_ids_to_track` asks, for each stateful output, whether any event of the page is
triggered by that state's `change`: it reads the targets of all of the page's events (375 here) for
each such output. py-spy over a burst of 100 chat sessions put 6% of the server's CPU in that
question. The answer depends only on the page's events, so it is now read from the set of
components some event watches for a `change`, built once per session's list of events (and again
when that list grows, as a render adds events). A target counts exactly as Gradio counts it: a
`(component id, "change")` tuple. The values of the outputs it finds are hashed as before.
"""

from __future__ import annotations

from typing import Any

from gradio import utils as gradio_utils
from gradio.blocks import BlockFunction, Blocks, BlocksConfig

from playground.gradio_compat.marks import mark, patch_of

PATCH = "tracked_states"
WATCHED = "_playground_watched_changes"
"""Where a `BlocksConfig` keeps the set, beside the list of events it was built from and its length."""


def watched_for_change(config: BlocksConfig) -> frozenset[Any]:
    """The ids of the components some event of `config` is triggered by when they change."""
    fns = config.fns
    kept = vars(config).get(WATCHED)
    if kept is None or kept[0] is not fns or kept[1] != len(fns):
        ids = frozenset(target[0] for fn in fns.values() for target in fn.targets if target == (target[0], "change"))
        kept = (fns, len(fns), ids)
        setattr(config, WATCHED, kept)
    return kept[2]


def get_state_ids_to_track(self: Blocks, block_fn: BlockFunction, state: Any) -> tuple[list[int], list[Any]]:
    if state is None:
        return [], []
    watched = watched_for_change(state.blocks_config)
    state_ids_to_track = []
    hashed_values = []
    for block in block_fn.outputs:
        if block.stateful and block._id in watched:
            state_ids_to_track.append(block._id)
            hashed_values.append(gradio_utils.deep_hash(state[block._id]))
    return state_ids_to_track, hashed_values


def track_states_from_a_set() -> None:
    """`Blocks.get_state_ids_to_track` answered from `watched_for_change` (idempotent)."""
    if patch_of(Blocks.get_state_ids_to_track) != PATCH:
        Blocks.get_state_ids_to_track = mark(get_state_ids_to_track, PATCH, Blocks.get_state_ids_to_track)  # type: ignore[method-assign]  # the patch itself
