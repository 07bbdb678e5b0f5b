"""The official SDKs' embedding calls against the demo gateway: openai's `embeddings.create`
(which asks for base64 by default and decodes it) and google-genai's `embed_content` (which
sends `:batchEmbedContents` with the model named in each item)."""

from __future__ import annotations

import numpy as np
import openai
import pytest
from google import genai
from google.genai import types

from playground.demo_gateway.embeddings import embed_texts
from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

TEXTS = ["The cat sat on the mat.", "Quarterly revenue grew."]


def test_openai_embeddings_default_base64(gateway: RunningGateway) -> None:
    sdk = openai.OpenAI(base_url=gateway.url + "/v1", api_key=DEMO_KEY, max_retries=0)
    raw = sdk.embeddings.with_raw_response.create(model="text-embedding-3-small", input=TEXTS)
    assert isinstance(raw.http_response.json()["data"][0]["embedding"], str)  # base64 on the wire
    answer = raw.parse()
    vectors = np.array([item.embedding for item in answer.data], dtype=np.float32)
    assert vectors.shape == (2, 1536) and answer.usage.prompt_tokens == 11
    assert np.allclose(vectors, embed_texts(TEXTS, "text-embedding-3-small", 1536), atol=1e-6)
    floats = sdk.embeddings.create(model="text-embedding-3-large", input="one text", encoding_format="float", dimensions=256)
    assert len(floats.data[0].embedding) == 256 and floats.data[0].index == 0
    with pytest.raises(openai.BadRequestError, match="not supported"):
        sdk.embeddings.create(model="text-embedding-ada-002", input="x", dimensions=8)


@pytest.mark.parametrize("api_version", ["v1", "v1beta"])
def test_genai_embed_content(gateway: RunningGateway, api_version: str) -> None:
    options = types.HttpOptions(base_url=gateway.url, api_version=api_version, headers={"Authorization": f"Bearer {DEMO_KEY}"})
    sdk = genai.Client(api_key="ignored-by-the-demo", http_options=options)
    config = types.EmbedContentConfig(task_type="RETRIEVAL_DOCUMENT", output_dimensionality=64)
    if api_version == "v1":  # the spec's /v1 batch items carry no model; the SDK names it in each item
        with pytest.raises(genai.errors.ClientError, match="must not contain a model"):
            sdk.models.embed_content(model="gx-embedding-001", contents=TEXTS, config=config)
        return
    answer = sdk.models.embed_content(model="gx-embedding-001", contents=TEXTS, config=config)
    vectors = np.array([item.values for item in answer.embeddings], dtype=np.float32)
    assert vectors.shape == (2, 64)
    expected = embed_texts(TEXTS, "gx-embedding-001", 3072, "RETRIEVAL_DOCUMENT")[:, :64]
    assert np.allclose(vectors, expected, atol=1e-6)
