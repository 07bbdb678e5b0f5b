"""The demo MCP server: a few offline tools a class can follow, over streamable HTTP.

`python -m playground.demo_mcp --port N` serves it at `http://127.0.0.1:N/mcp`; the app starts
it when no MCP server is configured. Like the demo gateway it imports nothing of the client or
the UI: it is written with the official `mcp` SDK alone.
"""
