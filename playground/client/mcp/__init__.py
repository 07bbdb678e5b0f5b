"""MCP servers as tools: connecting to a streamable-HTTP MCP server with the official SDK
(`session`), the wire under it with hosted mode's guard, the credential kept out of every record
and each answer bounded (`wire`), the errors a person reads (`errors`), and an MCP tool and its
result written in each text format's own shape (`formats`). No Gradio."""
