"""Queries as the index reads them: parsing, finding their terms in raw text, tokens and snippets' text.

The query side of ``text`` (which re-exports every name here), apart from its chunking.  ``re`` is imported when a query holds a word
(``Terms``' boundaries and case folding are a regex's) or a text holds an undecodable byte; a query of
CJK runs only is parsed and found with ``str`` methods, the same matches as the regex would give.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from operator import add
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from collections.abc import Iterator

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ffff"
_CJK_RANGES = tuple((ord(CJK[i]), ord(CJK[i + 2])) for i in range(0, len(CJK), 3))
# ``clean``'s control characters, each as U+FFFD: [\x00-\x08\x0b-\x1f\x7f\u2028\u2029] (a table: compiling the
# character class cost a fresh ``search`` process as much as its query)
_CONTROLS = dict.fromkeys([*range(0x09), *range(0x0B, 0x20), 0x7F, 0x2028, 0x2029], "\ufffd")
SNIPPET_WIDTH = 120
# ``re.escape``'s table (Python 3.7 and later): a query's terms escaped without importing ``re``
_SPECIAL = {i: "\\" + chr(i) for i in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(s: str) -> str:
    """``re.escape(s)``, without importing ``re``."""
    return s.translate(_SPECIAL)


class QueryError(ValueError):
    """The query holds nothing to search for."""


_runs: dict[str, str] = {}  # ``_expand_run``'s cache (not ``functools``'): emptied when it holds 65,536 runs


def _expand_run(run: str) -> str:
    got = _runs.get(run)
    if got is None:
        if len(_runs) >= 1 << 16:
            _runs.clear()
        got = _runs[run] = f" {run} " if len(run) == 1 else f" {' '.join(run)} {' '.join(map(add, run[:-1], run[1:]))} "
    return got


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


class Found:
    """A match of literal text, as ``re.Match`` gives it (``start``, ``end``, ``span``, ``group``)."""

    __slots__ = ("string", "_start", "_end")

    def __init__(self, string: str, start: int, end: int) -> None:
        self.string, self._start, self._end = string, start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def group(self, n: int = 0) -> str:
        if n != 0:
            raise IndexError("no such group")
        return self.string[self._start:self._end]

    def __repr__(self) -> str:
        return f"<Found span={self.span()!r} match={self.group()!r}>"


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

    The CJK runs are literal text (longest first, as the alternation tries them): they are found with
    ``str.find`` (``Found`` matches: the leftmost place any run starts, the longest run there), so a query
    without words compiles nothing and never imports ``re``.  Regexes are compiled when first used.
    """

    __slots__ = ("regex", "_words_re", "_runs", "_compiled")

    def __init__(self, words: str, runs: tuple[str, ...] = ()) -> None:
        """``words``: the escaped words' alternation (may be empty); ``runs``: the CJK runs, longest first."""
        cjk = "|".join(escape(r) for r in runs)
        bounded = f"(?<![^\\W_{CJK}])(?i:{words})(?![^\\W_{CJK}])" if words else ""
        self.regex = "|".join(x for x in (bounded, cjk) if x)
        self._words_re = f"(?<![^\\W_])(?i:{words})(?![^\\W_])" if words else ""
        self._runs = runs
        self._compiled: tuple[re.Pattern[str], re.Pattern[str]] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Terms) and other.regex == self.regex

    def __hash__(self) -> int:
        return hash(self.regex)

    def __repr__(self) -> str:
        return f"Terms({self.regex!r})"

    def _patterns(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """(the words, the words or the runs), compiled once: only when there are words."""
        if self._compiled is None:
            import re

            cjk = "|".join(escape(r) for r in self._runs)
            plain = f"{self._words_re}|{cjk}" if cjk else self._words_re
            self._compiled = (re.compile(self._words_re), re.compile(plain))
        return self._compiled

    def _find_run(self, text: str, pos: int, endpos: int) -> Found | None:
        best, at = None, -1
        for run in self._runs:  # longest first: at one place, the first found is the alternation's choice
            i = text.find(run, pos, endpos)
            if i >= 0 and (at < 0 or i < at):
                best, at = run, i
        return None if best is None else Found(text, at, at + len(best))

    def _runs_from(self, text: str, pos: int, endpos: int) -> Iterator[Found]:
        while (m := self._find_run(text, pos, endpos)) is not None:
            yield m
            pos = m.end()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | Found | None:
        if not self._words_re:
            return self._find_run(text, pos, endpos) if self._runs else None
        words, plain = self._patterns()
        if not _has_cjk(text):
            return plain.search(text, pos, endpos)
        a = words.search(_masked(text), pos, endpos)
        b = self._find_run(text, pos, endpos) if self._runs else None
        if a is None or b is None:
            return a or b
        return a if a.start() < b.start() else b

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str] | Found]:
        if not self._words_re:
            return iter(self._runs_from(text, pos, endpos)) if self._runs else iter(())
        words, plain = self._patterns()
        if not _has_cjk(text):
            return plain.finditer(text, pos, endpos)
        found: list[re.Match[str] | Found] = list(words.finditer(_masked(text), pos, endpos))
        if self._runs:
            found += self._runs_from(text, pos, endpos)
            found.sort(key=_match_start)
        return iter(found)


