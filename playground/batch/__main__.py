"""`python -m playground.batch run SUITE [--models ...] [--repeat k] [--fail-under 0.9] [--json out.json]`."""

from __future__ import annotations

import sys

from playground.batch.command import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
