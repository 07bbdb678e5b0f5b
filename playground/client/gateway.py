"""`GatewayClient`: one object holding the shared transport and every interface's API."""

from __future__ import annotations

from typing import Any

from playground.client.chat import ChatAPI
from playground.client.egress import host_problem
from playground.client.embeddings import EmbeddingsAPI
from playground.client.images import ImagesAPI
from playground.client.mcp.session import MCPLink
from playground.client.media import media_directory
from playground.client.messages import MessagesAPI
from playground.client.native import NativeAPI
from playground.client.responses import ResponsesAPI
from playground.client.transport import Connection, Exchange, Transport
from playground.client.video import VideoAPI


class GatewayClient:
    def __init__(self, transport: Transport | None = None, video: VideoAPI | None = None) -> None:
        self.transport = transport or Transport()
        self.chat = ChatAPI(self.transport)
        self.messages = MessagesAPI(self.transport)
        self.responses = ResponsesAPI(self.transport)
        self.native = NativeAPI(self.transport, media_directory("native-images"))
        self.embeddings = EmbeddingsAPI(self.transport)
        self.images = ImagesAPI(self.transport, media_directory("images"))
        self.video = video or VideoAPI(self.transport)
        self.mcp = MCPLink(guard=self.transport.guard)
        """MCP servers as tools, through the same egress guard as the gateway (hosted mode)."""

    async def list_models(self, conn: Connection) -> tuple[list[str], Exchange]:
        """`GET /v1/models` -> model ids (OpenAI-style list; tolerant of `models`/`name` shapes)."""
        data, exchange = await self.transport.request_json(conn, "GET", "/v1/models")
        items: list[Any] = []
        if isinstance(data, dict):
            items = data.get("data") or data.get("models") or []
        elif isinstance(data, list):
            items = data
        ids = []
        for item in items:
            model_id = item.get("id") or item.get("name") if isinstance(item, dict) else item
            if isinstance(model_id, str) and model_id:
                ids.append(model_id.removeprefix("models/"))
        return ids, exchange

    async def host_problem(self, url: str) -> str | None:
        """Why the server would not reach `url`'s host (it does not resolve, or hosted mode's guard
        refuses it), None when it would; nothing is sent there."""
        return await host_problem(url, self.transport.guard)

    async def aclose(self) -> None:
        await self.transport.aclose()
