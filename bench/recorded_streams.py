"""Prepared SSE streams, one per text format, and a minimal loopback server that only writes them.

The streams follow the spec's event shapes (chat chunks then `[DONE]`; the messages events; the
responses events with `sequence_number`; native fragments ending with a finish reason). Each
carries `events` text deltas plus a usage report, so every reader must arrive at the same text
and usage. The server runs in its own process and answers every request on a path with the
prepared bytes at once, so the timings measure the client, not the server. Two framings: one
HTTP chunk per event under `/chunked/...` (how real gateways send: each event flushed), or the
whole stream as one body.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import socket
from dataclasses import dataclass

INPUT_TOKENS = 17
FORMATS = ("chat", "messages", "responses", "native")
FRAMINGS = ("chunked", "whole")
CHUNKED_PREFIX = "/chunked"
"""Paths under this prefix get the stream as one HTTP chunk per event; other paths get one
body with a Content-Length (the whole stream in as few reads as the socket allows)."""


@dataclass(frozen=True)
class Expected:
    text: str
    input_tokens: int
    output_tokens: int


def _token(i: int) -> str:
    return f"w{i % 97} "


def expected(events: int) -> Expected:
    return Expected("".join(_token(i) for i in range(events)), INPUT_TOKENS, events)


def _sse(data: object, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


def chat_stream(events: int) -> list[str]:
    base = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1, "model": "gx-2.5-flash"}
    parts = [_sse({**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]})]
    parts += [_sse({**base, "choices": [{"index": 0, "delta": {"content": _token(i)}, "finish_reason": None}]}) for i in range(events)]
    parts.append(_sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    usage = {"prompt_tokens": INPUT_TOKENS, "completion_tokens": events, "total_tokens": INPUT_TOKENS + events}
    parts.append(_sse({**base, "choices": [], "usage": usage}))
    parts.append("data: [DONE]\n\n")
    return parts


def messages_stream(events: int) -> list[str]:
    message = {"id": "msg_bench", "type": "message", "role": "assistant", "model": "cl-sonnet-4-5-20250929", "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": INPUT_TOKENS, "output_tokens": 1}}
    parts = [_sse({"type": "message_start", "message": message}, "message_start"),
             _sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}, "content_block_start")]
    parts += [_sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": _token(i)}}, "content_block_delta")
              for i in range(events)]
    parts.append(_sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
    parts.append(_sse({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                       "usage": {"output_tokens": events}}, "message_delta"))
    parts.append(_sse({"type": "message_stop"}, "message_stop"))
    return parts


def responses_stream(events: int) -> list[str]:
    seq = iter(range(10**9))
    response = {"id": "resp_bench", "object": "response", "created_at": 1, "model": "gpt-4.1", "status": "in_progress",
                "output": [], "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    item = {"id": "msg_bench", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    text = expected(events).text

    def event(kind: str, **fields: object) -> str:
        return _sse({"type": kind, "sequence_number": next(seq), **fields}, kind)

    part = {"type": "output_text", "text": "", "annotations": []}
    parts = [event("response.created", response=response), event("response.in_progress", response=response),
             event("response.output_item.added", output_index=0, item=item),
             event("response.content_part.added", item_id="msg_bench", output_index=0, content_index=0, part=part)]
    parts += [event("response.output_text.delta", item_id="msg_bench", output_index=0, content_index=0, delta=_token(i), logprobs=[])
              for i in range(events)]
    done_part = {**part, "text": text}
    done_item = {**item, "status": "completed", "content": [done_part]}
    parts += [event("response.output_text.done", item_id="msg_bench", output_index=0, content_index=0, text=text, logprobs=[]),
              event("response.content_part.done", item_id="msg_bench", output_index=0, content_index=0, part=done_part),
              event("response.output_item.done", output_index=0, item=done_item)]
    usage = {"input_tokens": INPUT_TOKENS, "output_tokens": events, "total_tokens": INPUT_TOKENS + events,
             "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}
    parts.append(event("response.completed", response={**response, "status": "completed", "output": [done_item], "usage": usage}))
    return parts


def native_stream(events: int) -> list[str]:
    def fragment(i: int, last: bool) -> dict[str, object]:
        candidate: dict[str, object] = {"content": {"role": "model", "parts": [{"text": _token(i)}]}, "index": 0}
        body: dict[str, object] = {"candidates": [candidate], "modelVersion": "gx-2.5-flash"}
        if last:
            candidate["finishReason"] = "STOP"
            body["usageMetadata"] = {"promptTokenCount": INPUT_TOKENS, "candidatesTokenCount": events,
                                     "totalTokenCount": INPUT_TOKENS + events}
        return body

    return [_sse(fragment(i, i == events - 1)).replace("\n", "\r\n") for i in range(events)]


BUILDERS = {"chat": chat_stream, "messages": messages_stream, "responses": responses_stream, "native": native_stream}


def route(path: str) -> str:
    if "streamGenerateContent" in path:
        return "native"
    for name, suffix in (("chat", "/chat/completions"), ("messages", "/messages"), ("responses", "/responses")):
        if path.split("?")[0].endswith(suffix):
            return name
    return ""


def _chunked(frames: list[str]) -> bytes:
    """One HTTP/1.1 chunk per event, as a gateway that flushes every event sends them."""
    encoded = [frame.encode() for frame in frames]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in encoded) + b"0\r\n\r\n"


async def _serve(port: int, events: int, ready: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    frames = {name: build(events) for name, build in BUILDERS.items()}
    whole = {name: "".join(parts).encode() for name, parts in frames.items()}
    chunked = {name: _chunked(parts) for name, parts in frames.items()}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split(" ")[1]
                length = next((int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:")), 0)
                await reader.readexactly(length)
                name = route(path)
                if path.startswith(CHUNKED_PREFIX + "/") and name:
                    writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n" + chunked[name])
                else:
                    body = whole.get(name, b"")
                    status = "200 OK" if body else "404 Not Found"
                    writer.write(f"HTTP/1.1 {status}\r\ncontent-type: text/event-stream\r\ncontent-length: {len(body)}\r\n\r\n".encode() + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    ready.set()
    async with server:
        await server.serve_forever()


def _run(port: int, events: int, ready: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    asyncio.run(_serve(port, events, ready))


class ReplayServer:
    """`with ReplayServer(events) as url:` — a separate process serving the prepared streams."""

    def __init__(self, events: int) -> None:
        self.events = events
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        context = multiprocessing.get_context("spawn")
        self._ready = context.Event()
        self._process = context.Process(target=_run, args=(self.port, events, self._ready), daemon=True)

    def __enter__(self) -> str:
        self._process.start()
        if not self._ready.wait(30):
            raise RuntimeError("the replay server did not start")
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc_info: object) -> None:
        self._process.terminate()
        self._process.join(5)
