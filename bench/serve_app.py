"""The app with its demo gateway in a process of its own, for benchmarks that measure its CPU.

    python -m bench.serve_app --port 7861 [--token-delay 0.03] [--sample counts.json] [--gateway-url URL] [--release-s 180 --release-every-s 30]

The demo gateway runs as `app.py` runs it, in a process of its own (`playground.demo_process`), so
the app's CPU figures leave it out; with `BENCH_GATEWAY=thread` it runs in a thread of the app's
process instead (as before issue 25's last pass), to measure what sharing the interpreter costs; with
`--gateway-url` it uses a demo gateway already running there (several app processes, one gateway);
`--pacing-full-rate` sets how many replies stream at the full update rate before the process stretches
their intervals (`ui/shared/forms.Pacing`; 20), to share one update budget among processes. With
`--sample` a `bench.stack_sampler` counts where the process's CPU goes (SIGUSR1 starts, SIGUSR2 writes).
`--release-s` is `PLAYGROUND_SESSION_RELEASE_S` (0: closed pages' sessions are never released).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from bench.stack_sampler import install
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.demo_process import GatewayProcess
from playground.settings import Settings
from playground.ui.conversation.turns import PACING
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from playground.ui.web.session_release import RELEASE_EVERY_S
from playground.ui.web.visitors import VisitorRules

KEY = "bench-key"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token-delay", type=float, default=0.03)
    parser.add_argument("--sample", type=Path, help="count where the CPU goes; SIGUSR1 starts, SIGUSR2 writes this file")
    parser.add_argument("--gateway-url", help="a demo gateway already running (key bench-key) instead of one of its own")
    parser.add_argument("--pacing-full-rate", type=int, help="replies streaming at the full update rate in this process (default 20)")
    parser.add_argument("--release-s", type=float, default=Settings().session_release_s, help="release a closed page's session after this long")
    parser.add_argument("--release-every-s", type=float, default=RELEASE_EVERY_S, help="how often the release looks")
    args = parser.parse_args()
    if args.pacing_full_rate:
        PACING.full_rate = args.pacing_full_rate
    if args.sample:
        install(args.sample)
    config = DemoConfig(api_key=KEY, token_delay=args.token_delay, video_queue_seconds=2, video_run_seconds=60)
    if args.gateway_url:
        url = args.gateway_url
    elif os.environ.get("BENCH_GATEWAY") == "thread":
        url = start_in_thread(config).url
    else:
        demo = GatewayProcess.start(config)
        demo.wait_ready()
        url = demo.url
    settings = Settings(session_release_s=args.release_s)
    blocks = configure_queue(build_app(settings, ServerDefaults(url, KEY, demo=True)))
    rules = VisitorRules.from_settings(settings, release_every_s=args.release_every_s)
    blocks.launch(server_name="127.0.0.1", server_port=args.port, prevent_thread_lock=True, quiet=True, **launch_options(settings, rules))
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
