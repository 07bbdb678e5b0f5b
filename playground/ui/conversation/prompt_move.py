"""Moving a prompt between the conversation tabs and Batch, unchanged: "Send to Batch" takes a
tab's system prompt and message templates and the Variables panel's values (as a one-row data
set); "Open in Chat" takes Batch's templates and its first data row back into the Chat tab.

The conversation tabs register their boxes (`ConversationPanel.wire`), the Batch tab its own
(`register_batch`), and the app wires both ways once every tab exists (`wire`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.client.batch.dataset import Dataset
from playground.ui.conversation.template_vars import names_in, table_value, text_of, values_of

TAB_NAMES = {"chat": "Chat", "responses": "Responses", "messages": "Messages", "native": "Native"}


def batch_prompt(draft: Any, system: Any, table: Any, tab: str, typed: str = "") -> tuple[str, str, Dataset]:
    """(system, user, data set) for Batch from a conversation tab: the templates as typed (the
    message box, or when it is empty the last message sent as typed), and the Variables panel's
    values as one row (a prompt without variables is one row of nothing)."""
    user, system_text = (text_of(draft).strip() and text_of(draft)) or typed, system if isinstance(system, str) else ""
    names, values = names_in([system_text, user]), values_of(table)
    return system_text, user, Dataset(names, [{name: values.get(name, "") for name in names}], f"the {TAB_NAMES.get(tab, tab)} tab")


def chat_prompt(system: str, user: str, dataset: Dataset | None) -> tuple[str, dict[str, Any], list[list[str]]]:
    """(system, message box value, Variables table) for the Chat tab from Batch's templates and
    its first data row (values left empty without a data set)."""
    first = dataset.rows[0] if dataset is not None and dataset.rows else {}
    return system or "", {"text": user or "", "files": []}, [[name, first.get(name, "")] for name in names_in([user or "", system or ""])]


@dataclass
class PromptSource:
    tab: str
    button: gr.Button
    draft: Any
    system: Any
    table: Any
    group: Any
    session: Any


@dataclass
class BatchTarget:
    button: gr.Button
    system: Any
    user: Any
    state: Any
    receive: Any
    """`receive(batch_state, system, user, dataset)` -> values for `outputs`."""
    outputs: list[Any]


@dataclass
class PromptRegistry:
    sources: list[PromptSource] = field(default_factory=list)
    batch: BatchTarget | None = None

    def add(self, source: PromptSource) -> None:
        self.sources.append(source)

    def register_batch(self, target: BatchTarget) -> None:
        self.batch = target

    def wire(self, tabs: gr.Tabs) -> None:
        """Connect every "Send to Batch" button and Batch's "Open in Chat" (once all tabs exist)."""
        target = self.batch
        if target is None:
            return
        for source in self.sources:
            source.button.click(BatchSend(source.tab, target.receive).send,
                                [target.state, source.draft, source.system, source.table, source.session], [*target.outputs, tabs],
                                queue=False)
        chat = next((source for source in self.sources if source.tab == "chat"), None)
        if chat is None:
            return
        target.button.click(open_in_chat, [target.state, target.system, target.user], [chat.system, chat.draft, chat.table, chat.group, tabs],
                            queue=False)


@dataclass(frozen=True)
class BatchSend:
    """One tab's "Send to Batch": its prompt into Batch's boxes (through Batch's `receive`)."""

    tab: str
    receive: Any

    def send(self, state: Any, draft: Any, system: Any, table: Any, session: Any) -> tuple[Any, ...]:
        """Batch's outputs for the tab's templates and values, then Batch opened."""
        prompt = batch_prompt(draft, system, table, self.tab, getattr(session, "typed", ""))
        return (*self.receive(state, *prompt), gr.update(selected="batch"))


def open_in_chat(state: Any, system: str, user: str) -> tuple[Any, ...]:
    """"Open in Chat": (system, message box, Variables table, panel shown, Chat opened) from
    Batch's templates and its first data row."""
    system_text, draft, rows = chat_prompt(system, user, getattr(state, "dataset", None))
    return system_text, draft, table_value(rows), gr.update(visible=bool(rows)), gr.update(selected="chat")
