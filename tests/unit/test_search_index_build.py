"""A first build of the search index: every row as the parse reads it, in batches, and without holding the parse."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import pytest

from openclaw_tui.core.format import entries
from openclaw_tui.core.format.fields import parse_date
from openclaw_tui.core.search import index_rows as index_mod
from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_files import roots_of
from openclaw_tui.core.search.reader import DAY_SHIFT
from openclaw_tui.core.search.text import index_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import write_profile  # noqa: E402


def test_first_build_rows_are_those_of_the_parse_across_batches(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    prof = write_profile(tmp_path, 700)  # days go back every 336 entries: rows are inserted out of file order
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8")
    monkeypatch.setattr(index_mod, "INSERT_BATCH", 64)  # many batches, the last one partial
    idx = Index(None)
    try:
        stats = idx.refresh(roots_of(prof))
        assert stats.inserted >= 700
        rows = idx._db.execute(
            "SELECT c.rowid, b.off + c.rstart, b.off + c.rend, c.ident, c.day, c.tags, c.status, c.importance,"
            " t.raw, d.body FROM chunks c JOIN blocks b ON b.blk = c.blk JOIN texts t ON t.rowid = c.rowid"
            " JOIN docs d ON d.rowid = c.rowid WHERE c.path = ? AND c.kind = 'entry' ORDER BY c.blk, c.rstart",
            (str(mem),)).fetchall()
        mf = entries.parse(text)
        assert len(rows) == len(mf.entries) == 700
        counts: dict[str, int] = {}
        for (rowid, start, end, ident, day, tags, status, importance, raw, body), e in zip(rows, mf.entries,
                                                                                          strict=True):
            d = parse_date(e.meta["timestamp"])
            assert d is not None
            assert (start, end, ident, raw) == (e.start, e.end, e.id, e.raw)
            assert day == d.toordinal() and rowid >> DAY_SHIFT == day
            assert tags == "|" + "|".join(t.casefold() for t in e.tags) + "|"
            assert (status, importance) == (e.status, e.meta["importance"])
            assert body == index_text(raw)
            for t in e.tags:
                counts[t.casefold()] = counts.get(t.casefold(), 0) + 1
        assert dict(idx._db.execute("SELECT tag, n FROM tagnames WHERE path = ?", (str(mem),)).fetchall()) == counts
        ids = [r[0] for r in rows]
        assert len(set(ids)) == len(ids)
        # the index of places made again after the rows went in, FTS5's merge settings back to its defaults
        assert idx._db.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks_path'").fetchone() == (
            index_mod._PLACES_INDEX,)
        assert dict(idx._db.execute("SELECT k, v FROM docs_config WHERE k IN ('automerge', 'crisismerge')")
                    .fetchall()) == {"automerge": 4, "crisismerge": 16}
        # 'optimize'd: memories.md in one segment, the small files indexed after it in another
        assert idx._db.execute("SELECT count(DISTINCT segid) FROM docs_idx").fetchone()[0] <= 2
        # a later edit re-indexes one entry, the others keep their rows
        changed = text.replace("id: mem-000350\n", "id: mem-000350\nnote: x\n", 1)
        mem.write_text(changed, encoding="utf-8")
        stats = idx.refresh(roots_of(prof))
        assert (stats.inserted, stats.deleted) == (1, 1)
    finally:
        idx.close()


def test_first_build_does_not_hold_the_parse(tmp_path: Path) -> None:
    """Python's peak while building stays near that of a parse whose fields were read (tracemalloc: 1.0x
    here; 2.3x when the build held the parse, every entry's fields and every row's texts at once)."""
    prof = write_profile(tmp_path, 3000)
    text = (prof / "memories.md").read_text(encoding="utf-8")
    tracemalloc.start()
    try:
        mf = entries.parse(text)
        for e in mf.entries:
            e.meta  # noqa: B018 - a parse whose fields were read: what the build held before
        _cur, parse_peak = tracemalloc.get_traced_memory()
        del mf
        tracemalloc.reset_peak()
        base, _peak = tracemalloc.get_traced_memory()
        idx = Index(None)
        idx.refresh(roots_of(prof))
        _cur, build_peak = tracemalloc.get_traced_memory()
        idx.close()
    finally:
        tracemalloc.stop()
    assert build_peak - base < 1.5 * parse_peak


def assert_same_as_a_fresh_build(idx: Index, prof: Path, mem: Path) -> None:
    """The rows an incremental refresh left are those a first build of the same files makes."""
    fresh = Index(None)
    try:
        fresh.refresh(roots_of(prof))
        assert idx.documents(mem) == fresh.documents(mem)
    finally:
        fresh.close()


def _built(prof: Path) -> tuple[Index, Path, str, str]:
    idx = Index(None)
    idx.refresh(roots_of(prof))
    mem = (prof / "memories.md").absolute()
    (digest,) = idx._db.execute("SELECT hash FROM files WHERE path = ?", (str(mem),)).fetchone()
    return idx, mem, mem.read_text(encoding="utf-8"), digest


def old_text(idx: Index, mem: Path, new: str, digest: str, bom: bool) -> str | None:
    """The text a file held when its rows were made, put back from ``new`` by ``_edit_around`` (None: not found)."""
    found = idx._edit_around(idx._db, str(mem), new, digest, bom)
    return None if found is None else new[: found[1].at] + found[1].old_mid + new[found[1].new_end :]


@pytest.mark.parametrize("where", [1, 2, 150, 299, 300])
def test_the_old_text_is_put_back_from_the_rows_an_edit_changed(tmp_path: Path, where: int) -> None:
    """After another program changed one entry (first, second, middle, last but one, last), the text the
    rows were made from is the new text with the changed rows put back: found by hashing a few rows."""
    prof = write_profile(tmp_path, 300)
    idx, mem, text, digest = _built(prof)
    try:
        ident = f"id: mem-{where:06d}\n"
        for new in (text.replace(ident, ident + "note: a longer line than before\n", 1),
                    text.replace(ident, "id: x\n", 1), text.replace(ident, "", 1),
                    text.replace(ident, ident + "---\nid: mem-999999\n---\nsplit in two\n\n---\n" + ident, 1)):
            assert new != text
            assert old_text(idx, mem, new, digest, False) == text
        # an edit that keeps the length: left to reading every row
        same_length = text.replace(ident, ident.replace("mem-", "mex-"), 1)
        assert old_text(idx, mem, same_length, digest, False) is None
        # not the indexed bytes: never a wrong text
        assert old_text(idx, mem, text.replace(ident, "", 1), "0" * 40, False) is None
        assert old_text(idx, mem, text.replace(ident, "", 1), digest, True) is None
    finally:
        idx.close()


def test_edits_in_several_places_are_put_back_or_read_whole(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, 300)
    idx, mem, text, digest = _built(prof)
    try:
        new = text.replace("id: mem-000010\n", "id: mem-000010\nnote: a\n", 1).replace(
            "id: mem-000250\n", "id: mem-000250\nnote: b\n", 1)
        # rows between the edits moved by the first one only: both are inside the region put back
        assert old_text(idx, mem, new, digest, False) == text
        far = new.replace("id: mem-000100\n", "id: mem-000100\nnote: c\n", 1).replace(
            "id: mem-000150\n", "id: mem-000150\n", 1).replace("source: chat#1200", "source: chat#120", 1)
        assert old_text(idx, mem, far, digest, False) in (None, text)
        mem.write_text(new, encoding="utf-8")
        stats = idx.refresh(roots_of(prof))
        assert (stats.inserted, stats.deleted) == (2, 2)  # still only what changed (every row read back)
        assert_same_as_a_fresh_build(idx, prof, mem)
    finally:
        idx.close()


@pytest.mark.parametrize("edit", ["longer", "same length", "shorter"])
def test_an_external_edit_reindexes_around_it_and_equals_a_fresh_build(tmp_path: Path, edit: str) -> None:
    prof = write_profile(tmp_path, 300)
    idx, mem, text, _digest = _built(prof)
    try:
        ident = "id: mem-000123\n"
        new = text.replace(ident, {"longer": ident + "note: changed\n", "same length": "id: mem-00012x\n",
                                   "shorter": "id: m123\n"}[edit], 1)
        mem.write_bytes(new.encode("utf-8"))
        stats = idx.refresh(roots_of(prof))
        assert (stats.reindexed, stats.inserted, stats.deleted) == (1, 1, 1)
        assert_same_as_a_fresh_build(idx, prof, mem)
    finally:
        idx.close()


@pytest.mark.parametrize(("bom", "newline"), [(True, "\n"), (False, "\r\n"), (True, "\r\n")])
def test_the_old_text_is_put_back_for_a_bom_and_crlf(tmp_path: Path, bom: bool, newline: str) -> None:
    prof = write_profile(tmp_path, 120)
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8").replace("\n", newline)
    mem.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    idx, mem, _text, digest = _built(prof)
    try:
        ident = f"id: mem-000060{newline}"
        new = text.replace(ident, ident + f"note: changed{newline}", 1)
        assert old_text(idx, mem, new, digest, bom) == text
        mem.write_bytes((b"\xef\xbb\xbf" if bom else b"") + new.encode("utf-8"))
        stats = idx.refresh(roots_of(prof))
        assert (stats.reindexed, stats.inserted, stats.deleted) == (1, 1, 1)
    finally:
        idx.close()


@pytest.mark.parametrize(("bom", "newline"), [(False, "\n"), (True, "\n"), (False, "\r\n")])
def test_the_edit_is_found_from_the_new_bytes_without_the_old_text(tmp_path: Path, bom: bool, newline: str) -> None:
    """A refresh hands the bytes it read to ``_edit_around``: they are hashed in place around the rows put
    back (Chinese text: bytes and characters differ), and only the indexed bytes' SHA-1 is accepted."""
    prof = write_profile(tmp_path, 200)
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8").replace("\n", newline)
    mark = b"\xef\xbb\xbf" if bom else b""
    mem.write_bytes(mark + text.encode("utf-8"))
    idx, mem, _text, digest = _built(prof)
    try:
        for where, added in ((1, "备注：咖啡"), (100, "note: 喝了两杯咖啡"), (199, "x" * 300), (120, "")):
            ident = f"id: mem-{where:06d}{newline}"
            new = text.replace(ident, ident + (f"note: {added}{newline}" if added else ""), 1) if added else \
                text.replace(ident, f"id: 改-{where}{newline}", 1)
            data = mark + new.encode("utf-8")
            found = idx._edit_around(idx._db, str(mem), new, digest, bom, data)
            assert found is not None
            old_len, edit = found
            assert old_len == len(text)
            assert new[: edit.at] + edit.old_mid + new[edit.new_end :] == text
            assert new[: edit.line] == text[: edit.line] and new[edit.z_new :] == text[edit.z_old :]
            assert edit.line <= edit.z_old and edit.line <= edit.z_new
            assert idx._edit_around(idx._db, str(mem), new, "0" * 40, bom, data) is None
            assert idx._edit_around(idx._db, str(mem), new, digest, not bom,
                                    (b"" if bom else b"\xef\xbb\xbf") + new.encode("utf-8")) is None
            assert idx._edit_around(idx._db, str(mem), new, digest, bom, data + b"\n") is None
        new = text.replace(f"id: mem-000150{newline}", f"id: mem-000150{newline}note: 茶{newline}", 1)
        mem.write_bytes(mark + new.encode("utf-8"))
        stats = idx.refresh(roots_of(prof))
        assert (stats.reindexed, stats.inserted, stats.deleted) == (1, 1, 1)
        assert_same_as_a_fresh_build(idx, prof, mem)
    finally:
        idx.close()


