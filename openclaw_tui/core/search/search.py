"""Full-text search over every profile under a path (Chinese included).

SQLite FTS5's ``unicode61`` tokenizer reads a run of Chinese characters as
one token, and ``trigram`` needs three characters, so neither finds ``咖啡``.
Here Python rewrites every run of CJK characters as its single characters
followed by its overlapping bigrams (``咖啡因`` -> ``咖 啡 因 咖啡 啡因``)
before the text goes into an in-memory FTS5 table; a query run of two or
more characters becomes the phrase of its bigrams (an exact substring
match) and a single character matches the unigrams.  Ranking is FTS5's
BM25.  Nothing is written to disk: the index lives in memory.

What is indexed: every block of ``memories.md`` and of the archive (entries,
malformed blocks, the preamble), and paragraphs (list items, headings,
top-level YAML keys) of ``identity.md``, ``state.yaml``, contexts, skills
and, for an OpenClaw workspace, the bootstrap files, ``DREAMS.md`` and the
daily logs.  ``secrets_refs.yaml`` and ``audit.log`` are not.

For the UI: ``SearchIndex.build(profiles)``, ``.search(query, limit)`` and
``.update_file(path)`` after the watcher reported a change.  The index is
thread-safe (one lock around the SQLite connection).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from operator import add, attrgetter
from pathlib import Path
from typing import Any

from ..files.reload import ChangedRegion
from ..format.entries import Entry, MemoryFile, decode, parse
from ..format.profile import ARCHIVE_REL, BOOTSTRAP_NAMES, Profile, inside

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ffff"
_CJK_RUN_RE = re.compile(f"[{CJK}]+")
_TERM_RE = re.compile(f"([{CJK}]+)|([^\\W_{CJK}]+)")
_BLANK_RE = re.compile(r"[ \t\r]*")
_HEADING_RE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_ITEM_RE = re.compile(r" ?(?:[-*+]|\d{1,9}[.)])[ \t]")
_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})")
_YAML_TOP_KEY_RE = re.compile(r"[^\s#\-][^\n]*?:(?:[ \t]|\r?$)")
_SURROGATE_RE = re.compile("[\udc80-\udcff]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
MAX_CHUNK_LINES = 40
SNIPPET_WIDTH = 120


class QueryError(ValueError):
    """The query holds nothing to search for."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result; ``snippet`` is plain text (one line), never markup."""

    profile: str  # profile name
    profile_rel: str  # the profile's path relative to the searched path ("." for itself)
    file: str  # relative to the profile folder
    start_line: int
    end_line: int
    id: str | None  # entry id for blocks of memory files, else None
    score: float  # BM25, higher is better
    snippet: str
    match_line: int  # file line of the first match shown in the snippet
    highlights: tuple[tuple[int, int], ...]  # (start, end) spans of matches in ``snippet``
    path: Path  # absolute path of the file
    kind: str  # "entry", "malformed", "preamble" or "text"

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "file": self.file,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "id": self.id,
            "score": round(self.score, 4),
            "snippet": self.snippet,
        }


# --- tokens -------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _expand_run(run: str) -> str:
    if len(run) == 1:
        return f" {run} "
    return f" {' '.join(run)} {' '.join(map(add, run[:-1], run[1:]))} "


def _expand_cjk(m: re.Match[str]) -> str:
    return _expand_run(m.group(0))


def index_text(text: str) -> str:
    """The text as stored in FTS5: CJK runs become unigrams + bigrams, each its own token."""
    return _CJK_RUN_RE.sub(_expand_cjk, text)


@dataclass(frozen=True)
class Query:
    text: str
    fts: str  # the FTS5 MATCH expression
    pattern: re.Pattern[str]  # finds the query's terms in raw text (for snippets)


