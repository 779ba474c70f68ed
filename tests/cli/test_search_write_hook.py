"""Writes through the safe path update the search indexes that cover the file, entry by entry, from the bytes
written; the result is the index a full build of the same files gives (rows compared field by field)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.safe_write import replace_all
from openclaw_tui.core.search.api import search_path
from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_cache import index_path_for, indexes_covering
from openclaw_tui.core.search.index_feed import index_writes
from openclaw_tui.core.search.index_files import roots_of
from tests.search_corpus import entry, write

COLUMNS = ("b.off + c.rstart, b.off + c.rend, c.body_off, b.line + c.rline, b.line + c.rend_line, c.ident, c.kind, c.day, c.hash, t.raw, c.tags, c.status,"
           " c.importance, c.sup_by, d.body")


@pytest.fixture(autouse=True)
def writes_feed_the_index() -> Iterator[None]:
    """As in the CLI with ``[search] index_on_write = true`` (a Session made by an earlier test of this process
    turned it off: the app's way)."""
    index_writes(True)
    yield
    index_writes(None)


def test_the_app_leaves_it_to_its_reload_worker(tmp_path: Path) -> None:
    from openclaw_tui.ui.session.controller import Session

    prof = profile(tmp_path)
    db = indexed(prof)
    Session(prof, watch=False)
    mem = prof / "memories.md"
    before = rows_of(db, mem)
    edit(mem, mem.read_text(encoding="utf-8").replace(body_of(2), "not indexed by the write itself"))
    assert rows_of(db, mem) == before


def body_of(i: int) -> str:
    return f"Entry {i} about {'coffee' if i % 3 else 'tea'} 用户{i}号。"


def profile(tmp_path: Path, n: int = 30) -> Path:
    p = tmp_path / "profiles" / "bob"
    text = "# bob\n\nSome preamble.\n\n" + "".join(
        entry(f"mem-{i:04d}", body_of(i), timestamp=f"2026-05-{1 + i % 28:02d}", tags=f"[t{i % 4}]")
        for i in range(n))
    write(p / "memories.md", text)
    write(p / "identity.md", "# bob\n")
    return p


def rows_of(db_path: Path, key: Path) -> list[tuple[object, ...]]:
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute(f"SELECT {COLUMNS} FROM chunks c JOIN blocks b ON b.blk = c.blk"
                          " JOIN docs d ON d.rowid = c.rowid JOIN texts t ON t.rowid = c.rowid WHERE c.path = ?"
                          " ORDER BY c.blk, c.rstart", (str(key),)).fetchall()
        tags = db.execute("SELECT tag, n FROM tagnames WHERE path = ? ORDER BY tag", (str(key),)).fetchall()
    finally:
        db.close()
    return [*rows, ("tags", *tags)]


def fresh_rows(folder: Path, key: Path, cache: Path) -> list[tuple[object, ...]]:
    idx = Index(cache / "fresh.sqlite3")
    idx.refresh(roots_of(folder))
    idx.close()
    return rows_of(cache / "fresh.sqlite3", key)


def indexed(folder: Path) -> Path:
    idx = Index.for_folder(folder)
    idx.refresh(roots_of(folder))
    idx.close()
    return index_path_for(folder)


def edit(path: Path, new: str) -> None:
    before = path.read_bytes()
    replace_all([(path, before, new.encode())])


def test_a_write_updates_the_index_entry_by_entry(tmp_path: Path) -> None:
    prof = profile(tmp_path)
    root = tmp_path / "profiles"
    db = indexed(root)
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8")
    edit(mem, text.replace(body_of(12), "Entry twelve now mentions 抹茶 matcha."))
    assert rows_of(db, mem) == fresh_rows(root, mem, tmp_path)
    # the next search reads nothing more than the file's hash (racy mtime) and re-indexes nothing
    idx = Index.for_folder(root)
    stats = idx.refresh(roots_of(root))
    idx.close()
    assert stats.reindexed == 0 and stats.inserted == 0
    results, _ = search_path(root, "matcha")
    assert [h.id for h in results.hits] == ["mem-0012"]


EDITS = st.lists(st.tuples(st.sampled_from(["replace", "delete", "insert", "append", "retag", "break", "first"]),
                           st.integers(0, 29)), min_size=1, max_size=4)


@settings(max_examples=25, deadline=None)
@given(edits=EDITS, external=st.booleans())
def test_any_edit_leaves_the_index_a_full_build_would_give(tmp_path_factory: pytest.TempPathFactory,
                                                           edits: list[tuple[str, int]], external: bool) -> None:
    """Through the write path (the hook), or by another program (the next refresh re-reads the changed entries)."""
    tmp_path = tmp_path_factory.mktemp("w")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    prof = profile(tmp_path)
    db = indexed(prof)
    mem = prof / "memories.md"
    for kind, i in edits:
        text = mem.read_text(encoding="utf-8")
        block = entry(f"mem-{i:04d}", body_of(i), timestamp=f"2026-05-{1 + i % 28:02d}", tags=f"[t{i % 4}]")
        if block not in text:
            continue
        if kind == "replace":
            new = text.replace(body_of(i), f"changed {i}\nover two lines")
        elif kind == "delete":
            new = text.replace(block, "")
        elif kind == "insert":
            new = text.replace(block, block + entry(f"new-{i}", "inserted 新的", tags="[n]"))
        elif kind == "append":
            new = text + entry(f"end-{i}", "appended")
        elif kind == "retag":
            new = text.replace(block, block.replace(f"[t{i % 4}]", "[x, y]"))
        elif kind == "break":
            new = text.replace(block, block.replace("---\n" + body_of(i), "--\n" + body_of(i)))
        else:
            new = text.replace("Some preamble.", "Another preamble, longer.")
        if new == text:
            continue
        if external:
            mem.write_text(new, encoding="utf-8")
            idx = Index.for_folder(prof)
            stats = idx.refresh(roots_of(prof))
            idx.close()
            assert stats.reindexed == 1
        else:
            edit(mem, new)
        assert rows_of(db, mem) == fresh_rows(prof, mem, tmp_path), kind
        (tmp_path / "fresh.sqlite3").unlink()


def set_body(prof: Path, text: str, env: dict[str, str] | None = None) -> None:
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "set", str(prof), "mem-0007", "--body-file", "-"],
                         input=text, capture_output=True, text=True, check=False, env=env)
    assert out.returncode == 0, out.stderr