def _match_start(m: re.Match[str] | Found) -> int:
    return m.start()


@dataclass(slots=True, frozen=True)
class Query:
    """A parsed query (``parse_query``)."""

    text: str
    fts: str  # the FTS5 MATCH expression (every phrase must match)
    pattern: Terms  # finds the query's terms in raw text (for snippets), as ``re.Pattern`` does
    fts_any: str = ""  # the same phrases OR-ed: a chunk holding any part of the query
    any_regex: str = ""  # ``fts_any`` as a regex on raw text (see ``mentions``), compiled when first used

    def mentions(self, raw: str) -> bool:
        """Whether FTS5 (``unicode61``, the CJK expansion of ``index_text``) matches ``fts_any`` in ``raw``.

        A word phrase matches its words as whole tokens, in order, separated by nothing but
        separators (``on-call`` is the phrase ``on call``: not ``on`` alone); a CJK run matches as a substring.
        """
        return bool(self.any_regex) and compiled_ignorecase(self.any_regex).search(raw) is not None


_ignorecase: dict[str, re.Pattern[str]] = {}


def compiled_ignorecase(regex: str) -> re.Pattern[str]:
    """``re.compile(regex, re.IGNORECASE)``, the last 64 kept."""
    got = _ignorecase.get(regex)
    if got is None:
        import re

        if len(_ignorecase) >= 64:
            _ignorecase.clear()
        got = _ignorecase[regex] = re.compile(regex, re.IGNORECASE)
    return got


_WORD_SEP = r"[\W_]+"  # FTS5 separators between two word tokens (a CJK character is a token of its own)


def _phrase_re(phrase: str, cjk: bool) -> str:
    if cjk:
        return escape(phrase)
    inner = _WORD_SEP.join(escape(w) for w in phrase.split(" "))
    return f"(?<![^\\W_{CJK}]){inner}(?![^\\W_{CJK}])"


def query_parts(query: str) -> list[str]:
    """``[q or b for q, b in re.findall(r'"([^"]*)"|(\\S+)', query)]`` without ``re``: a quoted phrase (a ``"``,
    then up to the next ``"``) or a run of non-space characters, in order; what a quote opens and nothing
    closes is read as non-space characters."""
    out: list[str] = []
    n = len(query)
    i = 0
    while i < n:
        if query[i] == '"':
            close = query.find('"', i + 1)
            if close >= 0:
                out.append(query[i + 1:close])
                i = close + 1
                continue
        if query[i].isspace():
            i += 1
            continue
        j = i + 1
        while j < n and not query[j].isspace():
            j += 1
        out.append(query[i:j])
        i = j
    return out


