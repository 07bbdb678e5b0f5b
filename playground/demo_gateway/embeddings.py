"""Embeddings on the demo gateway: `POST /v1/embeddings` and the native `:embedContent` /
`:batchEmbedContents` on `/v1` and `/v1beta`.

Vectors carry meaning a demo can show: each text is a hashed bag of the meanings of its words
(`meaning.py`: synonyms share one, word forms fold to a stem, small words weigh little) and of
its words' character trigrams (signed, weighted), mapped by a fixed random projection to dense
numbers (as real embeddings are) and L2-normalised, so texts that share words or word pieces
land close and unrelated texts far, in any dimension. The task type changes what counts:
a `RETRIEVAL_QUERY` ignores question words, a `RETRIEVAL_DOCUMENT` gives them little weight.
Native `outputDimensionality` cuts the full vector without normalising it again (as the
vendor's models do); the list format's `dimensions` returns unit vectors.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from typing import Any

import numpy as np
import orjson
from starlette.responses import JSONResponse

from playground.demo_gateway import meaning
from playground.demo_gateway.common import HTTPProblem, count_tokens

LIST_MODELS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}
NATIVE_MODELS = {"gx-embedding-001": 3072, "text-embedding-004": 768}
SHORTENABLE = frozenset({"text-embedding-3-small", "text-embedding-3-large", "gx-embedding-001"})
TASK_TYPES = frozenset({"RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "CLASSIFICATION", "CLUSTERING",
                        "QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY"})
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "how", "why", "when", "where", "is", "are", "was", "were", "do", "does",
                            "did", "can", "could", "the", "a", "an", "of", "to", "in", "on", "for", "and", "or", "i", "you", "me", "my",
                            "怎样", "怎么", "如何", "多久", "什么", "为什么", "吗", "哪", "的", "了", "我"})
MAX_INPUTS = 2048
LATENT_SIZE = 512
MAX_BATCH_REQUESTS = 250
_WORD = re.compile(r"\w+|%")
TRIGRAM_WEIGHT = 0.12


@lru_cache(maxsize=200_000)
def _slot(seed: str, feature: str) -> tuple[int, float]:
    digest = hashlib.blake2b(f"{seed}\x00{feature}".encode(), digest_size=8).digest()
    number = int.from_bytes(digest, "little")
    return number % LATENT_SIZE, 1.0 if number >> 63 else -1.0


@lru_cache(maxsize=16)
def _projection(model: str, size: int) -> np.ndarray:
    """A fixed random map from the hashed features to `size` dense numbers (angles are kept)."""
    seed = int.from_bytes(hashlib.blake2b(f"{model}/{size}".encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).standard_normal((LATENT_SIZE, size), dtype=np.float32) / np.float32(np.sqrt(size))


def _features(text: str, model: str, task_type: str | None) -> np.ndarray:
    latent = np.zeros(LATENT_SIZE, np.float32)
    for word in (word for token in _WORD.findall(text.lower()) for word in meaning.words(token)):
        weight = meaning.weight(word)
        if word in QUESTION_WORDS:
            if task_type in ("RETRIEVAL_QUERY", "QUESTION_ANSWERING"):
                continue
            weight *= 0.2 if task_type == "RETRIEVAL_DOCUMENT" else 0.6
        index, sign = _slot(model, meaning.concept(word))
        latent[index] += sign * weight
        marked = f"<{word}>"
        for start in range(len(marked) - 2):
            index, sign = _slot(model, marked[start:start + 3])
            latent[index] += sign * weight * TRIGRAM_WEIGHT
    if not latent.any():
        latent[_slot(model, "\x00empty")[0]] = 1.0
    return latent


def embed_texts(texts: list[str], model: str, size: int, task_type: str | None = None) -> np.ndarray:
    """The demo's meaning-carrying vectors of `texts`: one unit-length float32 row each."""
    latent = np.vstack([_features(text, model, task_type) for text in texts])
    dense = latent @ _projection(model, size)
    return dense / np.maximum(np.linalg.norm(dense, axis=1, keepdims=True), 1e-12)


def _encoded(vector: np.ndarray, encoding: str) -> Any:
    return base64.b64encode(vector.astype("<f4").tobytes()).decode("ascii") if encoding == "base64" else vector


