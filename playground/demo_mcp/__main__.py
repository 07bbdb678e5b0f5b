"""`python -m playground.demo_mcp --port N`: serve the demo MCP server at http://127.0.0.1:N/mcp."""

from __future__ import annotations

import argparse

import uvicorn

from playground.demo_mcp.server import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description="Offline demo MCP server (streamable HTTP at /mcp).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(create_app(args.host), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