def test_by_default_a_cli_write_leaves_the_index_to_the_next_search(tmp_path: Path) -> None:
    prof = profile(tmp_path)
    db = indexed(prof)
    mem = prof / "memories.md"
    before = rows_of(db, mem)
    set_body(prof, "Now about oolong 乌龙。\n")
    assert rows_of(db, mem) == before  # the write paid nothing for the index
    results, stats = search_path(prof, "oolong")
    assert [h.id for h in results.hits] == ["mem-0007"] and stats.reindexed == 1
    assert rows_of(db, mem) == fresh_rows(prof, mem, tmp_path)


def test_the_cli_s_own_write_reaches_every_index_above_the_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[search]\nindex_on_write = true\n", encoding="utf-8")
    prof = profile(tmp_path)
    root = tmp_path / "profiles"
    db_root, db_prof = indexed(root), indexed(prof)
    assert set(indexes_covering(prof / "memories.md")) == {db_root, db_prof}
    set_body(prof, "Now about oolong 乌龙。\n", env=dict(os.environ, OPENCLAW_TUI_CONFIG=str(config)))
    for db in (db_root, db_prof):
        assert rows_of(db, prof / "memories.md") == fresh_rows(root if db == db_root else prof, prof / "memories.md",
                                                               tmp_path)
        (tmp_path / "fresh.sqlite3").unlink()
    assert not list(prof.rglob("*.sqlite3*"))  # the index is never inside the memory


@pytest.mark.parametrize("writer", ["python api", "mcp server"])
def test_the_api_s_and_the_mcp_server_s_writes_reach_the_index(tmp_path: Path, writer: str) -> None:
    """Each in a process of its own, as users run them, with ``[search] index_on_write = true``."""
    config = tmp_path / "config.toml"
    config.write_text("[search]\nindex_on_write = true\n", encoding="utf-8")
    prof = profile(tmp_path)
    db = indexed(prof)
    mem = prof / "memories.md"
    if writer == "python api":
        code = ("import sys; from openclaw_tui.api import Memory; "
                "Memory(sys.argv[1]).update('mem-0007', text='Now about oolong 乌龙。\\n')")
    else:
        code = ("import asyncio, sys; from openclaw_tui import mcp_server as m; "
                "s = m.build_server(m.Memory(sys.argv[1], None, allow_write=True, commit=False)); "
                "print(asyncio.run(s.call_tool('memory_archive', {'id': 'mem-0007'})))")
    out = subprocess.run([sys.executable, "-c", code, str(prof)], capture_output=True, text=True, check=False,
                         env=dict(os.environ, OPENCLAW_TUI_CONFIG=str(config)))
    assert out.returncode == 0, out.stderr
    assert rows_of(db, mem) == fresh_rows(prof, mem, tmp_path)
    idx = Index.for_folder(prof)
    stats = idx.refresh(roots_of(prof))
    idx.close()
    assert stats.reindexed == 0 and stats.inserted == 0


