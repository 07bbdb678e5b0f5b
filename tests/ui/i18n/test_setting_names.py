"""A visitor of a hosted page reads no name of the server's settings (issue 40: banners named
`PLAYGROUND_*` variables a visitor cannot change); locally the operator still reads them."""

from __future__ import annotations

import re
from string import Formatter
from typing import Any

import pytest

from playground.client.texts import TEMPLATES, Text
from playground.ui import i18n
from playground.ui.i18n import AUDIENCE_HEADER, CATALOGUE, say, without_settings
from playground.ui.i18n.client_words import word
from playground.ui.web.visitors import with_audience

SETTING = re.compile(r"\b(?:PLAYGROUND|GATEWAY|MCP)_[A-Z0-9_]+\b")
OPERATOR_ONLY = {"connection.demo_gateway", "curl.placeholder"}
"""Texts only a local page shows (its operator's own badge) or that are code (a curl example)."""


def _filled(template: str) -> str:
    values = {name: 1 for _, name, _, _ in Formatter().parse(template) if name}
    return template.format(**values)


def _all_templates() -> list[tuple[str, str]]:
    found = [(key, text) for texts in CATALOGUE.texts.values() for key, text in texts.items() if key not in OPERATOR_ONLY]
    found += list(TEMPLATES.items()) + [(key, text) for texts in CATALOGUE.client.values() for key, text in texts.items()]
    return found


def test_every_text_that_names_a_setting_names_it_as_its_own_parenthesis() -> None:
    naming = [(key, text) for key, text in _all_templates() if SETTING.search(text)]
    assert len(naming) >= 20, "the texts that name a limit's setting are checked"
    left = [(key, without_settings(_filled(text))) for key, text in naming if SETTING.search(without_settings(_filled(text)))]
    assert not left, left


class HostedRequest:
    def __init__(self) -> None:
        self.headers = {AUDIENCE_HEADER: "visitor"}


def test_a_hosted_pages_visitor_reads_the_limit_without_its_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    message = Text("limits.requests_per_minute", count=30, wait=12.0)
    assert "PLAYGROUND_REQUESTS_PER_MINUTE" in word(message)  # the operator, locally
    assert "PLAYGROUND_VIDEO_JOBS_PER_SESSION" in say("vboard.too_many", running=3)
    monkeypatch.setattr(i18n, "current_request", lambda: HostedRequest())
    shown = word(message)
    assert "PLAYGROUND" not in shown and "the most this server allows; the next is possible in about 12 s." in shown
    assert say("vboard.too_many", running=3) == ("You already have 3 video jobs running (from this page or this address), the most this "
                                                 "server allows; wait for one to finish or cancel one.")


@pytest.mark.parametrize(("hosted", "sent", "kept"), [(True, [], [b"visitor"]), (True, [b"operator"], [b"visitor"]), (False, [b"visitor"], [])])
def test_the_page_guard_says_who_reads_and_a_browser_cannot(hosted: bool, sent: list[bytes], kept: list[bytes]) -> None:
    scope: dict[str, Any] = {"type": "http", "headers": [(b"host", b"x"), *((AUDIENCE_HEADER.encode(), value) for value in sent)]}
    headers = with_audience(scope, hosted)["headers"]
    assert [value for key, value in headers if key == AUDIENCE_HEADER.encode()] == kept and (b"host", b"x") in headers
