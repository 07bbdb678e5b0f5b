"""What Gradio 6.31 repeats while it builds the page and answers events (patches
`signatures_once`, `one_page_config`, `upload_button_schema`, `apps_on_first_use`; issue 25's
start-up goal, measured by `bench.startup`).

Signatures: Gradio reads `inspect.signature(cls.__init__)` for every component config it builds
(`Block.get_config`, `recover_kwargs`, and per `gr.update` an event returns), and
`inspect.getfullargspec(__init__)` for every component it constructs (`updateable`), also for
each update inside an event. With this page's 700-odd components that was 10,000 signature
computations at start-up, a fifth of the build's CPU. A function's signature does not change, so
those two modules now read it once per function.

Page configs: `Blocks.__exit__`, `queue()` and `launch()` each build the page config, and each
then calls `App.create_app`, whose `setup_mcp_server` builds it again "because the config should
include the fact that the MCP server is enabled", also when it is not: six builds of 1,456
component configs (with pydantic JSON schemas) where the page is served with the last. When its
caller says there is no MCP server (`mcp_server=False`: `__exit__` and `queue()` always, `launch`
because the app passes the public `launch(mcp_server=False)`), the config just built is kept and
only the two fields that can have changed since are set; any other call is Gradio's own.

Upload buttons: `UploadButton.api_info` generates a pydantic JSON schema on each of its three
calls per config build (other components keep theirs); it is now generated once per kind.

Apps: `Blocks.__exit__` and `queue()` each build a FastAPI app (83 routes, their dependency
analysis: about 0.15 s each) that `launch()` replaces with its own before anything is served.
They are now built when something first reads them, which a launched page never does.
"""

from __future__ import annotations

import copy
import functools
import inspect
import types
from collections.abc import Callable
from typing import Any

from gradio import blocks as gradio_blocks
from gradio import component_meta
from gradio.components.upload_button import UploadButton
from gradio.routes import API_PREFIX, App

from playground.gradio_compat.marks import mark, patch_of

REMEMBERED_FUNCTIONS = 4096


class RememberingInspect(types.ModuleType):
    """`inspect` whose `signature` and `getfullargspec` are computed once per function; every other
    name is the real module's."""

    def __init__(self) -> None:
        super().__init__("inspect")
        self.signature = _remembered(inspect.signature)
        self.getfullargspec = _remembered(inspect.getfullargspec)

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)


def _remembered(read: Callable[..., Any]) -> Callable[..., Any]:
    cached = functools.lru_cache(maxsize=REMEMBERED_FUNCTIONS)(read)

    def remembered(target: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(target, types.FunctionType):  # plain functions only: a callable object may change
            return cached(target, *args, **kwargs)
        return read(target, *args, **kwargs)

    return remembered


def remember_signatures() -> None:
    """Give Gradio's block and component modules the remembering `inspect` (idempotent)."""
    for module in (gradio_blocks, component_meta):
        if patch_of(module.inspect) is None:
            module.inspect = mark(RememberingInspect(), "signatures_once", module.inspect)  # type: ignore[attr-defined]  # the patch itself


def one_page_config_per_build() -> None:
    """With MCP off (`mcp_server=False`), `create_app` keeps the page config its caller has just
    built (idempotent)."""
    setup = App.setup_mcp_server
    if patch_of(setup) is not None:
        return

    def setup_mcp_server(blocks: Any, app_kwargs: dict[str, Any], mcp_server: bool | None = None) -> str:
        config = getattr(blocks, "config", None)
        if mcp_server is not False or not config:
            return setup(blocks, app_kwargs, mcp_server)
        config["mcp_server"] = blocks.mcp_server
        i18n = getattr(blocks, "i18n_instance", None)  # `launch` sets it after building the config
        config["i18n_translations"] = getattr(i18n, "translations_dict", None) if i18n is not None else None
        return API_PREFIX + "/mcp"

    App.setup_mcp_server = staticmethod(mark(setup_mcp_server, "one_page_config", setup))  # type: ignore[method-assign]  # the patch itself


def remember_upload_button_schemas() -> None:
    """`UploadButton.api_info` answers a copy of the schema it gave first for its kind (idempotent)."""
    api_info = UploadButton.api_info
    if patch_of(api_info) is not None:
        return
    schemas: dict[bool, dict[str, Any]] = {}

    def remembered(self: UploadButton) -> dict[str, Any]:
        single = self.file_count == "single"
        if single not in schemas:
            schemas[single] = api_info(self)
        return copy.deepcopy(schemas[single])

    UploadButton.api_info = mark(remembered, "upload_button_schema", api_info)  # type: ignore[method-assign]  # the patch itself


class AppOnFirstUse:
    """What `Blocks.__exit__` and `queue()` keep as `blocks.app`: the app they would have built,
    built when something first reads it (`launch` builds and keeps its own)."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build: Callable[[], Any] | None = build
        self._app: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._app is None:
            assert self._build is not None
            self._app, self._build = self._build(), None
        return getattr(self._app, name)


def apps_built_when_used() -> None:
    """`App.create_app` called as `Blocks.__exit__` and `queue()` call it (the blocks and
    `mcp_server=False`, nothing else) answers an `AppOnFirstUse` (idempotent)."""
    create = App.create_app
    if patch_of(create) is not None:
        return

    def create_app(blocks: Any, *args: Any, **options: Any) -> Any:
        if args or options != {"mcp_server": False}:
            return create(blocks, *args, **options)
        return AppOnFirstUse(lambda: create(blocks, mcp_server=False))

    App.create_app = staticmethod(mark(create_app, "apps_on_first_use", create))  # type: ignore[method-assign]  # the patch itself
