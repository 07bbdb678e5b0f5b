"""`tracked_states` (`gradio_compat/state_tracking.py`): the states an event's run tracks for a change are the
ones Gradio's own `get_state_ids_to_track` finds, for every event of this app and of a page built to hold
the edge cases, and the set follows a session's list of events when it grows."""

from __future__ import annotations

import gradio as gr
from gradio.blocks import Blocks, BlockFunction
from gradio.state_holder import SessionState

from playground import gradio_compat
from playground.gradio_compat import state_tracking
from playground.gradio_compat.marks import patch_of, unpatched
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults


def tracked_both_ways(blocks: Blocks, state: SessionState) -> list[tuple[object, object]]:
    gradios = unpatched(Blocks.get_state_ids_to_track)
    return [(gradios(blocks, fn, state), state_tracking.get_state_ids_to_track(blocks, fn, state)) for fn in blocks.fns.values()]


def edge_page() -> tuple[Blocks, BlockFunction]:
    """States watched by `change` and by another event, a state nobody watches, a textbox watched by `change`
    (not stateful), and an event writing all of them."""
    with gr.Blocks() as blocks:
        watched, clicked, unwatched = gr.State(["a"]), gr.State({"b": 1}), gr.State(3)
        box, button = gr.Textbox(), gr.Button()
        watched.change(lambda value: value, watched, box)
        box.change(lambda value: value, box, box)
        button.click(lambda: None, None, clicked)
        button.click(lambda: (["c"], {"d": 2}, 4, "e"), None, [watched, clicked, unwatched, box])
    return blocks, next(fn for fn in blocks.fns.values() if len(fn.outputs) == 4)


def test_the_patch_is_installed_with_the_others() -> None:
    assert gradio_compat.apply()
    assert patch_of(Blocks.get_state_ids_to_track) == state_tracking.PATCH


def test_every_event_of_this_app_tracks_what_gradio_tracks() -> None:
    """(No event of this app is triggered by a state's change, so Gradio tracks nothing here: the scan was pure cost.)"""
    blocks = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))
    pairs = tracked_both_ways(blocks, SessionState(blocks))
    assert [theirs for theirs, _ in pairs] == [ours for _, ours in pairs]


def test_only_states_watched_for_a_change_are_tracked_with_their_values_hashed() -> None:
    blocks, writer = edge_page()
    state = SessionState(blocks)
    assert tracked_both_ways(blocks, state) == [(theirs, theirs) for theirs, _ in tracked_both_ways(blocks, state)]
    ids, hashes = state_tracking.get_state_ids_to_track(blocks, writer, state)
    watched = writer.outputs[0]
    assert ids == [watched._id] and len(hashes) == 1
    assert state_tracking.get_state_ids_to_track(blocks, writer, None) == ([], [])


def test_the_set_follows_a_list_of_events_that_grows_and_a_target_counts_only_as_a_tuple() -> None:
    blocks, writer = edge_page()
    config = SessionState(blocks).blocks_config
    clicked = writer.outputs[1]
    assert clicked._id not in state_tracking.watched_for_change(config)
    listener = next(fn for fn in config.fns.values() if fn.outputs == [clicked])
    config.fns[max(config.fns) + 1] = BlockFunction(None, [], [], False, True, False, [[clicked._id, "change"]], max(config.fns) + 1)  # type: ignore[list-item]  # a list, as a stranger's code might write it
    assert clicked._id not in state_tracking.watched_for_change(config), "a list target is not Gradio's tuple"
    config.fns[max(config.fns) + 1] = BlockFunction(None, [], [], False, True, False, [(clicked._id, "change")], max(config.fns) + 1)
    assert clicked._id in state_tracking.watched_for_change(config), "the grown list is read again"
    assert listener.targets != [(clicked._id, "change")]
