"""The prompt library section of the text tabs, through the handlers its events run on a built
page: save the form as v1 and v2, diff them, point a label, open a version (partials included)
back into the form so the next send carries it, open a Chat prompt in Responses, refuse what
does not fit the form or the library (nothing on screen changes), export and import the file,
keep each hosted visitor's library apart, and the one-click example."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from playground.client.gateway import GatewayClient
from playground.settings import Settings
from playground.ui import app as page_app
from playground.ui.conversation import prompt_library
from playground.ui.conversation.prompt_handlers import PromptHandlers
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.chat.handlers import chat_adapter_of
from tests.ui.conversation.conversation_screen import send


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("prompt-library")


@pytest.fixture(scope="module")
def page(data_dir: Path) -> Iterator[Any]:
    yield page_app.build_app(Settings(data_dir=data_dir), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


def library_of(page: Any, tab: str) -> PromptHandlers:
    component = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == f"{tab}-plib-save")
    bound = next(fn.fn for fn in page.fns.values() if (component._id, "click") in fn.targets)
    assert isinstance(bound.__self__, PromptHandlers)
    return bound.__self__


def form(handlers: PromptHandlers, **changes: Any) -> list[Any]:
    values = {name: component.value for name, component in handlers.fields.items()}
    values.update(changes)
    return [values[name] for name in handlers.names]


def by_name(handlers: PromptHandlers, opened: tuple[Any, ...]) -> dict[str, Any]:
    named = dict(zip([*handlers.names, "draft", "table", "group", "status"], opened))
    if isinstance(named["table"], dict) and "data" in named["table"]:  # written with its headings: the rows the page sends back
        assert named["table"]["headers"] == ["variable", "value"]
        named["table"] = named["table"]["data"]
    return named


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


async def test_save_two_versions_diff_label_and_open_the_first_back(page: Any) -> None:
    chat = library_of(page, "chat")
    draft = {"text": "What is {{topic}}?", "files": []}
    table = [["topic", "rain"]]
    status, *_ = await chat.save("Sky", draft, table, *form(chat, system="Explain like I'm five.", temperature=0.3))
    assert "“Sky” v1" in status
    status, prompt, version, before, after = await chat.save("Sky", draft, table, *form(chat, system="Explain like I'm five.\nBe warm.",
                                                                                           temperature=0.7))
    assert "“Sky” v2" in status and prompt["value"] == "Sky" and version["value"] == "v2" and before["value"] == "v1" and after["value"] == "v2"
    shown, status = await chat.diff("Sky", "v1", "v2")
    assert "## system" in shown and "+Be warm." in shown and "## parameters.temperature\n- 0.3\n+ 0.7" in shown and "2 field(s)" in status
    status, version, _, _ = await chat.label("Sky", "v1", "production")
    assert "production" in status and "v1" in status and ("production → v1", "production") in version["choices"]
    opened = by_name(chat, await chat.open("Sky", "production", *form(chat, system="typed since")))
    assert opened["system"] == "Explain like I'm five." and opened["temperature"] == 0.3, opened["status"]
    assert opened["draft"] == {"text": "What is {{topic}}?", "files": []} and opened["table"] == [["topic", "rain"]]
    await chat.label("Sky", "v2", "production")
    opened = by_name(chat, await chat.open("Sky", "production", *form(chat)))
    assert opened["system"] == "Explain like I'm five.\nBe warm.", "the label moved"


async def test_an_opened_version_is_what_the_next_message_sends(page: Any, client: GatewayClient, defaults: ServerDefaults) -> None:
    chat = library_of(page, "chat")
    assert "saved" in (await chat.save_partial("house-style", "Answer in one sentence.")).lower()
    await chat.save("Sent", {"text": "Tell me about {{thing}}.", "files": []}, [["thing", "tides"]],
                    *form(chat, system="You are brief. {{> house-style}}", temperature=0.4, model="gx-2.5-flash"))
    opened = by_name(chat, await chat.open("Sent", "v1", *form(chat)))
    values = {**{name: component.value for name, component in chat.fields.items()},
              **{name: value for name, value in opened.items() if name in chat.names and not skipped(value)}}
    screens = await send(defaults, chat_adapter_of(client, values), opened["draft"], table=opened["table"])
    body = screens[-1].exchange.request_body if screens[-1].exchange else None
    assert body is not None and body["messages"][0] == {"role": "system", "content": "You are brief. Answer in one sentence."}
    assert body["messages"][-1]["content"] == "Tell me about tides." and body["temperature"] == 0.4


async def test_a_chat_prompt_opens_in_responses_without_its_tools_or_model(page: Any) -> None:
    chat, responses = library_of(page, "chat"), library_of(page, "responses")
    tools = '[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]'
    await chat.save("Moves", {"text": "Hi", "files": []}, [], *form(chat, system="Be kind.", tools_json=tools, model="gx-2.5-flash", temperature=1.1))
    opened = by_name(responses, await responses.open("Moves", "v1", *form(responses)))
    assert opened["instructions"] == "Be kind." and opened["temperature"] == 1.1 and opened["draft"]["text"] == "Hi"
    assert skipped(opened["tools_json"]) and skipped(opened["model"]) and "chat" in opened["status"]


async def test_what_cannot_open_changes_nothing_and_is_named(page: Any, tmp_path: Path) -> None:
    chat = library_of(page, "chat")
    await chat.save("Gap", {"text": "x", "files": []}, [], *form(chat, system="{{> nowhere}}"))
    opened = await chat.open("Gap", "v1", *form(chat))
    assert all(skipped(value) for value in opened[:-1]) and "“nowhere” is not in the library" in opened[-1]
    await chat.save_partial("loop", "{{> loop}}")
    await chat.save("Loop", {"text": "x", "files": []}, [], *form(chat, system="{{> loop}}"))
    assert "in a circle (loop → loop)" in (await chat.open("Loop", "v1", *form(chat)))[-1]
    hot = {"kind": "gateway-playground/prompts", "version": 1, "partials": {}, "prompts": [{"name": "Hot", "labels": {}, "versions": [
        {"number": 1, "created": 0, "content": {"format": "chat", "system": "s", "messages": [], "variables": {}, "tools": "",
                                                "parameters": {"temperature": 5}}}]}]}
    path = tmp_path / "hot.json"
    path.write_text(json.dumps(hot))
    status, _ = await chat.import_file(str(path))
    assert "Imported 1 prompt" in status
    opened = await chat.open("Hot", "v1", *form(chat))
    assert all(skipped(value) for value in opened[:-1]) and "temperature" in opened[-1], opened[-1]
    assert "no version or label" in (await chat.open("Hot", "v7", *form(chat)))[-1]
    assert "label" in (await chat.label("Hot", "v1", "v3"))[0]


async def test_export_then_import_and_a_bad_file_saves_nothing(page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chat = library_of(page, "chat")
    await chat.save("Shared", {"text": "x", "files": []}, [], *form(chat, system="one"))
    await chat.label("Shared", "v1", "production")
    file, status = await chat.export()
    exported = Path(file["value"])
    assert "Exported" in status and exported.name == "prompt-library.json"
    monkeypatch.setattr(prompt_library, "current_owner", lambda hosted: "visitor:new")
    assert (await chat.prompt_names())["choices"] == [], "another owner sees nothing of the first"
    bad = json.loads(exported.read_text())
    bad["prompts"].append({"name": "Broken", "versions": [{"number": 1, "created": 0, "content": {"format": "fax"}}]})
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bad))
    status, _ = await chat.import_file(str(broken))
    assert "Not done" in status and "“Broken” v1: format must be one of" in status
    assert (await chat.prompt_names())["choices"] == [], "one bad version refuses the whole file"
    status, picker = await chat.import_file(str(exported))
    assert "Imported" in status and "Shared" in picker["choices"]
    opened = by_name(chat, await chat.open("Shared", "production", *form(chat)))
    assert opened["system"] == "one"


async def test_a_hosted_request_without_a_visitor_keeps_and_opens_nothing(page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    chat = library_of(page, "chat")
    monkeypatch.setattr(prompt_library, "current_owner", lambda hosted: None)
    status, *_ = await chat.save("Nobody", {"text": "x", "files": []}, [], *form(chat))
    assert "no visitor" in status
    assert (await chat.prompt_names())["choices"] == []


async def test_the_example_keeps_two_versions_and_opens_the_second_with_its_difference(page: Any) -> None:
    native = library_of(page, "native")
    outputs = await native.example(*form(native))
    opened = by_name(native, outputs[:len(native.names) + 4])
    prompt, version, before, after, shown, name = outputs[len(native.names) + 4:]
    assert opened["system"].endswith("Be warm and use one everyday comparison a child knows."), "its partial included"
    assert opened["draft"]["text"] == "What is {{topic}}? Answer in three sentences." and opened["table"] == [["topic", "rain"]]
    assert prompt["value"] == name == "Explain like I'm five (native)" and (version["value"], before["value"], after["value"]) == ("v2", "v1", "v2")
    assert "+{{> friendly-tone}}" in shown and "## parameters.temperature" in shown
    again = await native.example(*form(native))
    assert [number for number, _ in (await native.library.summary(name)).versions] == [1, 2], "the example is kept once"  # type: ignore[union-attr]
    assert again[len(native.names) + 4]["value"] == name


async def test_a_full_library_refuses_more_and_says_so(page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    chat = library_of(page, "chat")
    monkeypatch.setattr(prompt_library, "current_owner", lambda hosted: "visitor:full")
    monkeypatch.setattr(prompt_library, "MAX_VERSIONS", 1)
    assert "v1" in (await chat.save("One", {"text": "x", "files": []}, [], *form(chat)))[0]
    status, *rest = await chat.save("One", {"text": "y", "files": []}, [], *form(chat))
    assert "already keeps 1 of these; nothing was added" in status and all(skipped(value) for value in rest)
    assert [len(found.versions) for found in await chat.library.listed()] == [1]
