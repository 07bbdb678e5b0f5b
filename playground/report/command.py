"""`python -m playground.report`: run the gateway report in CI and exit 0 when every check that
ran passed (or is not supported by its format, with the reason), 1 when a check failed, 2 when the
report could not run (the gateway unreachable, the key refused, a bad argument).

The gateway is `--base-url` or `GATEWAY_BASE_URL`, the key `GATEWAY_API_KEY`; with neither URL the
demo gateway runs in a process of its own, as `app.py` starts it (with `DEMO_QUIRKS`, so a planted
defect can be seen failing). Before the probes, `GET /v1/models` with the key tells an unreachable
gateway or a refused key (exit 2) from a failing check. `--profile quick|thorough` is the Report
tab's depth (`Scope.default`). `--fail-on strict` (the default) fails on any check the spec's
letter fails; `--fail-on compatible` only on the cells that break an official client (openai,
anthropic, google-genai: `client/report/clients.py` says which deviation breaks which). `--json`,
`--html`, `--markdown` (a summary for a pull-request comment) and `--badge` (an SVG) are written in
English. `--keep` keeps the report in the local store (`PLAYGROUND_DATA_DIR`), where the Report
tab's history lists it; `--compare-last` compares it with the newest report kept there before it
(what broke, what was fixed, the latency that moved), in the Markdown summary and on stderr.
Progress goes to stderr, one line at most every `PROGRESS_EVERY_S`."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.report import document, history, page, summary
from playground.client.report.model import FAIL, Report, Scope
from playground.client.report.runner import MAX_CONCURRENCY, RunState, run_report
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_process import GatewayProcess
from playground.settings import Settings
from playground.store.database import Database

PASSED, FAILED, COULD_NOT_RUN = 0, 1, 2
PROGRESS_EVERY_S = 2.0
FAIL_ON = ("strict", "compatible")


class CommandError(Exception):
    """The report could not run: exit code 2, and this message on stderr."""


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so a bad argument exits 2 with our own line."""

    def error(self, message: str) -> None:  # type: ignore[override]  # argparse declares NoReturn; this raises, which is as good
        raise CommandError(message)


def parser() -> argparse.ArgumentParser:
    command = Parser(prog="python -m playground.report",
                     description="Run the gateway report (for CI): exit 0 when every check that ran passed or is not supported, "
                                 "1 when a check failed, 2 when the report could not run.")
    command.add_argument("--base-url", metavar="URL", help="the gateway (default GATEWAY_BASE_URL; with neither, the offline demo gateway); "
                                                           "the key is GATEWAY_API_KEY")
    command.add_argument("--profile", choices=("quick", "thorough"), default="quick",
                         help="quick: one model per family, no thorough-only checks or formats (default); thorough: every model and check")
    command.add_argument("--json", type=Path, metavar="OUT", help="write the report document here (docs/report.schema.json)")
    command.add_argument("--html", type=Path, metavar="OUT", help="write a self-contained HTML page here")
    command.add_argument("--markdown", type=Path, metavar="OUT", help="write a Markdown summary here (for a pull-request comment)")
    command.add_argument("--badge", type=Path, metavar="OUT", help="write a status badge (SVG) here: green when nothing failed, "
                                                                  f"amber from {summary.AMBER_FROM}%% passed, red below")
    command.add_argument("--fail-on", choices=FAIL_ON, default="strict",
                         help="strict: exit 1 on any failed check (default); compatible: exit 1 only when a failed check breaks an "
                              "official client (openai, anthropic, google-genai), e.g. not for a chat stream without [DONE]")
    command.add_argument("--keep", action="store_true", help="keep this report in the local store (PLAYGROUND_DATA_DIR), where the Report tab lists it")
    command.add_argument("--compare-last", action="store_true",
                         help="compare with the newest report kept before this one: what broke, what was fixed, the latency that moved "
                              "(in the --markdown summary and on stderr)")
    command.add_argument("--concurrency", type=int, default=4, metavar="N", help=f"probes at once (1 to {MAX_CONCURRENCY}; default 4)")
    return command


