"""Where the importers' fixture files are (real files from each tool's docs and examples; see
tests/fixtures/imports/README.md) and a helper that runs a suite on the demo gateway."""

from __future__ import annotations

from pathlib import Path

from playground.client.batch.importers import Suite, read_suite
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "imports"


def upload(folder: str) -> list[str | Path]:
    """Every file of a fixture folder, as one upload."""
    return list(sorted((FIXTURES / folder).iterdir()))


def imported(folder: str, max_rows: int = 1000, prices: str = "") -> Suite:
    return read_suite(upload(folder), max_rows, prices)


async def marks_of(client: GatewayClient, conn: Connection, suite: Suite, tmp_path: Path,
                   columns: list[tuple[str, str]] | None = None) -> list[list[bool | None]]:
    """Run the suite on the demo gateway (first column) and give each row's verdicts, grader by grader."""
    plan = suite.plan(columns)
    run = RunFile.create(tmp_path, plan.to_dict())
    progress = await Runner(client, conn, plan, run).run()
    assert progress.errors == 0, [cell.error for cell in run.cells.values() if cell.error]
    return [[mark["passed"] for mark in run.cells[f"{row}.0.0"].marks] for row in range(len(plan.dataset.rows))]
