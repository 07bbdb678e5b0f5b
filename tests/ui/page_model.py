"""A page of the real app without a browser: component values, and events run the way Gradio
runs them (inputs read from the page, outputs written back, `gr.skip()` left alone, a generator
that yields nothing writes None, `.then` steps after their trigger), with every chatbot value
passed through the component's own postprocess/preprocess as the browser round trip does.

Tests use it to drive a tab's wired handlers directly, step by step, against a demo gateway
on a real socket."""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any

import gradio as gr

Interleave = Callable[[], Awaitable[None]]


WORDED = "const byLanguage = "
"""Where `examples.browser_filler` writes an example's values per language (values in words)."""


def browser_fill(dependency: Any, language: str = "en") -> Any:
    """What a `js=`-only event (`examples.browser_filler`) writes to its outputs, on a page in `language`."""
    if WORDED in dependency.js:
        by_language, _ = json.JSONDecoder().raw_decode(dependency.js.split(WORDED, 1)[1])
        return by_language[language]
    return json.loads(dependency.js.rsplit("return ", 1)[1].rsplit(";", 1)[0])


class PageModel:
    def __init__(self, app: gr.Blocks) -> None:
        self.app = app
        self.blocks = {block.elem_id: block for block in app.blocks.values() if getattr(block, "elem_id", None)}
        self.values: dict[int, Any] = {}
        for block in app.blocks.values():
            value = getattr(block, "value", None)
            self.values[block._id] = copy.deepcopy(value) if isinstance(block, gr.State) else value
            if isinstance(block, gr.Chatbot):
                self.values[block._id] = []
            elif isinstance(block, gr.Textbox) and value is None:  # an empty box reaches a handler as ""
                self.values[block._id] = ""

    def component(self, elem_id: str) -> Any:
        return self.blocks[elem_id]

    def get(self, component: Any) -> Any:
        return self.values[component._id]

    def set(self, component: Any, value: Any) -> None:
        if isinstance(component, gr.Chatbot) or (isinstance(component, gr.Dataframe) and component.type == "array" and isinstance(value, dict)):  # the round trip, as JSON
            shown = component.postprocess(value)  # (a table written with its headings comes back as its rows)
            sent = shown.model_dump() if hasattr(shown, "model_dump") else list(shown)
            value = component.preprocess(component.data_model.model_validate(sent))
        self.values[component._id] = value

    def dependency(self, component: Any, event: str) -> Any:
        """The one server handler of `component`'s `event`."""
        return next(fn for fn in self.dependencies(component, event) if fn.fn is not None)

    def dependencies(self, component: Any, event: str) -> list[Any]:
        """Every event listener of `component`'s `event`, in the order the page added them (a click runs them all)."""
        return [fn for fn in self.app.fns.values() if (component._id, event) in fn.targets]

    def _followers(self, dependency: Any) -> list[Any]:
        return [fn for fn in self.app.fns.values() if fn.trigger_after == dependency._id]

    def _write(self, dependency: Any, result: Any) -> None:
        outputs = dependency.outputs
        values = result if len(outputs) != 1 else (result,)
        if not isinstance(values, (tuple, list)) or len(values) != len(outputs):
            raise AssertionError(f"{dependency.name}: {len(outputs)} outputs, got {result!r}")
        for component, value in zip(outputs, values):
            if isinstance(value, dict) and value.get("__type__") == "update":
                if "value" in value:
                    self.set(component, value["value"])
            else:
                self.set(component, value)

    async def run(self, dependency: Any, event_data: Any = None, during_stream: Interleave | None = None) -> None:
        """Run one event and the `.then` steps after it. `during_stream` runs after the first
        value a streaming step yields (a click made while a reply arrives)."""
        if dependency.fn is None:  # a browser-side event (an example's fill): its values are in its `js`
            if dependency.outputs:  # (one with none only scrolls)
                self._write(dependency, browser_fill(dependency))
            for follower in self._followers(dependency):
                await self.run(follower, during_stream=during_stream)
            return
        arguments = [self.get(component) for component in dependency.inputs]
        if event_data is not None:
            arguments.insert(0, event_data)
        outcome = dependency.fn(*arguments)
        if inspect.isasyncgen(outcome):
            yielded, click = False, None
            async for value in outcome:
                self._write(dependency, value)
                if not yielded and during_stream is not None:  # runs beside the stream, as a click does
                    click = asyncio.ensure_future(during_stream())
                    await asyncio.sleep(0)
                yielded = True
            if not yielded:  # Gradio writes FINISHED_ITERATING, i.e. None, to every output
                self._write(dependency, None if len(dependency.outputs) == 1 else (None,) * len(dependency.outputs))
            if click is not None:
                await click
        else:
            if inspect.isawaitable(outcome):
                outcome = await outcome
            if dependency.outputs:
                self._write(dependency, outcome)
        for follower in self._followers(dependency):
            await self.run(follower, during_stream=during_stream)

    async def click(self, elem_id: str, during_stream: Interleave | None = None) -> None:
        for dependency in self.dependencies(self.component(elem_id), "click"):
            await self.run(dependency, during_stream=during_stream)
