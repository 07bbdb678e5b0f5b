"""`python -m playground.report [--base-url URL] [--profile quick|thorough] [--json OUT] [--html OUT] [--fail-on strict|compatible]`."""

from __future__ import annotations

import sys

from playground.report.command import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
