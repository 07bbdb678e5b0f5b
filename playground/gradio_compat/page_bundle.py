"""The page's bundle served with two per-node searches of Gradio 6.31's frontend answered from an
index, and its loading-status pass limited to what changed (patch `indexed_page_tree`, issue 41): the
same page, built in about half the time, and idle while a Batch run streams its progress.

Profiled in Chromium (a CDP CPU profile of the page's load, `bench.startup`'s app at 1366x850),
two passes over the page's ~1,550 components made 1.7 of the 3.2 s to a usable page:

- `AppTree.find_attached_events`, run for every node as the tree is built, filters every event
  of the page for one naming the node among its targets (1,550 nodes x 375 events, each read
  through Svelte's state proxy): 1.2 s.
- `DependencyManager.reload` calls `set_event_args` for every target of every event; each call
  first looks its component up by a depth-first search from the tree's root (`get_state`), then
  does nothing when the event has no event arguments, as no event of this app has: 0.5 s.

A third pass ran on every status message of every event (its dispatch, queue estimate, start, each
streamed update, completion): `DependencyManager.update_loading_stati_state` hands *every* entry of
the page's loading-status store to `update_state`, which finds the component by a depth-first search
of the tree. The store only grows (each completed event's inputs join it), so once Batch's Run (its
whole form, at tree places 1,100-1,250) had completed, each status message walked about 60,000 nodes:
a Batch run's progress, streamed every 0.4 s, held the renderer at about half a core (`bench.batch_page_cpu`),
and a starved browser missed clicks for tens of seconds. The rewrite hands on only the entries whose status
differs from the one it last handed on (compared as JSON); a status written to a component by any
other call of the same callback (a validation error, the end of an event) forgets what was handed
on for that component, so the next pass writes the store's status again, as Gradio's does.

A deferred event ran again for ever. An event whose trigger mode is `always_last` (every `change`
listener's) that is triggered while it runs is deferred, and run again once it completes; Gradio runs
it again by dispatching the *trigger* again, which runs every listener of that trigger, not only the
deferred one. With two or more listeners on one trigger (Batch's and Compare's column pickers have
three: the preset's name, the slots on screen, the columns-used line), each one's completion reran
the others while they ran, which deferred them again: after Batch's sample filled its columns, the
page sent about five requests a second and used a whole core until it was closed. The two places
that run a deferred event again now dispatch that event's own function, with the same trigger and
event data, as Gradio dispatches a chained function.

The rewrites keep what each function answers: the events attached to a node are, in the page's
event order, the first event name each event gives for that node (its `targets` searched in order,
an empty name dropped), now read from a map built once per list of events (rebuilt when another
list, or the same list grown, is passed); and `set_event_args` with an empty set of arguments
returns its do-nothing undo without the lookup, whose answer it never used.

Each rewrite names the exact text it replaces. At install the frontend's files are searched for it:
a text found in no file, or in more than one place, leaves the bundle as Gradio ships it (and
`moved_in_frontend` names it; `tests/gradio_compat/test_page_bundle.py` checks the installed
Gradio has each exactly once, and runs both versions of each function over the app's own events in
Chromium). Only the files a rewrite changes are served from memory; every other asset is Gradio's
file as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio
import gradio.routes
from starlette.responses import Response

from playground.gradio_compat.marks import mark, patch_of

ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
PATCH = "indexed_page_tree"


@dataclass(frozen=True)
class Rewrite:
    name: str
    old: str
    new: str


RUN_ONLY_THIS = "{type:`fn`,fn_index:r.id,event_data:e.event_data??null,target_id:e.target_id??null}"
"""The deferred event's own function, with the trigger and its data, as the dispatch of one function is written."""

