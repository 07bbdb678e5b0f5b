"""Every relative link in README.md and docs/*.md points at a file that exists and, when it names a
heading (`page.md#anchor`), at a heading that page has, spelt as GitHub spells its anchors."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]+(?:\([^()\s]*\))?[^()\s]*)(?:\s+[\"'(][^)]*)?\)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.MULTILINE)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"""<[^>]+\b(?:id|name)\s*=\s*["']([^"']+)["']""")
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


def _prose(text: str) -> str:
    """The text without fenced code blocks and code spans, where brackets are not links."""
    kept, fence = [], None
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            kept.append(line)
        if fence is not None or opened:
            kept.append("")
    return _CODE_SPAN.sub(" ", "\n".join(kept))


def links_of(text: str) -> list[str]:
    """The targets of the inline links, images and link definitions of a markdown text."""
    prose = _prose(text)
    targets = [m.group(1) for m in _INLINE_LINK.finditer(prose)] + [m.group(1) for m in _DEFINITION.finditer(prose)]
    return [target[1:-1] if target.startswith("<") else target for target in targets]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors_of(text: str) -> set[str]:
    """Every anchor a page offers: its headings' slugs (repeats numbered -1, -2, ...) and HTML ids."""
    anchors: set[str] = set(_HTML_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    fence = None
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchors.add(base if count == 0 else f"{base}-{count}")
    return anchors


def broken_links(page: Path) -> list[str]:
    """The relative links of `page` whose file or heading anchor does not exist, with the reason."""
    text = page.read_text(encoding="utf-8")
    problems = []
    for target in links_of(text):
        if _EXTERNAL.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        file = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not file.exists():
            problems.append(f"{target}: no file {file}")
            continue
        if anchor:
            if file.is_dir() or file.suffix.lower() != ".md":
                problems.append(f"{target}: an anchor into a file that is not a markdown page")
            elif unquote(anchor).lower() not in anchors_of(file.read_text(encoding="utf-8")):
                problems.append(f"{target}: {file.name} has no heading #{anchor}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_pages_have_links_to_check() -> None:
    """The parser finds the README's links to the docs (a parser that finds nothing passes everything)."""
    targets = links_of((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "docs/reference.md" in targets
    assert "assets/screenshot.png" in targets


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# The other page\n\n## Set-up & `run`\n\n## Set-up & `run`\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[fine](other.md#the-other-page), [fine too](other.md#set-up--run-1), [here](#page), [web](https://example.com/x.md)\n"
        "![gone](missing.png) and [no heading](other.md#nowhere) and [no local heading](#elsewhere)\n"
        "`[not a link](in-code.md)`\n\n```\n[nor this](in-fence.md)\n```\n\n"
        "[ref]: gone-too.md\n",
        encoding="utf-8")
    problems = broken_links(page)
    assert [problem.split(":")[0] for problem in problems] == ["missing.png", "other.md#nowhere", "#elsewhere", "gone-too.md"]
