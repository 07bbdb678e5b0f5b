"""Probes of embeddings (vector size, float = base64, batch = single, order kept) and images
(ratio and size tier measured on the delivered picture, `n` honoured)."""

from __future__ import annotations

import numpy as np

from playground.client.embeddings import LIST_MODELS, NATIVE_MODELS, EmbeddingsResult
from playground.client.images import ImageRequest
from playground.client.report.probe import Fail, Probe, excerpt

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
        raise Fail(f"vectors have {size} numbers", f"{documented} (the model's documented size)", str(size))
    if probe.model not in RESIZABLE:
        return f"{size} numbers, as documented" if documented else f"{size} numbers"
    smaller = await _embed(probe, TEXTS[:1], dimensions=ASKED_SIZE)
    if smaller.shape[1] != ASKED_SIZE:
        raise Fail(f"asked for {ASKED_SIZE} numbers, got {smaller.shape[1]}", str(ASKED_SIZE), str(smaller.shape[1]))
    return f"{size} numbers by default, {ASKED_SIZE} when asked"


async def base64_equal(probe: Probe) -> str:
    floats = await _embed(probe, TEXTS)
    packed = await _embed(probe, TEXTS, encoding="base64")
    if not _close(floats, packed):
        raise Fail("float and base64 vectors differ", "equal vectors", f"largest difference {float(np.max(np.abs(floats - packed))) if floats.shape == packed.shape else 'sizes differ'}")
    return f"{len(TEXTS)} vectors equal in both encodings"


async def batch(probe: Probe) -> str:
    together = await _embed(probe, TEXTS)
    alone = np.concatenate([await _embed(probe, [text], batch=False) for text in TEXTS])
    if not _close(together, alone):
        raise Fail("a batch gives other vectors than single calls", "equal vectors", excerpt(np.abs(together - alone).max(axis=1).tolist() if together.shape == alone.shape else "sizes differ"))
    return f"{len(TEXTS)} texts: batch and single calls agree"


async def order(probe: Probe) -> str:
    forward = await _embed(probe, TEXTS)
    backward = await _embed(probe, list(reversed(TEXTS)))
    if not _close(forward, backward[::-1]):
        raise Fail("a reversed batch does not come back reversed", "vectors in the order of the texts", "the order changed")
    return "vectors come back in the order of the texts"


async def ratio(probe: Probe) -> str:
    request = ImageRequest.build(model=probe.model, prompt="A lighthouse at dusk, report probe", size="16:9", image_size="1K", n=1)
    result, exchange = await probe.call(lambda: probe.client.images.generate(probe.conn, request))
    probe.keep(exchange)
    if not result.images:
        raise Fail("no image was delivered", "one 16:9 image", excerpt(result.problems))
    image = result.images[0]
    measured = image.width / image.height
    if abs(measured - 16 / 9) > 0.02:
        raise Fail(f"the picture is {image.width}x{image.height}", "ratio 16:9", f"{image.width}x{image.height} ({measured:.3f})")
    if max(image.width, image.height) != TIER_LONG_SIDE["1K"]:
        raise Fail(f"the long side is {max(image.width, image.height)} px", "1024 px (tier 1K)", f"{image.width}x{image.height}")
    return f"{image.width}x{image.height} {image.format}, 16:9 at 1K"


async def n_images(probe: Probe) -> str:
    request = ImageRequest.build(model=probe.model, prompt="Two paper boats, report probe", size="1:1", n=2)
    result, exchange = await probe.call(lambda: probe.client.images.generate(probe.conn, request))
    probe.keep(exchange)
    if len(result.images) != 2:
        raise Fail(f"{len(result.images)} image(s) delivered", "2 images", str(len(result.images)))
    return "2 images delivered"


PROBES = {"dimensions": dimensions, "base64": base64_equal, "batch": batch, "order": order, "ratio": ratio, "n": n_images}
