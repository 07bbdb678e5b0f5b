"""The Compare tab's layout: one input area, up to four (format, model) columns streaming side by
side, then the metrics table, a word diff, the raw requests and how each format carries the
shared parameters, and the export."""

from __future__ import annotations

from functools import partial
from typing import Any

import gradio as gr

from playground.ui.i18n import english, t

from playground.ui.conversation.chatbot import Chatbot
from playground.ui.tabs.compare import handlers, mocked
from playground.ui.tabs.compare.handlers import PRESETS, CompareState
from playground.ui.shared.column_picker import ColumnPicker
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.shared.uploaded_image import uploaded_image
from playground.ui.shared.widgets import error_banner
from playground.ui.shared.scrolling import bring_into_view
from playground.ui.shared.worded_defaults import first_default_js

COLUMNS = 4


def _with_columns(values: dict[str, Any]) -> dict[str, Any]:
    """An example's values plus the column formats and models of the preset it names (a
    preset picked in code does not fire the picker's own event)."""
    slots = PRESETS[values["preset"]]
    return {**values, **{f"{kind}_{index}": value for index, slot in enumerate(slots) for kind, value in zip(("format", "model"), slot)}}


EXAMPLES = [
    Example(t("compare.a_riddle_through_four"), t("compare.the_same_question_in"),
            _with_columns({"user": Said("compare.example.riddle_message"), "preset": "One model family through all four formats"})),
    Example(t("compare.thinking_everywhere"), t("compare.thinking_on_see_how"),
            _with_columns({"user": Said("compare.example.thinking_message"), "thinking": True, "preset": "One model family through all four formats"})),
]
"""The questions are asked in the page's language when the example is clicked (`Said`)."""


