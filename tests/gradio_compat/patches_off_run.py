"""`python -m tests.gradio_compat.patches_off_run VERSION`: the app started with Gradio claiming to
be VERSION; prints (JSON) what `apply()` did, which of Gradio's attributes changed, and the two sends
of `sends.answered_and_refused`. A fresh process, since patches once installed stay installed."""

from __future__ import annotations

import asyncio
import json
import sys

import gradio
from gradio import networking, processing_utils
from gradio import utils as gradio_utils
from gradio.blocks import Blocks
from gradio.components.upload_button import UploadButton
from gradio.routes import App
from gradio.server_messages import ProcessCompletedMessage, ProcessGeneratingMessage
from gradio.state_holder import SessionState


def patchable() -> dict[str, object]:
    """Everything a patch would replace."""
    return {"SessionState.__setitem__": SessionState.__setitem__, "SessionState.__init__": SessionState.__init__,
            "SessionState._update_config": SessionState._update_config, "Blocks.postprocess_data": Blocks.postprocess_data,
            "gradio.blocks.anyio": gradio.blocks.anyio, "gradio.blocks.inspect": gradio.blocks.inspect,
            "gradio.component_meta.inspect": gradio.component_meta.inspect,
            "ProcessGeneratingMessage.model_dump": ProcessGeneratingMessage.model_dump,
            "ProcessCompletedMessage.model_dump": ProcessCompletedMessage.model_dump, "gradio.utils.diff": gradio_utils.diff,
            "processing_utils.async_move_files_to_cache": processing_utils.async_move_files_to_cache,
            "processing_utils.add_root_url": processing_utils.add_root_url, "networking.url_ok": networking.url_ok,
            "App.setup_mcp_server": App.setup_mcp_server, "App.create_app": App.create_app, "UploadButton.api_info": UploadButton.api_info,
            "matplotlib absent": sys.modules.get("matplotlib", "not imported")}


def main(version: str) -> None:
    gradio.__version__ = version
    before = patchable()
    from bench.app_queue import start_app
    from playground import gradio_compat
    from playground.gradio_compat.chatbot import Chatbot
    from playground.gradio_compat.marks import patch_of
    from tests.gradio_compat.sends import answered_and_refused

    app = start_app(token_delay=0.0)
    try:
        sends = asyncio.run(answered_and_refused(app.url))
    finally:
        app.stop()
    changed = sorted(name for name, value in patchable().items() if value is not before[name])
    print(json.dumps({"active": gradio_compat.active(), "changed": changed, "chatbot_marked": patch_of(Chatbot) is not None, **sends}))


if __name__ == "__main__":
    main(sys.argv[1])
