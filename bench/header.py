"""The lines every benchmark prints before its table: the command, when, the machine's load and
the versions that move the figures, so anyone can tell why their numbers differ.

    from bench.header import print_header
    print_header()          # first thing in main()

The dev machine is shared (2 cores, other sessions running): load averages above the core
count mean the figures are slower than the code, and the same-run baseline is what to compare.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import shlex
import sys

PACKAGES = ("gradio", "httpx", "orjson", "openai", "anthropic", "google-genai")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def header_lines(argv: list[str] | None = None) -> list[str]:
    argv = sys.argv if argv is None else argv
    module = argv[0].removesuffix(".py").replace(os.sep, ".").split("bench.", 1)[-1] if argv else "?"
    command = " ".join(["python -m", f"bench.{module}", *map(shlex.quote, argv[1:])])
    cores = os.cpu_count() or 0
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    busy = "  (busier than the core count: expect slower figures)" if load[0] > cores else ""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    versions = ", ".join(f"{name} {_version(name)}" for name in PACKAGES)
    return [
        f"$ {command}",
        f"{when}; {platform.machine()} {cores} cores; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}{busy}",
        f"Python {platform.python_version()} ({platform.python_implementation()}); {versions}",
        "shared, noisy machine: compare with the baseline measured in the same run, not across runs",
        "",
    ]


def print_header(argv: list[str] | None = None) -> None:
    print("\n".join(header_lines(argv)), flush=True)


def print_footer() -> None:
    """The load average when the table is done (the header has it at the start)."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