def test_an_index_behind_the_file_is_left_to_the_refresh(tmp_path: Path) -> None:
    prof = profile(tmp_path)
    db = indexed(prof)
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8")
    mem.write_text(text.replace(body_of(3), "outside edit"), encoding="utf-8")  # another program, not the hook
    edit(mem, mem.read_text(encoding="utf-8").replace(body_of(4), "our edit"))
    results, stats = search_path(prof, "outside")
    assert [h.id for h in results.hits] == ["mem-0003"] and stats.reindexed == 1
    assert rows_of(db, mem) == fresh_rows(prof, mem, tmp_path)


def test_a_broken_index_never_fails_a_write(tmp_path: Path) -> None:
    prof = profile(tmp_path)
    db = indexed(prof)
    db.write_bytes(b"not a database at all" * 100)
    mem = prof / "memories.md"
    new = mem.read_text(encoding="utf-8").replace(body_of(5), "written anyway")
    edit(mem, new)
    assert mem.read_text(encoding="utf-8") == new
    results, stats = search_path(prof, "anyway")
    assert [h.id for h in results.hits] == ["mem-0005"]


def test_another_program_s_edit_re_reads_only_the_entries_around_it(tmp_path: Path) -> None:
    prof = profile(tmp_path)
    indexed(prof)
    mem = prof / "memories.md"
    new = mem.read_text(encoding="utf-8").replace(body_of(20), "edited elsewhere")
    idx = Index.for_folder(prof)
    try:
        with idx._write() as db:  # the refresh's own step, on the stored rows: no parse of the whole file
            assert idx._window_from_rows(db, str(mem), new) == (1, 1)
            db.execute("ROLLBACK")
            db.execute("BEGIN")
            # rows that do not tile the file (a gap) are never trusted
            db.execute("DELETE FROM chunks WHERE path = ? AND ident = 'mem-0010'", (str(mem),))
            assert idx._window_from_rows(db, str(mem), new) is None
    finally:
        idx.close()


def test_a_write_never_waits_for_a_search_building_the_index(tmp_path: Path) -> None:
    import fcntl

    prof = profile(tmp_path)
    db = indexed(prof)
    mem = prof / "memories.md"
    fd = os.open(str(db) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process is writing the index (a first build takes seconds)
    try:
        before = rows_of(db, mem)
        # the writer does not queue behind the lock (flock: it would wait for this process forever)
        edit(mem, mem.read_text(encoding="utf-8").replace(body_of(6), "written while the index was busy"))
        assert rows_of(db, mem) == before  # left for the next refresh
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    results, stats = search_path(prof, "busy")
    assert [h.id for h in results.hits] == ["mem-0006"] and stats.reindexed == 1


@pytest.mark.parametrize("size", [90_000, 300_000])
def test_edits_between_big_entries_use_the_rows_beyond_the_near_window(tmp_path: Path, size: int) -> None:
    """Entries bigger than the window read near an edit: the far rows are looked up as before."""
    p = tmp_path / "big"
    write(p / "memories.md", "# big\n\n" + "".join(
        entry(f"mem-{i:04d}", f"entry {i} " + ("词" if i % 2 else "word ") * (size // 5)) for i in range(6)))
    db = indexed(p)
    mem = p / "memories.md"
    for i in (4, 2, 5):
        text = mem.read_text(encoding="utf-8")
        edit(mem, text.replace(f"entry {i} ", f"entry {i} edited ", 1))
        assert rows_of(db, mem) == fresh_rows(p, mem, tmp_path), i
        (tmp_path / "fresh.sqlite3").unlink()
