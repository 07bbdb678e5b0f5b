"""A process that runs (or resumes) a Batch run kept in the local store, for the kill -9 test:

    python -m tests.client.batch.resume_worker DATA_DIR GATEWAY_URL new ROWS
    python -m tests.client.batch.resume_worker DATA_DIR GATEWAY_URL RUN_ID

It prints the run's id, then runs every pending cell through the runner as the Batch tab does
(the store opened as the app opens it, run files imported first), and prints "done"."""

from __future__ import annotations

import asyncio
import sys

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.runner import Runner
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.client.batch.run_import import import_run_files
from playground.client.batch.store import runs_directory
from playground.client.batch.stored_run import StoredRun
from playground.store.database import Database
from tests.conftest import DEMO_KEY

COLUMNS = [("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")]
CONCURRENCY = 4


def plan_of(rows: int) -> Plan:
    return Plan("Answer: {{q}}", dataset=Dataset(["q"], [{"q": f"question {n}"} for n in range(rows)], "kill.csv"),
                columns=list(COLUMNS), graders=[GraderSpec("regex", r"\w")], concurrency=CONCURRENCY)


async def main(data_dir: str, url: str, run_id: str, rows: int) -> None:
    database = Database.at(data_dir)
    import_run_files(database, runs_directory(data_dir), 1_000)
    if run_id == "new":
        plan = plan_of(rows)
        run = StoredRun.create(database, plan.to_dict(), "")
    else:
        run = StoredRun.open(database, run_id)
        plan = Plan.from_dict(run.header["plan"], 1_000)
    print(run.run_id, flush=True)
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=10.0))
    try:
        await Runner(client, Connection(url, DEMO_KEY), plan, run).run()
    finally:
        await client.aclose()
    print("done", flush=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    asyncio.run(main(arguments[0], arguments[1], arguments[2], int(arguments[3]) if len(arguments) > 3 else 0))
