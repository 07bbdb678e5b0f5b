"""Each patch (and private read) finds the Gradio internals it was written for: the attributes it
replaces or reads, their recorded signatures, and the calls through which Gradio reaches them
(`playground/gradio_compat/internals.py`). Collected first (conftest): a Gradio upgrade that moved
one fails here, naming the patch, before any behavioural test."""

from __future__ import annotations

import gradio as gr
import pytest
from gradio import utils as gradio_utils
from gradio.state_holder import SessionState

from playground import gradio_compat
from playground.gradio_compat.internals import RELIED_ON, problems

READS = {"private_api", "request_context", "root_block", "i18n_text", "template_components", "progress_targets", "forget_closed_sessions",
         "first_paint_locale"}
"""What `internals.py` records besides the patches `apply()` installs."""


@pytest.mark.parametrize("patch", sorted(RELIED_ON))
def test_the_internals_a_patch_relies_on_are_where_it_was_written_for(patch: str) -> None:
    moved = problems(patch)
    assert not moved, f"Gradio {gr.__version__}: the patch {patch!r} relies on internals that moved:\n" + "\n".join(moved)


def test_every_patch_has_its_internals_recorded() -> None:
    assert set(RELIED_ON) == {patch.name for patch in gradio_compat.PATCHES} | READS


def test_a_changed_signature_is_named_with_its_patch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gradio_utils, "diff", lambda old, new, depth=0: [])
    moved = gradio_compat.moved()
    assert list(moved) == ["whole_updates"]
    assert "gradio.utils:diff is now (old, new, depth=0), was (old, new)" in moved["whole_updates"]


def test_a_vanished_attribute_is_named_with_its_patch(monkeypatch: pytest.MonkeyPatch) -> None:
    gradio_compat.apply()  # the check looks through the patches to Gradio's own methods
    monkeypatch.delattr(SessionState, "_update_config")
    assert list(gradio_compat.moved()) == ["session_ids"]


def test_a_changed_call_is_named_with_its_patch(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Blocks.launch` no longer asking `networking.url_ok` would leave the patient check unused."""
    from gradio.blocks import Blocks

    def launch(self: Blocks) -> None: ...

    monkeypatch.setattr(Blocks, "launch", launch)
    assert list(gradio_compat.moved()) == ["patient_launch"]
