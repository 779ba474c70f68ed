"""Text as the index sees it: Chinese bigram tokens, queries, and the chunks a file is cut into.

SQLite FTS5's ``unicode61`` tokenizer reads a run of Chinese characters as
one token, and ``trigram`` needs three characters, so neither finds ``咖啡``.
Here Python rewrites every run of CJK characters as its single characters
followed by its overlapping bigrams (``咖啡因`` -> ``咖 啡 因 咖啡 啡因``)
before the text goes into FTS5; a query run of two or more characters
becomes the phrase of its bigrams (an exact substring match) and a single
character matches the unigrams.

What is indexed: every block of ``memories.md`` and of the archive (entries,
malformed blocks, the preamble), and paragraphs (list items, headings,
top-level YAML keys) of ``identity.md``, ``state.yaml``, contexts, skills
and, for an OpenClaw workspace, the bootstrap files, ``DREAMS.md`` and the
daily logs.  ``secrets_refs.yaml`` and ``audit.log`` are not.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from operator import add

from ..format.places import ARCHIVE_REL, BOOTSTRAP_NAMES
from ..record import Frozen

TYPE_CHECKING = False  # (not typing's: a fresh ``search`` process does not import it)
if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..format.entries import Entry, MemoryFile

_set = object.__setattr__  # a ``Frozen`` record's ``__init__`` sets its fields

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ffff"
_CJK_RANGES = tuple((ord(CJK[i]), ord(CJK[i + 2])) for i in range(0, len(CJK), 3))
# ``clean``'s control characters, each as U+FFFD: [\x00-\x08\x0b-\x1f\x7f\u2028\u2029] (a table: compiling the
# character class cost a fresh ``search`` process as much as its query)
_CONTROLS = dict.fromkeys([*range(0x09), *range(0x0B, 0x20), 0x7F, 0x2028, 0x2029], "\ufffd")
MAX_CHUNK_LINES = 40
SNIPPET_WIDTH = 120


class QueryError(ValueError):
    """The query holds nothing to search for."""


# --- tokens -------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _expand_run(run: str) -> str:
    if len(run) == 1:
        return f" {run} "
    return f" {' '.join(run)} {' '.join(map(add, run[:-1], run[1:]))} "


def _expand_cjk(m: re.Match[str]) -> str:
    return _expand_run(m.group(0))


@lru_cache(maxsize=1)
def _cjk_run_re() -> re.Pattern[str]:
    """Compiled when first needed: the CJK ranges take milliseconds to compile (a fresh ``search`` counts them)."""
    return re.compile(f"[{CJK}]+")


def index_text(text: str) -> str:
    """The text as stored in FTS5: CJK runs become unigrams + bigrams, each its own token."""
    if text.isascii():  # no CJK run to expand (and no pattern to compile)
        return text
    return _cjk_run_re().sub(_expand_cjk, text)


_CJK_LOW = "\u3040"  # every CJK character is at least this one


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in _CJK_RANGES)


def _has_cjk(text: str) -> bool:
    return not text.isascii() and max(text) >= _CJK_LOW and any(c >= _CJK_LOW and _is_cjk(c) for c in text)


def _small_index_text(text: str) -> str:
    """``index_text`` of a short text without compiling the CJK pattern (a fresh ``search`` ranks a few
    dozen chunks: scanning them costs less than compiling the ranges)."""
    if not _has_cjk(text):
        return text
    out: list[str] = []
    n = len(text)
    start = i = 0
    while i < n:
        if text[i] >= _CJK_LOW and _is_cjk(text[i]):
            j = i + 1
            while j < n and text[j] >= _CJK_LOW and _is_cjk(text[j]):
                j += 1
            out.append(text[start:i])
            out.append(_expand_run(text[i:j]))
            start = i = j
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def _masked(text: str) -> str:
    """``text`` with each CJK character as a space (the same length: offsets hold)."""
    return "".join(" " if c >= _CJK_LOW and _is_cjk(c) else c for c in text)


def query_terms(part: str) -> list[tuple[str, str]]:
    """``re.findall(f"([{CJK}]+)|([^\\W_{CJK}]+)", part)`` without compiling the CJK ranges: (cjk run, "") or
    ("", word) in order, a word being letters and digits (``str.isalnum``, as ``\\w`` without ``_``) not CJK."""
    out: list[tuple[str, str]] = []
    kind = 0  # 0 none, 1 CJK run, 2 word
    start = 0
    for i, ch in enumerate(part):
        k = (1 if _is_cjk(ch) else 2) if ch.isalnum() or (not ch.isascii() and _is_cjk(ch)) else 0
        if k != kind:
            if kind:
                out.append((part[start:i], "") if kind == 1 else ("", part[start:i]))
            kind, start = k, i
    if kind:
        out.append((part[start:], "") if kind == 1 else ("", part[start:]))
    return out


class Terms:
    """Finds a query's terms in raw text exactly as the regex ``regex`` does, without compiling it.

    ``regex`` is ``(?<![^\\W_{CJK}])(?i:WORDS)(?![^\\W_{CJK}])|CJK_RUN|...``: the words matched whole (a
    CJK character next to a word is a boundary), the CJK runs anywhere.  Compiling the CJK ranges of its
    boundaries costs a fresh ``search`` process several milliseconds, so a text holding no CJK character is
    searched with the same regex whose boundaries are plain ``[^\\W_]`` (the two agree on every other
    character); in a text holding some, the words are found in the text with every CJK character masked as
    a space (a boundary to both) and the CJK runs in the text itself.  A word match holds no CJK character
    and a CJK match nothing else, so the two never overlap, and merged by place they are the matches of
    ``regex``, in its order.  ``search`` and ``finditer`` take ``re.Pattern``'s arguments and give its matches
    (a word's match in a masked text has the masked text as its ``string``; its span and group are the same).
    """

    __slots__ = ("regex", "_plain", "_words", "_cjk")

    def __init__(self, words: str, cjk: str) -> None:
        bounded = f"(?<![^\\W_{CJK}])(?i:{words})(?![^\\W_{CJK}])" if words else ""
        self.regex = "|".join(x for x in (bounded, cjk) if x)
        cheap = f"(?<![^\\W_])(?i:{words})(?![^\\W_])" if words else ""
        self._words = re.compile(cheap) if words else None
        self._cjk = re.compile(cjk) if cjk else None
        self._plain = re.compile(f"{cheap}|{cjk}") if words and cjk else self._words or self._cjk

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Terms) and other.regex == self.regex

    def __hash__(self) -> int:
        return hash(self.regex)

    def __repr__(self) -> str:
        return f"Terms({self.regex!r})"

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        if self._cjk is None and self._words is None:
            return None
        if self._words is None or not _has_cjk(text):
            return self._plain.search(text, pos, endpos)  # type: ignore[union-attr]
        a = self._words.search(_masked(text), pos, endpos)
        b = None if self._cjk is None else self._cjk.search(text, pos, endpos)
        if a is None or b is None:
            return a or b
        return a if a.start() < b.start() else b

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        if self._cjk is None and self._words is None:
            return iter(())
        if self._words is None or not _has_cjk(text):
            return self._plain.finditer(text, pos, endpos)  # type: ignore[union-attr]
        found = list(self._words.finditer(_masked(text), pos, endpos))
        if self._cjk is not None:
            found += self._cjk.finditer(text, pos, endpos)
            found.sort(key=_match_start)
        return iter(found)


def _match_start(m: re.Match[str]) -> int:
    return m.start()


class Query(Frozen):
    """A parsed query (``parse_query``)."""

    __slots__ = _fields = ("text", "fts", "pattern", "fts_any", "any_regex")
    text: str
    fts: str  # the FTS5 MATCH expression (every phrase must match)
    pattern: Terms  # finds the query's terms in raw text (for snippets), as ``re.Pattern`` does
    fts_any: str  # the same phrases OR-ed: a chunk holding any part of the query
    any_regex: str  # ``fts_any`` as a regex on raw text (see ``mentions``), compiled when first used

    def __init__(self, text: str, fts: str, pattern: Terms, fts_any: str = "", any_regex: str = "") -> None:
        _set(self, "text", text)
        _set(self, "fts", fts)
        _set(self, "pattern", pattern)
        _set(self, "fts_any", fts_any)
        _set(self, "any_regex", any_regex)

    def mentions(self, raw: str) -> bool:
        """Whether FTS5 (``unicode61``, the CJK expansion of ``index_text``) matches ``fts_any`` in ``raw``.

        A word phrase matches its words as whole tokens, in order, separated by nothing but
        separators (``on-call`` is the phrase ``on call``: not ``on`` alone); a CJK run matches as a substring.
        """
        return bool(self.any_regex) and _compiled(self.any_regex).search(raw) is not None


@lru_cache(maxsize=64)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE)


_WORD_SEP = r"[\W_]+"  # FTS5 separators between two word tokens (a CJK character is a token of its own)


def _phrase_re(phrase: str, cjk: bool) -> str:
    if cjk:
        return re.escape(phrase)
    inner = _WORD_SEP.join(re.escape(w) for w in phrase.split(" "))
    return f"(?<![^\\W_{CJK}]){inner}(?![^\\W_{CJK}])"


_PART_RE = re.compile(r'"([^"]*)"|(\S+)')


@lru_cache(maxsize=256)
def parse_query(query: str) -> Query:
    """Every whitespace-separated part (or ``"quoted phrase"``) must match: its words as a phrase, its CJK runs as substrings.

    Cached (a ``Query`` is immutable): the UI searches as the user types, often the same text again.
    """
    phrases: list[str] = []
    regexes: dict[str, str] = {}
    terms: list[str] = []  # words: matched whole (not inside a longer word), any case
    cjk_terms: list[str] = []  # CJK runs: matched anywhere
    for quoted, bare in _PART_RE.findall(query):
        part = quoted if quoted else bare
        words: list[str] = []
        for cjk, word in query_terms(part):
            if word:
                words.append(word)
                terms.append(re.escape(word))
                continue
            if words:
                phrases.append(" ".join(words))
                regexes.setdefault(phrases[-1], _phrase_re(phrases[-1], False))
                words = []
            grams = [cjk] if len(cjk) == 1 else list(map(add, cjk[:-1], cjk[1:]))
            phrases.append(" ".join(grams))
            regexes.setdefault(phrases[-1], _phrase_re(cjk, True))
            cjk_terms.append(re.escape(cjk))
        if words:
            phrases.append(" ".join(words))
            regexes.setdefault(phrases[-1], _phrase_re(phrases[-1], False))
    unique = list(dict.fromkeys(phrases))
    if not unique:
        raise QueryError("the query holds no letters, digits or CJK characters to search for")
    quoted = ['"' + p.replace('"', '""') + '"' for p in unique]
    # one boundary around all the words, without IGNORECASE (case-folding the CJK ranges made compiling
    # them several times slower); ``Terms`` never compiles those ranges at all
    alternation = "|".join(sorted(set(terms), key=len, reverse=True))
    return Query(query, " AND ".join(quoted), Terms(alternation, "|".join(sorted(set(cjk_terms), key=len, reverse=True))),
                 " OR ".join(quoted), "|".join(regexes[p] for p in unique))


# --- documents ----------------------------------------------------------------------------------


class Chunk(Frozen):
    """A searchable piece of a file: char offsets into the file text and 1-based lines."""

    __slots__ = _fields = ("start", "end", "body_start", "line", "end_line", "id", "kind")
    start: int
    end: int
    body_start: int
    line: int
    end_line: int
    id: str | None
    kind: str

    def __init__(self, start: int, end: int, body_start: int, line: int, end_line: int, id: str | None,
                 kind: str) -> None:
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "body_start", body_start)
        _set(self, "line", line)
        _set(self, "end_line", end_line)
        _set(self, "id", id)
        _set(self, "kind", kind)


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


@lru_cache(maxsize=1)
def _chunk_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Blank line, heading, list item, fence, YAML top-level key: compiled when a file is first cut into chunks
    (a fresh ``search`` on a current index cuts none, and compiling them was ~3% of it)."""
    return (re.compile(r"[ \t\r]*"), re.compile(r" {0,3}#{1,6}(?:[ \t]|$)"), re.compile(r" ?(?:[-*+]|\d{1,9}[.)])[ \t]"),
            re.compile(r" {0,3}(`{3,}|~{3,})"), re.compile(r"[^\s#\-][^\n]*?:(?:[ \t]|\r?$)"))


def text_chunks(text: str, yaml: bool = False) -> Iterator[Chunk]:
    """Paragraphs of a Markdown (or YAML) file.

    A chunk ends at a blank line and before a heading, a list item, a
    ``<!-- observed: ... -->`` marker (or, in YAML, a top-level key); an
    HTML comment line (an OpenClaw machine marker) stays with the item or
    paragraph right before or after it; fenced code stays whole; long runs
    are cut every ``MAX_CHUNK_LINES`` lines.
    """
    blank_re, heading_re, item_re, fence_re, yaml_top_key_re = _chunk_patterns()
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
            m = fence_re.match(row)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not row[m.end():].strip():
                fence = None
        elif blank_re.fullmatch(row):
            if start >= 0:
                yield Chunk(start, pos, start, start_line, line - 1, None, "text")
                start = -1
        else:
            splits = (
                bool(yaml_top_key_re.match(row)) if yaml
                else bool(heading_re.match(row) or item_re.match(row) or row.startswith("<!-- observed:"))
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
            m = None if yaml else fence_re.match(row)
            if m:
                fence = m.group(1)
        pos = nxt
    if start >= 0:
        yield Chunk(start, n, start, start_line, _last_line(text, start, n, start_line), None, "text")


def is_memory_rel(rel: str) -> bool:
    return rel in ("memories.md", ARCHIVE_REL)


def indexed_rel(layout: str, rel: str) -> bool:
    """Whether a file (path relative to its profile) belongs in the index."""
    if layout == "openclaw":
        return rel in BOOTSTRAP_NAMES or rel == "DREAMS.md" or (rel.startswith("memory/") and rel.endswith(".md"))
    if rel in ("memories.md", ARCHIVE_REL, "identity.md", "state.yaml"):
        return True
    return (rel.startswith("contexts/") or rel.startswith("skills/")) and rel.endswith(".md")


_TAG_TERM_RE = re.compile(r"(?<!\S)tag:(\S+)")


def split_tags(query: str) -> tuple[str, list[str]]:
    """``"coffee tag:health"`` -> ("coffee", ["health"]): ``tag:x`` parts filter instead of matching text."""
    tags = _TAG_TERM_RE.findall(query)
    return _TAG_TERM_RE.sub(" ", query).strip(), tags


@lru_cache(maxsize=1)
def _surrogate_re() -> re.Pattern[str]:
    """The undecodable bytes of ``surrogateescape`` (compiled when first needed: a search seldom meets one)."""
    return re.compile("[\udc80-\udcff]")


def _is_utf8(s: str) -> bool:
    """No surrogate at all (the common case, told without a regex: UTF-8 encodes every other character)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def clean(s: str) -> str:
    """Text safe for SQLite and for one line of a terminal: undecodable bytes and control characters as U+FFFD."""
    if not _is_utf8(s) and _surrogate_re().search(s):
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return s.replace("\t", " ").translate(_CONTROLS)


def without_surrogates(s: str) -> str:
    """Each undecodable byte (a surrogate of ``surrogateescape``) as U+FFFD: same length, so offsets hold,
    and safe for SQLite, which takes only valid UTF-8."""
    return _surrogate_re().sub("\ufffd", s)


def has_surrogates(s: str) -> bool:
    return _surrogate_re().search(s) is not None


@lru_cache(maxsize=4096)
def tokens(text: str) -> frozenset[str]:
    """The lower-cased tokens of a text as indexed (words, CJK characters and bigrams), for similarity.

    Cached: the search screen ranks the same chunks again as the user types."""
    return frozenset((_small_index_text(text) if len(text) <= 4096 else index_text(text)).lower().split())
