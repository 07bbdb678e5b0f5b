"""The embeddings client against the demo gateway over a real socket: request rules, float and
base64 equal, dimensions honoured, native single and batch on both prefixes, the three ways to
send the key, similarity that carries meaning, batching, broken answers and every fault."""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

import httpx
import numpy as np
import pytest

from playground.client import errors
from playground.client.embeddings import (
    LIST_BATCH_SIZE,
    MAX_TEXTS,
    NATIVE_BATCH_SIZE,
    ListEmbeddingRequest,
    NativeEmbeddingRequest,
    decode_base64_vector,
    parse_list_answer,
    parse_native_answer,
)
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.demo_gateway.embeddings import embed_texts
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.tabs.embeddings.views import cosine_matrix
from playground.ui.shared.render import error_text, inspector_request, inspector_response
from tests.conftest import DEMO_KEY

TEXTS = ["The cat sat on the mat.", "A cat was sitting on the mat.", "Quarterly revenue grew by ten percent."]


@pytest.mark.parametrize(("fields", "words"), [
    ({"model": "", "input": "x"}, "model"), ({"model": "text-embedding-3-small", "input": []}, "at least one text"),
    ({"model": "text-embedding-3-small", "input": ["ok", "  "]}, "text 2 is"), ({"model": "text-embedding-3-small", "input": ""}, "text 1 is"),
    ({"model": "text-embedding-3-small", "input": "x", "encoding_format": "int8"}, "encoding_format"),
    ({"model": "text-embedding-3-small", "input": "x", "dimensions": 0}, "dimensions"),
    ({"model": "text-embedding-ada-002", "input": "x", "dimensions": 256}, "always returns 1536"),
])
def test_list_rules_are_checked_before_sending(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        ListEmbeddingRequest.build(**fields)
    assert words in str(caught.value)


@pytest.mark.parametrize(("fields", "words"), [
    ({"content": {"parts": []}}, "non-empty text"), ({"content": {"parts": [{"text": " "}]}}, "non-empty text"),
    ({"content": {"parts": [{"text": "x"}]}, "taskType": "SEARCH"}, "taskType"),
    ({"content": {"parts": [{"text": "x"}]}, "outputDimensionality": -3}, "outputDimensionality"),
    ({"content": {"parts": [{"text": "x"}]}, "model": "gx-embedding-001"}, "model"),
])
def test_native_rules_are_checked_before_sending(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        NativeEmbeddingRequest.build(**fields)
    assert words in str(caught.value)


async def test_float_and_base64_give_the_same_vectors_with_fewer_bytes(client: GatewayClient, conn: Connection) -> None:
    floats = await client.embeddings.embed_list(conn, TEXTS, "text-embedding-3-small", "float")
    packed = await client.embeddings.embed_list(conn, TEXTS, "text-embedding-3-small", "base64")
    assert floats.vectors.shape == packed.vectors.shape == (3, 1536) and floats.vectors.dtype == np.float32
    assert np.array_equal(floats.vectors, packed.vectors)
    assert packed.exchanges[0].request_body["encoding_format"] == "base64"
    assert packed.wire_bytes < floats.wire_bytes * 0.6
    assert floats.prompt_tokens == floats.total_tokens == 22


@pytest.mark.parametrize(("model", "dimensions", "size"), [
    ("text-embedding-3-small", None, 1536), ("text-embedding-3-large", None, 3072), ("text-embedding-ada-002", None, 1536),
    ("text-embedding-3-large", 256, 256), ("text-embedding-3-small", 8, 8),
])
async def test_list_sizes_and_dimensions(client: GatewayClient, conn: Connection, model: str, dimensions: int | None, size: int) -> None:
    result = await client.embeddings.embed_list(conn, TEXTS[:2], model, dimensions=dimensions)
    assert result.vectors.shape == (2, size)
    assert np.allclose(np.linalg.norm(result.vectors, axis=1), 1.0, atol=1e-5)  # the list format returns unit vectors


async def test_the_gateway_refuses_what_the_client_would_have_refused(client: GatewayClient, conn: Connection) -> None:
    raw = client.transport
    for body, words in [({"model": "text-embedding-3-small", "input": ["a", ""]}, "empty"),
                        ({"model": "text-embedding-ada-002", "input": "a", "dimensions": 8}, "not supported"),
                        ({"model": "text-embedding-3-small", "input": "a", "dimensions": 5000}, "at most 1536")]:
        with pytest.raises(errors.BadRequestError) as caught:
            await raw.request_json(conn, "POST", "/v1/embeddings", body)
        assert words in str(caught.value)
    with pytest.raises(errors.NotFoundError):
        await raw.request_json(conn, "POST", "/v1/embeddings", {"model": "gx-2.5-flash", "input": "a"})
    for path, body, words in [
        ("/v1/models/gx-embedding-001:embedContent", {"model": "gx-embedding-001", "content": {"parts": [{"text": "a"}]}}, "must not contain a model"),
        ("/v1/models/gx-embedding-001:batchEmbedContents", {"requests": [{"model": "models/gx-embedding-001", "content": {"parts": [{"text": "a"}]}}]}, "must not contain a model"),
        ("/v1beta/models/gx-embedding-001:batchEmbedContents", {"requests": [{"model": "models/other", "content": {"parts": [{"text": "a"}]}}]}, "other than"),
        ("/v1/models/text-embedding-004:embedContent", {"content": {"parts": [{"text": "a"}]}, "outputDimensionality": 8}, "not supported"),
        ("/v1beta/models/gx-embedding-001:embedContent", {"content": {"parts": [{"text": ""}]}}, "non-empty text"),
    ]:
        with pytest.raises(errors.BadRequestError) as caught:
            await raw.request_json(conn, "POST", path, body)
        assert words in str(caught.value)


@pytest.mark.parametrize("prefix", ["v1", "v1beta"])
@pytest.mark.parametrize("batch", [False, True])
async def test_native_single_and_batch_on_both_prefixes(client: GatewayClient, conn: Connection, prefix: str, batch: bool) -> None:
    result = await client.embeddings.embed_native(conn, TEXTS, "gx-embedding-001", batch=batch, prefix=prefix, task_type="SEMANTIC_SIMILARITY")
    operation = "batchEmbedContents" if batch else "embedContent"
    assert [e.url.split("/", 3)[3] for e in result.exchanges] == [f"{prefix}/models/gx-embedding-001:{operation}"] * (1 if batch else 3)
    assert result.vectors.shape == (3, 3072)
    body = result.exchanges[0].request_body
    items = body["requests"] if batch else [body]
    assert all("model" not in item and item["taskType"] == "SEMANTIC_SIMILARITY" for item in items)
    alone = await client.embeddings.embed_native(conn, TEXTS[:1], "gx-embedding-001", batch=False, prefix=prefix, task_type="SEMANTIC_SIMILARITY")
    assert np.allclose(alone.vectors[0], result.vectors[0])


async def test_native_output_dimensionality_cuts_without_normalising(client: GatewayClient, conn: Connection) -> None:
    full = await client.embeddings.embed_native(conn, TEXTS, "gx-embedding-001", batch=True)
    short = await client.embeddings.embed_native(conn, TEXTS, "gx-embedding-001", batch=True, dimensions=64)
    assert short.vectors.shape == (3, 64) and np.allclose(short.vectors, full.vectors[:, :64])
    assert not np.allclose(np.linalg.norm(short.vectors, axis=1), 1.0, atol=1e-3)
    with pytest.raises(errors.RequestValidationError, match="always returns 768"):
        await client.embeddings.embed_native(conn, TEXTS, "text-embedding-004", batch=True, dimensions=64)


@pytest.mark.parametrize("style", ["bearer", "header", "query"])
async def test_native_auth_variants_never_show_the_key(client: GatewayClient, conn: Connection, style: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    result = await client.embeddings.embed_native(conn.with_auth(style), TEXTS[:1], "text-embedding-004", batch=False)
    exchange = result.exchanges[0]
    assert result.vectors.shape == (1, 768)
    shown = inspector_request(exchange) + inspector_response(exchange) + curl_snippet(exchange) + python_snippet(exchange) + caplog.text
    assert DEMO_KEY not in shown
    if style == "query":
        assert "key=***" in exchange.url and "key=${GATEWAY_API_KEY}" in curl_snippet(exchange)
    with pytest.raises(errors.AuthenticationError):
        await client.embeddings.embed_native(Connection(conn.base_url, "wrong-key").with_auth(style), TEXTS[:1], "text-embedding-004", batch=False)


def test_paraphrases_score_higher_than_unrelated_sentences() -> None:
    texts = ["How do I bake sourdough bread at home?", "What is the way to bake sourdough bread in my home?",
             "The central bank raised interest rates again."]
    for model, size in [("text-embedding-3-small", 1536), ("gx-embedding-001", 3072), ("gx-embedding-001", 128)]:
        similarity = cosine_matrix(embed_texts(texts, model, size))
        assert similarity[0, 1] > 0.5 > similarity[0, 2] + 0.3, (model, size, similarity)


async def test_large_inputs_go_in_batches_in_order(conn: Connection) -> None:
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=60.0))  # a full batch is seconds of work on a busy machine
    try:
        await _batches_in_order(client, conn)
    finally:
        await client.aclose()


async def _batches_in_order(client: GatewayClient, conn: Connection) -> None:
    texts = [f"note {i} on topic {i % 7}" for i in range(LIST_BATCH_SIZE + 3)]
    seen: list[tuple[int, int]] = []
    result = await client.embeddings.embed_list(conn, texts, "text-embedding-3-small", "base64", dimensions=32, progress=lambda done, total: seen.append((done, total)))
    assert [len(e.request_body["input"]) for e in result.exchanges] == [LIST_BATCH_SIZE, 3]
    assert seen == [(LIST_BATCH_SIZE, len(texts)), (len(texts), len(texts))]
    last = await client.embeddings.embed_list(conn, texts[-1:], "text-embedding-3-small", "base64", dimensions=32)
    assert np.allclose(result.vectors[-1], last.vectors[0])
    natives = await client.embeddings.embed_native(conn, texts[: NATIVE_BATCH_SIZE + 1], "gx-embedding-001", batch=True, dimensions=16)
    assert [len(e.request_body["requests"]) for e in natives.exchanges] == [NATIVE_BATCH_SIZE, 1]


async def test_too_much_input_is_refused_before_sending(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.RequestValidationError, match="more than this playground embeds"):
        await client.embeddings.embed_list(conn, ["x"] * (MAX_TEXTS + 1), "text-embedding-3-small")
    with pytest.raises(errors.RequestValidationError, match="at most"):
        await client.embeddings.embed_list(conn, ["word " * 20_000], "text-embedding-3-small")


async def test_inspector_summary_and_wire_size(client: GatewayClient, conn: Connection) -> None:
    result = await client.embeddings.embed_list(conn, TEXTS, "text-embedding-3-large")
    shown = inspector_response(result.exchanges[0])
    assert "…(3068 more numbers)" in shown and len(shown) < 3000
    assert result.exchanges[0].response_bytes == result.wire_bytes > 3 * 3072 * 5


def test_base64_of_the_wrong_length_is_a_clear_error() -> None:
    good = base64.b64encode(np.arange(4, dtype="<f4").tobytes()).decode()
    assert np.array_equal(decode_base64_vector(good, 0), np.arange(4, dtype=np.float32))
    with pytest.raises(errors.UnexpectedResponseError, match="not a whole number of 4-byte floats"):
        decode_base64_vector(base64.b64encode(b"\x00" * 10).decode(), 1)
    with pytest.raises(errors.UnexpectedResponseError, match="not valid base64"):
        decode_base64_vector("@@@", 0)


@pytest.mark.parametrize(("body", "words"), [
    ({"data": [{"index": 0, "embedding": [0.1, 0.2]}]}, "1 embeddings for 2 texts"),
    ({"data": [{"index": 0, "embedding": [0.1]}, {"index": 0, "embedding": [0.2]}]}, "repeated"),
    ({"data": [{"index": 0, "embedding": [0.1, "x"]}, {"index": 1, "embedding": [0.2, 0.1]}]}, "not a list of numbers"),
    ({"data": [{"index": 0, "embedding": [0.1]}, {"index": 1, "embedding": [0.2, 0.1]}]}, "different sizes"),
    ({"result": "ok"}, "no `data`"),
])
def test_broken_list_answers_are_named(body: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.UnexpectedResponseError, match=words):
        parse_list_answer(body, 2)


def test_list_answers_are_put_in_index_order_and_native_shapes_read() -> None:
    vectors = parse_list_answer({"data": [{"index": 1, "embedding": [1.0, 0.0]}, {"index": 0, "embedding": [0.0, 1.0]}]}, 2)
    assert vectors.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    assert parse_native_answer({"embedding": {"values": [1, 2]}}, 1).tolist() == [[1.0, 2.0]]
    assert parse_native_answer({"embeddings": [{"values": [1]}, {"values": [2]}]}, 2).tolist() == [[1.0], [2.0]]
    with pytest.raises(errors.UnexpectedResponseError, match="no `embedding`"):
        parse_native_answer({"predictions": []}, 1)


async def test_a_broken_answer_keeps_its_exchange() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": "AAAAAAA="}]})

    client = GatewayClient(Transport(http=httpx.AsyncClient(transport=httpx.MockTransport(handler))))
    with pytest.raises(errors.UnexpectedResponseError) as caught:
        await client.embeddings.embed_list(Connection("http://gw.test", "k"), ["a"], "text-embedding-3-small", "base64")
    assert caught.value.exchange is not None and caught.value.exchange.status == 200
    assert json.loads(inspector_request(caught.value.exchange))["body"]["input"] == ["a"]


@pytest.mark.parametrize(("fault", "error"), [
    ("rate_limit:5", errors.RateLimitError), ("server_error:5", errors.ServerError), ("unavailable:5", errors.ServerError),
    ("html_error", errors.ServerError), ("body_truncated", errors.UnexpectedResponseError), ("body_html", errors.UnexpectedResponseError),
    ("body_sse", errors.UnexpectedResponseError), ("body_error", errors.APIStatusError), ("body_shape", errors.UnexpectedResponseError),
    ("body_envelope", errors.ServerError),
    ("body_empty", errors.UnexpectedResponseError), ("stall", errors.APITimeoutError),
])
@pytest.mark.parametrize("native", [False, True])
async def test_every_fault_is_a_clear_error(client: GatewayClient, conn: Connection, fault: str, error: type, native: bool) -> None:
    texts = [f"[[fault:{fault}]] a text"]
    with pytest.raises(error) as caught:
        if native:
            await client.embeddings.embed_native(conn, texts, "gx-embedding-001", batch=True)
        else:
            await client.embeddings.embed_list(conn, texts, "text-embedding-3-small")
    assert caught.value.exchange is not None and DEMO_KEY not in str(caught.value)


async def test_a_retried_fault_recovers(client: GatewayClient, conn: Connection) -> None:
    result = await client.embeddings.embed_list(conn, ["[[fault:rate_limit:1]] retried"], "text-embedding-3-small")
    assert result.vectors.shape == (1, 1536) and result.exchanges[0].attempts == 2


@pytest.mark.parametrize(("fault", "words"), [("body_error", "upstream_error: The upstream model failed (demo fault)"),
                                              ("body_envelope", "code 500: The upstream model is overloaded (demo fault)")])
@pytest.mark.parametrize("native", [False, True])
async def test_an_error_inside_a_200_shows_the_gateways_message(client: GatewayClient, conn: Connection, fault: str, words: str,
                                                                native: bool) -> None:
    """Not "the answer has no data, check the base URL": the gateway's own message and code."""
    texts = [f"[[fault:{fault}]] a text"]
    with pytest.raises(errors.APIStatusError) as caught:
        if native:
            await client.embeddings.embed_native(conn, texts, "gx-embedding-001", batch=False)
        else:
            await client.embeddings.embed_list(conn, texts, "text-embedding-3-small")
    shown = error_text(caught.value)
    assert words in shown.replace("\\_", "_") and "base URL" not in shown
    assert caught.value.exchange is not None and caught.value.exchange.status == 200
