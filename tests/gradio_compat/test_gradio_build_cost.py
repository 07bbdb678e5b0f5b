"""Gradio builds the page config once per step and reads each function's signature once
(issue 25's start-up goal), and the page it serves is the same as before."""

from __future__ import annotations

import gradio as gr
import httpx
from gradio import blocks as gradio_blocks
from gradio import component_meta
from gradio.blocks import Blocks
from gradio.components.upload_button import UploadButton
from gradio.data_classes import FileData

from playground.demo_gateway.server import free_port
from playground.gradio_compat import build_cost
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from playground.ui.i18n import I18N


def test_the_app_builds_its_page_config_once_when_built_and_once_when_launched(monkeypatch) -> None:
    built: list[int] = []
    get_config_file = Blocks.get_config_file

    def counted(self: Blocks) -> dict:
        config = get_config_file(self)
        if config["components"]:
            built.append(len(config["components"]))
        return config

    monkeypatch.setattr(Blocks, "get_config_file", counted)
    settings = Settings()
    blocks = configure_queue(build_app(settings, ServerDefaults("http://127.0.0.1:9", "k", demo=True)))
    assert len(built) == 1, f"building and queueing the page built its config {len(built)} times"
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    try:
        assert len(built) == 2, f"launching built the page config {len(built) - 1} times"
        served = httpx.get(f"http://127.0.0.1:{port}/config", timeout=30).json()
    finally:
        blocks.close()
    assert len(served["components"]) == built[-1]
    assert served["mcp_server"] is False
    assert served["i18n_translations"] == I18N.translations_dict, "the served page lost its Chinese"


def test_a_function_signature_is_read_once_and_read_right() -> None:
    build_cost.remember_signatures()
    for module in (gradio_blocks, component_meta):
        assert module.inspect.signature(gr.Textbox.__init__) is module.inspect.signature(gr.Textbox.__init__)
        assert module.inspect.getfullargspec(gr.Slider.__init__) is module.inspect.getfullargspec(gr.Slider.__init__)
    assert gradio_blocks.inspect.signature(gr.Textbox.__init__) == __import__("inspect").signature(gr.Textbox.__init__)

    class Changing:
        def __call__(self, a: int) -> None: ...

    callable_object = Changing()
    assert list(gradio_blocks.inspect.signature(callable_object).parameters) == ["a"]
    Changing.__call__ = lambda self, b, c: None  # type: ignore[method-assign]
    assert list(gradio_blocks.inspect.signature(callable_object).parameters) == ["b", "c"], "a callable object was remembered"
    assert gradio_blocks.inspect.isfunction is __import__("inspect").isfunction


def test_an_upload_button_schema_is_generated_once_and_each_caller_gets_its_own(monkeypatch) -> None:
    build_cost.remember_upload_button_schemas()
    generated: list[int] = []
    schema = FileData.model_json_schema
    monkeypatch.setattr(FileData, "model_json_schema", classmethod(lambda cls, *a, **k: generated.append(1) or schema(*a, **k)))
    with gr.Blocks():
        button = UploadButton()
    first = button.api_info()
    first["title"] = "changed by a caller"
    assert [button.api_info()["title"] for _ in range(3)] == ["FileData"] * 3
    assert len(generated) <= 1


def test_the_apps_built_before_launch_are_built_only_when_used() -> None:
    """`Blocks.__exit__` and `queue()` each built a FastAPI app that `launch()` replaced unused; the
    launched page is served by launch's own app, and an app read before launch still works."""
    from gradio.routes import App

    from playground.gradio_compat.build_cost import AppOnFirstUse

    settings = Settings()
    blocks = configure_queue(build_app(settings, ServerDefaults("http://127.0.0.1:9", "k", demo=True)))
    assert isinstance(blocks.app, AppOnFirstUse) and blocks.app._app is None, "an app was built before launch"
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    try:
        assert isinstance(blocks.app, App), "launch did not build its own app"
        assert httpx.get(f"http://127.0.0.1:{port}/config", timeout=30).status_code == 200
    finally:
        blocks.close()
    with gr.Blocks() as unlaunched:
        gr.Textbox()
    assert unlaunched.app.get_blocks() is unlaunched, "an app read before launch is not the blocks' app"
