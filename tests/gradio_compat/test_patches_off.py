"""On a Gradio version the patches were not written for, `apply()` installs none of them and says
so in one log line, and the app still answers correctly: a chat send gets its reply, and a send the
gateway refuses shows its error banner, also as the page applies updates in place (without the
patch that streams updates whole, a send no longer ends with an update of skips)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import gradio
import pytest

from bench.app_queue import start_app
from playground import gradio_compat
from tests.gradio_compat.sends import answered_and_refused

ROOT = Path(__file__).resolve().parents[2]
REFUSAL = "Gradio 99.0.0 is not a version these patches were written for (6.31.0): running without them; slower but correct"


def test_on_an_unknown_version_apply_installs_nothing_and_says_so_once(monkeypatch: pytest.MonkeyPatch,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(gradio, "__version__", "99.0.0")
    monkeypatch.setitem(gradio_compat._state, "refusal_logged", False)
    with caplog.at_level(logging.WARNING, logger="playground.gradio_compat"):
        assert gradio_compat.apply() is False
        assert gradio_compat.apply() is False
    assert [record.getMessage() for record in caplog.records] == [REFUSAL]


def test_the_app_answers_correctly_with_the_patches_off() -> None:
    """A fresh process whose Gradio says it is 99.0.0 (patches, once installed, stay installed)."""
    ran = subprocess.run([sys.executable, "-m", "tests.gradio_compat.patches_off_run", "99.0.0"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert ran.stderr.count(REFUSAL) == 1, ran.stderr[-3000:]
    assert result["active"] is False and result["changed"] == [] and result["chatbot_marked"] is False, result
    assert "Please repeat tokone" in result["reply"] and "offline demo gateway" in result["reply"]
    assert result["closing_repeats_the_chat"], "without whole updates a send must end with Gradio's own closing message"
    assert result["banner"].get("visible") is True and "The API key was not accepted" in result["banner"].get("value", ""), result["banner"]


async def test_the_same_sends_with_the_patches_on() -> None:
    app = start_app(token_delay=0.0)
    try:
        result = await answered_and_refused(app.url)
    finally:
        app.stop()
    assert gradio_compat.applied("whole_updates")
    assert "Please repeat tokone" in result["reply"] and "offline demo gateway" in result["reply"]
    assert not result["closing_repeats_the_chat"], "the send ends with an update of skips"
    assert result["banner"].get("visible") is True and "The API key was not accepted" in result["banner"].get("value", ""), result["banner"]
