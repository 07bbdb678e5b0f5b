"""The Gradio UI: layout plus plain async handlers over `playground.client` (never httpx)."""
