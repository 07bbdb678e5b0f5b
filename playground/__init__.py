"""Gateway Playground: a Gradio playground and shared client for a unified AI gateway."""
