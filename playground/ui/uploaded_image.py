"""`uploaded_image`: a `gr.Image` input whose upload reaches the app's own checks undecoded.

Gradio's `gr.Image` opens every upload with Pillow before a handler runs; a text file named
`.png` then fails inside Gradio with an Error badge and no explanation. This input hands the
handler the uploaded file's path (Gradio has already checked it is an upload to this app), and
the handler checks it like every attachment (`client.media.image_data_url`: format list, pixel
and size caps), so a file that is not an image gets our message and nothing else changes.
"""

from __future__ import annotations

from typing import Any

import gradio as gr


def _upload_path(payload: Any) -> str | None:
    if payload is None:
        return None
    if getattr(payload, "path", None) is None or str(getattr(payload, "url", None) or "").startswith("data:"):
        raise gr.Error("Upload the image as a file (PNG, JPEG, WebP or GIF).")
    return str(payload.path)


def uploaded_image(**kwargs: Any) -> gr.Image:
    """A `gr.Image(type="filepath")` whose handler gets the upload's path, unopened. (Its
    `preprocess` is replaced on the instance: a subclass would be a custom component to the page.)"""
    image = gr.Image(type="filepath", **kwargs)
    image.preprocess = _upload_path  # type: ignore[method-assign]
    return image
