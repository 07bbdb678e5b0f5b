"""A streaming event's updates as Gradio's page applies them: the first update of each output is
taken whole, each later one's diffs are applied in place to the object the page handed on with the
previous update (Gradio's page client, 6.31), and the closing message's values are taken whole.
`shown` folds what was handed on at the end, the worst case where the page used none of the updates
before the next arrived: an update emptied in place by a later diff then shows nothing."""

from __future__ import annotations

import copy
from typing import Any

import httpx

from bench.app_queue import event_outputs, join_queue


def apply_in_place(pending: list, diffs: list) -> list:
    """Gradio's page client (6.31, `Tt`/`Dt`): each output's edits are applied in place to the
    object it handed on with the previous update; an edit of the whole value replaces it."""
    delivered = []
    for index, edits in enumerate(diffs):
        value = pending[index]
        for action, path, new in edits:
            if not path:
                value = new if action == "replace" else value + new
                continue
            parent = value
            for key in path[:-1]:
                parent = parent[key]
            if action in ("replace", "add") and not isinstance(parent, list):
                parent[path[-1]] = new
            elif action == "add":
                parent.insert(path[-1], new)
            elif action == "append":
                parent[path[-1]] += new
            elif action == "delete":
                del parent[path[-1]]
        pending[index] = value
        delivered.append(value)
    return delivered


async def handed_on(http: httpx.AsyncClient, url: str, fn_index: int, data: list[Any], session_hash: str) -> list[list[Any]]:
    """Run one queued event as the page does; per output, every object the page handed on, in order."""
    event_id = await join_queue(http, url, fn_index, data, session_hash)
    pending: list[Any] | None = None
    outputs: list[list[Any]] = []
    async for kind, data_out in event_outputs(http, url, event_id, session_hash):
        if pending is None or kind == "process_completed":
            pending = copy.deepcopy(data_out)
            delivered = list(pending)
        else:
            delivered = apply_in_place(pending, data_out)
        outputs = outputs or [[] for _ in delivered]
        for index, value in enumerate(delivered):
            outputs[index].append(value)
    return outputs


def shown(values: list[Any]) -> dict[str, Any]:
    """An output's props (its value under "value") after the page used every object handed on."""
    props: dict[str, Any] = {}
    for value in values:
        if isinstance(value, dict) and value.get("__type__") == "update":
            props.update({key: item for key, item in value.items() if key != "__type__"})
        else:
            props["value"] = value
    return props
