"""MCP servers as tools: listing and calling a streamable-HTTP MCP server's tools (`session`,
with the official SDK's side in `sdk`, imported on first use), what the client keeps of a server,
a tool and a result (`model`), the wire under the SDK with hosted mode's guard, the credential
kept out of every record and each answer bounded (`wire`), the errors a person reads (`errors`),
and an MCP tool and its result written in each text format's own shape (`formats`). No Gradio."""
