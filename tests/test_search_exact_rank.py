"""The ranking takes its candidates over every match (BM25 × decay in SQL), so its top results are those of
ranking all matches in Python, the spec's order, even where a BM25 cap before the decay would lose recent
entries; ties at the cut are resolved by place as the full ranking does."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.core.search.index import Index, roots_of
from openclaw_tui.core.search.rank import Ranking, _Cand, decay_factor, mmr, order_key, rank
from openclaw_tui.core.search.text import parse_query, split_tags
from tests.search_corpus import entry, write

TODAY = dt.date(2026, 6, 1)


def corpus(tmp_path: Path) -> Path:
    p = tmp_path / "prof"
    blocks = []
    for i in range(300):
        words = " ".join(["coffee"] * (1 + i % 7)) + " " + " ".join(["filler"] * (i % 11))
        day = TODAY - dt.timedelta(days=(i * 37) % 400)
        if i % 10 == 0:
            words = "coffee filler filler filler"  # the same text on the same day: exact ties
            day = TODAY - dt.timedelta(days=100)
        blocks.append(entry(f"mem-{i:04d}", f"{words} 咖啡 note {i}", timestamp=day.isoformat(),
                            tags=f"[t{i % 3}, 咖啡]"))
    write(p / "memories.md", "".join(blocks))
    write(p / "identity.md", "# coffee person, undated: never decays\n")
    return p


def uncapped(index: Index, query: str, limit: int, ranking: Ranking) -> list[tuple[str | None, str, int]]:
    """Every match scored in Python (the spec's ranking with no candidate cap), then the same MMR."""
    rest, tags = split_tags(query)
    q = parse_query(rest) if rest else None
    if q is not None:
        matched = index.match(q, 10**9, tags)
    else:
        matched = [(r, 1.0) for r, _s in index.match(None, 10**9, tags)]
    best = max(s for _r, s in matched)
    rows = index.rows([r for r, _s in matched])
    cands = []
    for rowid, s in matched:
        c = _Cand(rows[rowid], bm25=s, text=s / best)
        c.decay = decay_factor(c.row.day, TODAY, ranking.half_life_days)
        c.score = c.text * c.decay
        cands.append(c)
    ranked = sorted(cands, key=order_key(index, False))
    picked = mmr(ranked[: max(limit * 4, limit)], limit, ranking.mmr_lambda)
    return [(c.row.id, c.row.rel, c.row.start) for c in picked]


@pytest.mark.parametrize("query", ["coffee", "咖啡", "filler", "coffee filler", "tag:t1", "tag:t2 coffee", "note"])
@pytest.mark.parametrize("limit", [1, 5, 10])
@pytest.mark.parametrize("ranking", [Ranking(), Ranking(half_life_days=5.0, mmr_lambda=1.0),
                                     Ranking(half_life_days=0.0)])
def test_the_top_results_are_those_of_ranking_every_match(tmp_path: Path, query: str, limit: int,
                                                          ranking: Ranking) -> None:
    prof = corpus(tmp_path)
    index = Index(None)
    index.refresh(roots_of(prof))
    try:
        got = [(h.id, h.file, h.start_line) for h in rank(index, query, limit, ranking=ranking, today=TODAY).hits]
        want = uncapped(index, query, limit, ranking)
        rows = {(r.id, r.rel, r.start): r.line for r in index.rows([r for r, _ in index.match(
            parse_query(split_tags(query)[0]) if split_tags(query)[0] else None, 10**9, split_tags(query)[1])]).values()}
        assert got == [(i, rel, rows[(i, rel, start)]) for i, rel, start in want]
    finally:
        index.close()


def test_a_bm25_cap_before_the_decay_would_have_lost_the_recent_entry(tmp_path: Path) -> None:
    """The corpus makes the point: the best by BM25 alone are not the best after the decay."""
    prof = corpus(tmp_path)
    index = Index(None)
    index.refresh(roots_of(prof))
    try:
        q = parse_query("coffee")
        by_bm25 = {r for r, _s in index.match(q, 40)}
        top = rank(index, "coffee", 10, today=TODAY).hits
        rows = index.rows([r for r, _s in index.match(q, 10**9)])
        top_rowids = {r.rowid for r in rows.values() if (r.id, r.line) in {(h.id, h.start_line) for h in top}}
        assert top_rowids - by_bm25, "the corpus must have a recent entry outside the BM25 top 40"
    finally:
        index.close()


def test_every_rowid_carries_its_day(tmp_path: Path) -> None:
    """The SQL decay reads the day from the rowid: it must be the chunk's day, after edits too."""
    from openclaw_tui.core.search.index import DAY_SHIFT

    prof = corpus(tmp_path)
    index = Index(None)
    index.refresh(roots_of(prof))
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8")
    mem.write_text(text.replace("timestamp: 2026-05-", "timestamp: 2025-01-", 3) + entry("new", "coffee", timestamp="2026-05-30"),
                   encoding="utf-8")
    index.refresh(roots_of(prof))
    try:
        rows = index._db.execute("SELECT rowid, day FROM chunks").fetchall()  # noqa: SLF001
        assert len(rows) > 300 and all(r >> DAY_SHIFT == (d or 0) for r, d in rows)
    finally:
        index.close()


def _mmr_reference(cands: list[_Cand], limit: int, lam: float) -> list[_Cand]:
    """Every candidate compared with every pick, every round (the textbook loop)."""
    if lam >= 1.0 or len(cands) <= 1:
        return list(cands[:limit])
    from openclaw_tui.core.search.rank import _similarity

    pool, picked, best_sim = list(cands), [], [0.0] * len(cands)
    while pool and len(picked) < limit:
        i = max(range(len(pool)), key=lambda k: (lam * pool[k].score - (1 - lam) * best_sim[k], -k))
        chosen = pool.pop(i)
        best_sim.pop(i)
        picked.append(chosen)
        for k, c in enumerate(pool):
            best_sim[k] = max(best_sim[k], _similarity(chosen, c))
    return picked


@given(st.lists(st.tuples(st.sampled_from([0.0, 0.1, 0.5, 0.5, 0.9, 1.0]),
                          st.sets(st.sampled_from("abcdefgh"), max_size=4)), max_size=30),
       st.integers(1, 12), st.sampled_from([0.0, 0.3, 0.7, 0.99]))
@settings(max_examples=300, deadline=None)
def test_mmr_picks_what_the_textbook_loop_picks(items: list[tuple[float, set[str]]], limit: int, lam: float) -> None:
    from openclaw_tui.core.search.index import Root, Row

    root = Root("p", ".", Path("/p"), "profile")
    cands = []
    for i, (score, toks) in enumerate(items):
        c = _Cand(Row(i, Path("/p/m.md"), root, "m.md", i, i + 1, 0, 1, 1, None, "text", None, "", ""), score=score)
        c._tokens = frozenset(toks)
        cands.append(c)
    cands.sort(key=lambda c: -c.score)
    assert [c.row.rowid for c in mmr(cands, limit, lam)] == [c.row.rowid for c in _mmr_reference(cands, limit, lam)]


def test_a_tie_longer_than_the_read_ahead_is_taken_whole(tmp_path: Path) -> None:
    p = tmp_path / "ties"
    same = "".join(entry(f"mem-{i:04d}", "coffee twin", timestamp="2026-05-01") for i in range(150))
    write(p / "memories.md", entry("mem-9999", "coffee twin", timestamp="2026-05-31") + same)
    index = Index(None)
    index.refresh(roots_of(p))
    try:
        matched, _best = index.match_decayed(parse_query("coffee"), 40, [], TODAY.toordinal(), 30.0)
        assert len(matched) == 151  # the recent one, then the whole tie of 150 (more than 40 + 64)
        for limit in (1, 10):
            got = [(h.id, h.file) for h in rank(index, "coffee", limit, today=TODAY).hits]
            assert got == [(i, rel) for i, rel, _s in uncapped(index, "coffee", limit, Ranking())]
    finally:
        index.close()
