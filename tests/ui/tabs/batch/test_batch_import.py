"""Importing a suite in the Batch tab through `BatchHandlers.on_import`: the form filled in the page's
order, the suite's graders kept with its data set and run, what could not be mapped listed in the
visitor's words, a refusal that changes nothing, and the graders dropped when the data set changes."""

from __future__ import annotations

import json
from pathlib import Path

from playground.ui.tabs.batch.form import DATA_OUTPUTS
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from tests.client.batch.importers.fixtures import upload
from tests.ui.i18n.test_i18n_views import chinese
from tests.ui.tabs.batch.test_batch_events import COLUMNS, FORM, OWN, handlers, skipped

__all__ = ["handlers"]


async def test_a_promptfoo_suite_fills_the_form_and_its_graders_run(handlers: BatchHandlers) -> None:
    batch = BatchState()
    answer = await handlers.on_import(batch, [str(path) for path in upload("promptfoo/getting-started")])
    assert len(answer) == 2 + handlers.form_size + DATA_OUTPUTS
    status, form = answer[1], list(answer[2:2 + len(FORM)])
    assert status.startswith("✓ Imported promptfoo config **Getting started**: 2 rows, 2 column(s), 2 grader(s).")
    assert "**Not mapped** (left out of the run):\n- prompt 2 (“Translate to {{language}}: {{input}}”) is not run" in status
    assert form[:6] == ["", "Convert this English to {{language}}: {{input}}", "chat", "gpt-4.1", "chat", "o4-mini"]
    assert [kind for kind in form[2 + len(COLUMNS) + 6::5]][:1] == [""]  # the grader boxes are cleared: the suite's graders run beside them
    assert [spec.kind for spec in batch.suite_graders] == ["regex", "contains"] and batch.dataset is not None
    suite_line, suite_model = answer[-2:]
    assert suite_line.startswith("Graders from the suite") and "matches the regex" in suite_line, "named in the Graders panel, not \"(none)\""
    assert suite_model["visible"] is False, "no grader of this suite asks a model"
    form_now = [*form[:2 + len(COLUMNS) + 6], *form[2 + len(COLUMNS) + 6:-len(OWN)], *[""] * len(OWN)]
    plan, warnings = handlers.plan_of(batch, tuple(form_now))
    assert [spec.kind for spec in plan.graders] == ["regex", "contains"] and warnings == []
    started = await handlers.on_run(batch, "", "", *form_now)
    assert batch.run_id and started[1]["value"] == ""
    assert [html async for html in handlers.on_watch(batch)][-1].count('data-status="finished"') == 1
    pasted = await handlers.on_paste(batch, "another question", "", "{{question}}")
    assert batch.suite_graders == [] and pasted[-2] == ""  # the graders belonged to the imported data set


async def test_a_suite_without_a_mapped_model_keeps_the_columns_chosen(handlers: BatchHandlers) -> None:
    answer = await handlers.on_import(BatchState(), [str(path) for path in upload("anthropic-console")])
    form = list(answer[2:2 + len(FORM)])
    assert all(skipped(value) for value in form[2:2 + len(COLUMNS)]) and all(skipped(value) for value in form[-len(OWN):])
    assert "choose the columns below" in answer[1] and "earlier outputs and grades (Model Response, Grade) are not imported" in answer[1]


async def test_a_refused_suite_changes_nothing_and_says_what_and_where(handlers: BatchHandlers, tmp_path: Path) -> None:
    batch = BatchState()
    refused = await handlers.on_import(batch, [str(path) for path in upload("promptfoo/configuration-guide")])
    assert refused[1] == ("⚠ **Not imported** (nothing on the page changed):\n"
                          "- prompts\\[0\\]: file://prompt1.txt was not uploaded: add prompt1.txt to the upload")  # as Markdown shows it
    assert all(skipped(value) for value in refused[2:]) and batch.dataset is None


