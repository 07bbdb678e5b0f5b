"""The demo's embeddings carry meaning: the Embeddings tab's paraphrases score close, unrelated
sentences far, in both formats and at reduced size (the example's claim, in numbers), in English and in
Chinese (the examples' words in the visitor's language, issue 40; Chinese cut into words by `meaning.words`)."""

from __future__ import annotations

import httpx
import numpy as np
import pytest

from playground.demo_gateway.server import RunningGateway
from playground.ui.i18n import CATALOGUE
from playground.ui.tabs.embeddings.layout import DOCUMENTS, PARAPHRASES
from tests.conftest import DEMO_KEY

CAT, CAT_AGAIN, REVENUE, SALES, BREAD = range(5)


def vectors(gateway: RunningGateway, texts: list[str], native: bool, size: int | None = None) -> np.ndarray:
    with httpx.Client(base_url=gateway.url, headers={"authorization": f"Bearer {DEMO_KEY}"}, timeout=10) as http:
        if native:
            requests = [{"model": "models/gx-embedding-001", "content": {"parts": [{"text": t}]},
                         **({"outputDimensionality": size} if size else {})} for t in texts]
            body = http.post("/v1beta/models/gx-embedding-001:batchEmbedContents", json={"requests": requests}).json()
            rows = [e["values"] for e in body["embeddings"]]
        else:
            body = http.post("/v1/embeddings", json={"model": "text-embedding-3-small", "input": texts, **({"dimensions": size} if size else {})}).json()
            rows = [d["embedding"] for d in body["data"]]
    matrix = np.array(rows)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


LANGUAGES = ("en", "zh-CN")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("native", "size"), [(False, None), (True, None), (False, 256), (True, 64)])
def test_paraphrases_close_and_unrelated_far(gateway: RunningGateway, native: bool, size: int | None, language: str) -> None:
    v = vectors(gateway, CATALOGUE.texts[language][PARAPHRASES.key].splitlines(), native, size)
    similarity = v @ v.T
    assert similarity[CAT, CAT_AGAIN] > 0.6 and similarity[REVENUE, SALES] > 0.6
    for a, b in [(CAT, REVENUE), (CAT, SALES), (CAT_AGAIN, SALES), (REVENUE, BREAD), (SALES, BREAD), (CAT, BREAD)]:
        assert similarity[a, b] < 0.2, (a, b, similarity[a, b])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("query", ["embeddings.example.bake_query", "embeddings.example.how_long_query"])
def test_search_ranks_the_bread_documents_first(gateway: RunningGateway, language: str, query: str) -> None:
    texts = CATALOGUE.texts[language]
    documents = texts[DOCUMENTS.key].splitlines()
    v = vectors(gateway, [texts[query], *documents], native=False)
    ranking = np.argsort(-(v[1:] @ v[0]))
    assert {documents[i] for i in ranking[:2]} == {documents[0], documents[2]}
