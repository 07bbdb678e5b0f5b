"""Embeddings in the list format (`POST /v1/embeddings`) and the native format
(`/{v1|v1beta}/models/{model}:embedContent` and `:batchEmbedContents`), as numpy arrays.

Large inputs are split into batches (`LIST_BATCH_SIZE`, `NATIVE_BATCH_SIZE` texts per call) and
the vectors joined in order. The exchange of each call keeps a summary of the answer (each
vector's size and first values), never the whole array of numbers.
"""

from __future__ import annotations

from playground.client.texts import Text

import base64
import binascii
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

import numpy as np
from pydantic import Field, field_validator, model_validator

from playground.client.errors import APIStatusError, RequestValidationError, UnexpectedResponseError, error_in_answer
from playground.client.transport import Connection, Exchange, Transport
from playground.client.validation import RequestModel

LIST_MODELS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}
"""The list format's models and their default sizes (spec)."""
NATIVE_MODELS = {"gx-embedding-001": 3072, "text-embedding-004": 768}
"""The native format's models; the spec gives no sizes: these are the vendor's."""
FIXED_SIZE_MODELS = frozenset({"text-embedding-ada-002", "text-embedding-004"})
"""Known models that take no `dimensions` / `outputDimensionality` (spec: "some models only")."""
TASK_TYPES = ("RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "CLASSIFICATION", "CLUSTERING",
              "QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY")
NATIVE_PREFIXES = ("v1", "v1beta")
ANSWER_KEYS = ("data", "embedding", "embeddings")
"""Keys of which an embeddings answer (either format) carries one; without them an error object is the answer."""
LIST_BATCH_SIZE = 512
"""Texts per `/v1/embeddings` call (the list format allows 2048; smaller calls keep the
JSON of a float answer, parsed as Python numbers, to a few tens of MB)."""
NATIVE_BATCH_SIZE = 100
"""Requests per `:batchEmbedContents` call (the native API's own limit)."""
MAX_TEXTS = 20_000
MAX_TEXT_CHARS = 8_000 * 4
"""One text may hold about 8,000 tokens (four characters each) on these models."""
PREVIEW_VALUES = 4

Progress = Callable[[int, int], Awaitable[None] | None]
"""Called after each batch with (texts done, texts in all)."""


def _fixed_size_advice(model: str, dimensions: int | None, field_name: str) -> None:
    if dimensions is not None and model in FIXED_SIZE_MODELS:
        size = LIST_MODELS.get(model) or NATIVE_MODELS.get(model)
        raise ValueError(Text("embeddings.fixed_size_model", model=model, size=size, field=field_name))


class ListEmbeddingRequest(RequestModel):
    model: str = Field(min_length=1)
    input: str | list[str]
    encoding_format: Literal["float", "base64"] | None = None
    dimensions: int | None = Field(default=None, gt=0)

    @field_validator("input")
    @classmethod
    def _texts(cls, value: str | list[str]) -> str | list[str]:
        texts = [value] if isinstance(value, str) else value
        if not texts:
            raise ValueError(Text("embeddings.no_text"))
        empty = [index for index, text in enumerate(texts) if not text.strip()]
        if empty:
            raise ValueError(Text("embeddings.empty_text", number=empty[0] + 1))
        return value

    @model_validator(mode="after")
    def _dimensions(self) -> ListEmbeddingRequest:
        _fixed_size_advice(self.model, self.dimensions, "dimensions")
        return self


class NativeEmbeddingRequest(RequestModel):
    """One native request (the body of `:embedContent`, or one item of a batch): no model field."""

    content: dict[str, Any]
    taskType: str | None = None
    outputDimensionality: int | None = Field(default=None, gt=0)

    @field_validator("content")
    @classmethod
    def _parts(cls, value: dict[str, Any]) -> dict[str, Any]:
        parts = value.get("parts")
        if not isinstance(parts, list) or not any(isinstance(p, dict) and isinstance(p.get("text"), str) and p["text"].strip() for p in parts):
            raise ValueError(Text("embeddings.native_no_text_part"))
        return value

    @field_validator("taskType")
    @classmethod
    def _task(cls, value: str | None) -> str | None:
        if value is not None and value not in TASK_TYPES:
            raise ValueError(Text("embeddings.task_type_not_allowed", allowed=', '.join(TASK_TYPES)))
        return value

    @classmethod
    def of_text(cls, text: str, task_type: str | None = None, dimensions: int | None = None) -> NativeEmbeddingRequest:
        return cls.build(content={"parts": [{"text": text}]}, taskType=task_type or None, outputDimensionality=dimensions)


@dataclass
class EmbeddingsResult:
    """The vectors of every text in order (float32, one row each), with what the calls cost."""

    vectors: np.ndarray
    model: str
    prompt_tokens: int | None = None
    total_tokens: int | None = None
    wire_bytes: int = 0
    """Bytes of the answers' bodies, all calls together."""
    seconds: float = 0.0
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1]) if self.vectors.ndim == 2 else 0


