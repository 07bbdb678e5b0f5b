"""The Batch suite from the command line, for CI: `python -m playground.batch run SUITE` (see
`command`). A thin layer over the client: no Gradio, no UI."""
