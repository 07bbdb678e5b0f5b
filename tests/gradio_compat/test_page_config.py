"""A page whose events are all private is configured without the API's schemas (patch
`page_without_api`, issue 41): the same config otherwise, and a page with an API keeps them."""

from __future__ import annotations

import copy

import gradio as gr
import httpx
from gradio.blocks import BlocksConfig

from playground import gradio_compat
from playground.demo_gateway.server import free_port
from playground.gradio_compat.marks import unpatched
from playground.gradio_compat.page import keep_api_private
from playground.gradio_compat.page_config import API_KEYS
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults


def assorted_page() -> gr.Blocks:
    with gr.Blocks() as blocks:
        with gr.Tabs(), gr.Tab("one"):
            text = gr.Textbox(label="Text", value="hello")
            chat = gr.Chatbot(value=[{"role": "user", "content": "hi"}])
            files = gr.File(file_count="multiple")
            upload = gr.UploadButton("Upload")
            pick = gr.Dropdown(["a", "b"], value="a", allow_custom_value=True)
            state = gr.State({"kept": 1})
        with gr.Tab("two"):
            slider = gr.Slider(0, 2, value=1, step=0.5)
            image = gr.Image()
            note = gr.Markdown("*note*")
        gr.Button("Go").click(lambda *values: values[0], [text, pick, slider, state], [note, chat])
        upload.upload(lambda got: got, upload, files)
        image.change(lambda got: got, image, note)
    return blocks


def gradios_own(blocks: gr.Blocks) -> dict:
    return unpatched(BlocksConfig.get_config)(blocks.default_config)


def without_api(config: dict) -> dict:
    config = copy.deepcopy(config)
    for component in config["components"]:
        for key in API_KEYS:
            component.pop(key, None)
    return config


def test_a_page_without_an_api_is_configured_as_gradio_does_but_for_the_schemas() -> None:
    assert gradio_compat.apply()
    blocks = assorted_page()
    keep_api_private(blocks)
    ours = blocks.default_config.get_config()
    theirs = gradios_own(blocks)
    assert any(key in component for component in theirs["components"] for key in API_KEYS)
    assert not [component["id"] for component in ours["components"] if any(key in component for key in API_KEYS)]
    assert ours == without_api(theirs)
    assert blocks.get_api_info() == {"named_endpoints": {}, "unnamed_endpoints": {}}


def test_a_page_with_an_api_keeps_its_schemas() -> None:
    assert gradio_compat.apply()
    blocks = assorted_page()
    keep_api_private(blocks)
    next(iter(blocks.fns.values())).api_visibility = "public"
    assert blocks.default_config.get_config() == gradios_own(blocks)
    assert blocks.get_api_info()["named_endpoints"], "the public event lost its description"


def test_the_app_serves_its_page_without_the_api_schemas() -> None:
    settings = Settings()
    blocks = configure_queue(build_app(settings, ServerDefaults("http://127.0.0.1:9", "k", demo=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    try:
        served = httpx.get(f"http://127.0.0.1:{port}/config", timeout=30).json()
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=30).text
        info = httpx.get(f"http://127.0.0.1:{port}/gradio_api/info", timeout=30)
    finally:
        blocks.close()
    assert len(served["components"]) > 1000
    assert not [component["id"] for component in served["components"] if any(key in component for key in API_KEYS)]
    assert "api_info_as_input" not in page and "example_inputs" not in page
    assert info.status_code == 200 and info.json()["named_endpoints"] == {}
