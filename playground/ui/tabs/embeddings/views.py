"""What people see of embeddings: similarity heatmaps, a 2-D map, search rankings, a table per
vector, and files to download. Plain functions over numpy arrays; every text shown is escaped."""

from __future__ import annotations

import html
import tempfile
from pathlib import Path

import numpy as np

from playground.client.errors import RequestValidationError
from playground.client.media import media_directory
from playground.ui.i18n import say

HEATMAP_LIMIT = 40
"""Texts drawn in a heatmap (a bigger matrix is unreadable; the first ones are shown)."""
MAP_LABEL_LIMIT = 60
"""Up to this many texts, each point of the 2-D map is labelled with its text."""
TABLE_LIMIT = 200
EXACT_PCA_LIMIT = 1000
TEXT_EXPORT_LIMIT = 2000
"""Up to this many texts the CSV and `vectors.tsv` are written with every run; past it, on request."""
LABEL_CHARS = 28


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (vectors cut to fewer dimensions are not), so dot products are cosines."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    unit = unit_rows(vectors.astype(np.float64))
    return np.clip(unit @ unit.T, -1.0, 1.0)


def short_label(index: int, text: str) -> str:
    flat = " ".join(text.split())
    return f"{index + 1}. {flat[:LABEL_CHARS]}{'…' if len(flat) > LABEL_CHARS else ''}"


def _cell_colour(value: float) -> str:
    """Blue for unrelated, through white, to deep indigo for the same meaning."""
    value = max(-1.0, min(1.0, value))
    if value >= 0:
        fade = int(255 - value * 190)
        return f"rgb({fade},{fade + int(value * 10)},255)"
    fade = int(255 + value * 90)
    return f"rgb(255,{fade},{fade})"


