"""A closed page's session, forgotten (`forget_session`, the use `forget_closed_sessions`).

Gradio 6.31 keeps a `SessionState` for every session hash that ever ran an event, in
`App.state_holder.session_data` (an `OrderedDict`, evicted only past `state_session_capacity`), with
its `time_last_used`. When the page's heartbeat closes it marks the session `is_closed`; an hour
later its background loop (`delete_all_expired_state`) drops the `gr.State` values, never the
`SessionState` itself (the session's copies of the components its events updated, its block and
function tables). The queue also keeps, per session, the ids of events whose completion the page
never read (`pending_event_ids_session`) and a message queue (`pending_messages_per_session`, an
LRU of 2,000) that may hold those events' last outputs. Measured with the page's load events and
one message: about 137 KB a visitor, none of it returned (docs/benchmarks.md, issue 41).

`forget_session` drops all of that at once, running each `gr.State`'s `delete_callback` as Gradio's
own deletion does, unless an event of the session is still queued or running
(`Queue.event_ids_to_events`: a job outlives its page only as long as it runs) or the session ran an
event recently (`StateHolder.time_last_used`): Gradio 6.31's page never reopens a heartbeat that
broke (a network blip; its client keeps `heartbeat_event` set), so a page still in use is known by
its events. Which sessions are closed, and for how long, is the caller's
(`ui/web/session_release.py`, from the heartbeats).
"""

from __future__ import annotations

import datetime
from typing import Any


def _live_events(queue: Any, session: str) -> bool:
    ids = queue.pending_event_ids_session.get(session) or ()
    return any(event_id in queue.event_ids_to_events for event_id in ids)


def forget_session(app: Any, session: str, idle_s: float = 0.0) -> bool:
    """Drop what Gradio keeps for `session` in `app` (Gradio's `App`): its state (through the
    `gr.State` delete callbacks), its queue records. False, keeping everything, while one of its
    events is queued or running, or when it ran an event less than `idle_s` seconds ago."""
    blocks = app.get_blocks()
    queue = blocks._queue
    holder = app.state_holder
    used = holder.time_last_used.get(session)
    if used is not None and (datetime.datetime.now() - used).total_seconds() < idle_s:
        return False
    if _live_events(queue, session):
        return False
    holder.delete_state(session)
    with holder.lock:
        holder.session_data.pop(session, None)
        holder.time_last_used.pop(session, None)
    queue.pending_event_ids_session.pop(session, None)
    queue.pending_messages_per_session.pop(session, None)
    blocks.pending_streams.pop(session, None)
    blocks.pending_diff_streams.pop(session, None)
    return True


def holds_session(app: Any, session: str) -> bool:
    """Whether Gradio keeps a session state for `session` (for tests and benchmarks)."""
    return session in app.state_holder.session_data