def parse_query(query: str) -> Query:
    """Every whitespace-separated part must match: its words as a phrase, its CJK runs as substrings."""
    phrases: list[str] = []
    terms: list[str] = []
    for part in query.split():
        words: list[str] = []
        for cjk, word in _TERM_RE.findall(part):
            if word:
                words.append(word)
                terms.append(f"(?<![^\\W_{CJK}]){re.escape(word)}(?![^\\W_{CJK}])")
                continue
            if words:
                phrases.append(" ".join(words))
                words = []
            grams = [cjk] if len(cjk) == 1 else list(map(add, cjk[:-1], cjk[1:]))
            phrases.append(" ".join(grams))
            terms.append(re.escape(cjk))
        if words:
            phrases.append(" ".join(words))
    unique = list(dict.fromkeys(phrases))
    if not unique:
        raise QueryError("the query holds no letters, digits or CJK characters to search for")
    fts = " AND ".join('"' + p.replace('"', '""') + '"' for p in unique)
    ordered = sorted(set(terms), key=len, reverse=True)
    return Query(query, fts, re.compile("|".join(ordered), re.IGNORECASE))


# --- documents ----------------------------------------------------------------------------------


class _File:
    __slots__ = ("profile", "rel", "path", "text", "docs", "memory", "preamble_end")

    def __init__(self, profile: _ProfileRec, rel: str, path: Path, text: str, memory: bool) -> None:
        self.profile = profile
        self.rel = rel
        self.path = path
        self.text = text
        self.docs: list[_Doc] = []  # in file order
        self.memory = memory
        self.preamble_end = 0


class _Doc:
    __slots__ = ("rowid", "file", "start", "end", "body_start", "line", "id", "kind")

    def __init__(self, rowid: int, file: _File, start: int, end: int, body_start: int, line: int,
                 id: str | None, kind: str) -> None:
        self.rowid = rowid
        self.file = file
        self.start = start  # char offsets into file.text
        self.end = end
        self.body_start = body_start
        self.line = line  # 1-based line of ``start``
        self.id = id
        self.kind = kind


_START = attrgetter("start")
_END = attrgetter("end")


@dataclass(frozen=True, slots=True)
class _ProfileRec:
    name: str
    rel: str
    path: Path
    layout: str


@dataclass(frozen=True, slots=True)
class Chunk:
    """A searchable piece of a file: char offsets into the file text and 1-based lines."""

    start: int
    end: int
    body_start: int
    line: int
    end_line: int
    id: str | None
    kind: str


def _last_line(text: str, start: int, end: int, line: int) -> int:
    """1-based number of the last non-blank line of ``text[start:end]`` (which starts at ``line``)."""
    stripped = text[start:end].rstrip(" \t\r\n")
    return line + stripped.count("\n")


def memory_chunks(mf: MemoryFile) -> Iterator[Chunk]:
    """The preamble (when not blank) and every block of a memory file."""
    text = mf.text
    if mf.preamble.strip():
        yield Chunk(0, mf.preamble_end, 0, 1, _last_line(text, 0, mf.preamble_end, 1), None, "preamble")
    for e in mf.entries:
        yield Chunk(e.start, e.end, e.body_start, e.line, max(e.line, _last_line(text, e.start, e.end, e.line)),
                    e.id, _kind(e))


def _kind(e: Entry) -> str:
    return "malformed" if e.error is not None else "entry"


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
                yield Chunk(start, pos, start, start_line, line - 1, None, "text")
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
                yield Chunk(start, pos, start, start_line, line - 1, None, "text")
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
        yield Chunk(start, n, start, start_line, _last_line(text, start, n, start_line), None, "text")


def _is_memory_rel(rel: str) -> bool:
    return rel in ("memories.md", ARCHIVE_REL)


def indexed_rel(layout: str, rel: str) -> bool:
    """Whether a file (path relative to its profile) belongs in the index."""
    if layout == "openclaw":
        return rel in BOOTSTRAP_NAMES or rel == "DREAMS.md" or (rel.startswith("memory/") and rel.endswith(".md"))
    if rel in ("memories.md", ARCHIVE_REL, "identity.md", "state.yaml"):
        return True
    return (rel.startswith("contexts/") or rel.startswith("skills/")) and rel.endswith(".md")