REWRITES = (
    Rewrite(
        "find_attached_events",
        "find_attached_events(e,t){let n=t.filter(t=>t.targets.find(([t])=>t===e.id)).map(t=>{let n=t.targets.find(([t])=>t===e.id);"
        "return n?n[1]:null}).filter(Boolean);return e.props.shared_props.attached_events=n,e}",
        "find_attached_events(e,t){let c=globalThis.__playgroundAttachedEvents||(globalThis.__playgroundAttachedEvents=new WeakMap),"
        "x=c.get(t);if(!x||x.counted!==t.length){x=new Map;x.counted=t.length;for(let d of t){let s=new Set;"
        "for(let[i,v]of d.targets){if(s.has(i))continue;s.add(i);if(v){let l=x.get(i);l?l.push(v):x.set(i,[v])}}}c.set(t,x)}"
        "return e.props.shared_props.attached_events=(x.get(e.id)||[]).slice(),e}",
    ),
    Rewrite(
        "set_event_args",
        "async set_event_args(e,t){let n={},r=await this.get_state_cb?.(e);",
        "async set_event_args(e,t){if(t&&Object.keys(t).length===0)return()=>{};let n={},r=await this.get_state_cb?.(e);",
    ),
    Rewrite(
        "update_loading_stati_state",
        "async update_loading_stati_state(){await Promise.all(Object.entries(this.loading_stati.current).map(([e,t])=>"
        "this.update_state_cb(Number(e),{loading_status:t},!1)))}",
        "async update_loading_stati_state(){let c=this.__playgroundPushed;if(!c||c.cb!==this.update_state_cb){let r=this.update_state_cb,"
        "m=new Map;c=this.__playgroundPushed={raw:r,m,cb:(i,s,f)=>(s&&typeof s===`object`&&`loading_status`in s&&m.delete(Number(i)),"
        "r(i,s,f))};this.update_state_cb=c.cb}await Promise.all(Object.entries(this.loading_stati.current).map(([e,t])=>{let i=Number(e),"
        "k=JSON.stringify(t);if(c.m.get(i)===k)return;c.m.set(i,k);return c.raw(i,{loading_status:t},!1)}))}",
    ),
    *(Rewrite(
        f"deferred_run_{where}",
        f"this.clear_submission(r.id,t.data),this.queue.has(r.id)&&(this.queue.delete(r.id),this.dispatch(e)){end}",
        f"this.clear_submission(r.id,t.data),this.queue.has(r.id)&&(this.queue.delete(r.id),this.dispatch({RUN_ONLY_THIS})){end}",
    ) for where, end in (("at_completion", ";return}"), ("after_the_stream", "}}catch{"))),
)
"""Each rewrite's text in Gradio 6.31's minified frontend, and what stands in its place."""

_served: dict[str, bytes] = {}


def places(old: str) -> list[tuple[str, int]]:
    """The frontend files holding `old`, with how many times each does."""
    found = []
    for script in sorted(ASSETS.glob("*.js")):
        count = script.read_text(encoding="utf-8", errors="replace").count(old)
        if count:
            found.append((script.name, count))
    return found


def moved_in_frontend() -> list[str]:
    """The rewrites whose text the installed frontend does not hold exactly once."""
    return [rewrite.name for rewrite in REWRITES if [count for _, count in places(rewrite.old)] != [1]]


def rewritten_files() -> dict[str, bytes]:
    """The frontend files the rewrites change, by name, with the rewrites made."""
    texts: dict[str, str] = {}
    for rewrite in REWRITES:
        found = places(rewrite.old)
        if [count for _, count in found] != [1]:
            continue
        name = found[0][0]
        text = texts.get(name) or (ASSETS / name).read_text(encoding="utf-8")
        texts[name] = text.replace(rewrite.old, rewrite.new)
    return {name: text.encode("utf-8") for name, text in texts.items()}


def served(body: bytes) -> Response:
    return Response(body, media_type="application/javascript", headers={"ETag": f'"{hashlib.sha256(body).hexdigest()[:32]}"'})


def _serving_rewritten(original: Callable[..., Any]) -> Callable[..., Any]:
    def file_response(developer_path: Any, user_path: Any) -> Any:
        body = _served.get(str(user_path)) if Path(str(developer_path)) == ASSETS else None
        return served(body) if body is not None else original(developer_path, user_path)

    return mark(file_response, PATCH, original)


def serve_files(files: dict[str, bytes]) -> None:
    """Serve these files (by name) in place of Gradio's, and no other (`bench.batch_page_cpu` serves none for its baseline)."""
    _served.clear()
    _served.update(files)


def index_page_tree() -> None:
    """Serve the rewritten files in place of Gradio's (idempotent)."""
    serve_files(rewritten_files())
    if patch_of(gradio.routes.file_response) != PATCH:
        gradio.routes.file_response = _serving_rewritten(gradio.routes.file_response)
