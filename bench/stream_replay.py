"""Client stream handling, isolated from any server work: the playground client vs each format's
official SDK reading the same prepared stream (see `recorded_streams`), alternating runs.

    python -m bench.stream_replay [--events 20000] [--runs 7] [--formats chat,messages,responses,native]
                                  [--framing chunked,whole]

Framing `chunked`: one HTTP chunk per event, as real gateways send (each event flushed); `whole`:
the stream as one body. Every reader must arrive at the same text and usage; the table shows
medians, events/s and the ratio SDK time / playground time (above 1: the playground client is
faster).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bench.header import print_footer, print_header
from bench.recorded_streams import CHUNKED_PREFIX, FORMATS, FRAMINGS, Expected, ReplayServer, expected
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport

KEY = "bench-key"
PROMPT = [{"role": "user", "content": "replay"}]
Reader = Callable[[str], Awaitable[Expected]]


def _ours(api_name: str, build: Callable[[], object], auth: str = "bearer") -> Callable[[GatewayClient], Reader]:
    def make(client: GatewayClient) -> Reader:
        async def read(url: str) -> Expected:
            api = getattr(client, api_name)
            async with api.stream(Connection(url, KEY).with_auth(auth), build()) as stream:
                async for _ in stream:
                    pass
            result = stream.result
            usage = result.usage
            return Expected(result.text, usage.input_tokens if usage else -1, usage.output_tokens if usage else -1)
        return read
    return make


def _chat_request() -> object:
    from playground.client.chat import ChatRequest
    return ChatRequest.build(model="gx-2.5-flash", messages=PROMPT)


def _messages_request() -> object:
    from playground.client.messages import MessagesRequest
    return MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=PROMPT, max_tokens=100_000)


def _responses_request() -> object:
    from playground.client.responses import ResponsesRequest
    return ResponsesRequest.build(model="gpt-4.1", input=PROMPT)


def _native_request() -> object:
    from playground.client.native import NativeRequest
    return NativeRequest.build(model="gx-2.5-flash", contents=[{"role": "user", "parts": [{"text": "replay"}]}])


async def sdk_chat(url: str) -> Expected:
    import openai
    async with openai.AsyncOpenAI(base_url=url + "/v1", api_key=KEY, max_retries=0) as client:
        stream = await client.chat.completions.create(model="gx-2.5-flash", messages=PROMPT, stream=True)  # type: ignore[arg-type]
        text, usage = [], None
        async for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                text.append(chunk.choices[0].delta.content)
            usage = chunk.usage or usage
    return Expected("".join(text), usage.prompt_tokens if usage else -1, usage.completion_tokens if usage else -1)


async def sdk_messages(url: str) -> Expected:
    import anthropic
    async with anthropic.AsyncAnthropic(base_url=url, api_key=KEY, max_retries=0) as client:
        stream = await client.messages.create(model="cl-sonnet-4-5-20250929", messages=PROMPT, max_tokens=100_000, stream=True)  # type: ignore[arg-type]
        text, input_tokens, output_tokens = [], -1, -1
        async for event in stream:
            if event.type == "content_block_delta" and event.delta.type == "text_delta":
                text.append(event.delta.text)
            elif event.type == "message_start":
                input_tokens = event.message.usage.input_tokens
            elif event.type == "message_delta":
                output_tokens = event.usage.output_tokens
    return Expected("".join(text), input_tokens, output_tokens)


async def sdk_responses(url: str) -> Expected:
    import openai
    async with openai.AsyncOpenAI(base_url=url + "/v1", api_key=KEY, max_retries=0) as client:
        stream = await client.responses.create(model="gpt-4.1", input=PROMPT, stream=True)  # type: ignore[arg-type]
        text, usage = [], None
        async for event in stream:
            if event.type == "response.output_text.delta":
                text.append(event.delta)
            elif event.type == "response.completed":
                usage = event.response.usage
    return Expected("".join(text), usage.input_tokens if usage else -1, usage.output_tokens if usage else -1)


async def sdk_native(url: str) -> Expected:
    from google import genai
    from google.genai import types
    client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=url, headers={"Authorization": f"Bearer {KEY}"}))
    text, usage = [], None
    async for chunk in await client.aio.models.generate_content_stream(model="gx-2.5-flash", contents="replay"):
        text.append(chunk.text or "")
        usage = chunk.usage_metadata or usage
    return Expected("".join(text), usage.prompt_token_count if usage else -1, usage.candidates_token_count if usage else -1)


@dataclass(frozen=True)
class Pair:
    ours: Callable[[GatewayClient], Reader]
    sdk: Reader
    sdk_name: str


PAIRS = {
    "chat": Pair(_ours("chat", _chat_request), sdk_chat, "openai"),
    "messages": Pair(_ours("messages", _messages_request), sdk_messages, "anthropic"),
    "responses": Pair(_ours("responses", _responses_request), sdk_responses, "openai"),
    "native": Pair(_ours("native", _native_request), sdk_native, "google-genai"),
}


async def _timed(read: Reader, url: str, want: Expected) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one read; the server is another process,
    so the CPU time is the reader's own work, which a busy machine does not inflate much."""
    start, cpu = time.perf_counter(), time.process_time()
    got = await read(url)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if got != want:
        raise AssertionError(f"{read} read {got.text[:40]!r}… usage {got.input_tokens}/{got.output_tokens}, expected "
                             f"{len(want.text)} characters and usage {want.input_tokens}/{want.output_tokens}")
    return elapsed, cpu


