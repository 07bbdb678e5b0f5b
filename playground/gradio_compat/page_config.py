"""A page config without the API's schemas when the page has no API (patch `page_without_api`;
issue 41's first page).

Gradio 6.31 writes four API descriptions into every component's entry of the page config
(`api_info`, `api_info_as_input`, `api_info_as_output`, `example_inputs`: pydantic JSON schemas
and sample values), for each of the page's 1,548 components at every build. Only
`Blocks.get_api_info` reads them (the "Use via API" page, `/info`, the Python client's view of an
endpoint), and it reads them only for events that are not private. The app keeps every event
private (`page.keep_api_private`), so they were two fifths of the components' bytes that every
visitor downloads and the page parses, and schema generation at every build. When every event of
the page is private, the config is built without them; any other page is built as Gradio builds
it. The frontend of 6.31 reads none of these keys (its bundle does not name them).
"""

from __future__ import annotations

import contextvars
import functools
from typing import Any

from gradio import utils as gradio_utils
from gradio.blocks import BlocksConfig

from playground.gradio_compat.marks import mark, patch_of

API_KEYS = ("api_info", "api_info_as_input", "api_info_as_output", "example_inputs")
"""What Gradio adds to a component's config entry for its API alone."""

_without_api: contextvars.ContextVar[bool] = contextvars.ContextVar("page_without_api", default=False)


def has_no_api(config: Any) -> bool:
    """Whether every event of the page is private (nothing can read the API's schemas)."""
    return all(getattr(function, "api_visibility", None) == "private" for function in config.fns.values())


def component_entry(_id: int, block: Any) -> dict[str, Any]:
    """A component's entry as `BlocksConfig.config_for_block` writes it for the whole page
    (not a `gr.render` part), without `API_KEYS`."""
    props = block.get_config() if hasattr(block, "get_config") else {}
    gradio_utils.delete_none(props)
    entry = {"id": _id, "type": block.get_block_name(), "props": props, "skip_api": block.skip_api,
             "component_class_id": getattr(block, "component_class_id", None), "key": block.unique_key()}
    if block.rendered_in is not None:
        entry["rendered_in"] = block.rendered_in._id
    return entry


def page_configs_without_api() -> None:
    """Install the patch (idempotent): `BlocksConfig.get_config` of a whole page whose events are
    all private builds component entries without `API_KEYS`."""
    get_config = BlocksConfig.get_config
    if patch_of(get_config) is not None:
        return
    config_for_block = BlocksConfig.config_for_block

    @functools.wraps(get_config)
    def page_config(self: Any, renderable: Any = None) -> Any:
        if renderable is not None or not has_no_api(self):
            return get_config(self, renderable)
        token = _without_api.set(True)
        try:
            return get_config(self, renderable)
        finally:
            _without_api.reset(token)

    @functools.wraps(config_for_block)
    def entry(_id: int, rendered_ids: list[int], block: Any, renderable: Any = None) -> dict[str, Any]:
        if renderable is not None or not _without_api.get():
            return config_for_block(_id, rendered_ids, block, renderable)
        return component_entry(_id, block)

    BlocksConfig.config_for_block = staticmethod(mark(entry, "page_without_api", config_for_block))  # type: ignore[method-assign]  # the patch itself
    BlocksConfig.get_config = mark(page_config, "page_without_api", get_config)  # type: ignore[method-assign]  # the patch itself
