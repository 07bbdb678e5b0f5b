"""Conversation branches: "Branch from here" on an earlier message keeps the conversation as it
is and starts another one from that point; the branch picker shows every branch and what it
last sent, and switches between them. Branches are part of the session (and of session files).

Plain functions over `conversation.Session` (no gradio), plus `BranchBar`, the two controls a
conversation panel shows for them.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.conversation.turns import REPLYING, Session, View, _note, _turn_of, _turns
from playground.ui.i18n import say, t
from playground.ui.shared.render import flatten_text

MAX_BRANCHES = 20


def _snapshot(history: list[dict[str, Any]], session: Session) -> dict[str, Any]:
    return {"shown": list(history), "sent": list(session.messages)}


def _keep_current(history: list[dict[str, Any]], session: Session) -> None:
    if not session.branches:
        session.branches.append(_snapshot(history, session))
        session.branch = 0
    else:
        session.branches[session.branch] = _snapshot(history, session)


def branch_from(history: list[dict[str, Any]] | None, session: Session | None, index: int | None) -> View:
    """Keep the conversation and start a new branch holding it up to message `index` (that turn included)."""
    history, session = list(history or []), session or Session()
    if session.replying:
        return _note(history, session, REPLYING)
    turns = _turns(history, session)
    turn = _turn_of(index, turns[0]) if turns is not None and index is not None and 0 <= index < len(history) else None
    if turns is None or turn is None:
        return _note(history, session, "note.branch_click_first")
    if len(session.branches) >= MAX_BRANCHES:
        return _note(history, session, "note.branch_limit", count=MAX_BRANCHES)
    shown, sent = turns
    shown_end = shown[turn + 1] if turn + 1 < len(shown) else len(history)
    sent_end = sent[turn + 1] if turn + 1 < len(sent) else len(session.messages)
    _keep_current(history, session)
    kept_history, kept_sent = history[:shown_end], session.messages[:sent_end]
    session.branches.append({"shown": list(kept_history), "sent": list(kept_sent)})
    session.branch = len(session.branches) - 1
    session.messages, session.pending = list(kept_sent), []
    notice = say("note.branch_started", branch=session.branch + 1, turn=turn + 1)
    return View(kept_history, session, notice=notice, done=True)


def switch_branch(history: list[dict[str, Any]] | None, session: Session | None, target: int | None) -> View:
    """Show branch `target` (the one on screen is kept as it is)."""
    history, session = list(history or []), session or Session()
    if session.replying:
        return _note(history, session, REPLYING)
    if target is None or not 0 <= target < len(session.branches) or target == session.branch:
        return View(history, session, done=True)
    _keep_current(history, session)
    chosen = session.branches[target]
    session.branch, session.messages, session.pending = target, list(chosen["sent"]), []
    return View(list(chosen["shown"]), session, notice=say("note.branch_shown", branch=target + 1), done=True)


def _last_sent(shown: list[dict[str, Any]]) -> str:
    typed = [flatten_text(m.get("content")) for m in shown if m.get("role") == "user"]
    return (typed[-1] if typed else say("branch.nothing_sent")).replace("\n", " ")[:60]


def branch_choices(session: Session) -> list[tuple[str, int]]:
    """(label, index) per branch: its number, turns and the last thing it sent."""
    choices = []
    for index, branch in enumerate(session.branches):
        turns = sum(1 for m in branch["shown"] if m.get("role") == "user")
        choices.append((say("branch.label", branch=index + 1, turns=turns, last=_last_sent(branch["shown"])), index))
    return choices


def valid_branches(value: Any) -> list[dict[str, Any]] | None:
    """Branches read from a session file, or None when they are not a list of {shown, sent} lists."""
    if not isinstance(value, list) or len(value) > MAX_BRANCHES:
        return None
    for branch in value:
        if not isinstance(branch, dict) or set(branch) != {"shown", "sent"}:
            return None
        if not all(isinstance(part, list) and all(isinstance(m, dict) for m in part) for part in branch.values()):
            return None
    return value


class BranchBar:
    """"Branch from here" (on the message last clicked) and the branch picker of one conversation."""

    def __init__(self, prefix: str) -> None:
        self.picked = gr.State(None)
        self.banner: Any = None
        """How the panel shows a notice or an error (given by `wire`)."""
        with gr.Row(elem_classes=["branch-row"]):
            self.button = gr.Button(t("branches.button"), size="sm", elem_id=f"{prefix}-branch", scale=1)
            self.picker = gr.Dropdown([], value=None, label=t("branches.picker"), visible=False, elem_id=f"{prefix}-branches", scale=3)

    def update(self, session: Session) -> Any:
        choices = branch_choices(session)
        return gr.update(choices=choices, value=session.branch if choices else None, visible=len(choices) > 1)

    def wire(self, chatbot: gr.Chatbot, state: gr.State, notice: gr.Markdown, error: gr.Markdown, banner: Any) -> list[Any]:
        """The bar's events; returns those that change the conversation."""
        self.banner = banner
        chatbot.select(picked_message, None, self.picked, queue=False)
        outputs = [chatbot, state, self.picker, notice, error]
        return [self.button.click(self.branch, [state, self.picked], outputs, queue=False),
                self.picker.input(self.switch, [state, self.picker], outputs, queue=False)]

    def branch(self, session: Session, index: int | None) -> tuple[Any, ...]:
        """"Branch from here" on message `index`: the outputs of `shown`."""
        return self.shown(branch_from(session.shown, session, index))

    def switch(self, session: Session, target: int | None) -> tuple[Any, ...]:
        """The picker's choice: the outputs of `shown`."""
        return self.shown(switch_branch(session.shown, session, target))

    def shown(self, view: View) -> tuple[Any, ...]:
        """(chat, session, picker, notice, error) for `view`; a note leaves the chat (and a reply
        arriving in it) alone."""
        if not view.aside:
            view.session.shown = list(view.history)
        return gr.skip() if view.aside else view.history, view.session, self.update(view.session), self.banner(view.notice), \
            self.banner(view.error)


def picked_message(event: gr.SelectData) -> int | None:
    """The index of the message last clicked (what "Branch from here" branches from)."""
    index = event.index
    return index[0] if isinstance(index, (list, tuple)) else index
