"""The gateway report from the command line, for CI: `python -m playground.report` (see
`command`). A thin layer over `playground.client.report`: no Gradio, no UI."""