def test_a_refresh_after_an_edit_reads_no_row_text_but_the_edited_one(tmp_path: Path) -> None:
    """The refresh after another program's edit finds it from the rows around it: it never reads the text of
    every row (the slow way, kept for when the bytes do not match)."""
    prof = write_profile(tmp_path, 400)
    idx, mem, text, _digest = _built(prof)
    statements: list[str] = []
    try:
        mem.write_bytes(text.replace("id: mem-000200\n", "id: mem-000200\nnote: 咖啡\n", 1).encode("utf-8"))
        idx._db.set_trace_callback(statements.append)
        stats = idx.refresh(roots_of(prof))
        idx._db.set_trace_callback(None)
        assert (stats.reindexed, stats.inserted, stats.deleted) == (1, 1, 1)
        every_row = [s for s in statements if "JOIN texts" in s and "ORDER BY c.start" in s]
        assert every_row == []
        assert any("FROM texts WHERE rowid IN" in s for s in statements)  # the edited row's old text, read
        assert_same_as_a_fresh_build(idx, prof, mem)
    finally:
        idx.close()


def _journal(db_path: Path) -> str:
    import sqlite3

    db = sqlite3.connect(str(db_path))
    try:
        return str(db.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        db.close()


def test_a_first_build_writes_no_wal_then_the_index_is_in_wal_mode(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The first build of a new database runs with a rollback journal (each page written once, not to the WAL
    and back); once it is committed the database is in WAL mode for readers beside a writer."""
    prof = write_profile(tmp_path / "p", 300)
    db_path = tmp_path / "cache" / "i.sqlite3"
    db_path.parent.mkdir()
    seen: list[bool] = []
    real = Index._insert

    def insert(self: Index, *args: object, **kwargs: object) -> list[int]:
        seen.append(Path(str(db_path) + "-wal").exists())
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Index, "_insert", insert)
    idx = Index(db_path)
    try:
        assert idx.refresh(roots_of(prof)).inserted >= 300
        assert seen and not any(seen)  # no WAL while the rows went in
        assert idx._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        mem = prof / "memories.md"
        mem.write_bytes(mem.read_bytes().replace(b"id: mem-000100\n", b"id: mem-000100\nnote: x\n", 1))
        assert idx.refresh(roots_of(prof)).reindexed == 1
        assert seen[-1]  # later writes: WAL mode
    finally:
        idx.close()
    assert _journal(db_path) == "wal"
    again = Index(db_path)
    try:
        assert again.opened_as is None
        assert (again.refresh(roots_of(prof)).reindexed, again.refresh(roots_of(prof)).inserted) == (0, 0)
    finally:
        again.close()


def test_a_new_index_opened_by_another_connection_before_its_build_stays_in_wal_mode(tmp_path: Path) -> None:
    """A second process may open the new database between its creation and the build: then the build runs in
    WAL mode, as before, and both see the rows."""
    prof = write_profile(tmp_path / "p", 120)
    db_path = tmp_path / "i.sqlite3"
    first = Index(db_path)
    second = Index(db_path)  # opened in WAL mode while the first has not built yet
    try:
        assert first.refresh(roots_of(prof)).inserted >= 120
        assert _journal(db_path) == "wal"
        stats = second.refresh(roots_of(prof))
        assert (stats.reindexed, stats.inserted) == (0, 0)  # the rows the first one built, seen
    finally:
        first.close()
        second.close()


def test_a_first_build_that_fails_leaves_an_empty_index_that_builds_next_time(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    prof = write_profile(tmp_path / "p", 200)
    db_path = tmp_path / "i.sqlite3"
    real = Index._insert

    def broken(self: Index, *args: object, **kwargs: object) -> list[int]:
        real(self, *args, **kwargs)  # type: ignore[arg-type]
        raise OSError("disk full")

    monkeypatch.setattr(Index, "_insert", broken)
    idx = Index(db_path)
    with pytest.raises(OSError):
        idx.refresh(roots_of(prof))
    assert idx._db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 0  # rolled back
    idx.close()
    monkeypatch.setattr(Index, "_insert", real)
    idx = Index(db_path)
    try:
        assert idx.refresh(roots_of(prof)).inserted >= 200
        assert idx._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        idx.close()


def _assert_blocks_hold_rows_in_order(idx: Index, mem: Path) -> None:
    """Each block's rows lie at or after its base and before the next block's: file order is (blk, rstart)."""
    key = str(mem)
    blocks = idx._db.execute("SELECT blk, off FROM blocks WHERE path = ? ORDER BY blk", (key,)).fetchall()
    assert blocks and blocks[0][1] == 0
    rows = idx._db.execute("SELECT c.blk, b.off + c.rstart FROM chunks c JOIN blocks b ON b.blk = c.blk"
                           " WHERE c.path = ? ORDER BY c.blk, c.rstart", (key,)).fetchall()
    assert [s for _b, s in rows] == sorted(s for _b, s in rows)
    assert idx._db.execute("SELECT count(*) FROM chunks WHERE path = ?", (key,)).fetchone()[0] == len(rows)
    bases = dict(blocks)
    following = {b: (blocks[i + 1][1] if i + 1 < len(blocks) else None) for i, (b, _o) in enumerate(blocks)}
    assert [o for _b, o in blocks] == sorted(o for _b, o in blocks)
    for blk, start in rows:
        nxt = following[blk]
        assert bases[blk] <= start and (nxt is None or start < nxt)


@pytest.mark.parametrize(("seed", "way"), [(0, "window"), (1, "window"), (2, "window"), (3, "window"),
                                           (4, "whole file"), (5, "whole file")])
def test_random_external_edits_over_small_blocks_equal_a_fresh_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      seed: int, way: str) -> None:
    """Places are kept per block (a few rows each here): entries added (some fenced, holding delimiters),
    removed, changed and moved across block bounds, at the start, the end and in the middle, one edit per
    refresh (re-indexed around the edit,
    or the whole file matched by hash); after each the rows are those of a fresh build, and each block
    holds its rows in file order."""
    import random

    monkeypatch.setattr(index_mod, "BLOCK_ROWS", 4)
    if way == "whole file":
        monkeypatch.setattr(Index, "_window_from_rows", lambda *_a, **_k: None)
    prof = write_profile(tmp_path, 60)
    idx, mem, _text, _digest = _built(prof)
    rng = random.Random(seed)
    try:
        _assert_blocks_hold_rows_in_order(idx, mem)
        for step in range(14):
            text = mem.read_text(encoding="utf-8")
            blocks = text.split("\n---\n")  # the preamble, then each entry's front matter and body alternately
            kind = rng.choice(["grow", "shrink", "drop", "add", "dup", "same", "end", "fence"])
            i = rng.randrange(1, len(blocks))
            if kind == "grow":
                blocks[i] += "\nnote: 多了一行 " + "x" * rng.randrange(1, 300)
            elif kind == "shrink":
                blocks[i] = blocks[i][: max(1, len(blocks[i]) // 2)]
            elif kind == "drop" and len(blocks) > 12:
                j = i if i % 2 else i - 1
                n = 2 * rng.randrange(1, 5)  # one to four entries, maybe a whole block of rows
                del blocks[max(1, j) : max(1, j) + n]
            elif kind == "add":
                j = i if i % 2 else i + 1
                blocks[j:j] = [f"id: new-{seed}-{step}\ntimestamp: 2026-05-0{1 + step % 9}\ntags: [work]",
                               f"新的记忆 {step}\n"]
            elif kind == "dup":
                j = i if i % 2 else i - 1
                blocks[max(1, j) : max(1, j)] = blocks[max(1, j) : max(1, j) + 2]
            elif kind == "fence":  # a fenced body that holds what looks like an entry's delimiters
                j = i if i % 2 else i + 1
                blocks[j:j] = [f"id: fence-{seed}-{step}\ntimestamp: 2026-05-03",
                               f"代码：\n```\nx\n---\nid: not-an-entry-{step}\n---\n```\nafter {step}\n"]
            elif kind == "same":
                blocks[i] = blocks[i].replace("user", "usex", 1)
            else:
                blocks.append(f"id: end-{step}\ntimestamp: 2026-05-02\n")
                blocks.append(f"appended {step}\n")
            new = "\n---\n".join(blocks)
            if new == text:
                continue
            mem.write_text(new, encoding="utf-8")
            idx.refresh(roots_of(prof))
            assert_same_as_a_fresh_build(idx, prof, mem)
            _assert_blocks_hold_rows_in_order(idx, mem)
            rows = idx.rows([r for (r,) in idx._db.execute("SELECT rowid FROM chunks WHERE path = ?", (str(mem),))])
            lines = new.split("\n")
            for row in rows.values():
                assert new[row.start : row.end] == row.raw
                assert lines[row.line - 1] == new[row.start :].split("\n", 1)[0]
    finally:
        idx.close()
