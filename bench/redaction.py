"""What removing secrets costs a stream: the same chat deltas decoded and folded with no secret
known (baseline), then with the server's and the visitor's key (every piece checked, a piece
that could start a key held back), alternating runs, in one process, no sockets.

    python -m bench.redaction [--events 20000] [--runs 7]

Per event: `Redactor.event_data` on the raw data (as `sse.iter_messages` does), JSON decoding,
then `TextStream.feed` (parse, shape checks, redaction, fold).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import orjson

from playground.client.chat import ChatStream
from playground.client.exchange import Redactor
from playground.client.sse import SSEMessage
from playground.client.transport import Connection

WORDS = ["Der", " schnelle", " braune", " Fuchs", " springt", " über", " den", " faulen", " Hund", " —", " 速い", " 茶色", " words."]


def _events(count: int, ascii_only: bool) -> list[str]:
    return [json.dumps({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": WORDS[i % len(WORDS)]},
                                                                              "finish_reason": None}]}, ensure_ascii=ascii_only)
            for i in range(count)]


def _run(events: list[str], conn: Connection) -> float:
    stream = ChatStream(None, conn, "", {})  # type: ignore[arg-type]
    redactor = conn.redactor
    start = time.perf_counter()
    for raw in events:
        if redactor:
            raw = redactor.event_data(raw)
        stream.feed(SSEMessage(None, orjson.loads(raw)))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    plain = Connection("http://gw.example")
    keyed = Connection("http://gw.example", "sk-visitor-typed-key-123456", secrets=("sk-server-secret-abcdef-7890",))
    assert Redactor(("sk-server-secret-abcdef-7890",))
    print(f"{args.events:,} chat deltas, median of {args.runs} alternating runs")
    print("| events | no secret known (baseline) ms | two secrets ms | ratio | µs per event added |")
    print("|---|---|---|---|---|")
    for label, ascii_only in (("UTF-8 JSON", False), ("\\u-escaped JSON", True)):
        events = _events(args.events, ascii_only)
        base, with_keys = [], []
        for _ in range(args.runs):
            base.append(_run(events, plain))
            with_keys.append(_run(events, keyed))
        b, k = statistics.median(base), statistics.median(with_keys)
        print(f"| {label} | {b * 1000:.1f} | {k * 1000:.1f} | {k / b:.2f} | {(k - b) / args.events * 1e6:.2f} |")


if __name__ == "__main__":
    main()
