"""Names and addresses shown in Markdown as code spans read exactly as they are: nothing escaped inside
the span (where a backslash or an entity would show as typed), a backtick in the text fenced around."""

from __future__ import annotations

import markdown_it

from playground.ui.shared.render import code
from playground.ui.tabs.batch.form import dataset_status
from playground.client.batch.dataset import Dataset


def shown(markdown: str) -> str:
    """The text a reader sees in the code spans of `markdown`."""
    tokens = markdown_it.MarkdownIt().parseInline(markdown)[0].children or []
    return "|".join(token.content for token in tokens if token.type == "code_inline")


def test_a_code_span_shows_underscores_ampersands_brackets_and_backticks_as_typed() -> None:
    for text in ("__equals", "a & b <c>", "http://host:8000/v1?x=1&y=_2", "one `tick`", "``double``", "`edge"):
        assert shown(code(text)) == text, text
    assert shown(code("two\nlines")) == "two lines"


def test_the_data_set_status_names_its_columns_as_they_are_written() -> None:
    status = dataset_status(Dataset(["question", "__equals", "__contains 2"], [{"question": "q", "__equals": "a", "__contains 2": "b"}]))
    assert shown(status) == "question|__equals|__contains 2" and "\\_" not in status
