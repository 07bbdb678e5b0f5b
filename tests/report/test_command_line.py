"""`python -m playground.report` as CI runs it, in a process of its own: exit 0 on the clean demo
gateway (quick profile), 1 with a planted defect (DEMO_QUIRKS), 2 when the report cannot run (an
unreachable gateway, a refused key, a bad argument); progress on stderr; the HTML page written."""

from __future__ import annotations

import io
import json
import os
import subprocess
import xml.etree.ElementTree as ET
import sys
from pathlib import Path

import jsonschema

from playground.client.report.model import CHECKS
from playground.demo_gateway.server import RunningGateway, free_port
from playground.report.command import main
from tests.conftest import DEMO_KEY

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))


def report(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("GATEWAY_", "PLAYGROUND_", "DEMO_"))}
    clean.update({"PYTHONPATH": str(ROOT), "PLAYGROUND_DATA_DIR": str(tmp_path / "data"), **(env or {})})
    return subprocess.run([sys.executable, "-m", "playground.report", *args], cwd=tmp_path, env=clean,
                          capture_output=True, text=True, timeout=180)


def test_the_clean_demo_gateway_exits_0_with_progress_on_stderr(tmp_path: Path) -> None:
    done = report(tmp_path, "--profile", "quick", "--html", str(tmp_path / "report.html"), "--json", str(tmp_path / "report.json"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    checks = {row["id"]: row["status"] for row in data["checks"]}
    assert list(checks) == [check.id for check in CHECKS] and checks["video"] == "not_in_profile"
    assert set(checks.values()) <= {"passed", "not_supported", "not_in_profile"}
    assert {row["id"]: row["status"] for row in data["formats"]}["video"] == "not_in_profile"
    assert "GATEWAY_BASE_URL is not set: running on the demo gateway" in done.stderr and done.stdout == ""
    assert "0 failed" in done.stderr and done.stderr.splitlines()[-1].endswith("passed")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "report-summary-line" in page and "None" not in page


def test_a_planted_defect_exits_1_and_names_it_in_the_summary_and_badge(tmp_path: Path) -> None:
    done = report(tmp_path, "--fail-on", "strict", "--markdown", str(tmp_path / "summary.md"), "--badge", str(tmp_path / "badge.svg"),
                  env={"DEMO_QUIRKS": "no-done@gpt-4o-mini"})
    assert done.returncode == 1, done.stderr
    last = done.stderr.splitlines()[-1]
    assert "streams of chat completions · gpt-4o-mini end without [DONE]" in last and last.endswith("failed")
    text = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert text.startswith("## Gateway conformance: http://127.0.0.1:") and "1 failed" in text
    assert "| chat completions | gpt-4o-mini | stream conformance | the stream did not end with data: \\[DONE\\] \\(spec: Events, Chat completions stream; Chat completion chunk\\) |" in text
    assert "- Checks not in this profile: video job" in text
    root = ET.parse(tmp_path / "badge.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and "99% passed" in root.attrib["aria-label"]


def test_an_unreachable_gateway_and_a_refused_key_exit_2(tmp_path: Path, gateway: RunningGateway) -> None:
    nowhere = report(tmp_path, "--base-url", f"http://127.0.0.1:{free_port('127.0.0.1')}", env={"GATEWAY_API_KEY": DEMO_KEY})
    assert nowhere.returncode == 2 and "could not run: the gateway could not be reached" in nowhere.stderr
    refused = report(tmp_path, "--base-url", gateway.url, env={"GATEWAY_API_KEY": "sk-wrong-key-0000000000"})
    assert refused.returncode == 2 and "could not run: the key was refused" in refused.stderr
    assert "sk-wrong-key" not in refused.stderr


def test_a_bad_argument_exits_2() -> None:
    for args in (["--profile", "fast"], ["--fail-on", "lenient"], ["--concurrency", "0"], ["--base-url", "ftp://example.com"], ["--frobnicate"]):
        stderr = io.StringIO()
        assert main(args, stderr) == 2, args
        assert "playground.report: could not run:" in stderr.getvalue(), args


def test_compatible_verdicts_readiness_rows_and_a_comparison_with_the_last_kept_report(tmp_path: Path) -> None:
    first = report(tmp_path, "--fail-on", "compatible", "--keep", "--markdown", str(tmp_path / "first.md"), env={"DEMO_QUIRKS": "no-done"})
    assert first.returncode == 0, first.stderr  # chat streams without [DONE] fail strictly, but every official client accepts them
    assert "kept as " in first.stderr and first.stderr.splitlines()[-1].endswith("--fail-on compatible): passed")
    text = (tmp_path / "first.md").read_text(encoding="utf-8")
    assert "| openai | chat completions, responses, embeddings \\(list\\), images | ready | — |" in text
    assert "| anthropic | messages | ready | — |" in text and "failed, 0 failed." not in text and ", 0 failed." in text
    second = report(tmp_path, "--fail-on", "compatible", "--keep", "--compare-last", "--markdown", str(tmp_path / "second.md"), "--json", str(tmp_path / "second.json"),
                    env={"DEMO_QUIRKS": "drop-usage@cl-sonnet-4-5-20250929"})
    assert second.returncode == 1, second.stderr  # anthropic's MessageStream cannot read a stream without usage
    text = (tmp_path / "second.md").read_text(encoding="utf-8")
    assert "| anthropic | messages | not ready | messages · cl-sonnet-4-5-20250929 · plain answer |" in text
    assert "### Since the last kept report (http://127.0.0.1:" in text
    broke = next(line for line in text.splitlines() if line.startswith("- Broke \\("))
    fixed = next(line for line in text.splitlines() if line.startswith("- Fixed \\("))
    assert "messages · cl-sonnet-4-5-20250929 · plain answer" in broke and "chat completions · gpt-4o-mini · stream conformance" in fixed
    assert "Broke (" in second.stderr and "Fixed (" in second.stderr
    data = json.loads((tmp_path / "second.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert {row["client"]: row["status"] for row in data["clients"]} == {"openai": "ready", "anthropic": "not_ready", "google-genai": "ready"}
