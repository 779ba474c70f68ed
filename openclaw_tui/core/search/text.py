"""Text as the index sees it: Chinese bigram tokens, queries, and the chunks a file is cut into.

FTS5's ``unicode61`` reads a CJK run as one token, so every run is indexed as its characters and its
bigrams (``咖啡因`` -> ``咖 啡 因 咖啡 啡因``), and a query run as the phrase of its bigrams: a substring match.
Which files are indexed: ``format.places.indexed_rel``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..format.places import ARCHIVE_REL, indexed_rel
from .query import (
    _SURROGATES,
    CJK,
    CJK_RUN,
    Query,
    QueryError,
    clean,
    index_text,
    parse_query,
    query_terms,
    split_tags,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_CHUNK_LINES = 40


# --- documents ----------------------------------------------------------------------------------


@dataclass(slots=True, frozen=True)
class Chunk:
    """A searchable piece of a file: char offsets into the file text and 1-based lines."""

    start: int
    end: int
    line: int
    end_line: int


def _last_line(text: str, start: int, end: int, line: int) -> int:
    """1-based number of the last non-blank line of ``text[start:end]`` (which starts at ``line``)."""
    stripped = text[start:end].rstrip(" \t\r\n")
    return line + stripped.count("\n")


# Where a chunk ends: a blank line, a heading, a list item, a fence, a YAML top-level key.
_BLANK_RE = re.compile(r"[ \t\r]*")
_HEADING_RE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_ITEM_RE = re.compile(r" ?(?:[-*+]|\d{1,9}[.)])[ \t]")
_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})")
_YAML_TOP_KEY_RE = re.compile(r"[^\s#\-][^\n]*?:(?:[ \t]|\r?$)")


def text_chunks(text: str, yaml: bool = False) -> Iterator[Chunk]:
    """Paragraphs of a Markdown (or YAML) file.

    A chunk ends at a blank line and before a heading, a list item, a
    ``<!-- observed: ... -->`` marker (or, in YAML, a top-level key); an
    HTML comment line (an OpenClaw machine marker) stays with the item or
    paragraph right before or after it; fenced code stays whole; long runs
    are cut every ``MAX_CHUNK_LINES`` lines.
    """
    pos = 0
    line = 0
    start = -1
    start_line = 0
    only_markers = False  # the open chunk holds nothing but HTML comment lines
    fence: str | None = None
    n = len(text)
    while pos < n:
        nl = text.find("\n", pos)
        nxt = n if nl < 0 else nl + 1
        line += 1
        row = text[pos:nxt].rstrip("\n")
        if fence is not None:
            m = _FENCE_RE.match(row)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not row[m.end():].strip():
                fence = None
        elif _BLANK_RE.fullmatch(row):
            if start >= 0:
                yield Chunk(start, pos, start_line, line - 1)
                start = -1
        else:
            splits = (
                bool(_YAML_TOP_KEY_RE.match(row)) if yaml
                else bool(_HEADING_RE.match(row) or _ITEM_RE.match(row) or row.startswith("<!-- observed:"))
            )
            marker = not yaml and row.lstrip().startswith("<!--")
            if only_markers and not row.startswith("<!-- observed:"):
                splits = False  # a marker line above an item belongs to that item
            if start >= 0 and (splits or line - start_line >= MAX_CHUNK_LINES):
                yield Chunk(start, pos, start_line, line - 1)
                start = -1
            if start < 0:
                start, start_line, only_markers = pos, line, marker
            elif not marker:
                only_markers = False
            m = None if yaml else _FENCE_RE.match(row)
            if m:
                fence = m.group(1)
        pos = nxt
    if start >= 0:
        yield Chunk(start, n, start_line, _last_line(text, start, n, start_line))


def is_memory_rel(rel: str) -> bool:
    return rel in ("memories.md", ARCHIVE_REL)


def without_surrogates(s: str) -> str:
    """Each undecodable byte (a surrogate of ``surrogateescape``) as U+FFFD: same length, so offsets hold,
    and safe for SQLite, which takes only valid UTF-8."""
    return _SURROGATES.sub("\ufffd", s)


def has_surrogates(s: str) -> bool:
    return _SURROGATES.search(s) is not None


__all__ = [  # with the query side (``query``), re-exported: callers have always found it here
    "CJK", "CJK_RUN", "MAX_CHUNK_LINES", "Chunk", "Query", "QueryError", "clean", "has_surrogates", "index_text",
    "indexed_rel", "is_memory_rel", "parse_query", "query_terms", "split_tags", "text_chunks", "without_surrogates",
]