_parsed: dict[str, Query] = {}


def parse_query(query: str) -> Query:
    """Every whitespace-separated part (or ``"quoted phrase"``) must match: its words as a phrase, its CJK runs as substrings.

    Cached (a ``Query`` is immutable; the last 256): the UI searches as the user types, often the same text again.
    """
    got = _parsed.get(query)
    if got is None:
        got = _parse(query)
        if len(_parsed) >= 256:
            _parsed.clear()
        _parsed[query] = got
    return got


def _parse(query: str) -> Query:
    phrases: list[str] = []
    regexes: dict[str, str] = {}
    terms: list[str] = []  # words: matched whole (not inside a longer word), any case
    cjk_terms: list[str] = []  # CJK runs: matched anywhere
    for part in query_parts(query):
        words: list[str] = []
        for cjk, word in query_terms(part):
            if word:
                words.append(word)
                terms.append(escape(word))
                continue
            if words:
                phrases.append(" ".join(words))
                regexes.setdefault(phrases[-1], _phrase_re(phrases[-1], False))
                words = []
            grams = [cjk] if len(cjk) == 1 else list(map(add, cjk[:-1], cjk[1:]))
            phrases.append(" ".join(grams))
            regexes.setdefault(phrases[-1], _phrase_re(cjk, True))
            cjk_terms.append(cjk)
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
    runs = tuple(sorted(set(cjk_terms), key=len, reverse=True))
    return Query(query, " AND ".join(quoted), Terms(alternation, runs), " OR ".join(quoted),
                 "|".join(regexes[p] for p in unique))


def split_tags(query: str) -> tuple[str, list[str]]:
    """``"coffee tag:health"`` -> ("coffee", ["health"]): ``tag:x`` parts filter instead of matching text.

    ``re``'s ``(?<!\\S)tag:(\\S+)`` (its ``findall``, and its ``sub`` by a space, then stripped), read with
    ``str`` methods: ``tag:`` at the start or after a space, then at least one non-space character."""
    if "tag:" not in query:
        return query.strip(), []
    tags: list[str] = []
    kept: list[str] = []
    n = len(query)
    i = last = 0
    while True:
        i = query.find("tag:", i)
        if i < 0:
            break
        if i == 0 or query[i - 1].isspace():
            j = i + 4
            while j < n and not query[j].isspace():
                j += 1
            if j > i + 4:
                tags.append(query[i + 4:j])
                kept.append(query[last:i])
                kept.append(" ")
                i = last = j
                continue
        i += 1
    kept.append(query[last:])
    return "".join(kept).strip(), tags


def _is_utf8(s: str) -> bool:
    """No surrogate at all (the common case, told without a regex: UTF-8 encodes every other character)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def clean(s: str) -> str:
    """Text safe for SQLite and for one line of a terminal: undecodable bytes and control characters as U+FFFD."""
    if not _is_utf8(s) and surrogates_re().search(s):
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return s.replace("\t", " ").translate(_CONTROLS)


_surrogates: list[re.Pattern[str]] = []


def surrogates_re() -> re.Pattern[str]:
    """The undecodable bytes of ``surrogateescape`` (compiled when first needed: a search seldom meets one)."""
    if not _surrogates:
        import re

        _surrogates.append(re.compile("[\udc80-\udcff]"))
    return _surrogates[0]


_tokens: dict[str, frozenset[str]] = {}


def tokens(text: str) -> frozenset[str]:
    """The lower-cased tokens of a text as indexed (words, CJK characters and bigrams), for similarity.

    Cached (the last 4096): the search screen ranks the same chunks again as the user types."""
    got = _tokens.get(text)
    if got is None:
        if len(text) <= 4096:
            expanded = _small_index_text(text)
        else:
            from .text import index_text

            expanded = index_text(text)
        if len(_tokens) >= 4096:
            _tokens.clear()
        got = _tokens[text] = frozenset(expanded.lower().split())
    return got
