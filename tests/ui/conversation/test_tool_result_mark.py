"""A tool's result in the chat is marked in words ("Tool result of"), and one marked the old way
(with an emoji, as a saved session may hold it) is still read as a tool result, not a person's turn."""

from __future__ import annotations

from playground.ui.conversation.turns import OLD_TOOL_RESULT_MARK, TOOL_RESULT_MARK, _shown_user_turn


def test_tool_results_old_and_new_are_not_a_persons_turn() -> None:
    for mark in (TOOL_RESULT_MARK, OLD_TOOL_RESULT_MARK):
        assert not _shown_user_turn({"role": "user", "content": f"{mark} `get_weather`:\n```\n18 C\n```"})
    assert _shown_user_turn({"role": "user", "content": "Result of the match?"})
