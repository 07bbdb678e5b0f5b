"""An MCP server that misbehaves on purpose, on a real socket: the demo MCP server's app behind an
ASGI layer that answers `tools/call` for a tool named after a fault in its own (wrong) way."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn

from playground.demo_mcp.server import create_app, free_port

HUGE_BYTES = 3_000_000
FAULTS = ("stall", "close", "malformed", "not_json", "huge", "error_status", "rpc_error", "deep")
Scope = dict[str, Any]


class Misbehaving:
    """Passes everything to the demo server, except a `tools/call` of a tool named as a fault."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requests = 0
        self.headers: list[dict[str, str]] = []

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.requests += 1
            self.headers.append({name.decode(): value.decode() for name, value in scope["headers"]})
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.inner(scope, receive, send)
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = json.loads(body or b"{}")
        name = (request.get("params") or {}).get("name") if isinstance(request, dict) else None
        if isinstance(request, dict) and request.get("method") == "tools/call" and name in FAULTS:
            return await self.fault(name, request.get("id"), send)
        if isinstance(request, dict) and request.get("method") == "tools/list" and scope.get("path", "").endswith("/many"):
            return await self.json(send, {"jsonrpc": "2.0", "id": request.get("id"), "result": {"tools": [
                {"name": f"tool_{n}", "inputSchema": {"type": "object"}} for n in range(100)], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}})
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        inner_scope = {**scope, "path": "/mcp", "raw_path": b"/mcp"}
        return await self.inner(inner_scope, replay, send)

    async def json(self, send: Any, value: Any, status: int = 200) -> None:
        data = json.dumps(value).encode()
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})

    async def fault(self, name: str, request_id: Any, send: Any) -> None:
        if name == "stall":
            await asyncio.sleep(3600)
        if name == "close":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
            await send({"type": "http.response.body", "body": b'event: message\ndata: {"jsonrpc": "2.0", "id": ', "more_body": True})
            raise RuntimeError("the connection drops here, mid-answer")
        if name == "malformed":
            return await self.json(send, {"jsonrpc": "2.0", "id": request_id, "result": {"content": "not a list of blocks"}})
        if name == "not_json":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            return await send({"type": "http.response.body", "body": b"<html>this is not JSON-RPC</html>"})
        if name == "huge":
            text = "x" * HUGE_BYTES
            return await self.json(send, {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}})
        if name == "error_status":
            return await self.json(send, {"detail": "upstream broke"}, status=502)
        if name == "rpc_error":
            return await self.json(send, {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": "the tool's backend is down"}})
        if name == "deep":
            nested = "[" * 5000 + '"bottom"' + "]" * 5000
            head = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": "x"}], "structuredContent": {"v": 0}}})
            text = head.replace('"v": 0', '"v": ' + nested)
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            return await send({"type": "http.response.body", "body": text.encode()})


@dataclass
class RunningMisbehaving:
    url: str
    app: Misbehaving
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start() -> RunningMisbehaving:
    port = free_port()
    app = Misbehaving(create_app())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, name="misbehaving-mcp", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the misbehaving MCP server did not start")
        time.sleep(0.02)
    return RunningMisbehaving(f"http://127.0.0.1:{port}/mcp", app, server, thread)
