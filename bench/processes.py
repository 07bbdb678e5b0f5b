"""Beyond one process: the 100-session burst of `bench.concurrent_chat` against one app process,
against the same process behind HAProxy (the proxy's own cost), and against two app processes
behind HAProxy with `bench/haproxy.cfg` (affinity by visitor address, the key of the per-visitor
limits, so they hold across the processes), as they are and with the update pacing's budget shared
between them (each process paces as if half the replies could stream at the full rate).

    python -m bench.processes [--sessions 100] [--rounds 3] [--base-port 7720] [--token-delay 0.03]
                              [--configurations direct,proxy,two,shared]

`--base-port P`: the app processes on P, P+1, P+4 and P+5, the proxies on P+2, P+3 and P+6.

Every session is a browser of its own: its own connection pool and its own loopback address
(127.0.x.y), so the proxy spreads the visitors as it spreads real ones. One demo gateway (a process
of its own) serves every app process, as one real gateway would. The configurations take turns in
each round, in a rotated order, so the shared machine's load falls on all of them alike; each row
prints the load average when its burst began. Needs `haproxy` on the PATH (Debian: apt-get install
haproxy). Prints per burst: completed, lost and mixed-up replies, time to first token p50/p95,
queue join p95, the CPU seconds per reply of the app processes and the proxy together, how the app
CPU split between the processes, the demo gateway's CPU seconds, the streamed updates per reply
(the app's pacing, `ui/shared/forms.Pacing`, stretches a stream's update interval when many stream
in one process, so each process pushes about the same updates a second however many stream in it),
and this script's own CPU (the visitors' side, on the same cores).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.app_queue import ChatEvents, Reply, chat_chain, page_events, run_direct
from bench.concurrent_chat import AppProcess, percentile, start_app_process
from bench.header import print_footer, print_header
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port
from playground.demo_process import GatewayProcess

ROOT = Path(__file__).resolve().parents[1]
PROXY_CONFIG = ROOT / "bench" / "haproxy.cfg"
KEY = "bench-key"
CONFIGURATIONS = ("direct", "proxy", "two", "shared")
TITLES = {"proxy": "1 process behind HAProxy", "two": "2 processes behind HAProxy", "shared": "2 behind HAProxy, pacing/2"}
FULL_RATE = 20
"""`ui/conversation/turns.PACING`'s replies at the full update rate; the last configuration gives each
of its two processes half, so together they push as many updates a second as one process."""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Proxy:
    url: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def start_proxy(port: int, app_1: str, app_2: str) -> Proxy:
    """HAProxy with the shipped example configuration, its addresses from the environment."""
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    env = {**os.environ, "PLAYGROUND_PROXY_BIND": f"127.0.0.1:{port}", "PLAYGROUND_APP_1": app_1, "PLAYGROUND_APP_2": app_2}
    process = subprocess.Popen([haproxy, "-db", "-f", str(PROXY_CONFIG)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"haproxy ended: {(process.stderr.read() if process.stderr else b'').decode()[-300:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return Proxy(f"http://127.0.0.1:{port}", process)
        except OSError:
            time.sleep(0.05)
    process.terminate()
    raise RuntimeError("haproxy did not listen within 10 s")


@dataclass
class Target:
    """One configuration: where visitors connect, and the processes whose CPU it spends."""

    name: str
    url: str
    apps: list[AppProcess]
    gateway: GatewayProcess
    proxy: Proxy | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)

    def cpu(self) -> list[float]:
        """CPU seconds so far: each app process, then the proxy (if any), then the demo gateway."""
        pids = [app.process.pid for app in self.apps] + ([self.proxy.process.pid] if self.proxy else [])
        return [cpu_seconds(pid) for pid in [*pids, self.gateway.process.pid]]


def loopback(index: int) -> str:
    """The `index`-th visitor's own loopback address (all of 127.0.0.0/8 reaches this machine)."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


@dataclass
class Visitor:
    """One browser: its own pool from its own address, and its page session."""

    http: httpx.AsyncClient
    session: str


async def arrive(url: str, events: ChatEvents, index: int, tls: ssl.SSLContext) -> Visitor:
    """A browser that loaded the page: its session's first event, as a page load makes it."""
    http = httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=loopback(index), verify=tls), timeout=120)
    session = uuid.uuid4().hex[:12]
    await run_direct(http, url, events.stop, [None], session)
    return Visitor(http, session)


