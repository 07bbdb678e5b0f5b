"""The Images tab's handlers without a browser, against the demo gateway over a real socket:
form -> request, generate, pick and refine, history and restore, refusals; and what the tab
shows (delivered vs asked with its marks, the ratio preview, gallery and history items)."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import gradio as gr
import pytest
from PIL import Image

from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import media_directory
from playground.ui.tabs.images import state as images_state
from playground.ui.tabs.images.state import Generation, ImagesSession
from playground.ui.i18n import english
from playground.ui.web.shown_files import new_file
from playground.client.images import GeneratedImage, ImagesResult
from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.images.handlers import (
    STOPPED,
    ImageForm,
    begin,
    generate,
    refine,
    restore,
    select,
    stop,
)
from playground.ui.tabs.images.views import (
    delivered_html,
    gallery_items,
    history_items,
    ratio_name,
    ratio_preview_html,
    tier_honoured,
)
from playground.ui.shared.render import inspector_response
from tests.conftest import DEMO_KEY


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


@pytest.fixture
def ui_client(client: GatewayClient, tmp_path: Path) -> GatewayClient:
    client.images.directory = media_directory("images") / tmp_path.name  # only files under the app's media root are shown
    return client


def upload(tmp_path: Path, name: str, colour: tuple[int, int, int] = (20, 40, 230)) -> str:
    path = tmp_path / name
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buffer, format="PNG")
    path.write_bytes(buffer.getvalue())
    return str(path)


def test_the_form_leaves_out_what_is_not_set_and_attaches_references(tmp_path: Path) -> None:
    form = ImageForm("a fox", "gx-3-pro-image-preview", "16:9", "(not set)", 2.0, "(not set)", "image/webp", "(not set)")
    assert form.request().to_body() == {"model": "gx-3-pro-image-preview", "prompt": "a fox", "size": "16:9", "n": 2,
                                        "response_format": "b64_json", "mime_type": "image/webp"}
    with_refs = ImageForm("like this", references=[upload(tmp_path, "a.png"), upload(tmp_path, "b.png")]).request().to_body()
    assert "prompt" not in with_refs and [list(part) for part in with_refs["contents"][0]["parts"]] == [["text"], ["image"], ["image"]]
    assert with_refs["contents"][0]["parts"][1]["image"].startswith("data:image/png;base64,")
    with pytest.raises(RequestValidationError, match="at most 4 reference images"):
        ImageForm("x", references=[upload(tmp_path, f"{i}.png") for i in range(5)]).request()
    fake = tmp_path / "notes.png"
    fake.write_text("not an image")
    with pytest.raises(RequestValidationError, match="notes.png is not a readable"):
        ImageForm("x", references=[str(fake)]).request()


async def test_generate_shows_the_images_their_files_and_what_was_delivered(ui_client: GatewayClient, defaults: ServerDefaults) -> None:
    session = ImagesSession()
    outcome = await generate(ui_client, defaults, session, "", "", ImageForm("two foxes", ratio="16:9", n=2))
    assert not outcome.error and outcome.exchange is not None and outcome.generation is session.shown
    assert session.history == [outcome.generation] and session.selected == 0
    items = gallery_items(session.shown)
    assert len(items) == 2 and all(Path(path).is_file() and caption.startswith("two foxes") for path, caption in items)
    table = delivered_html(session.shown)
    assert table.count('data-width="1024" data-height="576"') == 2 and "not-honoured" not in table
    assert "✓ 2 of 2 images" in table and "✓ ratio 16:9" in table and "✓ size 1K" in table
    (thumb, caption), = history_items(session.history)
    with Image.open(thumb) as image:
        assert max(image.size) <= 256 and image.format == "WEBP"
    assert caption == "#1 two foxes — 16:9 · 1K · ×2"
    assert "characters of image data" in inspector_response(outcome.exchange)


async def test_pick_refine_and_restore(ui_client: GatewayClient, defaults: ServerDefaults) -> None:
    session = ImagesSession()
    missing = await refine(ui_client, defaults, session, "", "", ImageForm(), "make it grey")
    assert "pick it in the gallery first" in missing.error and missing.exchange is None
    first = (await generate(ui_client, defaults, session, "", "", ImageForm("a red barn", ratio="4:3", n=2))).generation
    assert first is not None
    picked = select(session, 1)
    assert picked is not None and picked.path == first.result.images[1].path  # type: ignore[union-attr]
    empty = await refine(ui_client, defaults, session, "", "", ImageForm(ratio="4:3"), "  ")
    assert "type what to change" in empty.error
    outcome = await refine(ui_client, defaults, session, "", "", ImageForm("a red barn", ratio="4:3"), "make it grey")
    refined = outcome.generation
    assert refined is not None and refined.kind == "refine" and refined.source == picked.path and session.shown is refined
    sent = outcome.exchange.request_body  # type: ignore[union-attr]
    assert [turn["role"] for turn in sent["contents"]] == ["user", "model", "user"] and "prompt" not in sent
    assert sent["contents"][0]["parts"] == [{"text": "a red barn"}] and sent["contents"][2]["parts"] == [{"text": "make it grey"}]
    with Image.open(refined.result.images[0].path) as image:  # type: ignore[union-attr]
        assert all(r == g == b for r, g, b in image.convert("RGB").resize((16, 12)).getdata())
    assert [caption.split(" ")[0] for _, caption in history_items(session.history)] == ["#2", "#1"]
    assert history_items(session.history)[0][1].startswith("#2 refine: make it grey")
    again = await refine(ui_client, defaults, session, "", "", ImageForm(ratio="4:3"), "smaller")
    assert [t["role"] for t in again.exchange.request_body["contents"]] == ["user", "model", "user", "model", "user"]  # type: ignore[union-attr]
    assert restore(session, 2) is first and session.shown is first and session.selected == 0
    assert first.settings["prompt"] == "a red barn" and first.settings["ratio"] == "4:3"
    assert restore(session, 9) is None and session.shown is first


async def test_a_refused_prompt_shows_the_gateways_reason_and_keeps_the_session(ui_client: GatewayClient, defaults: ServerDefaults) -> None:
    session = ImagesSession()
    await generate(ui_client, defaults, session, "", "", ImageForm("a quiet pond"))
    outcome = await generate(ui_client, defaults, session, "", "", ImageForm("a forbidden door"))
    assert "The gateway rejected the request" in outcome.error and "rejected by the safety system" in outcome.error
    assert outcome.exchange is not None and outcome.exchange.status == 400 and outcome.generation is None
    assert len(session.history) == 1 and session.shown is session.history[0]
    checked = await generate(ui_client, defaults, session, "", "", ImageForm("x", ratio="16x9"))
    assert "size: must be an aspect ratio W:H" in checked.error and checked.exchange is None
    wrong_key = await generate(ui_client, defaults, session, "", "sk-not-the-key", ImageForm("a pond"))
    assert "The API key was not accepted" in wrong_key.error and "sk-not-the-key" not in wrong_key.error


async def test_stop_gives_up_waiting_inside_the_call(ui_client: GatewayClient, defaults: ServerDefaults) -> None:
    session = ImagesSession()
    begin(session)
    started = time.monotonic()
    running = asyncio.create_task(generate(ui_client, defaults, session, "", "", ImageForm("slow [[fault:stall]]")))
    await asyncio.sleep(0.3)  # the request is on its way; the gateway stays silent for 3 s, the client waits 1 s
    stop(session)
    outcome = await running
    assert outcome.notice == english(STOPPED) and not outcome.error and outcome.generation is None
    assert time.monotonic() - started < 0.9, "stopped before the read timeout could end it"
    assert session.history == [] and session.shown is None
    begin(session)
    stop(session)  # Stop between the click and the queued event: nothing is sent
    early = await generate(ui_client, defaults, session, "", "", ImageForm("never sent"))
    assert early.notice == english(STOPPED) and early.exchange is None
    begin(session)
    after = await generate(ui_client, defaults, session, "", "", ImageForm("a pond"))
    assert not after.error and after.generation is not None and after.generation.number == 1


def _generation(images: list[GeneratedImage], **asked: object) -> Generation:
    return Generation(1, "text", "p", {}, {"model": "m", **asked}, None, ImagesResult(images))


def test_what_was_not_honoured_is_marked() -> None:
    square = GeneratedImage(Path("/x/a.png"), "PNG", 1024, 1024, 2048, None)
    table = delivered_html(_generation([square], size="16:9", image_size="2K", n=2, mime_type="image/jpeg"))
    for words in ("⚠ 1 of 2 images", "⚠ asked 16:9, got 1:1", "⚠ asked 2K, got 1024 px long side", "⚠ asked image/jpeg, got image/png"):
        assert words in table
    assert "not-honoured" in table and "✓" not in table
    assert "(n not sent: 1 expected)" in delivered_html(_generation([square]))
    assert "Generate an image" in delivered_html(None)


def test_tiers_and_ratios_are_read_as_people_say_them() -> None:
    assert tier_honoured(GeneratedImage(Path("a"), "PNG", 1344, 768, 1), "1K"), "a vendor's own 1K size at 16:9"
    assert tier_honoured(GeneratedImage(Path("a"), "PNG", 2048, 1152, 1), "2K")
    assert not tier_honoured(GeneratedImage(Path("a"), "PNG", 1024, 1024, 1), "2K")
    assert [ratio_name(*size) for size in ((1024, 683), (1344, 768), (1000, 700), (1000, 3))] == ["3:2", "16:9", "10:7", "333.333:1"]


def test_the_ratio_preview_is_drawn_at_the_ratio() -> None:
    assert 'style="width:96px;height:54px"' in ratio_preview_html("16:9", "2K") and "2048×1152 px at 2K" in ratio_preview_html("16:9", "2K")
    assert 'style="width:54px;height:96px"' in ratio_preview_html("9:16", None)
    assert "default shape" in ratio_preview_html("(not set)", "1K")
    assert "not a W:H ratio" in ratio_preview_html("<b>wide</b>", "1K") and "<b>" not in ratio_preview_html("<b>wide</b>", "1K")


def test_the_history_keeps_the_newest_generations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images_state, "MAX_HISTORY", 3)
    session = ImagesSession()
    image = GeneratedImage(Path(new_file("tests", "a.png", b"shown only when the app made it")), "PNG", 8, 8, 1)
    for number in range(1, 6):
        session.add(Generation(number, "text", f"p{number}", {}, {}, None, ImagesResult([image])))
    assert [g.number for g in session.history] == [3, 4, 5]
    assert [caption.split()[0] for _, caption in history_items(session.history)] == ["#5", "#4", "#3"]


def test_the_tab_sits_between_native_and_compare(gateway: RunningGateway) -> None:
    blocks = build_app(Settings(), ServerDefaults(gateway.url, DEMO_KEY, demo=True))
    tabs = [block for block in blocks.blocks.values() if isinstance(block, gr.Tab) and (block.elem_id or "").startswith("tab-")]
    labels = [english(tab.label.key) if hasattr(tab.label, "key") else str(tab.label) for tab in tabs]
    assert labels.index("Native") < labels.index("Images") < labels.index("Compare")
    images_tab = tabs[labels.index("Images")]
    assert images_tab.id == "images" and images_tab.elem_id == "tab-images"


async def test_refine_returns_one_picture_unless_asked_for_more(ui_client: GatewayClient, defaults: ServerDefaults) -> None:
    session = ImagesSession()
    await generate(ui_client, defaults, session, "", "", ImageForm("a harbour", ratio="1:1", n=3))
    select(session, 2)
    one = await refine(ui_client, defaults, session, "", "", ImageForm("a harbour", ratio="1:1", n=4), "make it grey")
    assert not one.error, one.error
    assert one.exchange.request_body.get("n", 1) == 1 and len(one.generation.result.images) == 1  # type: ignore[union-attr]
    select(session, 0)
    three = await refine(ui_client, defaults, session, "", "", ImageForm("a harbour", ratio="1:1", n=1), "give me three grey versions")
    assert three.exchange.request_body["n"] == 3 and len(three.generation.result.images) == 3  # type: ignore[union-attr]