def heatmap_html(texts: list[str], vectors: np.ndarray, title: str = "") -> str:
    """A table of cosine similarities: each cell coloured, its value written in it and in its title."""
    shown = min(len(texts), HEATMAP_LIMIT)
    matrix = cosine_matrix(vectors[:shown])
    labels = [html.escape(short_label(i, t)) for i, t in enumerate(texts[:shown])]
    rows = []
    for i in range(shown):
        cells = "".join(
            f'<td style="background:{_cell_colour(matrix[i, j])}" title="{labels[i]} ↔ {labels[j]}: {matrix[i, j]:.3f}">{matrix[i, j]:.2f}</td>'
            for j in range(shown))
        rows.append(f'<tr><th scope="row" title="{html.escape(texts[i][:300])}">{labels[i]}</th>{cells}</tr>')
    header = "".join(f'<th scope="col" title="{html.escape(texts[j][:300])}">{j + 1}</th>' for j in range(shown))
    note = "<p class='emb-note'>" + say("embeddings.first_n", shown=shown, total=len(texts)) + "</p>" if shown < len(texts) else ""
    caption = f"<caption>{html.escape(title)}</caption>" if title else ""
    return (f"<div class='emb-heatmap'><table>{caption}<thead><tr><th></th>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"{note}</div>")


def side_by_side(*blocks: str) -> str:
    return "<div class='emb-side-by-side'>" + "".join(f"<div>{block}</div>" for block in blocks) + "</div>"


def pca_2d(vectors: np.ndarray) -> np.ndarray:
    """The texts' positions along the two directions in which the (unit) vectors differ most."""
    unit = unit_rows(vectors.astype(np.float64 if len(vectors) <= EXACT_PCA_LIMIT else np.float32))
    if len(unit) < 2:
        return np.zeros((len(unit), 2))
    centred = unit - unit.mean(axis=0)
    if len(centred) <= EXACT_PCA_LIMIT:
        _, _, directions = np.linalg.svd(centred, full_matrices=False)
        points = centred @ directions[:2].T
    else:
        points = centred @ _top_directions(centred)
    return points if points.shape[1] == 2 else np.hstack([points, np.zeros((len(points), 1))])


def _top_directions(centred: np.ndarray, rounds: int = 12) -> np.ndarray:
    """The two leading principal directions by subspace iteration (for thousands of texts a full
    SVD costs seconds; this costs a few matrix-vector products)."""
    basis = np.random.default_rng(0).standard_normal((centred.shape[1], 2)).astype(centred.dtype)
    for _ in range(rounds):
        basis, _ = np.linalg.qr(centred.T @ (centred @ basis))
    return basis


def _spread_labels(xs: np.ndarray, ys: np.ndarray, labels: list[str], line: float = 13.0, char: float = 6.0) -> list[float]:
    """A y for each label so that no two overlap (points close together keep their labels apart)."""
    placed: list[tuple[float, float, float]] = []
    shifted = [0.0] * len(labels)
    for i in sorted(range(len(labels)), key=lambda n: ys[n]):
        left, right, y = xs[i], xs[i] + 7 + char * len(labels[i]), float(ys[i])
        while any(left < r and start < right and abs(y - py) < line for start, r, py in placed):
            y += line
        placed.append((left, right, y))
        shifted[i] = y
    return shifted


def map_svg(texts: list[str], vectors: np.ndarray, width: int = 640, height: int = 420) -> str:
    """The texts as labelled points on a 2-D map (SVG): each point carries its number and
    text, and its full text on hover. Past `MAP_LABEL_LIMIT` texts only the points are drawn."""
    points = pca_2d(vectors)
    pad = 40
    low, high = points.min(axis=0), points.max(axis=0)
    span = np.where(high - low > 1e-9, high - low, 1.0)
    xs = pad + (points[:, 0] - low[0]) / span[0] * (width - 2 * pad - 160)
    ys = height - pad - (points[:, 1] - low[1]) / span[1] * (height - 2 * pad)
    labelled = len(texts) <= MAP_LABEL_LIMIT
    label_ys = _spread_labels(xs, ys, [short_label(i, t) for i, t in enumerate(texts)]) if labelled else []
    marks = []
    for i, text in enumerate(texts):
        title = html.escape(f"{i + 1}. {' '.join(text.split())[:300]}")
        label = f'<text x="{xs[i] + 7:.1f}" y="{label_ys[i] + 4:.1f}">{html.escape(short_label(i, text))}</text>' if labelled else ""
        marks.append(f'<g class="emb-point"><title>{title}</title><circle cx="{xs[i]:.1f}" cy="{ys[i]:.1f}" r="5"/>{label}</g>')
    note = "" if labelled else "<p class='emb-note'>" + say("embeddings.hover", count=f"{len(texts):,}") + "</p>"
    return (f"<div class='emb-map'><svg viewBox='0 0 {width} {height}' role='img' aria-label='The texts on a 2-D map'>"
            f"<line x1='{pad}' y1='{height - pad}' x2='{width - pad}' y2='{height - pad}'/><line x1='{pad}' y1='{pad}' x2='{pad}' y2='{height - pad}'/>"
            f"{''.join(marks)}</svg><p class='emb-note'>{say('embeddings.map_note')}</p>{note}</div>")


def ranking(query: np.ndarray, documents: np.ndarray) -> list[tuple[int, float]]:
    """(document index, cosine similarity to the query), best first."""
    scores = (unit_rows(documents.astype(np.float64)) @ unit_rows(query.reshape(1, -1).astype(np.float64)).T).ravel()
    order = np.argsort(-scores, kind="stable")
    return [(int(i), float(scores[i])) for i in order]


def ranking_html(query: str, documents: list[str], ranked: list[tuple[int, float]], title: str = "", limit: int = 20) -> str:
    """The documents ranked by similarity to the query, each with its score as a bar."""
    rows = []
    for place, (index, score) in enumerate(ranked[:limit], start=1):
        width = max(0.0, score) * 100
        rows.append(f"<li><span class='emb-rank'>{place}</span><span class='emb-doc' title='{html.escape(documents[index][:300], quote=True)}'>"
                    f"{html.escape(short_label(index, documents[index]))}</span><span class='emb-bar'><span style='width:{width:.1f}%'></span></span>"
                    f"<span class='emb-score'>{score:.3f}</span></li>")
    more = "<p class='emb-note'>" + say("embeddings.top_n", limit=limit, total=len(ranked)) + "</p>" if len(ranked) > limit else ""
    head = f"<h4>{html.escape(title)}</h4>" if title else ""
    return (f"<div class='emb-search'>{head}<p class='emb-query'>{say('embeddings.query')} <q>{html.escape(query[:300])}</q></p>"
            f"<ol>{''.join(rows)}</ol>{more}</div>")


def moves(before: list[tuple[int, float]], after: list[tuple[int, float]]) -> int:
    """How many documents changed place between two rankings."""
    return sum(1 for (a, _), (b, _) in zip(before, after) if a != b)


def vector_headers() -> list[str]:
    """The vector table's headings in the visitor's language (in the order of `vector_rows`)."""
    return ["#", *(say(f"embeddings.head.{name}") for name in ("text", "dimension", "length", "first"))]


def vector_rows(texts: list[str], vectors: np.ndarray, preview: int = 4) -> list[list[object]]:
    """Per text: number, text, dimension, length (L2 norm) and the first values."""
    norms = np.linalg.norm(vectors, axis=1)
    return [[i + 1, " ".join(texts[i].split())[:80], int(vectors.shape[1]), round(float(norms[i]), 4),
             ", ".join(f"{v:+.4f}" for v in vectors[i, :preview]) + (" …" if vectors.shape[1] > preview else "")]
            for i in range(min(len(texts), TABLE_LIMIT))]


def export_files(texts: list[str], vectors: np.ndarray, stem: str, as_text: bool = True) -> list[str]:
    """`.npy` and `metadata.tsv` (one text per line), and unless `as_text` is False the CSV (text
    then values) and `vectors.tsv`: with `metadata.tsv` the pair embedding projectors open."""
    folder = Path(tempfile.mkdtemp(prefix="embeddings-", dir=_exports_root()))
    np.save(folder / f"{stem}.npy", vectors)
    metadata = "\n".join(" ".join(text.replace("\t", " ").split()) for text in texts) + "\n"
    (folder / "metadata.tsv").write_text(metadata, encoding="utf-8")
    paths = [folder / f"{stem}.npy", folder / "metadata.tsv"]
    return [str(path) for path in (_write_text_exports(folder, stem, texts, vectors) if as_text else []) + paths]


def add_text_exports(paths: list[str] | None) -> list[str]:
    """The CSV and `vectors.tsv` for files `export_files` wrote without them (large inputs: the
    numbers as text take seconds to write, so they are written when asked for)."""
    files = [Path(p).resolve() for p in paths or []]
    root = _exports_root().resolve()
    arrays = [p for p in files if p.suffix == ".npy" and p.parent.parent == root]
    if not arrays or not (arrays[0].parent / "metadata.tsv").is_file():
        raise RequestValidationError(["embed some texts first: there are no vectors to write"])
    folder, stem = arrays[0].parent, arrays[0].stem
    vectors = np.load(arrays[0], allow_pickle=False)
    texts = (folder / "metadata.tsv").read_text(encoding="utf-8").splitlines()
    return [str(path) for path in _write_text_exports(folder, stem, texts, vectors)] + [str(arrays[0]), str(folder / "metadata.tsv")]


def _write_text_exports(folder: Path, stem: str, texts: list[str], vectors: np.ndarray) -> list[Path]:
    """Rows are written one at a time, each number formatted once for both files."""
    with (folder / f"{stem}.csv").open("w", encoding="utf-8", newline="") as table, (folder / "vectors.tsv").open("w", encoding="utf-8") as tsv:
        table.write(",".join(["text"] + [f"v{i}" for i in range(vectors.shape[1])]) + "\r\n")
        for text, row in zip(texts, vectors):
            numbers = list(map("{:.7g}".format, row.tolist()))
            table.write(_csv_quoted(text) + "," + ",".join(numbers) + "\r\n")  # csv.writer checks each of 1,500 numbers: 6x slower
            tsv.write("\t".join(numbers) + "\n")
    return [folder / f"{stem}.csv", folder / "vectors.tsv"]


def _csv_quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _exports_root() -> Path:
    root = media_directory("embeddings")
    root.mkdir(parents=True, exist_ok=True)
    return root
