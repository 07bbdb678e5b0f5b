"""Probes of embeddings (vector size, float = base64, batch = single, order kept) and images
(ratio and size tier measured on the delivered picture, `n` honoured)."""

from __future__ import annotations

import numpy as np

from playground.client.embeddings import LIST_MODELS, NATIVE_MODELS, EmbeddingsResult
from playground.client.images import ImageRequest
from playground.client.report.probe import Fail, Probe, excerpt
from playground.client.texts import Text

TEXTS = ["The cat sleeps on the warm windowsill.", "Interest rates rose again this quarter.", "Fresh bread smells wonderful in the morning."]
TOLERANCE = 1e-4
RESIZABLE = {"text-embedding-3-small", "text-embedding-3-large", "gx-embedding-001"}
ASKED_SIZE = 256
TIER_LONG_SIDE = {"1K": 1024, "2K": 2048, "3K": 3072}


async def _embed(probe: Probe, texts: list[str], *, batch: bool = True, encoding: str = "float", dimensions: int | None = None) -> np.ndarray:
    if probe.format == "embeddings":
        action = lambda: probe.client.embeddings.embed_list(probe.conn, texts, probe.model, encoding, dimensions)  # noqa: E731
    else:
        action = lambda: probe.client.embeddings.embed_native(probe.conn, texts, probe.model, batch=batch, dimensions=dimensions)  # noqa: E731
    result: EmbeddingsResult = await probe.call(action)
    for exchange in result.exchanges:
        probe.keep(exchange)
    return result.vectors


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.allclose(a, b, atol=TOLERANCE))


async def dimensions(probe: Probe) -> str:
    documented = {**LIST_MODELS, **NATIVE_MODELS}.get(probe.model)
    vectors = await _embed(probe, TEXTS[:1])
    size = int(vectors.shape[1])
    if documented is not None and size != documented:
        raise Fail(Text("report.dimensions.wrong_size", size=size), Text("report.dimensions.documented_size", size=documented), str(size))
    if probe.model not in RESIZABLE:
        return Text("report.dimensions.passed_documented", size=size) if documented else Text("report.dimensions.passed", size=size)
    smaller = await _embed(probe, TEXTS[:1], dimensions=ASKED_SIZE)
    if smaller.shape[1] != ASKED_SIZE:
        raise Fail(Text("report.dimensions.asked_size_differs", asked=ASKED_SIZE, got=smaller.shape[1]), str(ASKED_SIZE), str(smaller.shape[1]))
    return Text("report.dimensions.passed_resized", size=size, asked=ASKED_SIZE)


async def base64_equal(probe: Probe) -> str:
    floats = await _embed(probe, TEXTS)
    packed = await _embed(probe, TEXTS, encoding="base64")
    if not _close(floats, packed):
        raise Fail(Text("report.base64.differ"), Text("report.embeddings.equal_vectors"), Text("report.base64.largest_difference", difference=float(np.max(np.abs(floats - packed)))) if floats.shape == packed.shape else Text("report.embeddings.sizes_differ"))
    return Text("report.base64.passed", count=len(TEXTS))


async def batch(probe: Probe) -> str:
    together = await _embed(probe, TEXTS)
    alone = np.concatenate([await _embed(probe, [text], batch=False) for text in TEXTS])
    if not _close(together, alone):
        raise Fail(Text("report.batch.differ"), Text("report.embeddings.equal_vectors"), excerpt(np.abs(together - alone).max(axis=1).tolist() if together.shape == alone.shape else Text("report.embeddings.sizes_differ")))
    return Text("report.batch.passed", count=len(TEXTS))


async def order(probe: Probe) -> str:
    forward = await _embed(probe, TEXTS)
    backward = await _embed(probe, list(reversed(TEXTS)))
    if not _close(forward, backward[::-1]):
        raise Fail(Text("report.order.not_reversed"), Text("report.order.expected"), Text("report.order.changed"))
    return Text("report.order.passed")


async def ratio(probe: Probe) -> str:
    request = ImageRequest.build(model=probe.model, prompt="A lighthouse at dusk, report probe", size="16:9", image_size="1K", n=1)
    result, exchange = await probe.call(lambda: probe.client.images.generate(probe.conn, request))
    probe.keep(exchange)
    if not result.images:
        raise Fail(Text("report.images.none_delivered"), Text("report.ratio.expected_one_image"), excerpt(result.problems))
    image = result.images[0]
    measured = image.width / image.height
    if abs(measured - 16 / 9) > 0.02:
        raise Fail(Text("report.ratio.picture_size", width=image.width, height=image.height), Text("report.ratio.expected_ratio"), f"{image.width}x{image.height} ({measured:.3f})")
    if max(image.width, image.height) != TIER_LONG_SIDE["1K"]:
        raise Fail(Text("report.ratio.long_side", pixels=max(image.width, image.height)), Text("report.ratio.expected_tier"), f"{image.width}x{image.height}")
    return Text("report.ratio.passed", width=image.width, height=image.height, format=image.format)


async def n_images(probe: Probe) -> str:
    request = ImageRequest.build(model=probe.model, prompt="Two paper boats, report probe", size="1:1", n=2)
    result, exchange = await probe.call(lambda: probe.client.images.generate(probe.conn, request))
    probe.keep(exchange)
    if len(result.images) != 2:
        raise Fail(Text("report.n.delivered", count=len(result.images)), Text("report.n.expected"), str(len(result.images)))
    return Text("report.n.passed")


PROBES = {"dimensions": dimensions, "base64": base64_equal, "batch": batch, "order": order, "ratio": ratio, "n": n_images}
