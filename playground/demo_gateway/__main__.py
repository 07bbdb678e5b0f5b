"""`python -m playground.demo_gateway --port N`: serve the demo gateway on its own."""

from __future__ import annotations

import argparse

import uvicorn

from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import redact_access_log


def main() -> None:
    parser = argparse.ArgumentParser(description="Offline demo gateway that speaks the gateway spec.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--key", default="demo-key", help="the API key clients must send as a Bearer token")
    parser.add_argument("--token-delay", type=float, default=0.03, help="seconds between streamed tokens")
    parser.add_argument("--fault", default=None, help="a fault for every request (see playground/demo_gateway/faults.py)")
    parser.add_argument("--video-queue-seconds", type=float, default=2.0, help="how long a video task stays queued")
    parser.add_argument("--video-run-seconds", type=float, default=8.0, help="how long a video task renders")
    parser.add_argument("--quirks", default="", help="misbehaviours, e.g. no-done,ignore-schema@gpt-4.1 (see playground/demo_gateway/quirks.py)")
    args = parser.parse_args()
    config = DemoConfig(api_key=args.key, token_delay=args.token_delay, fault=args.fault, quirks=tuple(args.quirks.split(",")),
                        video_queue_seconds=args.video_queue_seconds, video_run_seconds=args.video_run_seconds)
    redact_access_log()
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
