"""The page config without what Gradio 6.31's frontend does not read or reads as absent (patch
`lean_page_config`; issue 41's first page).

The config the page inlines (and `/config` serves) is built once per launch by
`Blocks.get_config_file` and deep-copied on every request; this patch leaves out, at that build:

- `component_class_id` (a 64-character hash) of every component drawn by one of Gradio's own
  (`drawn_by_gradio`): the frontend loads a component by `class id || type` from its bundled table, looked up by the id
  and then by the type (`me` in its core bundle), so the id matters only for a custom component's
  files (`/custom_component/{id}/...`), which none of Gradio's own types need; a node's id falls
  back to its type (`component_class_id: i.component_class_id || i.type`).
- the event keys the frontend never reads from a dependency (`NEVER_READ`: the server reads them
  from its `BlockFunction`s, not from the config), and those holding the value the frontend treats
  as absent (`AS_ABSENT`: `js` unless a string, `trigger_after` null, the trigger flags false,
  `connection` "sse" (only "stream" is tested for), `trigger_mode` "multiple" (absent runs the
  event again), empty `component_prop_inputs`, and so on); `types` for a private event (only the
  API page's endpoint list reads it, and lists no private event).
- the top-level `layout`: the page reads `page[current_page].layout` (the client's
  `get_page_config`), never the top-level copy; the page route adds one back for each visit, so it
  is dropped there too (`route_utils.update_root_in_config`, called on that per-visit config).

Kept although often at Gradio's default: `queue`, `show_progress`, `show_progress_on` (an empty
list is not absent to the frontend), `backend_fn`, `cancels` and `api_visibility` (the Python client
reads the last two by key), `api_name`, and each component's `skip_api` and `key` (the Python client
defaults a missing `skip_api` by type). `FRONTEND_RELIES_ON` holds the bundle's pieces this relies
on; `tests/gradio_compat/test_lean_config.py` checks them against the installed bundle.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import gradio
from gradio import route_utils
from gradio.blocks import Blocks

from playground.gradio_compat.marks import mark, patch_of

NEVER_READ = ("api_description", "scroll_to_output", "batch", "max_batch_size", "collects_event_data", "stream_every")
"""Event keys no script of the 6.31 bundle reads from a dependency."""

AS_ABSENT: dict[str, tuple[Any, ...]] = {
    "js": (None, False, True),
    "js_implementation": (None,),
    "trigger_after": (None,),
    "trigger_only_on_success": (False,),
    "trigger_only_on_failure": (False,),
    "trigger_mode": ("multiple",),
    "rendered_in": (None,),
    "render_id": (None,),
    "connection": ("sse",),
    "time_limit": (None,),
    "component_prop_inputs": ([],),
    "event_specific_args": (None, []),
}
"""Event keys left out when they hold a value the frontend reads as it reads the key absent."""

PRIVATE_ONLY = ("types",)
"""Event keys only the API page reads, left out of private events."""

FRONTEND_RELIES_ON: dict[str, tuple[str, ...]] = {
    "core": (
        "let a={...V,...i||{}},o=n||t;",  # a component is loaded by id, else by type, from the bundled table
        "if(!a?.[o]?.[r]&&!a?.[t]?.[r])throw Error();",
        "component_class_id:i.component_class_id||i.type",
    ),
    "Blocks": (
        # the dependency class reads exactly these keys
        "constructor(e){this.id=e.id,this.api_name=e.api_name,this.inputs=e.inputs,this.outputs=e.outputs,"
        "this.connection_type=e.connection,this.show_progress=e.show_progress,this.functions={frontend:typeof e.js==`string`?",
        "backend_js:e.js_implementation?",
        "this.targets=e.targets,this.cancels=e.cancels,this.trigger_modes=e.trigger_mode,"
        "this.show_progress_on=e.show_progress_on||null,this.component_prop_inputs=e.component_prop_inputs||[];"
        "for(let t=0;t<e.event_specific_args?.length;t++)",
        "if(t.set(i.id,e),i.trigger_after!==void 0){let e=i.trigger_only_on_failure?`failure`:i.trigger_only_on_success?`success`:`all`;",
        "function Ze(e,t){return t?e===`always_last`?`defer`:e===`multiple`?`run`:e===`once`?`skip`:`run`:`run`}",
    ),
    "index": (
        "layout:t.page[e].layout,",  # the page's layout is the page entry's
        "t.dependencies.find(e=>e.id==c),u=c===-1?{generator:!1,cancel:!1}:l?.types;",  # types: the API page's endpoints only
        "w.connection!==`stream`",
        "r.trigger_after!=null",
        "e.rendered_in!==t",
    ),
}
"""Pieces of the 6.31 bundle (by the start of the script's name) that read what this patch leaves out."""

ASSETS = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"


def drawn_by_gradio(block: Any) -> bool:
    """Whether `block` is drawn by one of Gradio's own components (in the page's bundle): its class,
    or for a template (`is_template`, drawn as its base) its base class, is defined in Gradio."""
    drawn = type(block).__base__ if hasattr(block, "is_template") else type(block)
    return drawn is not None and drawn.__module__.split(".")[0] == "gradio"


def lean_dependency(dependency: dict[str, Any]) -> None:
    """Leave out of one event's config what the frontend does not read or reads as absent."""
    for key in NEVER_READ:
        dependency.pop(key, None)
    for key, absent in AS_ABSENT.items():
        if key in dependency and any(dependency[key] == value and type(dependency[key]) is type(value) for value in absent):
            del dependency[key]
    if dependency.get("api_visibility") == "private":
        for key in PRIVATE_ONLY:
            dependency.pop(key, None)


def lean_config(config: dict[str, Any], blocks: dict[int, Any]) -> dict[str, Any]:
    """`config` (a whole page's, from `Blocks.get_config_file`; `blocks` its blocks by id) without
    what the frontend does not need, changed in place."""
    for component in config.get("components", []):
        if drawn_by_gradio(blocks.get(component.get("id"))):
            component.pop("component_class_id", None)
    for dependency in config.get("dependencies", []):
        lean_dependency(dependency)
    if config.get("page"):
        config.pop("layout", None)
    return config


def without_top_layout(config: dict[str, Any]) -> dict[str, Any]:
    """A visit's config without the top-level `layout` when its page entry holds the layout."""
    page = config.get("page", {}).get(config.get("current_page", ""))
    if isinstance(page, dict) and "layout" in page:
        config.pop("layout", None)
    return config


def lean_page_configs() -> None:
    """Install the patch (idempotent): `Blocks.get_config_file` answers the lean config, and the
    page route's per-visit config has no top-level `layout`."""
    get_config_file = Blocks.get_config_file
    if patch_of(get_config_file) is None:

        @functools.wraps(get_config_file)
        def lean_config_file(self: Blocks) -> Any:
            return lean_config(get_config_file(self), self.blocks)

        Blocks.get_config_file = mark(lean_config_file, "lean_page_config", get_config_file)  # type: ignore[method-assign]  # the patch itself
    update_root = route_utils.update_root_in_config
    if patch_of(update_root) is None:

        @functools.wraps(update_root)
        def update_root_in_config(config: Any, root: str) -> Any:
            return update_root(without_top_layout(config), root)

        route_utils.update_root_in_config = mark(update_root_in_config, "lean_page_config", update_root)  # type: ignore[assignment]  # the patch itself


def frontend_moved() -> list[str]:
    """The pieces of `FRONTEND_RELIES_ON` the installed bundle no longer holds."""
    missing = []
    for start, pieces in FRONTEND_RELIES_ON.items():
        texts = [script.read_text(encoding="utf-8", errors="replace") for script in ASSETS.glob(f"{start}-*.js")]
        missing += [f"{start}: {piece}" for piece in pieces if not any(piece in text for text in texts)]
    return missing