class ProgressLines:
    """Progress on stderr: a line when the run starts, at most one every `PROGRESS_EVERY_S`, and one at the end."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last, self.said = stream, 0.0, ""

    def say(self, text: str) -> None:
        print(f"playground.report: {text}", file=self.stream, flush=True)

    def tick(self, state: RunState, force: bool = False) -> None:
        now = time.monotonic()
        failed = sum(result.status == FAIL for result in state.report.results)
        line = f"{state.done}/{state.total} cells, {failed} failed"
        if line != self.said and (force or now - self.last >= PROGRESS_EVERY_S):
            self.last, self.said = now, line
            self.say(line)


async def reachable(client: GatewayClient, conn: Connection) -> None:
    """Raise `CommandError` when the gateway does not answer `GET /v1/models` with this key."""
    try:
        await client.list_models(conn)
    except GatewayError as error:
        status = getattr(error.exchange, "status", None)
        what = "the key was refused" if status in (401, 403) else "the gateway could not be reached" if status is None else f"HTTP {status}"
        raise CommandError(f"{what} at {conn.base_url}: {error.message[:300]}") from None


async def run(conn: Connection, scope: Scope, concurrency: int, lines: ProgressLines) -> Report:
    client = GatewayClient(Transport())
    try:
        await reachable(client, conn)
        state: RunState | None = None
        async for state in run_report(client, conn, scope, concurrency=concurrency):
            lines.tick(state)
        assert state is not None
        lines.tick(state, force=True)
        return state.report
    finally:
        await client.aclose()


def gateway(args: argparse.Namespace, settings: Settings, lines: ProgressLines) -> tuple[Connection, GatewayProcess | None]:
    """`--base-url`, the configured gateway, or the demo gateway in a process of its own (stopped by the caller)."""
    base_url = (args.base_url or "").strip().rstrip("/") or settings.gateway_base_url
    if base_url is not None:
        if not base_url.startswith(("http://", "https://")):
            raise CommandError(f"--base-url {base_url}: not an http(s) URL")
        return Connection(base_url, settings.gateway_api_key), None
    lines.say("no --base-url and GATEWAY_BASE_URL is not set: running on the demo gateway"
              + (f" (DEMO_QUIRKS={','.join(settings.demo_quirks)})" if settings.demo_quirks else ""))
    demo = GatewayProcess.start(DemoConfig(api_key=settings.demo_api_key, token_delay=0.0, quirks=settings.demo_quirks), hosted=False)
    demo.wait_ready()
    return Connection(demo.url, settings.demo_api_key), demo


def history_step(args: argparse.Namespace, settings: Settings, report: Report, lines: ProgressLines) -> list[str] | None:
    """`--compare-last` (the comparison's Markdown lines, also said on stderr) and `--keep`, in that order."""
    if not (args.keep or args.compare_last):
        return None
    database = Database.at(settings.data_dir)
    comparison = None
    if args.compare_last:
        found = history.listed(database, history.EVERYONE)
        before = history.open_kept(database, found[0].id, history.EVERYONE) if found else None
        comparison = summary.comparison_markdown(before, document.diff(before, report) if before is not None else None)
        for line in comparison:
            if line and not line.startswith("#"):
                lines.say(line.removeprefix("- ").replace("\\", ""))
    if args.keep:
        lines.say(f"kept as {history.keep_now(database, report, history.EVERYONE)} in {database.path}")
    return comparison


def write_files(args: argparse.Namespace, report: Report, comparison: list[str] | None = None) -> None:
    if args.json is not None:
        args.json.write_text(document.dumps(report), encoding="utf-8")
    if args.html is not None:
        args.html.write_text(page.html_page(report), encoding="utf-8")
    if args.markdown is not None:
        args.markdown.write_text(summary.markdown_summary(report, comparison=comparison), encoding="utf-8")
    if args.badge is not None:
        args.badge.write_text(summary.badge_svg(report), encoding="utf-8")


def run_command(args: argparse.Namespace, settings: Settings, stderr: TextIO) -> int:
    lines = ProgressLines(stderr)
    if not 1 <= args.concurrency <= MAX_CONCURRENCY:
        raise CommandError(f"--concurrency must be 1 to {MAX_CONCURRENCY}")
    scope = Scope.default(thorough=args.profile == "thorough")
    conn, demo = gateway(args, settings, lines)
    try:
        lines.say(f"{args.profile} report of {conn.base_url}: {len(scope.cells())} cells")
        report = asyncio.run(run(conn, scope, args.concurrency, lines))
    finally:
        if demo is not None:
            demo.stop()
    write_files(args, report, history_step(args, settings, report, lines))
    failed = report.counts(args.fail_on)[FAIL]
    lines.say(f"{document.summary_line(report)} ({report.wall_s:.1f} s; --fail-on {args.fail_on}): {'failed' if failed else 'passed'}")
    return FAILED if failed else PASSED


def main(argv: Sequence[str], stderr: TextIO = sys.stderr) -> int:
    try:
        args = parser().parse_args(list(argv))
        return run_command(args, Settings.from_env(), stderr)
    except (CommandError, OSError) as error:
        print(f"playground.report: could not run: {error}", file=stderr, flush=True)
        return COULD_NOT_RUN
