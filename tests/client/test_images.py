"""Image generation: every request rule, the demo gateway over a real socket (ratios, tiers, n,
types, image-to-image, refine, its own rules, every fault), and answer shapes a real server
cannot be made to send (envelopes, no image, corrupt or oversized images, url items) through
httpx's MockTransport."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from playground.client import errors
from playground.client.gateway import GatewayClient
from playground.client.images import (
    MAX_IMAGES_PER_CALL,
    ImageRequest,
    ImagesAPI,
    find_image_items,
    refine_contents,
    user_turn,
)
from playground.client.media import image_data_url
from playground.client.transport import Connection, Transport
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.render import error_text, inspector_request, inspector_response
from tests.conftest import DEMO_KEY

MODEL = "gx-2.5-flash-image"


def png(size: tuple[int, int] = (8, 6), colour: tuple[int, int, int] = (200, 30, 30), mode: str = "RGB", fmt: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, colour if mode == "RGB" else 1).save(buffer, format=fmt)
    return buffer.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def ask(prompt: str | None = "a lighthouse at dusk", **fields: Any) -> ImageRequest:
    return ImageRequest.build(model=MODEL, prompt=prompt, **fields)


@pytest.fixture
def images(client: GatewayClient, tmp_path: Path) -> ImagesAPI:
    return ImagesAPI(client.transport, tmp_path / "images")


def mocked(tmp_path: Path, answer: Callable[[httpx.Request], httpx.Response], **options: Any) -> ImagesAPI:
    transport = Transport(http=httpx.AsyncClient(transport=httpx.MockTransport(answer)), sleep=_no_wait)
    return ImagesAPI(transport, tmp_path / "mocked", **options)


async def _no_wait(_: float) -> None:
    return None


def json_answer(body: Any) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(200, json=body)


MOCK_CONN = Connection("https://gateway.example", "sk-mock-key-123456")


# --- request rules ---------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "words"), [
    ({"model": "  "}, "model: name a model"),
    ({"prompt": "   "}, "prompt: describe the image"),
    ({"prompt": None}, "prompt: describe the image"),
    ({"size": "16x9"}, "size: must be an aspect ratio W:H"),
    ({"size": "0:9"}, "size: must be an aspect ratio W:H"),
    ({"size": "-16:9"}, "size: must be an aspect ratio W:H"),
    ({"size": "wide"}, "size: must be an aspect ratio W:H"),
    ({"n": 0}, "n: Input should be greater than or equal to 1"),
    ({"n": MAX_IMAGES_PER_CALL + 1}, f"n: Input should be less than or equal to {MAX_IMAGES_PER_CALL}"),
    ({"n": "2"}, "n: Input should be a valid integer"),
    ({"n": 2.5}, "n: Input should be a valid integer"),
    ({"response_format": "url"}, "response_format: this family only returns b64_json (got 'url')"),
    ({"image_size": "4K"}, "image_size: Input should be '1K', '2K' or '3K'"),
    ({"mime_type": "png"}, "mime_type: must be an image type of the image/png form"),
    ({"mime_type": "text/plain"}, "mime_type: must be an image type"),
    ({"response_modalities": "text"}, "response_modalities: must name image"),
    ({"response_modalities": "image,audio"}, "response_modalities: must name image"),
    ({"quality": ""}, "quality: String should have at least 1 character"),
    ({"contents": [{"role": "model", "parts": [{"text": "x"}]}]}, "the last turn must be the user's"),
    ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, "contents[0].role: Input should be 'user' or 'model'"),
    ({"contents": [{"role": "user", "parts": []}]}, "contents[0].parts: List should have at least 1 item"),
    ({"contents": [{"role": "user", "parts": [{"text": "a", "image": b64(png())}]}]}, "a part holds either text or image"),
    ({"contents": [{"role": "user", "parts": [{}]}]}, "a part holds either text or image"),
    ({"contents": [{"role": "user", "parts": [{"image": "not base64!"}]}]}, "contents[0].parts[0].image: is not valid base64"),
    ({"contents": [{"role": "user", "parts": [{"image": "data:text/plain;base64,aGk="}]}]}, "must be an image data URL"),
    ({"contents": [{"role": "user", "parts": [{"video": "x"}]}]}, "Extra inputs are not permitted"),
    ({"style": "vivid"}, "style: Extra inputs are not permitted"),
])
def test_every_rule_is_checked_before_sending(fields: dict[str, Any], words: str) -> None:
    values = {"model": MODEL, "prompt": "a lighthouse", **fields}
    with pytest.raises(errors.RequestValidationError) as caught:
        ImageRequest.build(**values)
    assert words in str(caught.value)
    assert "nothing was sent" in caught.value.user_message


def test_every_problem_is_listed_at_once_and_a_good_request_keeps_only_what_was_set() -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        ImageRequest.build(model=MODEL, prompt="x", size="16x9", n=9, response_format="url", image_size="5K")
    assert len(caught.value.problems) == 4
    body = ask(size=" 16 : 9 ", n=2, image_size="2K", quality="high", mime_type="image/webp", response_format="b64_json",
               response_modalities="text,image").to_body()
    assert body == {"model": MODEL, "prompt": "a lighthouse at dusk", "size": "16:9", "quality": "high", "n": 2, "response_format": "b64_json",
                    "image_size": "2K", "mime_type": "image/webp", "response_modalities": "text,image"}
    turns = [user_turn("make it blue", [f"data:image/png;base64,{b64(png())}"])]
    assert ImageRequest.build(model="my-own-image-model", contents=turns).to_body()["contents"][0]["parts"][1]["image"].startswith("data:image/png")


# --- the demo gateway over a real socket -----------------------------------------------------

async def test_two_images_at_16_9_and_2k_are_saved_with_their_original_bytes(images: ImagesAPI, conn: Connection) -> None:
    result, exchange = await images.generate(conn, ask("two lighthouses", size="16:9", image_size="2K", n=2, response_format="b64_json"))
    assert len(result.images) == 2 and not result.problems and isinstance(result.created, int)
    assert len({image.path for image in result.images}) == 2, "each index is a different picture"
    for image in result.images:
        assert (image.width, image.height, image.format, image.mime_type) == (2048, 1152, "PNG", "image/png")
        data = image.path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) == image.size and image.path.suffix == ".png"
        assert image.path.parent == images.directory
        assert "two lighthouses" in (image.revised_prompt or "") and image.delivered_as == "b64_json"
    assert exchange.attempts == 1 and exchange.status == 200
    shown = inspector_response(exchange)
    assert "characters of image data: saved as a file" in shown and len(shown) < 4000


@pytest.mark.parametrize(("size", "tier", "pixels"), [("1:1", "1K", (1024, 1024)), ("9:16", "1K", (576, 1024)), ("21:9", "3K", (3072, 1317)),
                                                      (None, None, (1024, 1024))])
async def test_ratio_and_tier_are_honoured_by_the_demo(images: ImagesAPI, conn: Connection, size: str | None, tier: str | None,
                                                       pixels: tuple[int, int]) -> None:
    result, _ = await images.generate(conn, ask(f"ratio {size} {tier}", size=size, image_size=tier))
    assert (result.images[0].width, result.images[0].height) == pixels


@pytest.mark.parametrize(("mime", "fmt", "suffix"), [("image/jpeg", "JPEG", ".jpg"), ("image/webp", "WEBP", ".webp")])
async def test_the_asked_type_is_delivered_and_saved_with_its_extension(images: ImagesAPI, conn: Connection, mime: str, fmt: str,
                                                                        suffix: str) -> None:
    result, _ = await images.generate(conn, ask(f"in {fmt}", mime_type=mime, n=3))
    assert [(i.format, i.path.suffix, i.mime_type) for i in result.images] == [(fmt, suffix, mime)] * 3


def _colourfulness(path: Path) -> float:
    with Image.open(path) as image:
        pixels = list(image.convert("RGB").resize((32, 32)).getdata())
    return sum(max(p) - min(p) for p in pixels) / len(pixels)


async def test_image_to_image_uses_the_uploaded_picture(images: ImagesAPI, conn: Connection, tmp_path: Path) -> None:
    upload = tmp_path / "red.png"
    upload.write_bytes(png((64, 48), (230, 20, 20)))
    request = ImageRequest.build(model=MODEL, size="4:3", contents=[user_turn("tint it", [image_data_url(upload)])])
    tinted = (await images.generate(conn, request))[0].images[0]
    with Image.open(tinted.path) as image:
        red, green, blue = image.convert("RGB").resize((1, 1)).getpixel((0, 0))  # type: ignore[misc]
    assert red > green + 40 and red > blue + 40, "the red upload shows through the tint"
    grey = (await images.generate(conn, ImageRequest.build(model=MODEL, contents=[user_turn("make it grey", [image_data_url(upload)])])))[0]
    assert _colourfulness(grey.images[0].path) < 1.0, "the instruction was applied to the upload"


async def test_refine_sends_the_turns_and_edits_the_chosen_image(images: ImagesAPI, conn: Connection) -> None:
    first = (await images.generate(conn, ask("a colourful harbour", size="3:2")))[0].images[0]
    assert _colourfulness(first.path) > 20
    turns = refine_contents(None, "a colourful harbour", first.path, "now in black and white")
    result, exchange = await images.generate(conn, ImageRequest.build(model=MODEL, size="3:2", contents=turns))
    sent = exchange.request_body["contents"]
    assert [turn["role"] for turn in sent] == ["user", "model", "user"]
    assert sent[0]["parts"] == [{"text": "a colourful harbour"}] and sent[2]["parts"] == [{"text": "now in black and white"}]
    assert base64.b64decode(sent[1]["parts"][0]["image"].split(",", 1)[1]) == first.path.read_bytes()
    assert _colourfulness(result.images[0].path) < 1.0 and (result.images[0].width, result.images[0].height) == (1024, 683)
    again = refine_contents(sent, "", result.images[0].path, "and smaller")
    assert [turn["role"] for turn in again] == ["user", "model", "user", "model", "user"]
    assert "inspector" not in inspector_request(exchange) and "more characters" in inspector_request(exchange)


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"prompt": "x", "size": "1024x1024"}, 400, "size: give an aspect ratio W:H such as 16:9"),
    ({"prompt": "x", "size": "20:1"}, 400, "size: the aspect ratio must be between 1:8 and 8:1"),
    ({"prompt": "x", "n": 5}, 400, "n: must be an integer from 1 to 4"),
    ({"prompt": "x", "response_format": "url"}, 400, "response_format: only b64_json"),
    ({"prompt": "x", "image_size": "4K"}, 400, "image_size: must be 1K, 2K or 3K"),
    ({"prompt": "x", "mime_type": "image/gif"}, 400, "mime_type: must be one of"),
    ({"prompt": "x", "response_modalities": "text"}, 400, "response_modalities: must include image"),
    ({"prompt": "x", "quality": "ultra"}, 400, "quality: must be one of"),
    ({"prompt": ""}, 400, "prompt: is required"),
    ({"contents": [{"role": "user", "parts": [{"image": "aGVsbG8="}]}]}, 400, "contents[0].parts[0].image: not a readable"),
    ({"contents": [{"role": "model", "parts": [{"text": "x"}]}]}, 400, "contents: the last turn must be the user's"),
    ({"prompt": "x", "model": "gx-unknown-image"}, 404, "does not exist"),
])
async def test_the_demo_refuses_what_the_spec_rules_out(client: GatewayClient, conn: Connection, body: dict[str, Any], status: int,
                                                      words: str) -> None:
    with pytest.raises(errors.APIStatusError) as caught:
        await client.transport.request_json(conn, "POST", "/v1/images/generations", {"model": MODEL, **body})
    assert caught.value.status == status and words in caught.value.message
    assert caught.value.error_type == ("invalid_request_error" if status == 400 else "not_found_error")


async def test_a_refused_prompt_is_a_content_policy_error(images: ImagesAPI, conn: Connection) -> None:
    with pytest.raises(errors.BadRequestError) as caught:
        await images.generate(conn, ask("A Forbidden castle"))
    assert caught.value.body["error"]["code"] == "content_policy_violation"
    shown = error_text(caught.value)
    assert "rejected by the safety system" in shown and "The gateway rejected the request" in shown
    assert caught.value.exchange is not None and caught.value.exchange.status == 400


async def test_the_key_never_shows_and_a_wrong_key_is_refused(images: ImagesAPI, conn: Connection) -> None:
    _, exchange = await images.generate(conn, ask("keys"))
    assert all(DEMO_KEY not in text for text in (inspector_request(exchange), inspector_response(exchange), curl_snippet(exchange),
                                                 python_snippet(exchange)))
    with pytest.raises(errors.AuthenticationError):
        await images.generate(Connection(conn.base_url, "sk-wrong-image-key"), ask("keys"))


def test_the_shared_client_has_the_images_api() -> None:
    assert isinstance(GatewayClient().images, ImagesAPI)


# --- faults ----------------------------------------------------------------------------------

async def test_a_rate_limit_is_waited_out_before_the_gateway_accepts(images: ImagesAPI, conn: Connection) -> None:
    result, exchange = await images.generate(conn, ask("waited [[fault:rate_limit]]"))
    assert len(result.images) == 1 and exchange.attempts == 2 and exchange.attempt_outcomes == ["429", "200"]


@pytest.mark.parametrize(("fault", "error_class", "words"), [
    ("server_error", errors.ServerError, "HTTP 500"),
    ("unavailable", errors.ServerError, "HTTP 503"),
    ("html_error", errors.ServerError, "502 Bad Gateway"),
    ("rate_limit_long", errors.RateLimitError, "HTTP 429"),
    ("malformed", errors.UnexpectedResponseError, "not valid JSON"),
    ("body_truncated", errors.UnexpectedResponseError, "not valid JSON"),
    ("body_html", errors.UnexpectedResponseError, "HTML page"),
    ("body_sse", errors.UnexpectedResponseError, "event stream"),
    ("body_empty", errors.UnexpectedResponseError, "empty body"),
    ("body_shape", errors.UnexpectedResponseError, "holds no image"),
    ("body_error", errors.APIStatusError, "The upstream model failed"),
    ("body_envelope", errors.ServerError, "code 500: The upstream model is overloaded (demo fault)"),
    ("stream_error", errors.APIStatusError, "The image model failed"),
    ("cut", errors.APIConnectionError, "connection was cut"),
    ("stall", errors.APITimeoutError, "It was not sent again"),
])
async def test_every_fault_ends_in_a_clear_error_and_a_paid_call_is_not_resent(images: ImagesAPI, conn: Connection, fault: str,
                                                                              error_class: type, words: str) -> None:
    with pytest.raises(error_class) as caught:
        await images.generate(conn, ask(f"fault {fault} [[fault:{fault}]]"))
    assert words in str(caught.value)
    assert caught.value.exchange is not None and caught.value.exchange.attempts == 1
    assert "<script>" not in error_text(caught.value)


# --- shapes a real server cannot be made to send ---------------------------------------------

@pytest.mark.parametrize("shape", [
    lambda image: {"created": 1, "data": [{"b64_json": image, "revised_prompt": "seen"}]},
    lambda image: {"result": {"images": [{"b64_json": image, "revised_prompt": "seen"}]}},
    lambda image: {"data": {"data": [{"b64_json": image, "revised_prompt": "seen"}]}},
    lambda image: {"output": [{"type": "image", "base64": image, "revisedPrompt": "seen"}]},
    lambda image: {"images": [{"b64": image, "revised_prompt": "seen"}]},
    lambda image: {"candidates": [{"content": {"parts": [{"text": "here"}, {"inlineData": {"mimeType": "image/png", "data": image}}]}}]},
    lambda image: {"data": [{"url": f"data:image/png;base64,{image}", "revised_prompt": "seen"}]},
    lambda image: {"images": [f"data:image/png;base64,{image}"]},
    lambda image: {"data": [{"b64_json": "\n".join(image[i:i + 76] for i in range(0, len(image), 76)), "revised_prompt": "seen"}]},
])
async def test_images_are_found_in_any_envelope(tmp_path: Path, shape: Callable[[str], Any]) -> None:
    data = png((16, 9))
    result, exchange = await mocked(tmp_path, json_answer(shape(b64(data)))).generate(MOCK_CONN, ask())
    assert len(result.images) == 1 and result.images[0].path.read_bytes() == data
    assert result.images[0].revised_prompt in ("seen", None) and (result.images[0].width, result.images[0].height) == (16, 9)
    assert b64(data) not in json.dumps(exchange.response_body)


def test_echoed_request_images_are_not_taken_for_results() -> None:
    echoed = {"request": {"contents": [{"parts": [{"image": "aGk="}]}]}, "input": [{"image": "aGk="}], "data": [{"b64_json": "eHl6"}]}
    assert find_image_items(echoed) == [{"b64_json": "eHl6"}]


@pytest.mark.parametrize(("body", "error_class", "words"), [
    ({"created": 1, "data": []}, errors.UnexpectedResponseError, "holds no image"),
    ({"status": "ok", "result": {"count": 0}}, errors.UnexpectedResponseError, "holds no image"),
    ([], errors.UnexpectedResponseError, "holds no image"),
    ({"error": {"message": "quota exhausted", "type": "insufficient_quota"}}, errors.APIStatusError, "quota exhausted"),
])
async def test_an_answer_without_images_is_an_error_with_the_body_in_the_inspector(tmp_path: Path, body: Any, error_class: type,
                                                                                  words: str) -> None:
    with pytest.raises(error_class) as caught:
        await mocked(tmp_path, json_answer(body)).generate(MOCK_CONN, ask())
    assert words in str(caught.value)
    assert caught.value.exchange.response_body == body and words in inspector_response(caught.value.exchange)


async def test_a_corrupt_image_is_reported_and_the_good_ones_kept(tmp_path: Path) -> None:
    good = b64(png())
    answer = {"data": [{"b64_json": good}, {"b64_json": good[:-6] + "!!!!==" }, {"b64_json": b64(b"GIF89a not really")}]}
    result, exchange = await mocked(tmp_path, json_answer(answer)).generate(MOCK_CONN, ask())
    assert len(result.images) == 1
    assert result.problems == ["image 2: the gateway sent an image whose base64 data is broken",
                               "image 3: the image is not a readable PNG, JPEG, WebP or GIF image"]
    assert any("not used: image 2" in note for note in exchange.notes)
    with pytest.raises(errors.UnexpectedResponseError, match="None of the images .* base64 data is broken") as caught:
        await mocked(tmp_path, json_answer({"data": [{"b64_json": "%%%"}]})).generate(MOCK_CONN, ask())
    assert caught.value.exchange is not None


async def test_an_image_over_the_pixel_cap_or_the_size_cap_is_refused(tmp_path: Path) -> None:
    huge = png((8000, 6000), mode="1")  # 48 million pixels, a small file
    with pytest.raises(errors.UnexpectedResponseError, match="8000x6000 pixels, more than 40,000,000"):
        await mocked(tmp_path, json_answer({"data": [{"b64_json": b64(huge)}]})).generate(MOCK_CONN, ask())
    capped = mocked(tmp_path, json_answer({"data": [{"b64_json": b64(png((300, 300)))}]}), max_image_bytes=100)
    with pytest.raises(errors.UnexpectedResponseError, match="larger than"):
        await capped.generate(MOCK_CONN, ask())
    assert not list((tmp_path / "mocked").glob("*")), "nothing refused is saved"


async def test_url_items_are_fetched_without_credentials_capped_and_checked(tmp_path: Path) -> None:
    data, seen = png((20, 10), fmt="JPEG"), []

    def server(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/v1/images/generations":
            return httpx.Response(200, json={"data": [{"url": "https://cdn.example/a.jpg", "revised_prompt": "a"},
                                                      {"url": "https://cdn.example/moved"}, {"url": "https://cdn.example/page"},
                                                      {"url": "https://cdn.example/big"}, {"url": "ftp://cdn.example/x"}]})
        if request.url.path == "/moved":
            return httpx.Response(302, headers={"location": "https://cdn.example/a.jpg"})
        if request.url.path == "/page":
            return httpx.Response(200, text="<html>login</html>", headers={"content-type": "text/html"})
        if request.url.path == "/big":
            return httpx.Response(200, content=b"x" * 10, headers={"content-length": str(10**9)})
        return httpx.Response(200, content=data, headers={"content-type": "image/jpeg"})

    result, exchange = await mocked(tmp_path, server).generate(MOCK_CONN, ask())
    assert [(i.format, i.path.suffix, i.delivered_as) for i in result.images] == [("JPEG", ".jpg", "url")] * 2
    assert result.images[0].path.read_bytes() == data and result.images[0].revised_prompt == "a"
    assert [p.split(":")[0] for p in result.problems] == ["image 3", "image 4", "image 5"]
    assert "not a readable" in result.problems[0] and "above the 20 MB cap" in result.problems[1] and "neither http(s) nor a data URL" in result.problems[2]
    fetched = [r for r in seen if r.url.host == "cdn.example"]
    assert fetched and all("authorization" not in r.headers for r in fetched)
    assert seen[0].headers["authorization"] == "Bearer sk-mock-key-123456"
    assert len(result.fetches) == 4 and exchange.attempts == 1


async def test_an_error_envelope_in_a_200_is_the_gateways_error_not_no_image(images: ImagesAPI, conn: Connection) -> None:
    with pytest.raises(errors.APIStatusError) as caught:
        await images.generate(conn, ask("[[fault:body_envelope]] a lighthouse"))
    shown = error_text(caught.value)
    assert "The upstream model is overloaded" in shown and "code 500" in shown
    assert "no image" not in shown and "base URL" not in shown