async def test_what_could_not_be_mapped_is_said_in_chinese(handlers: BatchHandlers) -> None:
    with chinese():
        answer = await handlers.on_import(BatchState(), [str(path) for path in upload("promptfoo/simple-test")])
    assert "已导入 promptfoo 配置" in answer[1] and "**未映射**（不参与运行）：" in answer[1]
    assert "tests\\[3\\].assert\\[0\\]：javascript 断言会运行代码：已拒绝" in answer[1]


async def test_a_session_of_an_imported_run_loads_its_graders_beside_the_boxes(handlers: BatchHandlers, tmp_path: Path) -> None:
    batch = BatchState()
    answer = await handlers.on_import(batch, [str(path) for path in upload("openai-graders")])
    form = [*answer[2:2 + len(FORM)]]
    form[2:2 + len(COLUMNS)] = ["chat", "gpt-4.1", *[""] * (len(COLUMNS) - 2)]
    form[-len(OWN):] = OWN
    plan, _ = handlers.plan_of(batch, tuple(form))
    path = tmp_path / "session.json"
    path.write_text(json.dumps(plan.to_dict()), encoding="utf-8")
    loaded_into = BatchState()
    loaded = handlers.on_load(loaded_into, str(path))
    boxes = list(loaded[2 + 2 + len(COLUMNS) + 6:2 + 2 + len(COLUMNS) + 6 + 30])
    assert boxes[0::5] == [""] * 6  # a score on a 0-1 scale, a label grader and a similarity threshold do not fit the boxes
    assert [spec.kind for spec in loaded_into.suite_graders] == ["model", "label", "similar"]
    again, _ = handlers.plan_of(loaded_into, tuple(form))
    assert again.graders == plan.graders


async def test_a_vendor_model_name_becomes_the_gateways_and_a_model_off_the_list_is_named(handlers: BatchHandlers, tmp_path: Path) -> None:
    config = tmp_path / "promptfooconfig.yaml"
    config.write_text("prompts: ['Answer: {{question}}']\n"
                      "providers: ['openai:chat:gpt-4.1', 'anthropic:messages:claude-sonnet-4-5-20250929']\n"
                      "defaultTest: {options: {provider: 'openai:chat:gpt-4.1-mini'}}\n"
                      "tests: [{vars: {question: 'Capital of France?'}, assert: [{type: llm-rubric, value: 'Names Paris'}]}]\n", encoding="utf-8")
    batch = BatchState()
    answer = await handlers.on_import(batch, [str(config)])
    status, form = answer[1], list(answer[2:2 + len(FORM)])
    assert form[2:6] == ["chat", "gpt-4.1", "messages", "cl-sonnet-4-5-20250929"]
    assert "Not in this playground's model list, so the gateway may refuse them: gpt-4.1-mini." in status
    assert "cl-sonnet" not in status.split("model list")[1] and batch.suite_graders[0].model == "gpt-4.1-mini"
    assert answer[-1]["visible"] is True and answer[-1]["value"] == "gpt-4.1-mini", "the grading model is shown where it can be changed"


async def test_the_suites_grading_model_is_changed_in_the_graders_panel_and_a_bad_name_changes_nothing(handlers: BatchHandlers) -> None:
    batch = BatchState()
    await handlers.on_import(batch, [str(path) for path in upload("openai-graders")])
    similar = next(spec for spec in batch.suite_graders if spec.kind == "similar")
    state, line = handlers.on_suite_model(batch, " gx-2.5-flash ")
    assert state is batch and {spec.model for spec in batch.suite_graders if spec.kind in ("model", "label")} == {"gx-2.5-flash"}
    assert similar in batch.suite_graders, "a similarity grader keeps its embedding model"
    assert "graded by gx-2.5-flash" in line
    before = list(batch.suite_graders)
    for bad in ("", "   ", "m" * 201, None):
        _, refused = handlers.on_suite_model(batch, bad)
        assert refused.startswith("⚠ The suite's grading model was not changed") and batch.suite_graders == before