def decode_base64_vector(encoded: str, index: int) -> np.ndarray:
    """A base64 embedding as little-endian float32 numbers."""
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise UnexpectedResponseError(Text("embeddings.vector_not_base64", number=index + 1)) from None
    if len(raw) % 4:
        raise UnexpectedResponseError(Text("embeddings.vector_not_float32", number=index + 1, size=len(raw)))
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


def _float_vector(values: Any, where: str) -> np.ndarray:
    if not isinstance(values, list) or not values:
        raise UnexpectedResponseError(Text("embeddings.not_a_list_of_numbers", where=where))
    try:
        vector = np.asarray(values)
    except (TypeError, ValueError):  # lists of different lengths inside
        raise UnexpectedResponseError(Text("embeddings.not_a_list_of_numbers", where=where)) from None
    if vector.ndim != 1 or vector.dtype.kind not in "fiu" or not np.isfinite(vector).all():
        raise UnexpectedResponseError(Text("embeddings.not_a_list_of_numbers", where=where))
    return vector.astype(np.float32)


def _stack(vectors: list[np.ndarray]) -> np.ndarray:
    sizes = {len(v) for v in vectors}
    if len(sizes) > 1:
        raise UnexpectedResponseError(Text("embeddings.vector_sizes_differ", sizes=', '.join(map(str, sorted(sizes)))))
    return np.vstack(vectors) if vectors else np.zeros((0, 0), np.float32)


def _summary(values: Any) -> Any:
    """What the inspector keeps of an embedding: its size and first values."""
    if isinstance(values, list) and len(values) > PREVIEW_VALUES:
        return values[:PREVIEW_VALUES] + [Text("embeddings.more_numbers", count=len(values) - PREVIEW_VALUES)]
    if isinstance(values, str) and len(values) > 48:
        return Text("embeddings.more_base64_characters", start=values[:48], count=len(values) - 48)
    return values


def summarize_body(body: Any) -> Any:
    """An embeddings answer with every vector shortened (list and native shapes)."""
    if not isinstance(body, dict):
        return body
    shown = dict(body)
    if isinstance(body.get("data"), list):
        shown["data"] = [{**item, "embedding": _summary(item.get("embedding"))} if isinstance(item, dict) else item for item in body["data"]]
    if isinstance(body.get("embedding"), dict):
        shown["embedding"] = {**body["embedding"], "values": _summary(body["embedding"].get("values"))}
    if isinstance(body.get("embeddings"), list):
        shown["embeddings"] = [{**item, "values": _summary(item.get("values"))} if isinstance(item, dict) else item for item in body["embeddings"]]
    return shown


def _usage(body: dict[str, Any]) -> tuple[int | None, int | None]:
    usage = body.get("usage") or (body.get("metadata") or {}).get("usage") or body.get("usageMetadata") or {}
    if not isinstance(usage, dict):
        return None, None
    prompt = usage.get("prompt_tokens", usage.get("promptTokenCount"))
    total = usage.get("total_tokens", usage.get("totalTokenCount", prompt))
    return (prompt if isinstance(prompt, int) else None), (total if isinstance(total, int) else None)


def parse_list_answer(body: Any, expected: int) -> np.ndarray:
    """The vectors of an embedding list result, ordered by `index`, floats or base64."""
    items = body.get("data") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise UnexpectedResponseError(Text("embeddings.no_data_list"))
    if len(items) != expected:
        raise UnexpectedResponseError(Text("embeddings.count_differs", count=len(items), expected=expected))
    ordered: list[np.ndarray | None] = [None] * expected
    for position, item in enumerate(items):
        index = item.get("index", position) if isinstance(item, dict) else None
        if not isinstance(index, int) or not 0 <= index < expected or ordered[index] is not None:
            raise UnexpectedResponseError(Text("embeddings.index_wrong", position=position + 1))
        values = item.get("embedding")
        ordered[index] = decode_base64_vector(values, index) if isinstance(values, str) else _float_vector(values, Text("embeddings.vector_of_text", number=index + 1))
    return _stack([v for v in ordered if v is not None])


def parse_native_answer(body: Any, expected: int) -> np.ndarray:
    """Vectors of a native result: `{embedding: {values}}` or, for a batch, `{embeddings: [{values}]}`."""
    if isinstance(body, dict) and isinstance(body.get("embedding"), dict) and expected == 1:
        return _stack([_float_vector(body["embedding"].get("values"), "embedding.values")])
    items = body.get("embeddings") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise UnexpectedResponseError(Text("embeddings.no_native_values"))
    if len(items) != expected:
        raise UnexpectedResponseError(Text("embeddings.count_differs", count=len(items), expected=expected))
    return _stack([_float_vector(item.get("values") if isinstance(item, dict) else None, f"embeddings[{n}].values") for n, item in enumerate(items)])


def check_texts(texts: list[str]) -> None:
    """Refuse, before anything is sent, an input no gateway would take."""
    if not texts:
        raise RequestValidationError([Text("embeddings.type_a_text")])
    if len(texts) > MAX_TEXTS:
        raise RequestValidationError([Text("embeddings.too_many_texts", count=len(texts), limit=MAX_TEXTS)])
    long = [n for n, text in enumerate(texts) if len(text) > MAX_TEXT_CHARS]
    if long:
        raise RequestValidationError([Text("embeddings.text_too_long", number=long[0] + 1, length=len(texts[long[0]]), limit=MAX_TEXT_CHARS)])