async def crowd(url: str, events: ChatEvents, count: int, tls: ssl.SSLContext) -> list[Visitor]:
    """`count` visitors who loaded the page, ten arriving at a time (before any measure starts)."""
    visitors: list[Visitor] = []
    for first in range(0, count, 10):
        visitors += await asyncio.gather(*(arrive(url, events, i, tls) for i in range(first, min(count, first + 10))))
    return visitors


async def burst(target: Target, sessions: int, tls: ssl.SSLContext) -> dict[str, Any]:
    """Every visitor sends one message at once; timed from the sends to the replies."""
    async with httpx.AsyncClient(timeout=60) as http:
        _, events = await page_events(http, target.url)
    visitors = await crowd(target.url, events, sessions, tls)
    load = os.getloadavg()[0]
    tokens = [f"tok{uuid.uuid4().hex[:10]}" for _ in range(sessions)]
    before, driver, start = target.cpu(), time.process_time(), time.perf_counter()
    replies = await asyncio.gather(*(chat_chain(v.http, target.url, events.send, f"Please repeat {token}", v.session)
                                     for v, token in zip(visitors, tokens)), return_exceptions=True)
    wall, driver = time.perf_counter() - start, time.process_time() - driver
    *spent, gateway = [after - was for after, was in zip(target.cpu(), before)]
    await asyncio.gather(*(v.http.aclose() for v in visitors))
    done = [(token, r) for token, r in zip(tokens, replies) if isinstance(r, Reply) and r.ttft is not None]
    mixed = [token for token, r in done if token not in r.text or any(other in r.text for other in tokens if other != token)]
    app_cpu = spent[:len(target.apps)]
    return {"load": load, "completed": len(done), "lost": sessions - len(done), "mixed": len(mixed),
            "ttft": [r.ttft for _, r in done], "join": [r.join for _, r in done if r.join is not None], "wall": wall,
            "cpu": sum(spent) / max(len(done), 1), "proxy_cpu": sum(spent[len(target.apps):]), "driver": driver, "gateway": gateway,
            "updates": statistics.mean(r.messages for _, r in done) if done else 0.0,
            "split": "/".join(f"{100 * c / max(sum(app_cpu), 1e-9):.0f}" for c in app_cpu)}


async def run(targets: list[Target], sessions: int, rounds: int) -> None:
    tls = ssl.create_default_context()  # one for every visitor's pool (each would build its own)
    for target in targets:  # unmeasured: every process's first replies and pools
        await burst(target, min(sessions, 20), tls)
    for round_index in range(rounds):
        order = targets[round_index % len(targets):] + targets[:round_index % len(targets)]
        for target in order:
            row = await burst(target, sessions, tls)
            row["round"] = round_index + 1
            target.rows.append(row)
            print_row(target.name, row)
            await asyncio.sleep(2)  # the finished sessions' streams close before the next burst


HEAD = (f"{'configuration':<26}{'round':>6}{'load':>6}{'completed':>10}{'lost':>6}{'mixed':>6}{'TTFT p50 ms':>13}{'TTFT p95 ms':>13}"
        f"{'join p95 ms':>13}{'CPU s/reply':>13}{'proxy CPU s':>13}{'app CPU split %':>17}{'updates/reply':>15}{'gateway CPU s':>15}{'driver CPU s':>14}")


def print_row(name: str, row: dict[str, Any]) -> None:
    print(f"{name:<26}{row['round']:>6}{row['load']:>6.2f}{row['completed']:>10}{row['lost']:>6}{row['mixed']:>6}"
          f"{statistics.median(row['ttft'] or [float('nan')]) * 1000:>13.0f}{percentile(row['ttft'], 0.95) * 1000:>13.0f}"
          f"{percentile(row['join'], 0.95) * 1000:>13.0f}{row['cpu']:>13.4f}{row['proxy_cpu']:>13.2f}{row['split']:>17}{row['updates']:>15.1f}{row['gateway']:>15.1f}{row['driver']:>14.1f}", flush=True)


