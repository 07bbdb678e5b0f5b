"""Issue 35's attacks on the Batch tab's data-set readers, each refused in words (English and
Chinese) within seconds, through the readers and through the app's own upload handler: the
1.5 KB workbook that held a core for 19 minutes, a 1 MB zip of a 1 GB sheet (26 s and 2.1 GB
before), a file of blank rows, a JSONL line nested 100,000 deep (a RecursionError before), a
lone surrogate kept in the session until Run failed with a 0-byte run file, a session file
nested 100,000 deep. The event loop keeps answering while a big data set is read."""

from __future__ import annotations

import asyncio
import re
import time
import tracemalloc
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.client.batch.dataset import Dataset, DatasetError, read_file
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.tabs.batch.handlers import BatchState
from tests.ui.i18n.test_client_words import chinese_text
from playground.ui.shared.connection import ServerDefaults
from tests.security.hostile_files import CORPUS, far_cell, inline_row, sheet_xml, workbook, zip_bomb
from tests.security.page_events import Event, event
from tests.ui.i18n.test_i18n_views import chinese

HOSTED_ROWS = 1_000
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[gr.Blocks, Path]:
    data_dir = tmp_path_factory.mktemp("data")
    settings = Settings(hosted=True, batch_max_rows=HOSTED_ROWS, data_dir=data_dir)
    return build_app(settings, ServerDefaults("http://127.0.0.1:9", "demo-key", demo=True, hosted=True)), data_dir


def _upload(blocks: gr.Blocks) -> Event:
    return event(blocks, "on_data", input_with="batch-upload")