Row = tuple[str, str, str, float, float, float, float]


async def measure(formats: list[str], events: int, runs: int, framings: tuple[str, ...] = FRAMINGS) -> list[Row]:
    """Rows of (format, framing, sdk name, our median s, sdk median s, our median CPU s, sdk median CPU s)."""
    want = expected(events)
    rows = []
    with ReplayServer(events) as server:
        client = GatewayClient(Transport(read_timeout=60))
        for framing in framings:
            url = server + (CHUNKED_PREFIX if framing == "chunked" else "")
            for name in formats:
                pair = PAIRS[name]
                ours = pair.ours(client)
                await _timed(ours, url, want)
                await _timed(pair.sdk, url, want)
                ours_times, sdk_times = [], []
                for _ in range(runs):
                    ours_times.append(await _timed(ours, url, want))
                    sdk_times.append(await _timed(pair.sdk, url, want))
                rows.append((name, framing, pair.sdk_name, statistics.median(t for t, _ in ours_times), statistics.median(t for t, _ in sdk_times),
                             statistics.median(c for _, c in ours_times), statistics.median(c for _, c in sdk_times)))
        await client.aclose()
    return rows


def print_table(rows: list[Row], events: int, runs: int) -> None:
    print(f"{events} events per stream, medians of {runs}; ratio = SDK time / playground time (>1: playground faster)")
    print("framing: chunked = one HTTP chunk per event (as gateways send), whole = one body; CPU = this process's CPU time")
    print(f"{'format':<11}{'framing':<9}{'playground ms':>15}{'events/s':>11}{'SDK':>14}{'SDK ms':>10}{'events/s':>11}{'ratio':>8}"
          f"{'CPU ms':>9}{'SDK CPU ms':>12}{'CPU ratio':>11}")
    for name, framing, sdk_name, ours, sdk, ours_cpu, sdk_cpu in rows:
        print(f"{name:<11}{framing:<9}{ours * 1000:>15.1f}{events / ours:>11.0f}{sdk_name:>14}{sdk * 1000:>10.1f}"
              f"{events / sdk:>11.0f}{sdk / ours:>8.2f}{ours_cpu * 1000:>9.1f}{sdk_cpu * 1000:>12.1f}{sdk_cpu / max(ours_cpu, 1e-9):>11.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--framing", default=",".join(FRAMINGS), help="chunked, whole or both (comma-separated)")
    args = parser.parse_args()
    formats = [name.strip() for name in args.formats.split(",") if name.strip()]
    framings = tuple(name.strip() for name in args.framing.split(",") if name.strip())
    unknown = [name for name in framings if name not in FRAMINGS]
    if unknown:
        parser.error(f"unknown framing {', '.join(unknown)}: choose from {', '.join(FRAMINGS)}")
    print_header()
    print_table(asyncio.run(measure(formats, args.events, args.runs, framings)), args.events, args.runs)
    print_footer()


if __name__ == "__main__":
    main()
