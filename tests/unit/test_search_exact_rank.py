"""The ranking takes its candidates over every match (BM25 × decay in SQL), so its top results are those of
ranking all matches in Python, the spec's order, even where a BM25 cap before the decay would lose recent
entries; ties at the cut are resolved by place as the full ranking does."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_files import roots_of
from openclaw_tui.core.search.rank import Ranking, _Cand, decay_factor, mmr, order_key, rank
from openclaw_tui.core.search.reader import _tag_filter
from openclaw_tui.core.search.text import Query, parse_query, split_tags
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


def every_match(index: Index, q: Query | None, limit: int, tags: Sequence[str] = ()) -> list[tuple[int, float]]:
    """(rowid, BM25 higher-better) of the best ``limit`` matches, by SQLite alone; no query: the entries
    carrying every tag (1.0, in file order)."""
    where, args = _tag_filter(tags)
    if q is None:
        sql = f"SELECT c.rowid, -1.0 FROM chunks c WHERE 1 {where} ORDER BY c.path, c.blk, c.rstart LIMIT ?"
    else:
        sql = ("SELECT d.rowid, bm25(docs) FROM docs d CROSS JOIN chunks c ON c.rowid = d.rowid"
               f" WHERE docs MATCH ? {where} ORDER BY bm25(docs) LIMIT ?")
        args = [q.fts, *args]
    return [(int(r), -float(s)) for r, s in index._db.execute(sql, [*args, limit])]


def uncapped(index: Index, query: str, limit: int, ranking: Ranking) -> list[tuple[str | None, str, int]]:
    """Every match scored in Python (the spec's ranking with no candidate cap), then the same MMR."""
    rest, tags = split_tags(query)
    q = parse_query(rest) if rest else None
    matched = every_match(index, q, 10**9, tags)
    best = max(s for _r, s in matched)
    rows = index.rows([r for r, _s in matched])
    cands = []
    for rowid, s in matched:
        c = _Cand(rows[rowid], bm25=s, text=s / best)
        c.decay = decay_factor(c.row.day, TODAY, ranking.half_life_days)
        c.score = c.text * c.decay
        cands.append(c)
    ranked = sorted(cands, key=order_key(index, False))
    picked = sorted(mmr(ranked[: max(limit * 4, limit)], limit, ranking.mmr_lambda), key=order_key(index, False))
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
        rows = {(r.id, r.rel, r.start): r.line for r in index.rows([r for r, _ in every_match(index,
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
        by_bm25 = {r for r, _s in every_match(index, q, 40)}
        top = rank(index, "coffee", 10, today=TODAY).hits
        rows = index.rows([r for r, _s in every_match(index, q, 10**9)])
        top_rowids = {r.rowid for r in rows.values() if (r.id, r.line) in {(h.id, h.start_line) for h in top}}
        assert top_rowids - by_bm25, "the corpus must have a recent entry outside the BM25 top 40"
    finally:
        index.close()


def test_every_rowid_carries_its_day(tmp_path: Path) -> None:
    """The SQL decay reads the day from the rowid: it must be the chunk's day, after edits too."""
    from openclaw_tui.core.search.reader import DAY_SHIFT

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
    from openclaw_tui.core.search.reader import Root, Row

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


def _brute(index: Index, query: str, limit: int, today: dt.date, half_life: float
           ) -> tuple[set[tuple[int, float]], float]:
    """Every match scored in Python: the top ``limit`` by BM25 × decay and every chunk tied with the last."""
    rest, tags = split_tags(query)
    matched = every_match(index, parse_query(rest), 10**9, tags)
    if not matched:
        return set(), 0.0
    rows = index.rows([r for r, _s in matched])
    scored = sorted(((s * decay_factor(rows[r].day, today, half_life), r, s) for r, s in matched), reverse=True)
    cut = scored[min(limit, len(scored)) - 1][0]
    return {(r, s) for p, r, s in scored if p >= cut}, max(s for _r, s in matched)


WORDS = st.lists(st.sampled_from(["coffee", "coffee", "filler", "咖啡", "tea", "x"]), min_size=1, max_size=4)
AGES = st.one_of(st.none(), st.sampled_from([-2, 0, 0, 1, 1, 2, 3, 5, 10, 40]), st.integers(-3, 500))


@given(st.lists(st.tuples(WORDS, AGES, st.sampled_from(["a", "b", "a, b"])), min_size=1, max_size=60),
       st.sampled_from(["coffee", "咖啡", "coffee filler", "tea", "tag:a coffee", "tag:b 咖啡", "x"]),
       st.integers(1, 30), st.sampled_from([1, 2, 5, 256]), st.sampled_from([1.0, 7.0, 30.0]),
       st.sampled_from([0, 4096]), st.sampled_from([0, 3, 1024]))
@settings(max_examples=300, deadline=None)
def test_reading_newest_first_and_stopping_early_finds_what_scoring_every_match_finds(
        corpus_spec: list[tuple[list[str], int | None, str]], query: str, limit: int, page: int,
        half_life: float, keep: int, even: int) -> None:
    """Whatever the days (undated, future, the same day), the BM25 ties, the tags, the page size and when the
    pages start doubling (``EVEN_READ``), the stop is exact."""
    import tempfile

    from openclaw_tui.core.search import reader as index_mod  # (the read side: its paging constants)

    blocks = []
    for i, (words, age, tags) in enumerate(corpus_spec):
        fields = {"tags": f"[{tags}]"}
        if age is not None:
            fields["timestamp"] = (TODAY - dt.timedelta(days=age)).isoformat()
        blocks.append(entry(f"mem-{i:04d}", " ".join(words), **fields))
    old = index_mod.FIRST_PAGE, index_mod.KEEP_FILTERED, index_mod.EVEN_READ
    index_mod.FIRST_PAGE, index_mod.KEEP_FILTERED = page, keep  # keep 0: tag filters read page by page too
    index_mod.EVEN_READ = even
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "prof"
        write(p / "memories.md", "".join(blocks))
        index = Index(None)
        try:
            index.refresh(roots_of(p))
            rest, tags = split_tags(query)
            got, best = index.match_decayed(parse_query(rest), limit, tags, TODAY.toordinal(), half_life)
            want, want_best = _brute(index, query, limit, TODAY, half_life)
            assert set(got) == want and len(got) == len(want)
            assert best == want_best
            again, _ = index.match_decayed(parse_query(rest), limit, tags, TODAY.toordinal(), half_life)
            assert again == got  # the second time from the kept best BM25
        finally:
            index.close()
            index_mod.FIRST_PAGE, index_mod.KEEP_FILTERED, index_mod.EVEN_READ = old


def test_the_kept_best_bm25_follows_the_index_when_this_or_another_process_changes_it(tmp_path: Path) -> None:
    """The best BM25 is kept between queries; a write here or by another connection makes it computed again."""
    import sqlite3

    p = tmp_path / "prof"
    write(p / "memories.md", "".join(entry(f"mem-{i:04d}", f"coffee {'filler ' * (i % 5)}",
                                           timestamp=(TODAY - dt.timedelta(days=i)).isoformat()) for i in range(40)))
    db = tmp_path / "index.sqlite3"
    one, two = Index(db), Index(db)
    try:
        one.refresh(roots_of(p))
        q = parse_query("coffee")
        _got, best = one.match_decayed(q, 5, [], TODAY.toordinal(), 30.0)
        assert best == max(s for _r, s in every_match(one, q, 10**9))
        # another process adds entries saying "coffee" many times, far shorter: a higher BM25
        with (p / "memories.md").open("a", encoding="utf-8") as f:
            f.write(entry("mem-9000", "coffee coffee coffee", timestamp="2020-01-01"))
        two.refresh(roots_of(p))
        got, best2 = one.match_decayed(q, 5, [], TODAY.toordinal(), 30.0)
        assert best2 == max(s for _r, s in every_match(one, q, 10**9)) and best2 > best
        assert set(got) == _brute(one, "coffee", 5, TODAY, 30.0)[0]
        # and a write on this connection
        (p / "memories.md").write_text(entry("mem-0001", "coffee"), encoding="utf-8")
        one.refresh(roots_of(p))
        got, best3 = one.match_decayed(q, 5, [], TODAY.toordinal(), 30.0)
        assert best3 == max(s for _r, s in every_match(one, q, 10**9)) != best2
        assert len(got) == 1
    finally:
        one.close()
        two.close()
    assert sqlite3.connect(db).execute("SELECT count(*) FROM chunks").fetchone()[0] == 1


@pytest.mark.parametrize("page", [1, 2, 256])
def test_the_stop_is_exact_at_a_tie_and_a_near_tie_on_the_same_day(tmp_path: Path, page: int) -> None:
    """Read one match at a time, newest first: a twin of the last one read (the same product) or a slightly
    better entry of the same day, read next, must still be found."""
    from openclaw_tui.core.search import reader as index_mod  # (the read side: its paging constants)

    today = TODAY.isoformat()
    old = (TODAY - dt.timedelta(days=90)).isoformat()
    p = tmp_path / "prof"
    write(p / "memories.md", "".join([
        *(entry(f"old-{i}", "coffee filler", timestamp=old) for i in range(5)),
        entry("shorter", "coffee " + " ".join(f"w{i}" for i in range(8)), timestamp=today),  # a little better
        entry("longer", "coffee " + " ".join(f"w{i}" for i in range(9)), timestamp=today),  # read first
        *(entry(f"twin-{i}", "tea coffee", timestamp=today) for i in range(3)),  # read before them
    ]))
    saved = index_mod.FIRST_PAGE
    index_mod.FIRST_PAGE = page
    index = Index(None)
    try:
        index.refresh(roots_of(p))
        q = parse_query("coffee")
        ids = {r.rowid: r.id for r in index.rows([r for r, _s in every_match(index, q, 10**9)]).values()}
        got, _best = index.match_decayed(q, 1, [], TODAY.toordinal(), 30.0)
        assert sorted(ids[r] for r, _s in got) == ["twin-0", "twin-1", "twin-2"]
        got, _best = index.match_decayed(parse_query("w1"), 1, [], TODAY.toordinal(), 30.0)
        assert [ids[r] for r, _s in got] == ["shorter"]
        got, _best = index.match_decayed(q, 5, [], TODAY.toordinal(), 30.0)
        assert set(got) == _brute(index, "coffee", 5, TODAY, 30.0)[0]
    finally:
        index.close()
        index_mod.FIRST_PAGE = saved
