"""`uploaded_image`: a `gr.Image` input whose upload reaches the app's own checks undecoded.

Gradio's `gr.Image` opens every upload with Pillow before a handler runs; a text file named
`.png` then fails inside Gradio with an Error badge and no explanation. This input hands the
handler the uploaded file's path (Gradio has already checked it is an upload to this app), and
the handler checks it like every attachment (`client.media.image_data_url`: format list, pixel
and size caps), so a file that is not an image gets our message and nothing else changes.

It is a subclass drawn by the page as Gradio's own image (`gradio_compat.drawn_as_gradios_own`):
after an event updates an input (the Video tab shows its frame inputs per mode), Gradio keeps a
copy of it for the session built from its class, which a `preprocess` replaced on one instance
did not survive.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.gradio_compat import drawn_as_gradios_own


def _upload_path(payload: Any) -> str | None:
    if payload is None:
        return None
    if getattr(payload, "path", None) is None or str(getattr(payload, "url", None) or "").startswith("data:"):
        raise gr.Error("Upload the image as a file (PNG, JPEG, WebP or GIF).")
    return str(payload.path)


@drawn_as_gradios_own
class UploadedImage(gr.Image):
    """A `gr.Image(type="filepath")` (made by `uploaded_image`) whose handler gets the upload's path, unopened."""

    def preprocess(self, payload: Any) -> str | None:
        return _upload_path(payload)


def uploaded_image(**kwargs: Any) -> gr.Image:
    """A `gr.Image(type="filepath", **kwargs)` whose handler gets the upload's path, unopened."""
    return UploadedImage(type="filepath", **kwargs)
