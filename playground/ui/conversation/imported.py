"""A conversation from outside (an imported curl command's messages) as the chat's state: the
last user message becomes the draft, the turns before it the conversation, sent as they were."""

from __future__ import annotations

from typing import Any

from playground.ui.conversation.turns import Session


def text_of_content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def conversation_from(messages: list[Any], skip_roles: tuple[str, ...] = ("system",)) -> tuple[dict[str, Any], list[dict[str, Any]], Session]:
    """(draft, chatbot history, session) for an imported message list: the last user message
    becomes the draft; the turns before it are the conversation, sent as they were."""
    turns = [m for m in messages if isinstance(m, dict) and m.get("role") not in skip_roles]
    draft = ""
    if turns and turns[-1].get("role") == "user" and isinstance(turns[-1].get("content"), str):
        draft = turns.pop()["content"]
    history = [{"role": "user" if m.get("role") == "user" else "assistant", "content": text_of_content(m.get("content")) or f"({m.get('role')} turn)"}
               for m in turns]
    return {"text": draft, "files": []}, history, Session(messages=[dict(m) for m in turns], shown=list(history))


def panel_values(draft: dict[str, Any], history: list[dict[str, Any]], session: Session) -> list[Any]:
    """An imported conversation as the values of the panel's `imported` components: the draft,
    the chat, its session, and an empty metrics line (the last reply's figures are not this chat's)."""
    return [draft, history, session, ""]


def sent_before(values: list[Any]) -> list[dict[str, Any]]:
    """The messages an import's values (a conversation tab's form) would send before the draft."""
    return next((value.messages for value in values if isinstance(value, Session)), [])