class VectorsResponse(JSONResponse):
    """JSON with numpy arrays written by orjson (fast for thousands of vectors)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_SERIALIZE_NUMPY)


def _json(payload: Any) -> JSONResponse:
    return VectorsResponse(payload)


def _size(model: str, default: int, asked: Any, field: str) -> int:
    if asked is None:
        return default
    if isinstance(asked, bool) or not isinstance(asked, int) or asked <= 0:
        raise HTTPProblem(400, "invalid", f"{field} must be an integer greater than 0.", code="invalid_value")
    if model not in SHORTENABLE:
        raise HTTPProblem(400, "invalid", f"{field} is not supported by {model}.", code="unsupported_parameter")
    if asked > default:
        raise HTTPProblem(400, "invalid", f"{field} may be at most {default} for {model}.", code="invalid_value")
    return asked


def list_embeddings(body: dict[str, Any]) -> JSONResponse:
    """`POST /v1/embeddings`: the embedding list result, float or base64."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise HTTPProblem(400, "invalid", "model is required.", code="missing_parameter")
    if model not in LIST_MODELS:
        raise HTTPProblem(404, "not_found_error", f"The model {model} does not exist or is not an embedding model.", code="model_not_found")
    texts = body.get("input")
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        raise HTTPProblem(400, "invalid", "input must be a string or a non-empty array of strings.", code="invalid_value")
    if any(not t.strip() for t in texts):
        raise HTTPProblem(400, "invalid", "input must not contain empty strings.", code="invalid_value")
    if len(texts) > MAX_INPUTS:
        raise HTTPProblem(400, "invalid", f"input may hold at most {MAX_INPUTS} strings.", code="invalid_value")
    encoding = body.get("encoding_format", "float")
    if encoding not in ("float", "base64"):
        raise HTTPProblem(400, "invalid", "encoding_format must be float or base64.", code="invalid_value")
    size = _size(model, LIST_MODELS[model], body.get("dimensions"), "dimensions")
    full = LIST_MODELS[model]
    vectors = embed_texts(texts, model, full)[:, :size]
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    data = [{"object": "embedding", "index": index, "embedding": _encoded(vector, encoding)} for index, vector in enumerate(vectors)]
    tokens = sum(count_tokens(t) for t in texts)
    return _json({"object": "list", "data": data, "model": model, "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})


def _native_vector(model: str, request: Any, where: str) -> tuple[np.ndarray, int]:
    if not isinstance(request, dict):
        raise HTTPProblem(400, "invalid", f"{where} must be an object.")
    parts = (request.get("content") or {}).get("parts") if isinstance(request.get("content"), dict) else None
    texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)] if isinstance(parts, list) else []
    if not any(t.strip() for t in texts):
        raise HTTPProblem(400, "invalid", f"{where}content.parts must hold at least one part with non-empty text.")
    task = request.get("taskType", request.get("task_type"))
    if task is not None and task not in TASK_TYPES:
        raise HTTPProblem(400, "invalid", f"{where}taskType {task!r} is not one of {', '.join(sorted(TASK_TYPES))}.")
    full = NATIVE_MODELS[model]
    size = _size(model, full, request.get("outputDimensionality", request.get("output_dimensionality")), f"{where}outputDimensionality")
    text = " ".join(texts)
    return embed_texts([text], model, full, task)[0, :size], count_tokens(text)


def _native_model(model: str) -> str:
    if model not in NATIVE_MODELS:
        raise HTTPProblem(404, "not_found", f"models/{model} is not found or does not support embedContent.")
    return model


def native_embeddings(prefix: str, model: str, operation: str, body: dict[str, Any]) -> JSONResponse:
    """`embedContent` (one text) or `batchEmbedContents` on `/v1` or `/v1beta`.

    The spec shows the `/v1` batch body (`{requests: [...]}`, no model in the items); the
    `/v1beta` batch body is not shown: the demo takes the same body there, and also items that
    name the path's model as `models/{model}` (as the vendor's own API and SDK write them)."""
    model = _native_model(model)
    if operation == "embedContent":
        if "model" in body:
            raise HTTPProblem(400, "invalid", "The body must not contain a model field: the model goes in the path.")
        vector, tokens = _native_vector(model, body, "")
        return _json({"embedding": {"values": vector}, "metadata": {"usage": {"prompt_tokens": tokens, "total_tokens": tokens}}})
    requests = body.get("requests")
    if not isinstance(requests, list) or not requests:
        raise HTTPProblem(400, "invalid", "requests must be a non-empty array of embedding requests.")
    if len(requests) > MAX_BATCH_REQUESTS:
        raise HTTPProblem(400, "invalid", f"A batch may hold at most {MAX_BATCH_REQUESTS} requests.")
    vectors, tokens = [], 0
    for index, request in enumerate(requests):
        named = request.get("model") if isinstance(request, dict) else None
        if named is not None and (prefix == "v1" or named != f"models/{model}"):
            raise HTTPProblem(400, "invalid", f"requests[{index}] must not contain a model field" + (
                "." if prefix == "v1" else f" other than models/{model} (the model in the path)."))
        vector, used = _native_vector(model, request, f"requests[{index}].")
        vectors.append({"values": vector})
        tokens += used
    return _json({"embeddings": vectors, "metadata": {"usage": {"prompt_tokens": tokens, "total_tokens": tokens}}})
