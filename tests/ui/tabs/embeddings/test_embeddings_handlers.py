"""The Embeddings tab's handler against the demo gateway: search ranking, heatmap, labelled map,
downloads, both formats side by side, the lessons, clear errors, and curl import round trips."""

from __future__ import annotations

import asyncio
import csv
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np
import pytest

from playground.client.curl_import import parse_curl
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.embeddings.views import (
    TEXT_EXPORT_LIMIT,
    add_text_exports,
    export_files,
)
from playground.ui.tabs.embeddings.handlers import (
    LIST_FORMAT,
    NATIVE_CALLS,
    NATIVE_FORMAT,
    EmbeddingsForm,
    embed_texts,
)
from playground.ui.tabs.embeddings.handlers import form_from_curl
from playground.ui.session_files.panel import read_session_document, session_document
from playground.ui.shared.stopping import StopSwitch, unless_stopped

DOCUMENTS = "Sourdough bread needs flour, water and a starter.\nThe train to Berlin leaves at nine.\nBake the bread in a hot oven.\n<script>alert(1)</script> cats"


async def test_search_heatmap_map_and_downloads(client: GatewayClient, defaults: ServerDefaults) -> None:
    seen: list[tuple[int, int]] = []
    view = await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=DOCUMENTS, query="How do I bake bread?"), lambda d, t: seen.append((d, t)))
    assert not view.error and seen == [(5, 5)]
    assert view.search.index("Bake the bread") < view.search.index("The train to Berlin")  # best first
    assert view.heatmap.count("<td") == 25 and "↔" in view.heatmap
    assert "<script>" not in view.heatmap + view.map + view.search and "&lt;script&gt;" in view.map
    assert view.map.count("<circle") == 5 and "1. How do I bake bread?" in view.map
    assert view.table[1][:4] == [2, "Sourdough bread needs flour, water and a starter.", 1536, 1.0]
    paths = {Path(p).name: Path(p) for p in view.files}
    assert set(paths) == {"embeddings.csv", "embeddings.npy", "vectors.tsv", "metadata.tsv"}
    vectors = np.load(paths["embeddings.npy"])
    assert vectors.shape == (5, 1536)
    assert np.allclose(np.loadtxt(paths["vectors.tsv"], delimiter="\t"), vectors, atol=1e-6)
    assert paths["metadata.tsv"].read_text().splitlines()[0] == "How do I bake bread?"
    rows = list(csv.reader(paths["embeddings.csv"].open()))
    assert rows[0][:2] == ["text", "v0"] and len(rows) == 6 and float(rows[1][1]) == pytest.approx(vectors[0, 0], rel=1e-5)


async def test_both_formats_side_by_side(client: GatewayClient, defaults: ServerDefaults) -> None:
    form = EmbeddingsForm(texts=DOCUMENTS, query="bread", formats=[LIST_FORMAT, NATIVE_FORMAT], auth="key= in the URL")
    view = await embed_texts(client, defaults, "", "", form)
    assert view.summary.count("vectors ×") == 2 and "3,072 numbers" in view.summary
    assert view.heatmap.startswith("<div class='emb-side-by-side'>") and view.heatmap.count("<table") == 2
    assert view.search.count("<ol>") == 2


async def test_lessons(client: GatewayClient, defaults: ServerDefaults) -> None:
    floats = await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=DOCUMENTS, lesson="float vs base64"))
    assert "difference between the two sets of vectors: <b>0</b>" in floats.lesson and floats.lesson.count("<tr>") == 3
    tasks = await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=DOCUMENTS, query="How long do I bake bread?", formats=[NATIVE_FORMAT],
                                                                       lesson="RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT"))
    assert "No task type" in tasks.lesson and "RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT" in tasks.lesson and "changed place" in tasks.lesson
    sizes = await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=DOCUMENTS, query="bread", formats=[NATIVE_FORMAT], dimensions=16,
                                                                       lesson="Full vs reduced dimensions"))
    assert "3072 numbers" in sizes.lesson and "16 numbers" in sizes.lesson and "scaled to length 1" in sizes.lesson
    needs_query = await embed_texts(client, defaults, "", "", EmbeddingsForm(texts=DOCUMENTS, lesson="Full vs reduced dimensions"))
    assert "needs a search query" in needs_query.lesson


