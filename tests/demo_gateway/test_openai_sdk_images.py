"""The official openai SDK's `images.generate`, pointed at the demo gateway: the OpenAI images
shape it parses, the vendor fields sent through `extra_body`, and the refusal as its error type."""

from __future__ import annotations

import base64
import io

import openai
import pytest
from PIL import Image

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY


@pytest.fixture
def sdk(gateway: RunningGateway) -> openai.OpenAI:
    return openai.OpenAI(base_url=gateway.url + "/v1", api_key=DEMO_KEY, max_retries=0)


def test_sdk_generates_images_at_the_asked_ratio_and_tier(sdk: openai.OpenAI) -> None:
    answer = sdk.images.generate(model="gx-2.5-flash-image", prompt="a lighthouse", size="16:9", n=2, response_format="b64_json",  # type: ignore[arg-type]
                                 extra_body={"image_size": "2K", "mime_type": "image/jpeg"})
    assert answer.data is not None and len(answer.data) == 2 and answer.created > 0
    for item in answer.data:
        with Image.open(io.BytesIO(base64.b64decode(item.b64_json or ""))) as image:
            assert (image.format, image.size) == ("JPEG", (2048, 1152))
        assert item.revised_prompt and item.revised_prompt.startswith("a lighthouse")


def test_sdk_sees_a_refusal_as_a_bad_request(sdk: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as caught:
        sdk.images.generate(model="gx-2.5-flash-image", prompt="a forbidden gate")
    assert caught.value.code == "content_policy_violation"
    with pytest.raises(openai.BadRequestError, match="response_format: only b64_json"):
        sdk.images.generate(model="gx-2.5-flash-image", prompt="x", response_format="url")