def build_compare_tab(ctx: TabContext) -> TabParts:
    state = gr.State(CompareState())
    with gr.Row():
        with gr.Column(scale=3):
            system = gr.Textbox(label=t("chat.system"), lines=1, elem_id="compare-system")
            user = gr.Textbox(label=t("compare.message"), lines=2, value=english(handlers.DEFAULT_MESSAGE), elem_id="compare-message")  # worded on load
        with gr.Column(scale=2):
            image = uploaded_image(label=t("cmp.image"), height=200, elem_id="compare-image")  # 120 px: the label covered the drop text
        with gr.Column(scale=2):
            temperature = gr.Slider(0, 2, value=0.7, step=0.05, label=t("compare.temperature"), elem_id="compare-temperature")
            max_tokens = gr.Number(0, label=t("common.max_output_tokens_0"), elem_id="compare-max-tokens")
            with gr.Row():
                thinking = gr.Checkbox(False, label=t("native.thinking"), elem_id="compare-thinking", min_width=100)
                stream = gr.Checkbox(True, label=t("compare.stream"), elem_id="compare-stream", min_width=100)
            budget = gr.Number(2048, label=t("compare.thinking_budget_tokens"), elem_id="compare-budget")
    picker = ColumnPicker.start("compare", PRESETS)
    examples = ExampleRow.build("compare", EXAMPLES, shows="compare-chat-0")
    with gr.Accordion(t("batch.mocked_tools"), open=False, elem_id="compare-mock"):
        gr.Markdown(t("compare.mocked_tools_explains"))
        mock_example = gr.Button(t("batch.mocked_tools_example"), size="sm", elem_id="compare-mock-example")
        mock_tools = gr.Code("", language="json", label=t("batch.mocked_tools_json"), interactive=True, elem_id="compare-mock-tools")
    chats, lines, offers = [], [], []
    with gr.Row():
        for index in range(COLUMNS):
            with gr.Column(min_width=220, elem_id=f"compare-column-{index}") as box:
                picker.boxes.append(box)
                picker.column(index)
                offers.append(gr.Checkbox(False, label=t("batch_col.mocked_tools"), elem_id=f"compare-col-tools-{index}"))
                chats.append(Chatbot(height=None, min_height=240, max_height=720, elem_id=f"compare-chat-{index}",
                                     label=t("conversation.chatbot"), show_label=False))  # grows with the answer: the question above it stays in view
                lines.append(gr.Markdown(elem_id=f"compare-metrics-{index}", elem_classes=["metrics-line"]))
    add_column = gr.Button(t("batch.add_column"), size="sm", elem_id="compare-add-column")
    with gr.Row():
        send = gr.Button(t("compare.send_to_every_column"), variant="primary", elem_id="compare-send")
        stop = gr.Button(t("compare.stop_all"), variant="stop", elem_id="compare-stop")
    error = error_banner("compare")
    table = gr.Markdown(elem_id="compare-table")
    with gr.Accordion(t("compare.word_diff_of_two"), open=False, elem_id="compare-diff-panel"):
        with gr.Row():
            left = gr.Dropdown([1, 2, 3, 4], value=1, label=t("common.first_column"), elem_id="compare-diff-left")
            right = gr.Dropdown([1, 2, 3, 4], value=2, label=t("common.second_column"), elem_id="compare-diff-right")
        diff = gr.HTML(elem_id="compare-diff")
    with gr.Accordion(t("compare.the_requests_side_by"), open=False, elem_id="compare-requests-panel"):
        mapping = gr.Markdown(elem_id="compare-mapping")
        with gr.Row():
            requests = [gr.Code(language="json", label=t("common.column") + f" {i + 1}", interactive=False, elem_id=f"compare-request-{i}") for i in range(COLUMNS)]
    with gr.Row():
        export_json = gr.File(label=t("compare.comparison_json"), elem_id="compare-export-json")
        export_md = gr.File(label=t("compare.comparison_md"), elem_id="compare-export-md")

    slots_in = picker.inputs

    wired = handlers.CompareHandlers(ctx.client, ctx.defaults, ctx.prices)
    ends = [*lines, table, mapping, *requests, diff, export_json, export_md]
    inputs = [state, system, user, image, temperature, max_tokens, thinking, budget, stream]
    bring_into_view(send, "compare-chat-0")  # the answers, above the Send button
    began = send.click(handlers.begin, [*inputs, *slots_in], [error], queue=False)
    offered = began.then(mocked.offer_mocks, [state, mock_tools, *offers], [error], queue=False)
    mock_example.click(mocked.example_tools, None, mock_tools, queue=False)
    streaming = offered.then(wired.stream, [state, *ctx.connection, *slots_in], chats, concurrency_limit=None, show_progress="hidden")
    streaming.then(wired.ended, [state, left, right, *slots_in], ends, queue=False)
    stop.click(wired.stopped, [state, left, right, *slots_in], ends, cancels=[streaming], queue=False)
    gr.on([left.change, right.change], wired.diff_picked, [state, left, right, *slots_in], diff, queue=False)

    picker.wire()
    picker.wire_slots(add_column)
    columns = {f"{kind}_{index}": component for index, pair in enumerate(zip(picker.formats, picker.models))
               for kind, component in zip(("format", "model"), pair)}
    examples.wire({"system": system, "user": user, "image": image, "temperature": temperature, "max_tokens": max_tokens,
                   "thinking": thinking, "stream": stream, "budget": budget, "preset": picker.preset, **columns})
    return TabParts(after_load=partial(_first_message, user), after_language=partial(_reworded_message, user))


def _first_message(user: gr.Textbox, loaded: Any) -> None:
    """After the page's load: the default message in the page's language, while untouched (a script in the page)."""
    loaded.then(None, user, user, js=first_default_js(handlers.DEFAULT_MESSAGE), queue=False)


def _reworded_message(user: gr.Textbox, switched: Any) -> None:
    """After the language switch: the default message in the new language, if untouched."""
    switched.then(handlers.reworded_message, user, user, queue=False)
