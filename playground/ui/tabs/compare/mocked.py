"""Mocked tools on the Compare tab: a column whose "offer the mocked tools" box is ticked sends the
tab's mocked tools (JSON, `client.tools.mock`) and each call of a fixed or template mock is answered
by itself (`client.tools.loop`, at most 5 requests a column); the column shows each call and the
answer its mock gave before the model's final answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gradio as gr

from playground.client.batch.call import run_request
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.results import TextResult
from playground.client.tools.loop import MockedCall, ToolRun, run_with_mocks
from playground.client.tools.mock import EXAMPLE, MockTool, MockToolError, mock_tools_text, read_mock_tools
from playground.client.transport import Connection, Exchange
from playground.ui.conversation.turns import TOOL_RESULT_MARK
from playground.ui.i18n import say
from playground.ui.shared.render import error_text, pretty_arguments
from playground.ui.shared.widgets import banner_update


def example_tools() -> str:
    """The mocked tools box's example: get_weather answered from a template over its `city`."""
    return mock_tools_text([EXAMPLE])


def offer_mocks(compare_state: Any, mocked: str, *offers: Any) -> Any:
    """After Send is checked: which columns offer the mocked tools (kept in the state), checked whole;
    a problem stops the Send with the error banner."""
    if not compare_state.ready:
        return gr.skip()
    try:
        tools = tuple(read_mock_tools(mocked or ""))
        if any(offers) and not tools:
            raise MockToolError([say("bcols.no_mocks")])
    except MockToolError as error:
        compare_state.ready = False
        return banner_update(error_text(RequestValidationError(error.problems)))
    compare_state.tools = [tools if on else () for on in offers]
    return gr.skip()


async def answered_by_mocks(client: GatewayClient, conn: Connection, fmt: str, model: str, request: Any, tools: Sequence[MockTool],
                            shown: Callable[[TextResult, Exchange], None]) -> ToolRun:
    """The column's requests until the model answers; `shown(result, exchange)` as each one opens."""
    return await run_with_mocks(lambda sent: run_request(client, conn, fmt, sent, shown), request, fmt, model, tools)


def calls_messages(calls: Sequence[MockedCall]) -> list[dict[str, Any]]:
    """Each call the column's model made and the answer its mock sent, as chat messages."""
    messages: list[dict[str, Any]] = []
    for call in calls:
        messages.append({"role": "assistant", "content": f"```json\n{pretty_arguments(call.arguments)}\n```",
                         "metadata": {"title": say("answer.tool_call", name=call.name), "status": "done"}})
        if call.answer is not None:
            messages.append({"role": "user", "content": f"{TOOL_RESULT_MARK} `{call.name}`:\n```\n{call.answer}\n```"})
    return messages
