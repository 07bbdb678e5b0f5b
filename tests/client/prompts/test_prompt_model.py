"""A prompt version's content is checked whole; partials are resolved with cycles, depth and
missing names refused (named); two versions differ field by field with text as lines."""

from __future__ import annotations

import pytest

from playground.client.prompts.diff import diff_text, diff_versions
from playground.client.prompts.model import PromptContent, PromptError, checked_label, checked_name
from playground.client.prompts.partials import MAX_DEPTH, resolved, resolve_text


def _content(**changes: object) -> PromptContent:
    data: dict[str, object] = {"format": "chat", "system": "Explain like I'm five.", "messages": [{"role": "user", "content": "What is {{topic}}?"}],
                               "variables": {"topic": "rain"}, "tools": "", "parameters": {"temperature": 0.3}}
    data.update(changes)
    return PromptContent.from_dict(data)


def test_content_round_trips_and_names_every_problem_at_once() -> None:
    content = _content()
    assert PromptContent.from_dict(content.to_dict()) == content and content.user == "What is {{topic}}?"
    with pytest.raises(PromptError) as refused:
        PromptContent.from_dict({"format": "fax", "system": 3, "messages": [{"role": "robot", "content": "x"}], "parameters": {"t": float("nan")},
                                 "extra": 1})
    text = " | ".join(refused.value.problems)
    for part in ("unknown fields: extra", "format must be one of", "system must be text", "message 1 must be", "the parameter t"):
        assert part in text


def test_names_and_labels_have_rules() -> None:
    assert checked_name("  Explain like I'm five ") == "Explain like I'm five"
    assert checked_label("production") == "production"
    for bad in ("", "x" * 61, "tab\there"):
        with pytest.raises(PromptError):
            checked_name(bad)
    for bad in ("v2", "2nd", "has space", ""):
        with pytest.raises(PromptError, match="label"):
            checked_label(bad)


def test_partials_are_included_by_name_and_may_include_others() -> None:
    partials = {"tone": "Be warm. {{> length}}", "length": "Use at most three sentences."}
    opened = resolved(_content(system="Explain {{topic}}.\n{{> tone}}", messages=[{"role": "user", "content": "{{>length}} Go."}]), partials)
    assert opened.system == "Explain {{topic}}.\nBe warm. Use at most three sentences."
    assert opened.messages[0]["content"] == "Use at most three sentences. Go."
    assert opened.variables == {"topic": "rain"}, "variables stay placeholders for the tab's Variables panel"


def test_a_cycle_a_missing_partial_and_too_deep_a_chain_are_named() -> None:
    with pytest.raises(PromptError, match="in a circle \\(a → b → a\\)"):
        resolve_text("{{> a}}", {"a": "{{> b}}", "b": "{{> a}}"}, "the system prompt")
    with pytest.raises(PromptError, match="message 1: the partial “nowhere” is not in the library"):
        resolved(_content(messages=[{"role": "user", "content": "{{> nowhere}}"}]), {})
    chain = {f"p{n}": f"{{{{> p{n + 1}}}}}" for n in range(MAX_DEPTH + 2)}
    with pytest.raises(PromptError, match=f"more than {MAX_DEPTH} deep"):
        resolve_text("{{> p0}}", chain, "the system prompt")


def test_partials_that_multiply_are_bounded() -> None:
    doubling = {f"p{n}": f"{{{{> p{n + 1}}}}}" * 10 for n in range(6)} | {"p6": "x" * 100}
    with pytest.raises(PromptError, match="longer than"):
        resolve_text("{{> p0}}", doubling, "the system prompt")


def test_two_versions_differ_field_by_field_with_text_as_lines() -> None:
    old = _content()
    new = _content(system="Explain like I'm five.\nUse one everyday comparison.", parameters={"temperature": 0.7, "top_p": 0.9},
                   variables={"topic": "rain"})
    changes = diff_versions(old, new, "v1", "v2")
    assert [change.field for change in changes] == ["system", "parameters.temperature", "parameters.top_p"]
    text = diff_text(changes)
    assert "--- v1\n+++ v2" in text and "+Use one everyday comparison." in text
    assert "- 0.3\n+ 0.7" in text and "## parameters.top_p\n+ 0.9" in text
    assert diff_versions(old, old, "v1", "v1") == []
