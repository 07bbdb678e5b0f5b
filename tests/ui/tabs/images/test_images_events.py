"""The Images tab's events, called as the page runs them (`handlers.ImagesHandlers` and the module
functions `layout` wires): Generate with its waiting line and Stop, a refused prompt, a result
picked and refined, a generation restored from the history, and a form imported from curl."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import media_directory
from playground.demo_gateway.server import RunningGateway
from playground.ui.i18n import english
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.images import handlers
from playground.ui.tabs.images.state import ImagesSession
from tests.conftest import DEMO_KEY

FORM = ["gx-2.5-flash-image", "4:3", "1K", 2, "(not set)", "image/png", "(not set)", ""]
"""model, ratio, tier, n, quality, mime type, modalities, extra fields: the form after the prompt."""


def no_progress(*_: Any, **__: Any) -> None:
    return None


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


@pytest.fixture
def wired(client: GatewayClient, gateway: RunningGateway, tmp_path: Path) -> handlers.ImagesHandlers:
    client.images.directory = media_directory("images") / tmp_path.name
    return handlers.ImagesHandlers(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True))


async def test_generate_pick_refine_and_restore(wired: handlers.ImagesHandlers) -> None:
    session = ImagesSession()
    error, notice, status = handlers.waiting(session)
    assert not error["visible"] and not notice["visible"] and status.startswith("Waiting for the gateway")
    shown = await wired.generate_images(session, "", "", "a red barn", *FORM, None, progress=no_progress)
    assert len(shown) == 3 + handlers.SHOWN_COUNT + 5 and not shown[0]["visible"] and shown[2].startswith("✓ #1:")
    gallery, files = shown[3], shown[4]
    assert len(gallery) == 2 and [Path(f).name for f in files] == ["a-red-barn-1.png", "a-red-barn-2.png"] and shown[8]["visible"] is False
    assert skipped(handlers.pick_image(session, SimpleNamespace(index=None)))
    assert handlers.pick_image(session, SimpleNamespace(index=1)) == gallery[1][0]
    refined = await wired.refine_image(session, "", "", "make it grey", "a red barn", *FORM, progress=no_progress)
    assert refined[2].startswith("✓ #2:") and refined[8]["visible"] is True and refined[9] == gallery[1][0]
    restored = handlers.restore_generation(session, SimpleNamespace(index=1))
    assert len(restored) == handlers.RESTORE_COUNT and restored[:3] == ("a red barn", "gx-2.5-flash-image", "4:3") and restored[9].startswith("✓ #1:")
    assert all(skipped(v) for v in handlers.restore_generation(session, SimpleNamespace(index=7)))


async def test_a_refused_prompt_clears_the_gallery_and_stop_says_so(wired: handlers.ImagesHandlers) -> None:
    session = ImagesSession()
    refused = await wired.generate_images(session, "", "", "a forbidden door", *FORM, None, progress=no_progress)
    assert refused[0]["visible"] and "rejected" in refused[0]["value"] and refused[2] == "" and refused[3] == [] and refused[4] is None
    handlers.waiting(session)
    notice, status = handlers.stop_clicked(session)
    assert notice["value"] == english(handlers.STOPPED) and status == "" and session.stop.event is not None and session.stop.event.is_set()


def test_a_curl_body_fills_the_form_and_the_form_is_checked_as_generate_checks_it() -> None:
    values = handlers.form_from_curl(CurlRequest("POST", "https://gw/v1/images", {}, {"prompt": "a fox", "model": "gx-2.5-flash-image", "n": 2}))
    assert len(values) == len(handlers.FORM_FIELDS) and values[0] == "a fox" and values[1] == "gx-2.5-flash-image"
    handlers.check_form({"prompt": "", "ratio": "1:1"}, [])
    with pytest.raises(RequestValidationError):
        handlers.check_form({"prompt": "x", "ratio": "16x9"}, [])
