"""The persistent index: in the cache folder, incremental, rebuilt when outdated or corrupt, safe with two processes."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openclaw_tui.core.config import cache_dir
from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.search.api import SearchIndex, search_path
from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_cache import index_path_for
from openclaw_tui.core.search.index_files import roots_of
from openclaw_tui.core.search.reader import SCHEMA
from tests.search_corpus import MEMORIES, entry, make_profile, write


def fresh_results(folder: Path, query: str) -> list[dict[str, object]]:
    idx = SearchIndex.build(discover(folder).profiles)
    try:
        return [h.to_json() for h in idx.search(query, 20)]
    finally:
        idx.close()


def rowids(idx: Index, path: Path) -> dict[str, tuple[int, str]]:
    """The row of each entry: (rowid, text hash); a rowid freed by a deleted row may be reused for its day."""
    rows = idx._db.execute("SELECT ident, rowid, hash FROM chunks WHERE path = ? AND ident IS NOT NULL", (str(path),))
    return {ident: (rowid, h) for ident, rowid, h in rows.fetchall()}
    return dict(rows.fetchall())


def old_mtime(path: Path) -> None:
    """Step back the file's mtime so that the index trusts it (a fresh mtime is re-hashed: git's racy rule)."""
    t = time.time() - 60
    os.utime(path, (t, t))


def test_index_lives_in_the_cache_folder_and_is_reused(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    for f in p.rglob("*"):
        old_mtime(f)
    before = sorted(x.name for x in tmp_path.rglob("*"))
    res, stats = search_path(p, "美式")
    assert stats.rebuilt == "missing" and stats.read == stats.files == 8 and stats.reindexed == 8
    db = index_path_for(p)
    assert db.is_file() and db.is_relative_to(cache_dir()) and not db.is_relative_to(tmp_path)
    assert db.parent.stat().st_mode & 0o777 == 0o700  # it holds memory text
    assert sorted(x.name for x in tmp_path.rglob("*")) == before  # nothing written inside the memory folder
    res2, stats2 = search_path(p, "美式")
    assert (stats2.rebuilt, stats2.read, stats2.reindexed) == (None, 0, 0)  # current: no file read at all
    assert [h.to_json() for h in res2.hits] == [h.to_json() for h in res.hits]


def test_one_changed_entry_reindexes_that_entry_only(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    for f in p.rglob("*"):
        old_mtime(f)
    idx = Index.for_folder(p)
    roots = roots_of(p)
    idx.refresh(roots)
    mem = p / "memories.md"
    before = rowids(idx, mem)
    mem.write_text(MEMORIES.replace("不加糖！", "加一点糖！") + entry("mem-0011", "Zebra facts."), encoding="utf-8")
    old_mtime(mem)
    stats = idx.refresh(roots)
    assert (stats.read, stats.reindexed, stats.inserted, stats.deleted) == (1, 1, 2, 1)
    after = rowids(idx, mem)
    assert {k for k in after if after[k] != before.get(k)} == {"mem-0004", "mem-0011"}
    q = "加一点糖"
    assert [h.id for h in search_path(p, q, index=idx)[0].hits] == ["mem-0004"]
    for query in ("美式", "tea", "zebra", "咖啡"):
        assert [h.to_json() for h in search_path(p, query, 20, index=idx)[0].hits] == fresh_results(p, query)
    # an entry inserted at the top moves every other entry: none is re-indexed, their lines follow
    mem.write_text("# 记忆 / memories\n\n" + entry("mem-0012", "new first") + mem.read_text(encoding="utf-8").split("\n\n", 1)[1],
                   encoding="utf-8")
    old_mtime(mem)
    stats = idx.refresh(roots)
    assert (stats.inserted, stats.deleted) == (1, 0)
    assert [h.to_json() for h in search_path(p, "美式", 20, index=idx)[0].hits] == fresh_results(p, "美式")
    # files added, deleted and touched without a change
    old_mtime(write(p / "skills" / "new.md", "# New\n\nquokka facts\n"))
    (p / "contexts" / "2026-05-01_trip.md").unlink()
    soon = time.time() + 10
    os.utime(p / "identity.md", (soon, soon))  # touched, same bytes; and "just now" for the racy rule
    stats = idx.refresh(roots)
    assert (stats.read, stats.reindexed, stats.removed_files) == (2, 1, 1)  # new.md, identity.md (hashed: same)
    # a file modified "just now" keeps no mtime in the index: it is hashed again, never trusted on its mtime
    stats = idx.refresh(roots)
    assert (stats.read, stats.reindexed) == (1, 0)
    assert [h.file for h in search_path(p, "quokka", index=idx)[0].hits] == ["skills/new.md"]
    assert search_path(p, "pack", index=idx)[0].hits == []
    # the tag names (the agent context's vocabulary) follow the edits: a tag whose last entry changed is gone
    paths = [mem, p / "contexts" / "archive" / "memories.md"]
    assert "办公室" in idx.tag_names(paths)
    mem.write_text(mem.read_text(encoding="utf-8").replace("tags: [办公室]", "tags: [office]"), encoding="utf-8")
    idx.refresh(roots)
    fresh = SearchIndex.build(discover(p).profiles)
    assert idx.tag_names(paths) == fresh.index.tag_names(paths) and "office" in idx.tag_names(paths)
    assert "办公室" not in idx.tag_names(paths)
    idx.close()


def test_the_ui_fast_path_equals_a_fresh_build(tmp_path: Path) -> None:
    from openclaw_tui.core.format.edit import set_fields
    from openclaw_tui.core.format.entries import reparse

    p = make_profile(tmp_path)
    prof = discover(p).profiles[0]
    idx = SearchIndex.build([prof], Index.for_folder(p))
    assert prof.memories is not None
    mf = prof.memories.mf
    text = set_fields(mf, "mem-0001", {"tags": ["tea", "edited"]}) + entry("mem-0013", "Wombat 袋熊.")
    new_mf = reparse(mf, text)
    before = rowids(idx.index, p / "memories.md")
    idx.index.update_file(p / "memories.md", new_mf)
    after = rowids(idx.index, p / "memories.md")
    assert {k for k in after if after[k] != before.get(k)} == {"mem-0001", "mem-0013"}
    (p / "memories.md").write_text(text, encoding="utf-8")
    for q in ("edited", "袋熊", "美式", "tea"):
        assert [h.to_json() for h in idx.search(q, 20)] == fresh_results(p, q)
    paths = [p / "memories.md"]
    assert idx.index.tag_names(paths) == SearchIndex.build(discover(p).profiles).index.tag_names(paths)
    assert "edited" in idx.index.tag_names(paths)
    # a refresh in this process finds the rows current (only the places are written)
    stats = idx.index.refresh(roots_of(p))
    assert stats.reindexed == 0
    idx.close()
    # and another process (a new Index on the same file) sees the same
    res, stats = search_path(p, "美式", 20)
    assert stats.reindexed == 0 and [h.to_json() for h in res.hits] == fresh_results(p, "美式")


def test_an_older_schema_is_rebuilt(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    search_path(p, "tea")
    db = sqlite3.connect(index_path_for(p))
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA - 1),))
    db.commit()
    db.close()
    res, stats = search_path(p, "美式")
    assert stats.rebuilt == "outdated schema" and stats.reindexed == 8
    assert [h.id for h in res.hits][:1] == ["mem-0003"]
    # a database of something else entirely
    index_path_for(p).unlink()
    db = sqlite3.connect(index_path_for(p))
    db.execute("CREATE TABLE unrelated(x)")
    db.commit()
    db.close()
    assert search_path(p, "美式")[1].rebuilt == "outdated schema"


def test_a_corrupt_index_is_detected_and_replaced(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    search_path(p, "tea")
    path = index_path_for(p)
    for name in (str(path) + "-wal", str(path) + "-shm"):
        if os.path.exists(name):
            os.unlink(name)
    path.write_bytes(b"this is not a database" * 100)
    res, stats = search_path(p, "美式")
    assert stats.rebuilt == "corrupt" and [h.id for h in res.hits][:1] == ["mem-0003"]
    # damage inside a valid file: pages of the tables overwritten
    data = bytearray(path.read_bytes())
    for off in range(4096 * 2, len(data), 4096):
        data[off : off + 200] = os.urandom(200)
    path.write_bytes(bytes(data))
    for name in (str(path) + "-wal", str(path) + "-shm"):
        if os.path.exists(name):
            os.unlink(name)
    res, stats = search_path(p, "美式")
    assert stats.rebuilt == "corrupt" and [h.id for h in res.hits][:1] == ["mem-0003"]
    assert search_path(p, "美式")[1].rebuilt is None


def test_two_processes_at_once(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    for i in range(300):
        (p / "contexts" / f"2026-01-{i % 28 + 1:02d}_n{i}.md").write_text(f"# note {i}\n\nkoala {i} 考拉\n",
                                                                          encoding="utf-8")
    cmd = [sys.executable, "-m", "openclaw_tui.cli", "search", str(p), "考拉", "-n", "400", "--json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], [o[1] for o in outs]
    got = [json.loads(o[0])["results"] for o in outs]
    assert len(got[0]) == 300 and got[0] == got[1]
    # meanwhile a change, and two more at once: both see it
    (p / "contexts" / "2026-01-01_n0.md").write_text("# note 0\n\nwombat\n", encoding="utf-8")
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [proc.communicate(timeout=120) for proc in procs]
    assert [len(json.loads(o[0])["results"]) for o in outs] == [299, 299]
    idx = Index.for_folder(p)
    assert len(idx) == len(SearchIndex.build(discover(p).profiles))
    idx.close()


def test_an_unusable_cache_folder_means_an_index_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = make_profile(tmp_path)
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    res, stats = search_path(p, "美式")
    assert [h.id for h in res.hits][:1] == ["mem-0003"] and stats.rebuilt == "unusable cache folder: in memory"


def test_the_racy_window_is_the_file_systems_tick(tmp_path: Path) -> None:
    """A nanosecond mtime 0.5 s old is trusted (the next search reads nothing); a whole-second one 1 s old is not;
    and a file indexed within its tick is read again even when a second change kept its size and mtime."""
    p = make_profile(tmp_path)
    for f in p.rglob("*"):
        if f.is_file():
            old_mtime(f)
    idx = Index(tmp_path / "index.sqlite3")
    try:
        roots = roots_of(p)
        idx.refresh(roots)
        mem = p / "memories.md"
        now = time.time_ns()
        os.utime(mem, ns=(now - 500_000_000 + 123, now - 500_000_000 + 123))  # half a second ago, to the ns
        assert idx.refresh(roots).read == 1  # hashed once (same bytes) ...
        assert idx.refresh(roots).read == 0  # ... then trusted on its stat
        whole = (time.time_ns() // 1_000_000_000 - 1) * 1_000_000_000  # a coarse file system's mtime, 1-2 s ago
        os.utime(mem, ns=(whole, whole))
        assert idx.refresh(roots).read == 1
        assert idx.refresh(roots).read == 1  # within 2 s of a whole-second mtime: hashed again every time
        # the race itself: indexed just after a write, then changed again in the same tick (same size and mtime)
        text = mem.read_text(encoding="utf-8")
        # "now" by the file system's clock at the refresh: a second ahead of this clock, however late (under a
        # loaded CI) the refresh runs after the write, its mtime is still within the tick
        fresh = time.time_ns() + 1_000_000_000
        mem.write_text(text.replace("美式", "qzv111", 1), encoding="utf-8")  # 6 bytes each, as 美式
        os.utime(mem, ns=(fresh, fresh))
        idx.refresh(roots)
        mem.write_text(text.replace("美式", "qzv222", 1), encoding="utf-8")
        os.utime(mem, ns=(fresh, fresh))
        idx.refresh(roots)
        assert search_path(p, "qzv222", index=idx)[0].hits and not search_path(p, "qzv111", index=idx)[0].hits
    finally:
        idx.close()


def test_the_index_of_a_folder_that_is_gone_is_forgotten_when_another_is_made(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each index notes its folder; creating an index deletes those of folders no longer there (an index weighs
    up to ten times its memory), never one whose folder exists, nor one without a note (an older version's)."""
    import shutil

    from openclaw_tui.core.search.index_cache import FOLDER_NOTE, forget_gone_folders

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    a, b, c = (make_profile(tmp_path / name) for name in ("a", "b", "c"))
    for p in (a, b):
        idx = Index.for_folder(p)
        idx.refresh(roots_of(p))
        idx.close()
    db_a, db_b, db_c = (index_path_for(p) for p in (a, b, c))
    assert Path(str(db_a) + FOLDER_NOTE).read_text(encoding="utf-8") == os.path.realpath(a)
    for side in (".best", ".folders"):  # the caches kept beside it go with it (older versions)
        Path(str(db_a) + side).write_bytes(b"x")
    old = db_a.parent / "0123456789abcdef.sqlite3"  # made before notes existed
    old.write_bytes(b"")
    shutil.rmtree(tmp_path / "a")
    assert db_a.exists()  # nothing is deleted until an index is made
    Index.for_folder(c).close()
    assert not db_a.exists() and not Path(str(db_a) + FOLDER_NOTE).exists()
    assert not list(db_a.parent.glob(db_a.name + "*"))  # nor its -wal, -shm, .lock, .best, .folders
    assert db_b.exists() and db_c.exists() and old.exists()
    assert forget_gone_folders(db_a.parent) == []  # idempotent
    # a searched folder that comes back is indexed again (a new database, and a new note)
    a2 = make_profile(tmp_path / "a")
    idx = Index.for_folder(a2)
    try:
        assert idx.opened_as == "missing" and idx.refresh(roots_of(a2)).reindexed > 0
    finally:
        idx.close()