def native_path(prefix: str, model: str, operation: str) -> str:
    if prefix not in NATIVE_PREFIXES:
        raise RequestValidationError([Text("embeddings.native_prefix_not_allowed", allowed=' or '.join(NATIVE_PREFIXES))])
    if not model.strip():
        raise RequestValidationError([Text("embeddings.pick_a_model")])
    return f"/{prefix}/models/{quote(model.strip(), safe='.-_')}:{operation}"


class EmbeddingsAPI:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    async def _run(self, bodies: list[tuple[Any, int]], call: Callable[[Any, int], Awaitable[tuple[np.ndarray, Exchange, Any]]],
                   model: str, progress: Progress | None) -> EmbeddingsResult:
        """Send each (body, text count) in turn; join the vectors and add up what they cost."""
        result = EmbeddingsResult(np.zeros((0, 0), np.float32), model)
        parts: list[np.ndarray] = []
        prompt = total = done = 0
        counted = True
        everything = sum(count for _, count in bodies)
        for body, count in bodies:
            vectors, exchange, answer = await call(body, count)
            parts.append(vectors)
            result.exchanges.append(exchange)
            result.wire_bytes += exchange.response_bytes or 0
            result.seconds += exchange.finished_at or 0.0
            batch_prompt, batch_total = _usage(answer)
            counted = counted and batch_prompt is not None
            prompt += batch_prompt or 0
            total += batch_total or 0
            done += count
            if progress is not None:
                pending = progress(done, everything)
                if pending is not None:
                    await pending
        if len({part.shape[1] for part in parts}) > 1:
            raise UnexpectedResponseError(Text("embeddings.vector_sizes_differ_between_batches"))
        result.vectors = np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)
        result.prompt_tokens, result.total_tokens = (prompt, total) if counted else (None, None)
        return result

    async def embed_list(self, conn: Connection, texts: list[str], model: str, encoding: str = "float",
                         dimensions: int | None = None, progress: Progress | None = None, extra: dict[str, Any] | None = None) -> EmbeddingsResult:
        """`POST /v1/embeddings` for every text, `LIST_BATCH_SIZE` at a time (all checked before the first is sent);
        `extra` fields (ones the spec does not name, such as `user`) are sent as they are."""
        check_texts(texts)
        bodies = [({**(extra or {}), **ListEmbeddingRequest.build(model=model, input=texts[start:start + LIST_BATCH_SIZE], encoding_format=encoding,
                                                                  dimensions=dimensions).to_body()}, len(texts[start:start + LIST_BATCH_SIZE]))
                  for start in range(0, len(texts), LIST_BATCH_SIZE)]

        async def call(body: Any, count: int) -> tuple[np.ndarray, Exchange, Any]:
            data, exchange = await self.transport.request_json(conn, "POST", "/v1/embeddings", body, record=summarize_body)
            return self._checked(parse_list_answer, data, count, exchange), exchange, data

        return await self._run(bodies, call, model, progress)

    async def embed_native(self, conn: Connection, texts: list[str], model: str, *, batch: bool, prefix: str = "v1beta",
                           task_type: str | None = None, dimensions: int | None = None, progress: Progress | None = None,
                           extra: dict[str, Any] | None = None) -> EmbeddingsResult:
        """`:embedContent` once per text, or `:batchEmbedContents` with `NATIVE_BATCH_SIZE` requests per call;
        `extra` fields (such as `title`) go into each request."""
        check_texts(texts)
        try:
            _fixed_size_advice(model, dimensions, "outputDimensionality")
        except ValueError as exc:
            raise RequestValidationError([str(exc)]) from None
        path = native_path(prefix, model, "batchEmbedContents" if batch else "embedContent")
        requests = [{**(extra or {}), **NativeEmbeddingRequest.of_text(text, task_type, dimensions).to_body()} for text in texts]
        size = NATIVE_BATCH_SIZE if batch else 1
        chunks = [requests[start:start + size] for start in range(0, len(requests), size)]
        bodies = [({"requests": chunk} if batch else chunk[0], len(chunk)) for chunk in chunks]

        async def call(body: Any, count: int) -> tuple[np.ndarray, Exchange, Any]:
            data, exchange = await self.transport.request_json(conn, "POST", path, body, record=summarize_body)
            return self._checked(parse_native_answer, data, count, exchange), exchange, data

        return await self._run(bodies, call, model, progress)

    @staticmethod
    def _checked(parse: Callable[[Any, int], np.ndarray], data: Any, expected: int, exchange: Exchange) -> np.ndarray:
        try:
            embedded = error_in_answer(data, ANSWER_KEYS)
            if embedded is not None:
                raise embedded
            return parse(data, expected)
        except (UnexpectedResponseError, APIStatusError) as error:
            error.exchange = exchange
            exchange.error = str(error)
            raise
