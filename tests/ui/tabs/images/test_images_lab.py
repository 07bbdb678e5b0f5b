"""The lab on the Images tab: a pasted curl command sent again exactly (fields without a control
in Extra fields, `contents` included), the session file, and exported code that reproduces the
call against the demo gateway."""

from __future__ import annotations

import base64
import io
import json
import sys
from dataclasses import fields
from typing import Any

import pytest
from PIL import Image

from playground.client.curl_import import parse_curl
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.ui.tabs.images.state import ImagesSession
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.images.handlers import (
    FORM_FIELDS,
    ImageForm,
    generate,
    image_form_values,
)
from playground.ui.session_files.panel import read_session_document, session_document
from tests.conftest import DEMO_KEY
from tests.ui.shared.test_code_export import run, stable


def png_data_url() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 18), (200, 30, 30)).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


BODIES = [
    {"model": "gx-3-pro-image-preview", "prompt": "A lighthouse at dusk", "size": "16:9", "quality": "high", "n": 2,
     "response_format": "b64_json", "image_size": "2K", "mime_type": "image/jpeg", "response_modalities": "image", "user": "u-7"},
    {"model": "gx-2.5-flash-image", "n": 1, "response_format": "b64_json",
     "contents": [{"role": "user", "parts": [{"text": "Make it blue"}, {"image": png_data_url()}]}]},
]


@pytest.mark.parametrize("body", BODIES)
async def test_a_pasted_call_is_sent_again_exactly(client: GatewayClient, defaults: ServerDefaults, body: dict[str, Any]) -> None:
    command = f"curl https://gw.example/v1/images/generations -H 'Authorization: Bearer sk-x-1234' -d '{json.dumps(body)}'"
    values = image_form_values(parse_curl(command).body)
    assert set(values) == set(FORM_FIELDS) and {f.name for f in fields(ImageForm)} - set(values) == {"references"}
    outcome = await generate(client, defaults, ImagesSession(), "", "", ImageForm(**values))
    assert not outcome.error, outcome.error
    assert outcome.exchange.request_body == body


def test_what_the_form_cannot_send_is_refused_with_the_reason(tmp_path: Any) -> None:
    with pytest.raises(RequestValidationError, match="only returns b64_json"):
        image_form_values({"model": "gx-2.5-flash-image", "prompt": "x", "response_format": "url"})
    with pytest.raises(RequestValidationError, match="size has its own control"):
        ImageForm("x", extra_fields='{"size": "1:1"}').request()
    with pytest.raises(RequestValidationError, match="not valid JSON"):
        ImageForm("x", extra_fields="{broken").request()


def test_image_forms_are_saved_and_loaded() -> None:
    form = {name: getattr(ImageForm("a fox", ratio="21:9", extra_fields='{"user": "u"}'), name) for name in FORM_FIELDS}
    document = json.dumps(session_document("images", form, None, None)).encode()
    loaded, history, session = read_session_document(document, "images", list(FORM_FIELDS))
    assert loaded == form and history == [] and session.messages == []
    with pytest.raises(RequestValidationError, match="'images' session"):
        read_session_document(document, "chat", list(FORM_FIELDS))


async def test_exported_code_reproduces_the_generation(client: GatewayClient, defaults: ServerDefaults) -> None:
    outcome = await generate(client, defaults, ImagesSession(), "", "", ImageForm("two boats", ratio="3:2", n=2, extra_fields='{"user": "u-1"}'))
    exchange = outcome.exchange
    curl, python = curl_snippet(exchange), python_snippet(exchange)
    assert DEMO_KEY not in curl + python and "two boats" in curl
    by_curl, by_python = json.loads(run(["bash", "-c", curl])), json.loads(run([sys.executable, "-c", python]))
    assert stable(by_curl) == stable(by_python)
    saved = [image.path.read_bytes() for image in outcome.generation.result.images]  # the inspector keeps a note, the files the bytes
    assert [base64.b64decode(item["b64_json"]) for item in by_curl["data"]] == saved and len(saved) == 2