def _profile_files(profile: Profile) -> Iterator[tuple[str, Path, str | MemoryFile]]:
    for doc, rel in ((profile.memories, "memories.md"), (profile.archive, ARCHIVE_REL)):
        if doc is not None:
            yield rel, doc.path, doc.mf
    for f in profile.text_files():
        if f.error is None and f.data is not None and indexed_rel(profile.layout, f.rel):
            yield f.rel, f.path, f.text


# --- the index ----------------------------------------------------------------------------------


def _clean(s: str) -> str:
    if _SURROGATE_RE.search(s):
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return _CONTROL_RE.sub("\ufffd", s.replace("\t", " "))


class SearchIndex:
    """An in-memory FTS5 index of the profiles' files; see the module docstring."""

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61 remove_diacritics 0')")
        self._lock = threading.RLock()
        self._docs: dict[int, _Doc] = {}
        self._files: dict[Path, _File] = {}
        self._profiles: list[_ProfileRec] = []
        self._next = 1

    @classmethod
    def build(cls, profiles: Iterable[Profile]) -> SearchIndex:
        index = cls()
        for p in profiles:
            index.add_profile(p)
        return index

    def __len__(self) -> int:
        return len(self._docs)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- building and updating --

    def add_profile(self, profile: Profile) -> None:
        """Index every searchable file of an already loaded profile."""
        rec = _ProfileRec(profile.name, profile.rel, Path(profile.path).absolute(), profile.layout)
        with self._lock:
            self._remove_profile_path(rec.path)
            self._profiles.append(rec)
            for rel, path, content in _profile_files(profile):
                self._set_file(rec, rel, Path(path).absolute(), content)

    def remove_profile(self, path: Path | str) -> None:
        with self._lock:
            self._remove_profile_path(Path(path).absolute())

    def _remove_profile_path(self, path: Path) -> None:
        for f in [f for f in self._files.values() if f.profile.path == path]:
            self._drop_file(f)
        self._profiles = [p for p in self._profiles if p.path != path]

    def _owner(self, path: Path) -> _ProfileRec | None:
        best: _ProfileRec | None = None
        for p in self._profiles:
            if path.is_relative_to(p.path) and (best is None or len(p.path.parts) > len(best.path.parts)):
                best = p
        return best

    def update_file(self, path: Path | str, content: str | MemoryFile | None = None) -> bool:
        """Re-index one file after it changed (read from disk unless ``content`` is given).

        A file that is gone, unreadable or outside the indexed files is
        dropped.  Returns True when the file belongs to the index.
        """
        path = Path(path).absolute()
        with self._lock:
            owner = self._owner(path)
            if owner is None:
                return False
            rel = path.relative_to(owner.path).as_posix()
            if not indexed_rel(owner.layout, rel):
                return False
            if content is None:
                content = self._read(owner, path)
            if content is None:
                old = self._files.get(path)
                if old is not None:
                    self._drop_file(old)
            else:
                self._set_file(owner, rel, path, content)
            return True

    def remove_file(self, path: Path | str) -> None:
        with self._lock:
            old = self._files.get(Path(path).absolute())
            if old is not None:
                self._drop_file(old)

    @staticmethod
    def _read(owner: _ProfileRec, path: Path) -> str | None:
        if not inside(owner.path, path):
            return None
        try:
            if not path.is_file():
                return None
            data = path.read_bytes()
        except OSError:
            return None
        return decode(data)[0]

    def _drop_file(self, f: _File) -> None:
        self._delete(f.docs)
        del self._files[f.path]

    def _delete(self, docs: list[_Doc]) -> None:
        if docs:
            self._db.executemany("DELETE FROM docs WHERE rowid = ?", ((d.rowid,) for d in docs))
            for d in docs:
                del self._docs[d.rowid]

    def _insert(self, f: _File, blocks: list[tuple[int, int, int, int, str | None, str]]) -> list[_Doc]:
        """Index blocks (start, end, body_start, line, id, kind) of ``f``, in file order; returns their documents."""
        text = f.text
        if not blocks:
            return []
        # undecodable bytes (a file that is not UTF-8) are surrogates here: SQLite wants real text
        fix = _SURROGATE_RE.search(text, blocks[0][0], blocks[-1][1]) is not None
        docs: list[_Doc] = []
        rows: list[tuple[int, str]] = []
        for start, end, body_start, line, ident, kind in blocks:
            rowid = self._next
            self._next += 1
            d = _Doc(rowid, f, start, end, body_start, line, ident, kind)
            docs.append(d)
            self._docs[rowid] = d
            raw = text[start:end]
            rows.append((rowid, index_text(_clean(raw) if fix else raw)))
            if len(rows) >= 5000:
                self._db.executemany("INSERT INTO docs(rowid, body) VALUES (?, ?)", rows)
                rows.clear()
        if rows:
            self._db.executemany("INSERT INTO docs(rowid, body) VALUES (?, ?)", rows)
        return docs

    @staticmethod
    def _entry_blocks(entries: Iterable[Entry]) -> Iterator[tuple[int, int, int, int, str | None, str]]:
        for e in entries:
            yield e.start, e.end, e.body_start, e.line, e.id, _kind(e)

    @staticmethod
    def _preamble_blocks(mf: MemoryFile) -> list[tuple[int, int, int, int, str | None, str]]:
        return [(0, mf.preamble_end, 0, 1, None, "preamble")] if mf.preamble.strip() else []

    def _set_file(self, owner: _ProfileRec, rel: str, path: Path, content: str | MemoryFile) -> None:
        memory = _is_memory_rel(rel)
        if isinstance(content, MemoryFile):
            mf: MemoryFile | None = content if memory else None
            text = content.text
        else:
            text = content
            mf = parse(text) if memory else None
        old = self._files.get(path)
        if old is not None and old.text == text and old.profile == owner:
            return
        if mf is not None and old is not None and old.memory and self._update_memory(old, mf):
            return
        f = _File(owner, rel, path, text, mf is not None)
        if mf is not None:
            f.preamble_end = mf.preamble_end
            blocks = self._preamble_blocks(mf) + list(self._entry_blocks(mf.entries))
        else:
            blocks = [(c.start, c.end, c.body_start, c.line, c.id, c.kind)
                      for c in text_chunks(text, yaml=rel.endswith((".yaml", ".yml")))]
        if old is not None:
            self._drop_file(old)
        f.docs = self._insert(f, blocks)
        self._files[path] = f

    def _update_memory(self, f: _File, mf: MemoryFile) -> bool:
        """Re-index only the blocks around the changed region (see ``reload._Window``); False: cannot."""
        old_text, text = f.text, mf.text
        edit = ChangedRegion(old_text, text)
        pre = f.docs[:1] if f.docs and f.docs[0].kind == "preamble" else []
        olds, es = f.docs[len(pre):], mf.entries
        ia, ja = bisect_right(olds, edit.line, key=_END), bisect_right(es, edit.line, key=_END)
        ib = max(ia, bisect_left(olds, edit.z_old + 1, key=_START))
        jb = max(ja, bisect_left(es, edit.z_new + 1, key=_START))
        if ia != ja or len(olds) - ib != len(es) - jb:
            return False
        if ia and (olds[ia - 1].start, olds[ia - 1].end, olds[ia - 1].id, olds[ia - 1].kind) != (
                es[ja - 1].start, es[ja - 1].end, es[ja - 1].id, _kind(es[ja - 1])):
            return False
        if ib < len(olds) and (olds[ib].start - edit.z_old, olds[ib].id, olds[ib].kind) != (
                es[jb].start - edit.z_new, es[jb].id, _kind(es[jb])):
            return False
        same_preamble = old_text[: f.preamble_end] == text[: mf.preamble_end]
        self._delete(olds[ia:ib] + ([] if same_preamble else pre))
        f.text = text
        f.preamble_end = mf.preamble_end
        middle = self._insert(f, list(self._entry_blocks(es[ja:jb])))
        tail = olds[ib:]
        if tail:
            delta = edit.z_new - edit.z_old
            lines = text.count("\n", edit.line, edit.z_new) - old_text.count("\n", edit.line, edit.z_old)
            for d in tail:
                d.start += delta
                d.end += delta
                d.body_start += delta
                d.line += lines
        if not same_preamble:
            pre = self._insert(f, self._preamble_blocks(mf))
        f.docs = pre + olds[:ia] + middle + tail
        return True

    def documents(self, path: Path | str) -> list[tuple[int, int, int, str | None, str, str]]:
        """(start, end, line, id, kind, indexed text) of a file's documents, in file order (diagnostics, tests)."""
        with self._lock:
            f = self._files.get(Path(path).absolute())
            if f is None:
                return []
            out = []
            for d in f.docs:
                (body,) = self._db.execute("SELECT body FROM docs WHERE rowid = ?", (d.rowid,)).fetchone()
                out.append((d.start, d.end, d.line, d.id, d.kind, body))
            return out

    # -- searching --

    def search(self, query: str | Query, limit: int = 20) -> list[Hit]:
        """Best ``limit`` hits, best first (ties in file order). Raises QueryError."""
        q = query if isinstance(query, Query) else parse_query(query)
        if limit <= 0:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
                (q.fts, 2 * limit + 10),  # a margin, so that ties are ordered by place, not by row number
            ).fetchall()
            rank = {p.path: i for i, p in enumerate(self._profiles)}
            docs = [(self._docs[r], -s) for r, s in rows]
            docs.sort(key=lambda ds: (-round(ds[1], 9), rank.get(ds[0].file.profile.path, 0), ds[0].file.rel,
                                      ds[0].start))
            return [self._hit(d, score, q.pattern) for d, score in docs[:limit]]

    @staticmethod
    def _hit(d: _Doc, score: float, pattern: re.Pattern[str]) -> Hit:
        text = d.file.text
        m = pattern.search(text, d.body_start, d.end) or pattern.search(text, d.start, d.end)
        if m is not None:
            at, span_end = m.start(), m.end()
        else:  # the tokenizer and the pattern disagree (rare): show the first line
            at = span_end = d.body_start
        nl = text.rfind("\n", d.start, at)
        ls = d.start if nl < 0 else nl + 1
        le = text.find("\n", span_end, d.end)
        le = d.end if le < 0 else le
        row = text[ls:le].rstrip("\r")
        col = at - ls
        lead = len(row) - len(row.lstrip())
        row, col = row[lead:].rstrip(), max(0, col - lead)
        if len(row) > SNIPPET_WIDTH:
            begin = max(0, min(col - SNIPPET_WIDTH // 3, len(row) - SNIPPET_WIDTH))
            cut = row[begin : begin + SNIPPET_WIDTH]
            row = ("…" if begin > 0 else "") + cut + ("…" if begin + SNIPPET_WIDTH < len(row) else "")
        snippet = _clean(row)
        spans = tuple((x.start(), x.end()) for x in pattern.finditer(snippet) if x.end() > x.start())
        line = d.line + text.count("\n", d.start, ls)
        return Hit(
            profile=d.file.profile.name, profile_rel=d.file.profile.rel, file=d.file.rel,
            start_line=d.line, end_line=max(d.line, _last_line(text, d.start, d.end, d.line)), id=d.id, score=score, snippet=snippet,
            match_line=line, highlights=spans, path=d.file.path, kind=d.kind,
        )


def search_profiles(profiles: Iterable[Profile], query: str, limit: int = 20) -> list[Hit]:
    """Build a throwaway index and run one query (the CLI)."""
    q = parse_query(query)
    index = SearchIndex.build(profiles)
    try:
        return index.search(q, limit)
    finally:
        index.close()
