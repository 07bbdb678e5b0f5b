"""Each importer's fixtures run on the demo gateway reproduce the graders' expected verdicts: the
demo answers a prompt it cannot work out with its honest fallback (it is the offline demo, what it
can do), grades a rubric by the share of its terms the answer holds, labels by the first label the answer names, and embeds with meaning-carrying
vectors, so every verdict below follows from the fixture's own text."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from playground.client.batch.plan import Plan
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from tests.client.batch.importers.fixtures import imported, marks_of

PRICES = "model,input,output,cached_input\ncl-sonnet-4-5-20250929,3,15,0.3\n"


async def test_promptfoo_getting_started_runs_with_its_own_providers(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("promptfoo/getting-started")
    assert suite.columns == [("chat", "gpt-4.1"), ("chat", "o4-mini")]  # openai:gpt-4.1 and openai:o4-mini, served by the demo
    plan = suite.plan()
    run = RunFile.create(tmp_path, plan.to_dict())
    assert (await Runner(client, conn, plan, run).run()).errors == 0
    for column in (0, 1):  # the demo translates none of these sentences
        assert [mark["passed"] for mark in run.cells[f"0.0.{column}"].marks] == [False, None]
        assert [mark["passed"] for mark in run.cells[f"1.0.{column}"].marks] == [None, False]
    assert run.cells["1.0.0"].marks[0]["detail"] == "not asked for this row"


async def test_promptfoo_simple_test_verdicts(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("promptfoo/simple-test")
    plan = suite.plan([("chat", "gpt-4.1")])  # gpt-4.1-mini is not a demo model
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    marks = [run.cells[f"{row}.0.0"].marks for row in range(5)]
    # graders: equals (row 1), icontains grub/arrr (rows 2, 5), is-json (row 3), similar (row 4), llm-rubric (row 5)
    assert [[mark["passed"] for mark in row] for row in marks] == [
        [False, None, None, None, None],
        [None, False, None, None, None],
        [None, None, False, None, None],
        [None, None, None, False, None],
        [None, False, None, None, False],
    ]
    assert marks[0][0]["detail"] == "expected 'Yarr'"
    assert marks[3][3]["detail"].startswith("cosine ") and marks[3][3]["detail"].endswith("(at least 0.75)")
    # "Is spoken like a pirate": the demo's fallback holds neither term (spoken, pirate): the lowest score
    assert marks[4][4]["detail"].startswith("1/5") and marks[4][4]["score"] == 1


async def test_promptfoo_claude_vs_gpt_verdicts_with_cost_and_latency(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("promptfoo/claude-vs-gpt", prices=PRICES)
    assert suite.system == "Be concise" and suite.user == "Answer this riddle:\n{{riddle}}\n"
    marks = await marks_of(client, conn, suite, tmp_path, [("messages", "cl-sonnet-4-5-20250929")])
    assert all(row[0] is True for row in marks)  # cost: a few hundred tokens at $3/$15 per 1M is under $0.01
    assert all(isinstance(row[1], bool) for row in marks)  # latency is graded (its verdict depends on the machine)
    verdicts = [row[2:] for row in marks]
    assert verdicts[0] == [False, False, None]  # "echo" not said; "Do not apologize": 1/5
    assert verdicts[1] == [None, False, None]  # the boat riddle's rubric: 2/5
    assert verdicts[4] == [None, None, False]  # fire or flame (icontains-any)
    assert verdicts[12] == [None, None, None]  # a test without assertions
    assert verdicts[13] == [None, None, False]  # contains "David" (case-sensitive: a regex): the demo's answer names nobody
    assert [row[0] for row in verdicts] == [False, None, False, False, None, False, False, False, False, False, False, False, None, None, False]


async def test_openai_evals_tickets_verdicts(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("openai-evals")
    assert suite.columns == [("responses", "gpt-4.1")]
    assert await marks_of(client, conn, suite, tmp_path) == [[False], [False], [False]]  # the demo's answer names no label


async def test_openai_evals_graders_verdicts_with_demo_grading_models(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("openai-graders")
    suite.graders = [replace(spec, model={"model": "gpt-4.1", "label": "gpt-4.1"}.get(spec.kind, spec.model)) for spec in suite.graders]
    plan: Plan = suite.plan([("chat", "gpt-4.1")])
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    first = run.cells["0.0.0"].marks
    assert [mark["passed"] for mark in first] == [False, False, False]
    # score_model on [0, 1] passing at 0.5: 1 of the rubric's 15 terms is in the demo's fallback answer
    assert first[0]["detail"] == "0.07/1: The answer mentions 1 of 15 rubric terms (found: model)." and first[0]["score"] == 0.07
    assert first[1]["detail"].startswith("bad")  # names neither label: the demo gives the last one, which does not pass
    assert first[2]["detail"].startswith("cosine ")


async def test_console_csv_verdicts(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    suite = imported("anthropic-console")
    # the rubric quotes the ideal answer: the demo's answer holds enough of its terms in row 1 only
    assert await marks_of(client, conn, suite, tmp_path, [("chat", "gx-2.5-flash")]) == [[True], [False], [False]]
