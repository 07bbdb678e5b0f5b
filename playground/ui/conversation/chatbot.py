"""The chatbot the text tabs use. It lives in `gradio_compat.chatbot` (patch `chatbot_memo`): it
re-implements Gradio's per-message processing with Gradio's private methods, so a streamed update
costs the new text, not the whole history again; with the patches off it is Gradio's own chatbot."""

from __future__ import annotations

from playground.gradio_compat.chatbot import Chatbot, TextMessages

__all__ = ["Chatbot", "TextMessages"]