@pytest.mark.parametrize(("form", "words"), [
    (EmbeddingsForm(texts="\n  \n"), "type some texts"),
    (EmbeddingsForm(texts="a", formats=[]), "choose at least one format"),
    (EmbeddingsForm(texts="\n".join(f"t{i}" for i in range(101)), formats=[NATIVE_FORMAT], native_call="One call per text (:embedContent)"), "choose Batch"),
    (EmbeddingsForm(texts="a", extra_fields="{oops"), "Extra fields: not valid JSON"),
    (EmbeddingsForm(texts="a", extra_fields='{"dimensions": 3}'), "has its own control"),
    (EmbeddingsForm(texts="a", list_model="text-embedding-ada-002", dimensions=64), "always returns 1536"),
    (EmbeddingsForm(texts="[[fault:server_error:9]] a"), "the gateway failed"),
])
async def test_bad_input_and_gateway_errors_are_clear(client: GatewayClient, defaults: ServerDefaults, form: EmbeddingsForm, words: str) -> None:
    view = await embed_texts(client, defaults, "", "", form)
    assert words in view.error.lower() or words in view.error
    assert not view.map and "Error" not in view.error  # no class names


def test_embedding_forms_are_saved_and_loaded(tmp_path: Path) -> None:
    form = asdict(EmbeddingsForm(texts="a\nb", query="q", dimensions=64))
    document = session_document("embeddings", form, None, None)
    loaded, history, session = read_session_document(str(document).replace("'", '"').replace("None", "null").encode(), "embeddings", list(form))
    assert loaded["texts"] == "a\nb" and loaded["dimensions"] == 64 and history == [] and session.messages == []


@pytest.mark.parametrize("command", [
    """curl https://gw.example/v1/embeddings -H "Authorization: Bearer sk-1234" -d '{"model": "text-embedding-3-large", "input": ["one", "two"], "encoding_format": "base64", "dimensions": 256, "user": "u-7"}'""",
    """curl "https://gw.example/v1beta/models/gx-embedding-001:batchEmbedContents?key=sk-1234" -d '{"requests": [{"content": {"parts": [{"text": "one"}]}, "taskType": "RETRIEVAL_DOCUMENT", "outputDimensionality": 64, "title": "T"}, {"content": {"parts": [{"text": "two"}]}, "taskType": "RETRIEVAL_DOCUMENT", "outputDimensionality": 64, "title": "T"}]}'""",
    """curl https://gw.example/v1/models/text-embedding-004:embedContent -H "x-svc-api-key: sk-1234" -d '{"content": {"parts": [{"text": "one"}]}}'""",
])
async def test_a_pasted_call_is_sent_again_exactly(client: GatewayClient, defaults: ServerDefaults, command: str) -> None:
    request = parse_curl(command)
    values = {**asdict(EmbeddingsForm()), **{k: v for k, v in form_from_curl(request).items() if v is not None}}
    assert set(values) == {f.name for f in fields(EmbeddingsForm)}
    form = EmbeddingsForm(**values)
    if form.formats == [NATIVE_FORMAT]:
        assert form.native_call == next(label for label, batch in NATIVE_CALLS.items() if batch == (":batch" in command))
    view = await embed_texts(client, defaults, "", "", form)
    assert not view.error, view.error
    assert view.exchange.request_body == request.body
    assert view.exchange.url.split("/", 3)[3].split("?")[0] == request.path.lstrip("/")


async def test_stop_gives_up_waiting_and_a_later_run_works(client: GatewayClient, defaults: ServerDefaults) -> None:
    switch = StopSwitch()
    switch.arm()
    running = asyncio.ensure_future(unless_stopped(embed_texts(client, defaults, "", "", EmbeddingsForm(texts="[[fault:stall]] slow")), switch.event))
    await asyncio.sleep(0.2)
    assert not running.done()
    switch.press()
    assert await asyncio.wait_for(running, 1.0) == (True, None)
    switch.arm()
    stopped, view = await unless_stopped(embed_texts(client, defaults, "", "", EmbeddingsForm(texts="fast")), switch.event)
    assert not stopped and view is not None and view.map


def test_large_inputs_write_text_exports_when_asked(tmp_path: Path) -> None:
    texts = [f"text {i}, with a comma and a \"quote\"" for i in range(TEXT_EXPORT_LIMIT + 1)]
    vectors = np.random.default_rng(0).standard_normal((len(texts), 8)).astype(np.float32)
    first = export_files(texts, vectors, "embeddings", as_text=False)
    assert sorted(Path(p).name for p in first) == ["embeddings.npy", "metadata.tsv"]
    every = add_text_exports(first)
    names = {Path(p).name: Path(p) for p in every}
    assert set(names) == {"embeddings.csv", "vectors.tsv", "embeddings.npy", "metadata.tsv"}
    rows = list(csv.reader(names["embeddings.csv"].open(newline="")))
    assert rows[1][0] == texts[0] and np.allclose([float(v) for v in rows[1][1:]], vectors[0], rtol=1e-6)
    assert np.allclose(np.loadtxt(names["vectors.tsv"], delimiter="\t"), vectors, rtol=1e-6)
    outside = tmp_path / "elsewhere.npy"
    np.save(outside, vectors)
    with pytest.raises(RequestValidationError, match="no vectors"):
        add_text_exports([str(outside)])
