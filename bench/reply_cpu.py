"""CPU per reply of the app's server process at a burst of sessions, this code against another
commit's, alternating in one run (issue 41: "less work per reply").

    python -m bench.reply_cpu [--sessions 50] [--runs 2] [--before REF] [--sample] [--sample-dir DIR] [--no-input-changes] [--port N]

Each round starts the app as `bench.serve_app` does (its demo gateway in a process of its own,
30 ms token delay) once from this tree and once from `REF` (extracted with `git archive`; its
`bench/` is this one's, so both are driven and sampled alike), sends a burst unmeasured (a busy
server's pool of gateway connections is warm), opens the sessions as page loads do, then sends one message per session at once, as Chromium does: the input box's `change`
events the page has (typing the message; the send's clearing of the box) around the send's
queued event (`--no-input-changes` leaves them out, to measure what they cost). CPU is the server process's own (user + system, /proc), over the burst, divided
by the replies. `--sample` also counts where that CPU goes (`bench.stack_sampler`) and prints
the share of the functions issue 41 names (`--sample-dir` keeps each round's counts there, as
JSON, to read the whole split).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.app_queue import chat_chain, chat_events, open_session, page_events, run_direct
from bench.concurrent_chat import AppProcess, start_app_process
from bench.header import print_footer, print_header
from bench.stack_sampler import share

ROOT = Path(__file__).resolve().parents[1]
WATCHED = {
    "pool scan (httpcore _assign_requests_to_connections)": "_assign_requests_to_connections",
    "has_expired": "HTTP11Connection.has_expired",
    "Blocks.postprocess_data": "Blocks.postprocess_data",
    "Markdown.__init__": "Markdown.__init__",
    "MultimodalTextbox.__init__": "MultimodalTextbox.__init__",
    "input box change events (variables_changed)": "variables_changed",
}


@dataclass
class Round:
    code: str
    replies: int = 0
    lost: int = 0
    cpu: float = 0.0
    change_events: int = 0
    alone_cpu: float = 0.0
    change_cpu: float = 0.0
    shares: dict[str, float] = field(default_factory=dict)
    samples: int = 0


def extract(ref: str, into: Path) -> Path:
    """The tree of `ref` in `into`, with this tree's `bench/` over its own."""
    archive = subprocess.run(["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True).stdout
    tar_path = into / "code.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into / "code", filter="data")
    for module in (ROOT / "bench").glob("*.py"):
        (into / "code" / "bench" / module.name).write_bytes(module.read_bytes())
    return into / "code"


def input_changes(config: dict[str, Any], elem_id: str = "chat-input") -> list[tuple[int, list[int]]]:
    """The server events of the input box's `change`: (event id, its inputs). Events the page runs
    itself (`js` only, no server function) are left out: since `ui/conversation/draft_keys.py`
    the Variables panel's server event follows a key the page derives, which a message without
    placeholders never changes (tests/e2e/test_draft_keys_browser.py shows it in Chromium)."""
    box = next(c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == elem_id)
    return [(d["id"], d["inputs"]) for d in config["dependencies"]
            if d.get("backend_fn", True) and [box, "change"] in [list(t) for t in d.get("targets", [])]]


CHANGE_TRIES = 60
"""Change events run one after another after the burst, to measure one's CPU."""
INPUT_CHANGES = {"on": True}
"""Whether a send runs the input box's change events (`--no-input-changes`: off)."""


async def change_events(http: httpx.AsyncClient, url: str, config: dict[str, Any], draft: Any, session: str) -> int:
    """Run the box's change events as the page does when its value becomes `draft`; how many ran."""
    if not INPUT_CHANGES["on"]:
        return 0
    by_id = {c["id"]: c for c in config["components"]}
    events = input_changes(config)
    for fn_index, inputs in events:
        data = [draft if by_id[i].get("props", {}).get("elem_id") == "chat-input" else
                (None if by_id[i].get("type") == "state" else by_id[i].get("props", {}).get("value")) for i in inputs]
        await run_direct(http, url, fn_index, data, session)
    return len(events)


async def followers(http: httpx.AsyncClient, url: str, config: dict[str, Any], send: int, session: str) -> None:
    """The events the page runs once the send ends (its `.then` steps that skip the queue: keeping the conversation in
    the browser), each reading the session's server-side state."""
    for dependency in config["dependencies"]:
        if dependency.get("trigger_after") == send and dependency.get("backend_fn", True) and not dependency.get("queue", True):
            await run_direct(http, url, dependency["id"], [None] * len(dependency["inputs"]), session)


async def one_send(http: httpx.AsyncClient, url: str, config: dict[str, Any], send: int, token: str, session: str) -> tuple[bool, int]:
    """A send as Chromium makes it: the typed message's change, the send and what follows it, the cleared box's change."""
    text = f"Please repeat {token}"
    changes = await change_events(http, url, config, {"text": text, "files": []}, session)
    reply = await chat_chain(http, url, send, text, session)
    await followers(http, url, config, send, session)
    changes += await change_events(http, url, config, {"text": "", "files": []}, session)
    return reply.ttft is not None and token in reply.text, changes


def signal_app(app: AppProcess, which: signal.Signals) -> None:
    os.kill(app.process.pid, which)


async def sends(http: httpx.AsyncClient, app: AppProcess, config: dict[str, Any], send: int, sessions: int) -> None:
    """An unmeasured burst of `sessions` sends (the pool of connections to the gateway as a busy server's)."""
    hashes = [await open_session(http, app.url, chat_events(config)) for _ in range(sessions)]
    await asyncio.gather(*(one_send(http, app.url, config, send, f"warm{n}", session) for n, session in enumerate(hashes)), return_exceptions=True)


async def burst(app: AppProcess, sessions: int, code: str, sample: Path | None) -> Round:
    limits = httpx.Limits(max_connections=sessions * 2 + 10)
    row = Round(code)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        config, events = await page_events(http, app.url)
        for name in ("warmup", "alone"):
            before = app.cpu_seconds()
            await one_send(http, app.url, config, events.send, name, await open_session(http, app.url, events))
            row.alone_cpu = app.cpu_seconds() - before
        await sends(http, app, config, events.send, sessions)  # a running server's pool is warm: the measured burst starts as the next one
        hashes = [await open_session(http, app.url, events) for _ in range(sessions)]
        tokens = [f"tok{uuid.uuid4().hex[:10]}" for _ in hashes]
        if sample:
            signal_app(app, signal.SIGUSR1)
        before = app.cpu_seconds()
        results = await asyncio.gather(*(one_send(http, app.url, config, events.send, token, session) for token, session in zip(tokens, hashes)),
                                       return_exceptions=True)
        row.cpu = app.cpu_seconds() - before
        if INPUT_CHANGES["on"]:  # what one of them costs, run one after another on one session
            before, ran = app.cpu_seconds(), 0
            for n in range(CHANGE_TRIES):
                ran += await change_events(http, app.url, config, {"text": f"Please repeat {n}" if n % 2 else "", "files": []}, hashes[0])
            row.change_cpu = (app.cpu_seconds() - before) / ran if ran else float("nan")  # none: the page asks nothing
    if sample:
        signal_app(app, signal.SIGUSR2)
        for _ in range(50):
            if sample.exists():
                break
            time.sleep(0.1)
        data = json.loads(sample.read_text())
        row.samples = data["samples"]
        row.shares = {name: share(data, needle) for name, needle in WATCHED.items()}
    failed = [f"{type(r).__name__}: {str(r)[:120]}" for r in results if isinstance(r, BaseException)]
    if failed:
        print(f"{code}: {len(failed)} sends failed, e.g. {failed[0]}", file=sys.stderr, flush=True)
    done = [r for r in results if isinstance(r, tuple) and r[0]]
    row.replies, row.lost = len(done), sessions - len(done)
    row.change_events = sum(r[1] for r in results if isinstance(r, tuple))
    return row


def run_round(root: Path, code: str, sessions: int, sample_dir: Path | None, port: int | None = None) -> Round:
    sample = sample_dir / f"{code.split()[0]}-{uuid.uuid4().hex[:6]}.json" if sample_dir else None
    app = start_app_process(0.03, root=root, extra=["--sample", str(sample)] if sample else [], port=port)
    try:
        return asyncio.run(burst(app, sessions, code, sample))
    finally:
        app.stop()


def print_rows(rows: list[Round], sessions: int) -> None:
    print(f"{sessions} sessions at once, one message each (token delay 30 ms); CPU of the app's server process")
    print("| code | replies | lost | change events / send | CPU s / reply | one reply alone, CPU s (baseline) | CPU s / change event, alone |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row.code} | {row.replies} | {row.lost} | {row.change_events / max(sessions, 1):.1f} | "
              f"{row.cpu / max(row.replies, 1):.4f} | {row.alone_cpu:.4f} | {'none run' if row.change_cpu != row.change_cpu else f'{row.change_cpu:.4f}'} |")
    by_code: dict[str, list[float]] = {}
    for row in rows:
        by_code.setdefault(row.code, []).append(row.cpu / max(row.replies, 1))
    print("median CPU s / reply: " + ", ".join(f"{code} {statistics.median(v):.4f}" for code, v in by_code.items()))
    sampled = [row for row in rows if row.samples]
    if sampled:
        print("\nshare of the burst's busy samples (inclusive, 250 Hz, in-process sampler)")
        print("| code | samples | " + " | ".join(WATCHED) + " |")
        print("|---|---|" + "---|" * len(WATCHED))
        for row in sampled:
            print(f"| {row.code} | {row.samples} | " + " | ".join(f"{row.shares[name] * 100:.1f}%" for name in WATCHED) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--runs", type=int, default=2, help="rounds; each runs this code and, with --before, REF")
    parser.add_argument("--before", help="a commit to compare with (e.g. main before the change)")
    parser.add_argument("--sample", action="store_true", help="also count where the CPU goes")
    parser.add_argument("--sample-dir", type=Path, help="keep each round's sampled counts in this folder (implies --sample)")
    parser.add_argument("--port", type=int, help="the app's port (a free one by default); the demo gateway takes a free one")
    parser.add_argument("--no-input-changes", action="store_true", help="sends without the input box's change events")
    args = parser.parse_args()
    INPUT_CHANGES["on"] = not args.no_input_changes
    print_header()
    rows: list[Round] = []
    with tempfile.TemporaryDirectory(prefix="reply-cpu-") as scratch:
        codes = [(ROOT, "this tree")]
        if args.before:
            codes.append((extract(args.before, Path(scratch)), f"before ({args.before[:10]})"))
        sample_dir = args.sample_dir or (Path(scratch) if args.sample else None)
        if args.sample_dir:
            args.sample_dir.mkdir(parents=True, exist_ok=True)
        for run in range(args.runs):
            for root, code in codes if run % 2 == 0 else codes[::-1]:
                rows.append(run_round(root, code, args.sessions, sample_dir, args.port))
                row = rows[-1]
                print(f"round {run + 1}, {code}: {row.cpu / max(row.replies, 1):.4f} CPU s / reply", file=sys.stderr, flush=True)
    print_rows(rows, args.sessions)
    print_footer()


if __name__ == "__main__":
    main()
