"""Queries as the index reads them: parsing, finding their terms in raw text, tokens and snippets' text
(re-exported by ``text``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from operator import add

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ffff"
CJK_RUN = re.compile(f"[{CJK}]+")
# a query part's terms: a CJK run, or a word (letters and digits, no underscore) that is not CJK
_TERMS = re.compile(f"([{CJK}]+)|([^\\W_{CJK}]+)")
_PARTS = re.compile(r'"([^"]*)"|(\S+)')  # a quoted phrase, or a run of non-space characters
_TAG = re.compile(r"(?<!\S)tag:(\S+)")
_SURROGATES = re.compile("[\udc80-\udcff]")  # the undecodable bytes of ``surrogateescape``
# ``clean``'s control characters, each as U+FFFD
_CONTROLS = dict.fromkeys([*range(0x09), *range(0x0B, 0x20), 0x7F, 0x2028, 0x2029], "\ufffd")
SNIPPET_WIDTH = 120


class QueryError(ValueError):
    """The query holds nothing to search for."""


@lru_cache(maxsize=1 << 16)
def _expand_run(run: str) -> str:
    """A CJK run as indexed: its characters, then its bigrams, each a token."""
    return f" {run} " if len(run) == 1 else f" {' '.join(run)} {' '.join(map(add, run[:-1], run[1:]))} "


def query_terms(part: str) -> list[tuple[str, str]]:
    """(cjk run, "") or ("", word), in order."""
    return _TERMS.findall(part)


@dataclass(slots=True, frozen=True)
class Query:
    """A parsed query (``parse_query``)."""

    text: str
    fts: str  # the FTS5 MATCH expression (every phrase must match)
    pattern: re.Pattern[str]  # finds the query's terms in raw text (for snippets)
    fts_any: str = ""  # the same phrases OR-ed: a chunk holding any part of the query
    any_regex: str = ""  # ``fts_any`` as a regex on raw text (see ``mentions``), compiled when first used

    def mentions(self, raw: str) -> bool:
        """Whether FTS5 (``unicode61``, the CJK expansion of ``index_text``) matches ``fts_any`` in ``raw``.

        A word phrase matches its words as whole tokens, in order, separated by nothing but
        separators (``on-call`` is the phrase ``on call``: not ``on`` alone); a CJK run matches as a substring.
        """
        return bool(self.any_regex) and re.search(self.any_regex, raw, re.IGNORECASE) is not None  # (re caches it)


_WORD_SEP = r"[\W_]+"  # FTS5 separators between two word tokens (a CJK character is a token of its own)


def _phrase_re(phrase: str, cjk: bool) -> str:
    if cjk:
        return re.escape(phrase)
    inner = _WORD_SEP.join(re.escape(w) for w in phrase.split(" "))
    return f"(?<![^\\W_{CJK}]){inner}(?![^\\W_{CJK}])"


@lru_cache(maxsize=256)
def parse_query(query: str) -> Query:
    """Every whitespace-separated part (or ``"quoted phrase"``) must match: its words as a phrase, its CJK runs
    as substrings.  Cached: the UI searches as the user types."""
    phrases: list[str] = []
    regexes: dict[str, str] = {}
    terms: list[str] = []  # words: matched whole (not inside a longer word), any case
    cjk_terms: list[str] = []  # CJK runs: matched anywhere
    for part in (quoted or bare for quoted, bare in _PARTS.findall(query)):
        for is_word, run in groupby(query_terms(part), key=lambda t: bool(t[1])):
            if is_word:  # neighbouring words: one phrase
                words = [w for _c, w in run]
                terms += map(re.escape, words)
                phrases.append(" ".join(words))
                regexes.setdefault(phrases[-1], _phrase_re(phrases[-1], False))
                continue
            for cjk, _w in run:  # each CJK run: the phrase of its bigrams
                grams = [cjk] if len(cjk) == 1 else list(map(add, cjk[:-1], cjk[1:]))
                phrases.append(" ".join(grams))
                regexes.setdefault(phrases[-1], _phrase_re(cjk, True))
                cjk_terms.append(cjk)
    unique = list(dict.fromkeys(phrases))
    if not unique:
        raise QueryError("the query holds no letters, digits or CJK characters to search for")
    quoted = ['"' + p.replace('"', '""') + '"' for p in unique]
    # the words matched whole (a CJK character next to a word is a boundary), in any case (IGNORECASE only
    # around them: not the CJK ranges); the CJK runs anywhere, longest first
    alternation = "|".join(sorted(set(terms), key=len, reverse=True))
    runs = "|".join(re.escape(r) for r in sorted(set(cjk_terms), key=len, reverse=True))
    bounded = f"(?<![^\\W_{CJK}])(?i:{alternation})(?![^\\W_{CJK}])" if alternation else ""
    pattern = re.compile("|".join(x for x in (bounded, runs) if x))
    return Query(query, " AND ".join(quoted), pattern, " OR ".join(quoted), "|".join(regexes[p] for p in unique))


def split_tags(query: str) -> tuple[str, list[str]]:
    """``"coffee tag:health"`` -> ("coffee", ["health"]): ``tag:x`` parts filter instead of matching text."""
    return _TAG.sub(" ", query).strip(), _TAG.findall(query)


def clean(s: str) -> str:
    """Text safe for SQLite and for one line of a terminal: undecodable bytes and control characters as U+FFFD."""
    if _SURROGATES.search(s):
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return s.replace("\t", " ").translate(_CONTROLS)


def index_text(text: str) -> str:
    """The text as stored in FTS5: CJK runs become unigrams + bigrams, each its own token."""
    if text.isascii():  # no CJK run (most English text): nothing to scan
        return text
    return CJK_RUN.sub(lambda m: _expand_run(m.group(0)), text)


@lru_cache(maxsize=4096)
def tokens(text: str) -> frozenset[str]:
    """The lower-cased tokens of a text as indexed (words, CJK characters and bigrams), for similarity."""
    return frozenset(index_text(text).lower().split())