def print_summary(targets: list[Target]) -> None:
    print("\nall rounds together (every session's figure pooled; the baseline is the first row, same run):")
    print(f"{'configuration':<26}{'bursts':>7}{'TTFT p50 ms':>13}{'TTFT p95 ms':>13}{'join p95 ms':>13}{'CPU s/reply':>13}")
    for target in targets:
        ttft = [t for row in target.rows for t in row["ttft"]]
        join = [j for row in target.rows for j in row["join"]]
        cpu = statistics.mean(row["cpu"] for row in target.rows)
        print(f"{target.name:<26}{len(target.rows):>7}{statistics.median(ttft or [float('nan')]) * 1000:>13.0f}"
              f"{percentile(ttft, 0.95) * 1000:>13.0f}{percentile(join, 0.95) * 1000:>13.0f}{cpu:>13.4f}")


def start_targets(chosen: list[str], token_delay: float, gateway: GatewayProcess, ports: list[int],
                  started: list[AppProcess | Proxy | GatewayProcess]) -> list[Target]:
    """The chosen configurations (`CONFIGURATIONS`), starting only the processes they need (added
    to `started` as they start, so they are stopped whatever happens)."""
    unknown = set(chosen) - set(CONFIGURATIONS)
    if unknown:
        raise SystemExit(f"unknown configuration(s) {', '.join(sorted(unknown))}; choose from {', '.join(CONFIGURATIONS)}")
    extra, pacing = ["--gateway-url", gateway.url], ["--pacing-full-rate", str(FULL_RATE // 2)]
    plain = 2 if "two" in chosen else int(bool({"direct", "proxy"} & set(chosen)))
    wanted: list[tuple[int, list[str]]] = [(ports[i], []) for i in range(plain)]
    wanted += [(ports[4], pacing), (ports[5], pacing)] if "shared" in chosen else []
    with ThreadPoolExecutor(4) as pool:  # they start at once (each waits for its "ready")
        starting = [pool.submit(start_app_process, token_delay, extra=[*extra, *more], port=port) for port, more in wanted]
        ready = [future.result() for future in starting if future.exception() is None]
    started += ready
    if len(ready) < len(wanted):
        raise RuntimeError(f"an app process did not start: {next(f.exception() for f in starting if f.exception() is not None)}")
    apps, shared = ready[:plain], ready[plain:]
    address = [app.url.removeprefix("http://") for app in ready]
    targets = []
    for name in CONFIGURATIONS:
        if name not in chosen:
            continue
        if name == "direct":
            targets.append(Target("1 process, direct", apps[0].url, apps[:1], gateway))
            continue
        pair = {"proxy": (address[0], address[0]), "two": (address[0], address[1]), "shared": tuple(address[plain:plain + 2])}[name]
        proxy = start_proxy(ports[{"proxy": 2, "two": 3, "shared": 6}[name]], *pair)
        started.append(proxy)
        behind = {"proxy": apps[:1], "two": apps, "shared": shared}[name]
        targets.append(Target(TITLES[name], proxy.url, behind, gateway, proxy))
    return targets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--token-delay", type=float, default=0.03)
    parser.add_argument("--configurations", default=",".join(CONFIGURATIONS),
                        help="which to measure: direct (1 process), proxy (1 behind HAProxy), two, shared (2 with the pacing budget shared)")
    parser.add_argument("--base-port", type=int, help="seven ports from this one (default: free ports)")
    args = parser.parse_args()
    print_header()
    ports = [args.base_port + i for i in range(7)] if args.base_port else [free_port() for _ in range(7)]
    gateway = GatewayProcess.start(DemoConfig(api_key=KEY, token_delay=args.token_delay, video_queue_seconds=2, video_run_seconds=60))
    started: list[AppProcess | Proxy | GatewayProcess] = [gateway]
    try:
        gateway.wait_ready()
        targets = start_targets(args.configurations.split(","), args.token_delay, gateway, ports, started)
        print(f"{args.sessions} visitors at once, each from its own address with its own pool; token delay "
              f"{args.token_delay * 1000:.0f} ms; one demo gateway process for all; proxy: {PROXY_CONFIG.relative_to(ROOT)}")
        print(HEAD)
        asyncio.run(run(targets, args.sessions, args.rounds))
        print_summary(targets)
    finally:
        for running in reversed(started):
            running.stop()
    print_footer()


if __name__ == "__main__":
    main()