def _write(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


@pytest.mark.parametrize("name", list(CORPUS))
def test_each_hostile_workbook_is_refused_in_words_within_seconds(tmp_path: Path, name: str) -> None:
    build, words = CORPUS[name]
    path = _write(tmp_path, "hostile.xlsx", build())
    started = time.monotonic()
    with pytest.raises(DatasetError) as refused:
        read_file(path, HOSTED_ROWS)
    took = time.monotonic() - started
    assert words in str(refused.value) and took < 5, (str(refused.value), took)
    worded = chinese_text(str(refused.value))
    assert worded is not None and CJK.search(worded), f"no Chinese for {refused.value}"


def test_bombs_are_refused_without_unpacking_them(tmp_path: Path) -> None:
    """The 1 GB sheet and the 1 GB shared strings table are refused from the zip's directory; the
    huge string and the million strings while reading, each within a few megabytes."""
    paths = [_write(tmp_path, f"{index}.xlsx", build()) for index, build in enumerate(
        (zip_bomb, lambda: zip_bomb("xl/sharedStrings.xml"), CORPUS["a 2-million-character shared string"][0],
         CORPUS["a million shared strings"][0], CORPUS["250,000 blank rows"][0]))]
    tracemalloc.start()
    try:
        for path in paths:
            with pytest.raises(DatasetError):
                read_file(path, HOSTED_ROWS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40_000_000, f"{peak:,} bytes at the peak"


def _shown(result: tuple[Any, ...]) -> str:
    return str(result[1])


def test_the_issue_workbook_through_the_upload_handler_is_refused_in_both_languages(page: tuple[gr.Blocks, Path], tmp_path: Path) -> None:
    upload = _upload(page[0])
    path = _write(tmp_path, "far.xlsx", far_cell())
    kept = Dataset(["q"], [{"q": "kept"}])
    for language in ("en", "zh"):
        state = BatchState(dataset=kept)
        started = time.monotonic()
        if language == "zh":
            with chinese():
                result = asyncio.run(upload.fn(state, str(path), "", "", "{{q}}"))
        else:
            result = asyncio.run(upload.fn(state, str(path), "", "", "{{q}}"))
        assert time.monotonic() - started < 2
        assert result[0].dataset is kept, "the session keeps the data set it had"
        if language == "en":
            assert "the sheet declares 1,048,576 rows and 16,384 columns (A1:XFD1048576)" in _shown(result)
            assert "PLAYGROUND_BATCH_MAX_ROWS" in _shown(result)
        else:
            assert "工作表声明了 1,048,576 行、16,384 列" in _shown(result) and "declares" not in _shown(result)


@pytest.mark.parametrize(("data", "english", "chinese_words"), [
    ('{"q": 1}\n{"q": ' + "[" * 100_000 + "]" * 100_000 + "}\n", "line 2: the JSON is nested more than 32 levels deep", "JSON 嵌套超过了 32 层"),
    ('{"q": "ok"}\n{"q": "bad \\udc80"}\n', "line 2: the value of 'q' holds a broken character", "含有一个损坏的字符"),
    ('{"q": NaN}\n', "line 1: NaN is not a number a data set can hold", "NaN 不是数据集可以容纳的数字"),
    ('{"q": "a\\u0000b"}\n', "line 1: the value of 'q' holds a NUL character", "含有 NUL 字符"),
])
def test_jsonl_crashes_are_refusals_on_screen_and_nothing_is_kept(page: tuple[gr.Blocks, Path], tmp_path: Path, data: str,
                                                                  english: str, chinese_words: str) -> None:
    upload = _upload(page[0])
    path = _write(tmp_path, "d.jsonl", data)
    state = BatchState()
    result = asyncio.run(upload.fn(state, str(path), "", "", "{{q}}"))
    assert english in _shown(result) and result[0].dataset is None
    _shown(result).encode("utf-8")
    with chinese():
        worded = asyncio.run(upload.fn(BatchState(), str(path), "", "", "{{q}}"))
    assert chinese_words in _shown(worded)


def test_a_data_set_that_cannot_be_written_is_refused_at_run_and_leaves_no_run_file(page: tuple[gr.Blocks, Path]) -> None:
    blocks, data_dir = page
    run = event(blocks, "on_run", input_with="batch-user")
    state = BatchState(dataset=Dataset(["q"], [{"q": "bad \udc80"}]))
    values = run.current_values()
    values[[getattr(c, "elem_id", None) for c in run.inputs[1:]].index("batch-user")] = "Say {{q}}"
    result = asyncio.run(run.fn(state, *values))
    banner = str(result[1])
    assert "row 1 of the data set holds a broken character (a lone surrogate, not valid UTF-8)" in banner
    runs = data_dir / "batch-runs"
    assert not runs.exists() or not any(runs.iterdir()), "no run file, empty or not"


def test_a_batch_session_file_nested_100000_deep_is_refused_in_words(page: tuple[gr.Blocks, Path], tmp_path: Path) -> None:
    load = event(page[0], "on_load", input_with="batch-session-load")
    path = _write(tmp_path, "session.json", '{"kind": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = load.fn(BatchState(), str(path))
    assert "the file's JSON is nested more than 64 levels deep" in str(result[1])
    with chinese():
        assert "文件中的 JSON 嵌套超过了 64 层" in str(load.fn(BatchState(), str(path))[1])


def test_the_event_loop_keeps_answering_while_a_big_data_set_is_read(page: tuple[gr.Blocks, Path], tmp_path: Path) -> None:
    """A workbook of 1,000 rows of 64 columns read through the upload handler: the reading runs
    on the readers' thread, so a timer on the loop is never late by more than a fraction of it."""
    row = [f"value {column} " * 6 for column in range(64)]
    rows = inline_row(1, *[f"c{column}" for column in range(64)]) + "".join(inline_row(number, *row) for number in range(2, 1_002))
    path = _write(tmp_path, "big.xlsx", workbook(sheet_xml(rows)))
    upload = _upload(page[0])

    async def measure() -> tuple[Any, float, float]:
        gaps: list[float] = []
        reading = asyncio.ensure_future(upload.fn(BatchState(), str(path), "", "", "{{c0}}"))
        started = last = time.monotonic()
        while not reading.done():
            await asyncio.sleep(0.005)
            now = time.monotonic()
            gaps.append(now - last)
            last = now
        return reading.result(), time.monotonic() - started, max(gaps)

    result, took, worst = asyncio.run(measure())
    assert "1,000" in _shown(result), _shown(result)
    assert worst < 0.5 and worst < took / 2, f"the loop waited {worst:.3f} s while the reading took {took:.3f} s"

