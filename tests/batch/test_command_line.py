"""`python -m playground.batch run SUITE` as CI runs it, in a process of its own against the demo
gateway: exit 0 at or above --fail-under, 1 below, 2 when the suite cannot run; --repeat; the
--json document valid against docs/batch-result.schema.json; progress on stderr; and the run stored
where the Batch tab opens it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema

from playground.demo_gateway.server import RunningGateway, free_port
from playground.ui.tabs.batch.runs import BatchRuns
from tests.client.batch.importers.fixtures import FIXTURES
from tests.conftest import DEMO_KEY

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "batch-result.schema.json").read_text(encoding="utf-8"))


def batch(tmp_path: Path, *args: str, gateway: RunningGateway | str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GATEWAY_", "PLAYGROUND_"))}
    env.update({"PYTHONPATH": str(ROOT), "PLAYGROUND_DATA_DIR": str(tmp_path / "data")})
    if gateway is not None:
        env.update({"GATEWAY_BASE_URL": gateway if isinstance(gateway, str) else gateway.url, "GATEWAY_API_KEY": DEMO_KEY})
    return subprocess.run([sys.executable, "-m", "playground.batch", "run", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180)


def test_below_the_bar_exits_1_on_the_demo_gateway_and_the_tab_opens_the_run(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = batch(tmp_path, str(FIXTURES / "promptfoo" / "getting-started" / "promptfooconfig.yaml"), "--fail-under", "0.5", "--json", str(out))
    assert done.returncode == 1, done.stderr
    assert "GATEWAY_BASE_URL is not set: running on the demo gateway" in done.stderr
    assert "4/4 cells, 0 error(s)" in done.stderr and "pass rate 0.0% (at least 50.0% to pass): failed" in done.stderr
    assert "not mapped: prompt 2" in done.stderr and done.stdout == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    assert (document["pass_rate"], document["passed"], len(document["cells"])) == (0.0, False, 4)
    assert [column["model"] for column in document["columns"]] == ["gpt-4.1", "o4-mini"]
    run, plan = BatchRuns.at(tmp_path / "data", 100).open(document["run_id"], "")  # as the tab opens a run (local: one owner)
    assert plan.columns == [("chat", "gpt-4.1"), ("chat", "o4-mini")] and len(run.cells) == 4


def test_at_the_bar_exits_0_and_repeat_runs_every_row_k_times(tmp_path: Path, gateway: RunningGateway) -> None:
    out = tmp_path / "result.json"
    done = batch(tmp_path, str(FIXTURES / "anthropic-console" / "console-export.csv"), "--models", "chat:gx-2.5-flash",
                 "--repeat", "2", "--fail-under", "0.3", "--json", str(out), gateway=gateway)
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    assert document["repeats"] == 2 and len(document["cells"]) == 6 and document["pass_rate"] == 2 / 6  # the demo's grader passes one of three rows, twice
    assert "passed" in done.stderr.splitlines()[-1]


def test_a_suite_that_cannot_run_exits_2_and_says_why(tmp_path: Path, gateway: RunningGateway) -> None:
    missing = batch(tmp_path, str(FIXTURES / "promptfoo" / "configuration-guide" / "promptfooconfig.yaml"), gateway=gateway)
    assert missing.returncode == 2
    assert "could not run: not imported: prompts[0]: file://prompt1.txt was not uploaded: add prompt1.txt to the upload" in missing.stderr
    no_models = batch(tmp_path, str(FIXTURES / "anthropic-console" / "console-export.csv"), gateway=gateway)
    assert no_models.returncode == 2 and "the suite names no model this playground maps: give --models" in no_models.stderr
    wrong = batch(tmp_path, str(FIXTURES / "openai-evals" / "it-ticket-eval.json"), "--models", "ollama:llama3", gateway=gateway)
    assert wrong.returncode == 2 and "--models ollama:llama3: ollama:llama3 is not a provider this playground maps" in wrong.stderr
    assert batch(tmp_path, str(tmp_path / "nothing.yaml"), gateway=gateway).returncode == 2


def test_promptfoo_provider_ids_choose_the_format(tmp_path: Path, gateway: RunningGateway) -> None:
    out = tmp_path / "result.json"
    done = batch(tmp_path, str(FIXTURES / "openai-evals" / "it-ticket-eval.json"), "--models", "anthropic:messages:cl-haiku-4-5-20251001",
                 "openai:responses:gpt-4.1", "--fail-under", "0", "--json", str(out), gateway=gateway)
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [(c["format"], c["model"]) for c in document["columns"]] == [("messages", "cl-haiku-4-5-20251001"), ("responses", "gpt-4.1")]
    assert all(not cell["error"] for cell in document["cells"]) and document["pass_rate"] == 0.0


def test_a_column_whose_cells_fail_is_named_with_its_first_error_and_the_demo_keeps_the_apps_pace(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = batch(tmp_path, str(FIXTURES / "anthropic-console" / "console-export.csv"), "--models", "chat:gx-2.5-flash", "messages:gpt-4.1",
                 "--fail-under", "0", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "C2 messages · gpt-4.1: 3 error(s), the first: not sent: " in done.stderr and "the messages format serves the `cl` family" in done.stderr
    assert "C1 chat completions" not in done.stderr
    run, _ = BatchRuns.at(tmp_path / "data", 100).open(json.loads(out.read_text(encoding="utf-8"))["run_id"], "")
    rates = [cell.tokens_per_s for cell in run.cells.values() if cell.tokens_per_s is not None]
    assert rates and max(rates) < 200  # the app's demo streams about 30 pieces a second, not thousands


def test_a_gateway_that_answers_nothing_is_not_a_failing_suite(tmp_path: Path) -> None:
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    out = tmp_path / "result.json"
    done = batch(tmp_path, str(FIXTURES / "anthropic-console" / "console-export.csv"), "--models", "gx-2.5-flash", "--json", str(out), gateway=closed)
    assert done.returncode == 2 and "could not run: no cell was answered (the gateway, not the suite)" in done.stderr
    jsonschema.validate(json.loads(out.read_text(encoding="utf-8")), SCHEMA)
