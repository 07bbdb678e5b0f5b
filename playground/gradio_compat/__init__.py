"""The only code that touches Gradio's private internals: its patches, applied by one `apply()`
that refuses them on a Gradio version they were not written for, and the few private reads the UI
needs (`current_request`, `current_blocks`, `I18nText`), so no other module imports a private
Gradio name.

On a version outside `SUPPORTED_VERSIONS` the app runs on Gradio as it is: the patches save time
and memory (docs/benchmarks.md, issue 25); `sessions.py`, `updates.py`, `chatbot.py`, `launch.py`,
`build_cost.py` and `page.py` say what each one does. Every patch leaves the one mark of
`marks.py` on what it installs: applying twice changes nothing. `moved()` names each patch (or
read) whose Gradio internals are gone or changed (`internals.py`); `tests/gradio_compat/
test_internals.py` runs it before any other test, and `test_private_imports.py` fails when a module
outside this package imports a private Gradio name.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio
from gradio import networking, processing_utils
from gradio import utils as gradio_utils
from gradio.blocks import Blocks
from gradio.components.upload_button import UploadButton
from gradio.routes import App
from gradio.server_messages import ProcessGeneratingMessage
from gradio.state_holder import SessionState

from playground.gradio_compat import build_cost, chatbot, launch, sessions, updates
from playground.gradio_compat.context import I18nText, current_blocks, current_request, translation_key
from playground.gradio_compat.internals import moved
from playground.gradio_compat.marks import patch_of
from playground.gradio_compat.page import drawn_as_gradios_own, keep_api_private
from playground.gradio_compat.page import narrow_progress_targets as _narrow_progress_targets

__all__ = ["PATCHES", "SUPPORTED_VERSIONS", "I18nText", "active", "applied", "apply", "current_blocks", "current_request",
           "drawn_as_gradios_own", "keep_api_private", "moved", "narrow_progress_targets", "translation_key"]

SUPPORTED_VERSIONS = ("6.31.0",)
"""The Gradio versions the patches were written for (and their internals recorded from)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Patch:
    name: str
    install: Callable[[], None]
    installed: Callable[[], Any] | None = None
    """What carries the patch's mark once installed (None: nothing to mark)."""


PATCHES: tuple[Patch, ...] = (
    Patch("session_ids", sessions.keep_session_component_ids, lambda: SessionState.__setitem__),
    Patch("lazy_session_configs", sessions.lazy_session_configs, lambda: SessionState.__init__),
    Patch("skipped_outputs", updates.skipped_outputs_cost_nothing, lambda: Blocks.postprocess_data),
    Patch("inline_processing", updates.process_data_inline, lambda: gradio.blocks.anyio),
    Patch("output_messages", updates.output_messages_without_copies, lambda: ProcessGeneratingMessage.model_dump),
    Patch("whole_updates", updates.updates_sent_whole, lambda: gradio_utils.diff),
    Patch("no_matplotlib", updates.fail_fast_without_matplotlib),
    Patch("chatbot_memo", chatbot.remember_messages, lambda: processing_utils.async_move_files_to_cache),
    Patch("patient_launch", launch.patient_launch_check, lambda: networking.url_ok),
    Patch("signatures_once", build_cost.remember_signatures, lambda: gradio.blocks.inspect),
    Patch("one_page_config", build_cost.one_page_config_per_build, lambda: App.setup_mcp_server),
    Patch("upload_button_schema", build_cost.remember_upload_button_schemas, lambda: UploadButton.api_info),
    Patch("apps_on_first_use", build_cost.apps_built_when_used, lambda: App.create_app),
)

_state = {"active": False, "refusal_logged": False}


def apply() -> bool:
    """Install every patch (idempotent) when the installed Gradio is one they were written for;
    otherwise install none and say so once. True when the patches are on."""
    version = gradio.__version__
    if version not in SUPPORTED_VERSIONS:
        if not _state["refusal_logged"]:
            log.warning("Gradio %s is not a version these patches were written for (%s): running without them; slower but correct",
                        version, ", ".join(SUPPORTED_VERSIONS))
            _state["refusal_logged"] = True
        return False
    for patch in PATCHES:
        patch.install()
    _state["active"] = True
    return True


def active() -> bool:
    """Whether `apply()` installed the patches in this process."""
    return _state["active"]


def applied(name: str) -> bool:
    """Whether the patch `name` is installed (its target carries its mark)."""
    patch = next(patch for patch in PATCHES if patch.name == name)
    if patch.installed is None:
        return active()
    return patch_of(patch.installed()) == name


def narrow_progress_targets(blocks: gradio.Blocks) -> None:
    """`page.narrow_progress_targets` (the patch `progress_targets`), when the patches are on."""
    if active():
        _narrow_progress_targets(blocks)
