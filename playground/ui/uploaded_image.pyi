"""`UploadedImage`: a `gr.Image` input whose upload reaches the app's own checks undecoded.

Gradio's `gr.Image` opens every upload with Pillow before a handler runs; a text file named
`.png` then fails inside Gradio with an Error badge and no explanation. This component hands the
handler the uploaded file's path (Gradio has already checked it is an upload of this app), and
the handler checks it like every attachment (`client.media.image_data_url`: format list, pixel
and size caps), so a file that is not an image gets our message and nothing else changes.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from gradio.events import Dependency

class UploadedImage(gr.Image):
    """An image input (`type="filepath"`): the handler gets the upload's path, unopened."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["type"] = "filepath"
        super().__init__(*args, **kwargs)

    def get_block_name(self) -> str:
        return "image"  # the page draws it with Gradio's own image component

    def preprocess(self, payload: Any) -> str | None:
        if payload is None:
            return None
        if getattr(payload, "path", None) is None or str(getattr(payload, "url", None) or "").startswith("data:"):
            raise gr.Error("Upload the image as a file (PNG, JPEG, WebP or GIF).")
        return str(payload.path)
    from typing import Callable, Literal, Sequence, Any, TYPE_CHECKING
    from gradio.blocks import Block
    if TYPE_CHECKING:
        from gradio.components import Timer
        from gradio.components.base import Component