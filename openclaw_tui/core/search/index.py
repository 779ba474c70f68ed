"""The persistent search index: SQLite FTS5 in the user's cache folder, updated file by file, entry by entry.

One database per searched folder, ``<cache>/search/<hash of the folder>.sqlite3``
(``config.cache_dir()``; never inside the memory folder), with a ``.folder`` note
beside it naming that folder: when a database is created, those of folders that no
longer exist are deleted (``forget_gone_folders``).  Tables:

- ``files``: every indexed file with its size, mtime and SHA-1 of its bytes.
  A file whose size and mtime are unchanged is not read again; a changed one
  is read and hashed, and only when the hash differs is it cut into chunks.
  (A file changed within a tick of its file system's clock of being indexed
  keeps no mtime, so a second change in the same tick is still seen: git's
  "racy" rule, ``_kept_mtime``.)
- ``chunks``: the pieces of each file (``text.memory_chunks`` /
  ``text_chunks``) with their places, entry id, date (for decay) and a hash
  of their text.  Re-indexing a file matches new chunks to old ones by that
  hash: only chunks whose text changed are deleted and inserted, so one
  changed entry re-indexes that entry.
  A chunk's rowid is ``(day << DAY_SHIFT) + n`` (day 0: undated), so the ranking's
  BM25 × decay over every match reads the day from the FTS table's rowid alone,
  and FTS5 can hand the matches over newest first and stop (``match_decayed``).
  Rows are inserted by rowid (``_insert``: FTS5 then flushes only when its pending
  terms fill up), in batches; ``chunks_path`` indexes them in file order (path, blk, rstart).
  Tags are kept case-folded for matching, then as written (``tags_as_written``).
- ``blocks``: a chunk's places (``rstart``, ``rend``, ``rline``, ``rend_line``) are kept relative to its
  block's base (``off``, ``line``): a file's rows are cut into blocks of ``BLOCK_ROWS`` in file order, each
  row of a block at or after its base and before the next block's (``_block_at``).  An edit re-indexes
  the entries around it into the block of the first one, and moves what follows by moving the bases of
  the blocks after it and the rows of that one block: a few hundred rows at 100k entries, where every row
  after the edit was rewritten (half the table, and as much again written to the WAL and back).  Places
  are read as ``_PLACES`` over ``_JOIN``.
- ``texts``: each chunk's text by rowid (apart, so that the rows an edit shifts stay narrow).
- ``docs``: the FTS5 table (rowid = chunk rowid) over the bigram-expanded text.
- ``vectors``: embeddings by chunk hash and provider model.
- ``best``: the best BM25 of every match of a query asked before (``_best_bm25``): a fresh
  ``search`` process repeating a query skips SQLite's bm25 pass over all its matches.  Every
  write transaction empties it (``_write``), so a value read is one of the index as it is.
  Since ``meta.written`` (a witness every write transaction renews) exists, the values are
  kept in a file beside the database instead (``<db>.best``, under that witness: ``_stored_best``),
  so that a search asking a new query writes nothing into the database.
- ``meta``: the schema version, and ``written``: a random witness renewed by every write transaction.  A database of another version, or one that
  SQLite cannot read (corrupt), is deleted and rebuilt, never trusted.

Concurrency: WAL mode and a busy timeout; every writer takes an exclusive
``fcntl.flock`` on ``<db>.lock`` so two processes never build at once (the
second waits, then finds the index current).  Readers need no lock.  A new
database's first write (its first build) runs with SQLite's rollback journal, then
it is put in WAL mode (``_to_wal``: into an empty file each page is written once).

Writes: ``note_written`` (called by ``safe_write.replace_all`` after the CLI wrote
files) and ``note_reloaded`` (the app's reload worker) update every index covering
the files, re-reading only the entries around the change (``apply_write``, ``_window``);
a file another program changed is re-indexed the same way from the stored rows when
they tile it (``_window_from_rows``: the rows the edit changed found by binary search,
the old text checked against the indexed bytes' SHA-1), else whole.

Reading: the queries are ``reader.Reader``'s (``Index`` is a ``Reader`` that also builds and updates).

For the UI, ``add_profile(profile)`` and ``update_file(path, content)`` take
already loaded text; a ``MemoryFile`` handed to ``update_file`` after a
reload re-indexes only the entries around the edit without reading the
whole file again (see ``_update_memory``).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import sqlite3
import sys
import time
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from stat import S_ISDIR, S_ISLNK, S_ISREG
from typing import TYPE_CHECKING

from ..format.places import ARCHIVE_REL, BOOTSTRAP_NAMES, inside, locate, present
from .reader import (
    _JOIN,
    _PLACES,
    Reader,
    _connect,
    _like,
    _schema_of,
    index_file_for,
    racy_window,
)
from .reader import BEST_FILE as BEST_FILE  # (the read side's names, where callers have always found them)
from .reader import DAY_SHIFT as DAY_SHIFT
from .reader import RACY_FINE_NS as RACY_FINE_NS
from .reader import RACY_NS as RACY_NS
from .reader import SCHEMA as SCHEMA
from .reader import Root as Root
from .reader import Row as Row
from .text import (
    Chunk,
    Query,
    clean,
    has_surrogates,
    index_text,
    indexed_rel,
    is_memory_rel,
    text_chunks,
    without_surrogates,
)

if TYPE_CHECKING:  # the parser is imported only when a file has to be (re-)indexed: a current index parses nothing
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any

    from ..files.profile import Profile
    from ..files.reload import ChangedRegion
    from ..files.store import MemoryDoc
    from ..format.entries import Entry, MemoryFile


def _parser() -> Any:
    from ..format import entries

    return entries

BLOCK_ROWS = 256  # rows per block of a file at a first build or a whole re-index (``_new_blocks``)
INSERT_BATCH = 2048  # rows inserted at once by ``_insert`` (its text made for them only)
# a daily log's name, also under memory/archive/ (dated by its name, so decay applies); compiled when indexed
_DAILY = r"memory/(?:archive/(?:[^/]+/)*)?(\d{4}-\d{2}-\d{2})(?:[-_][^/]*)?\.md"

# a file's rows in file order, (blk, rstart), their places read from the index alone (``_edit_around``, ``_window``)
_PLACES_INDEX = "CREATE INDEX chunks_path ON chunks(path, blk, rstart)"
_SCHEMA_SQL = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE profiles(path TEXT PRIMARY KEY, name TEXT, rel TEXT, layout TEXT, ord INTEGER);
CREATE TABLE files(path TEXT PRIMARY KEY, profile TEXT, rel TEXT, size INTEGER, mtime_ns INTEGER, hash TEXT);
CREATE TABLE chunks(rowid INTEGER PRIMARY KEY, path TEXT, rstart INTEGER, rend INTEGER, body_off INTEGER,
                    rline INTEGER, rend_line INTEGER, ident TEXT, kind TEXT, day INTEGER, hash TEXT, tags TEXT,
                    status TEXT, importance TEXT, sup_by TEXT, blk INTEGER);
CREATE TABLE blocks(blk INTEGER PRIMARY KEY, path TEXT, off INTEGER, line INTEGER);
CREATE INDEX blocks_path ON blocks(path, blk);
CREATE TABLE texts(rowid INTEGER PRIMARY KEY, raw TEXT);
""" + _PLACES_INDEX + """;
CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61 remove_diacritics 0');
CREATE TABLE vectors(hash TEXT, model TEXT, vec BLOB, PRIMARY KEY(hash, model)) WITHOUT ROWID;
CREATE TABLE tagnames(path TEXT, tag TEXT, n INTEGER, PRIMARY KEY(path, tag)) WITHOUT ROWID;
CREATE TABLE best(query TEXT PRIMARY KEY, value REAL) WITHOUT ROWID;
"""


@dataclass(slots=True)
class Stats:
    """What a refresh did."""

    files: int = 0
    read: int = 0
    reindexed: int = 0
    inserted: int = 0
    deleted: int = 0
    removed_files: int = 0
    rebuilt: str | None = None  # why the database was (re)created: "missing", "outdated schema", "corrupt"



def chunk_hash(raw: str) -> str:
    return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def index_path_for(folder: Path | str) -> Path:
    """The database file of a searched folder, in the user's cache folder."""
    return Path(index_file_for(folder))


FOLDER_NOTE = ".folder"  # beside each index: the searched folder's real path (``forget_gone_folders``)


def forget_gone_folders(search_dir: Path, keep: Path | None = None) -> list[Path]:
    """Delete the indexes of searched folders that no longer exist, as named by the note beside each one.

    An index weighs up to ten times its memory (~200 MB at 100k entries), and a folder searched once (a
    copy, a temporary checkout, a demo) would otherwise keep its index in the cache folder for good.
    ``Index.for_folder`` calls this when it creates a database.  An index with no note (made by an older
    version) is left alone; so is ``keep``.  Returns the indexes deleted.
    """
    gone: list[Path] = []
    for note in search_dir.glob(f"*.sqlite3{FOLDER_NOTE}"):
        db = Path(str(note)[: -len(FOLDER_NOTE)])
        try:
            folder = note.read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            continue
        if db == keep or not os.path.isabs(folder) or present(Path(folder)):  # unreadable just now: kept
            continue
        for suffix in ("", "-wal", "-shm", "-journal", ".lock", FOLDER_NOTE, BEST_FILE, ".folders"):  # (.folders: left by older versions)
            try:
                os.unlink(str(db) + suffix)
            except OSError:
                pass
        gone.append(db)
    return gone


def roots_of(path: Path | str) -> list[Root]:
    """The profiles under ``path`` as ``discover`` finds them, without reading their files (NotMemory)."""
    _kind, found = locate(path)
    return [Root(Path(folder).absolute().name, rel, Path(folder).absolute(), layout) for folder, rel, layout in found]


def _lstat_below(base: Path, rel: str) -> os.stat_result | None:
    """The ``lstat`` of ``base/rel`` when no part of ``rel`` is a symlink (nor missing): then it lies inside
    ``base`` as ``inside`` would say, without resolving both paths from ``/`` (``os.path.realpath``: an lstat
    per part of each), which made the freshness check of a fresh ``search`` a fifth of its query.  None: a
    link or something missing on the way (ask ``inside`` and pathlib, as before)."""
    path = str(base)
    st = None
    for part in rel.split("/"):
        path = f"{path}/{part}"
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            return None
        if S_ISLNK(st.st_mode):
            return None
    return st


def _walk_md(root: Path, folder: Path) -> Iterator[Path]:
    quick = _lstat_below(root, folder.relative_to(root).as_posix())
    if quick is None or not S_ISDIR(quick.st_mode):  # (a folder with no link on the way: inside)
        try:
            if not folder.is_dir() or not inside(root, folder):
                return
        except OSError:
            return
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                yield Path(dirpath) / name


def files_of(root: Root) -> list[tuple[str, Path]]:
    """(rel, path) of every file of a profile that belongs in the index."""
    base = root.path
    if root.layout == "openclaw":
        names: list[Path] = [base / n for n in (*BOOTSTRAP_NAMES, "DREAMS.md")]
        candidates = names + list(_walk_md(base, base / "memory"))
    else:
        candidates = [base / "memories.md", base / ARCHIVE_REL, base / "identity.md", base / "state.yaml"]
        candidates += [p for p in _walk_md(base, base / "contexts") if p != base / ARCHIVE_REL]
        candidates += list(_walk_md(base, base / "skills"))
    out: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for p in candidates:
        rel = p.relative_to(base).as_posix()
        if rel in seen or not indexed_rel(root.layout, rel):
            continue
        seen.add(rel)
        quick = _lstat_below(base, rel)
        if quick is not None:  # there, inside, no link on the way: a file when a regular one
            wanted = S_ISREG(quick.st_mode)
        else:
            try:
                wanted = (p.exists() or p.is_symlink()) and inside(base, p) and p.is_file()
            except OSError:  # cannot be looked at (a folder above is unreadable): the check reports it, search skips it
                continue
        if wanted:
            out.append((rel, p))
    return out


def _day_of_rel(rel: str) -> int | None:
    from ..format.fields import parse_date

    m = re.fullmatch(_DAILY, rel)
    if m is None:
        return None
    d = parse_date(m.group(1))
    return d.toordinal() if d is not None else None


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    body_start: int
    line: int
    end_line: int
    id: str | None
    kind: str
    day: int | None
    tags: str | None = None  # "|a|b|" (case-folded, then as written when not so: ``tags_as_written``)
    meta: tuple[str | None, str | None, str | None] = (None, None, None)  # status, importance, superseded_by
    entry: Entry | None = None  # read for day, tags and meta only when the piece is inserted

    def fill(self) -> None:
        e = self.entry
        if e is not None:
            self.day, self.tags, self.meta = _entry_fields(e)
            self.entry = None  # the last reference to a first build's entry (``Index._index_new``)


_intern = sys.intern


def _entry_fields(e: Entry) -> tuple[int | None, str | None, tuple[str | None, str | None, str | None]]:
    """(day, tags "|a|b|", (status, importance, superseded_by)) of an entry, its fields read once and not
    kept on it (``peek_meta``): a first build of 1M entries would otherwise keep 1M dicts (~1.5 GB)."""
    from ..format.fields import parse_date

    if e.error is not None:
        return None, None, (None, None, None)
    meta = e.peek_meta()
    d = parse_date(meta.get("timestamp"))
    value = meta.get("tags")
    named = [str(v) for v in value if v is not None] if isinstance(value, list) else (
        [value] if isinstance(value, str) else [])
    kept = [t for t in named if t and "|" not in t]
    tags = [t.casefold() for t in kept]
    key = "|" + "|".join(tags) + "|" if tags else None
    if key is not None and kept != tags:  # the names as written follow the case-folded ones (``tags_as_written``)
        key += "|" + "|".join(kept) + "|"
    status, imp, by = meta.get("status"), meta.get("importance"), meta.get("superseded_by")
    # a few values repeated by every entry: one string each (1M entries' copies weigh ~100 MB)
    return (d.toordinal() if d is not None else None, key,
            (_intern(status) if isinstance(status, str) else "active", _intern(imp) if isinstance(imp, str) else None,
             by if isinstance(by, str) else None))


def tags_as_written(tags: str | None) -> tuple[str, ...]:
    """An entry's tags as its file writes them, from the index's ``chunks.tags``.

    That column is ``"|a|b|"``, the names case-folded (what a tag filter's ``LIKE`` matches), followed,
    when a name is written otherwise, by the names as written: ``"|work|coffee||Work|coffee|"``.
    """
    if not tags:
        return ()
    folded, _sep, written = tags.partition("||")
    return tuple(filter(None, (written or folded).split("|")))


class _Edit:
    """An edit found from the stored rows (``Index._edit_around``): the new text's ``[at, new_end)`` replaced
    ``old_mid``; ``line``, ``z_old`` and ``z_new`` narrow it as ``reload.ChangedRegion`` does (``_window``)."""

    __slots__ = ("at", "new_end", "old_mid", "line", "z_old", "z_new")

    def __init__(self, text: str, at: int, old_mid: str, new_end: int) -> None:
        new_mid = text[at:new_end]  # a few entries: compared character by character (``files.reload`` not imported)
        most = min(len(old_mid), len(new_mid))
        same = 0
        while same < most and old_mid[same] == new_mid[same]:
            same += 1
        tail = 0
        while tail < most - same and old_mid[-1 - tail] == new_mid[-1 - tail]:
            tail += 1
        self.at, self.new_end, self.old_mid = at, new_end, old_mid
        self.line = text.rfind("\n", 0, at + same) + 1
        self.z_old = at + len(old_mid) - tail
        self.z_new = new_end - tail


def _digest_around_is(text: str, data: bytes | None, bom: bool, edit: _Edit, digest: str) -> bool:
    """The bytes of ``text`` with ``edit.old_mid`` put back in place have the SHA-1 ``digest``.

    ``data``: the bytes ``text`` was decoded from (a BOM first when ``bom``), hashed in place around the edit;
    only the shorter side of the edit is encoded (to know where the edit lies in the bytes), and the old
    text is never put together.
    """
    import hashlib

    mark = b"\xef\xbb\xbf" if bom else b""
    try:
        if data is None:
            data = mark + text.encode("utf-8")
        elif data.startswith(b"\xef\xbb\xbf") != bom:
            return False
        size = len(data) - len(mark)
        mid = len(text[edit.at : edit.new_end].encode("utf-8"))
        if edit.at <= len(text) - edit.new_end:
            head = len(text[: edit.at].encode("utf-8"))
            tail = size - head - mid
        else:
            tail = len(text[edit.new_end :].encode("utf-8"))
            head = size - tail - mid
        old_mid = edit.old_mid.encode("utf-8")
    except UnicodeEncodeError:
        return False
    if head < 0 or tail < 0:
        return False
    view = memoryview(data)
    h = hashlib.sha1(view[: len(mark) + head])
    h.update(old_mid)
    h.update(view[len(data) - tail :])
    return h.hexdigest() == digest


def _last_line(text: str, start: int, end: int, line: int) -> int:
    return line + text[start:end].rstrip(" \t\r\n").count("\n")


def _memory_pieces(mf: MemoryFile, entries: Sequence[Entry] | None = None, preamble: bool = True) -> list[_Piece]:
    text = mf.text
    out: list[_Piece] = []
    if preamble and mf.preamble.strip():
        out.append(_Piece(0, mf.preamble_end, 0, 1, _last_line(text, 0, mf.preamble_end, 1), None, "preamble", None))
    for e in mf.entries if entries is None else entries:
        out.append(_Piece(e.start, e.end, e.body_start, e.line, max(e.line, _last_line(text, e.start, e.end, e.line)),
                          e.id, "malformed" if e.error is not None else "entry", None,
                          entry=e if e.error is None else None))
    return out


def _pieces(rel: str, content: str | MemoryFile) -> tuple[str, list[_Piece], MemoryFile | None]:
    if is_memory_rel(rel):
        mf = _parser().parse(content) if isinstance(content, str) else content
        return mf.text, _memory_pieces(mf), mf
    text = content if isinstance(content, str) else content.text
    day = _day_of_rel(rel)
    chunks: Iterable[Chunk] = text_chunks(text, yaml=rel.endswith((".yaml", ".yml")))
    return text, [_Piece(c.start, c.end, c.body_start, c.line, c.end_line, c.id, c.kind, day) for c in chunks], None


class _Doc:
    """A chunk of a file held in memory (the UI's fast path): its rowid and place."""

    __slots__ = ("rowid", "start", "end", "body_start", "line", "end_line", "id", "kind")

    def __init__(self, rowid: int, p: _Piece) -> None:
        self.rowid = rowid
        self.start, self.end, self.body_start = p.start, p.end, p.body_start
        self.line, self.end_line, self.id, self.kind = p.line, p.end_line, p.id, p.kind


_START = attrgetter("start")
_END = attrgetter("end")


class _Held:
    """A file whose text the index holds (given by the UI), for re-indexing around an edit."""

    __slots__ = ("text", "docs", "preamble_end", "memory", "dirty")

    def __init__(self, text: str, docs: list[_Doc], preamble_end: int, memory: bool) -> None:
        self.text = text
        self.docs = docs
        self.preamble_end = preamble_end
        self.memory = memory
        self.dirty = False  # the places of some rows in the database are behind ``docs``


def _kept_mtime(mtime_ns: int, read_at_ns: int) -> int:
    """The mtime to record for a file read at ``read_at_ns``, or -1 when a change within the same tick of its
    file system's clock could leave it as it is (git's "racy" rule): such a file is hashed again next time.

    The window is the clock's tick: 2 s for an mtime that has no part below the millisecond (a coarse file
    system: a change one second later may keep it), 25 ms for a nanosecond one (the kernel stamps files
    with its coarse clock, 1-10 ms a tick; ``now`` is taken before the file is read).  A search right after an edit then trusts the stat of a file written
    a fraction of a second ago instead of reading and hashing all of it again.
    """
    return mtime_ns if mtime_ns < read_at_ns - racy_window(mtime_ns) else -1


def _block_at(db: sqlite3.Connection | sqlite3.Cursor, key: str, x: int) -> tuple[int, int, int] | None:
    """(blk, off, line) of the block of a file whose rows hold place ``x``: the last one based at or before it.

    A file's blocks, in ``blk`` order, hold its rows in file order, each row of a block at or after the
    block's ``off`` and before the next block's: places are ``off`` + the row's ``rstart`` (lines alike).
    """
    found: tuple[int, int, int] | None = db.execute(
        "SELECT blk, off, line FROM blocks WHERE path = ? AND off <= ? ORDER BY blk DESC LIMIT 1", (key, x)).fetchone()
    return found


def _new_blocks(db: sqlite3.Connection, key: str, starts: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Cut a file's rows (``(start, line)`` each, in file order: every row of the file) into blocks of
    ``BLOCK_ROWS``, replacing its blocks; returns (blk, off, line) of each row's block.  The first block is
    based at 0 (a row put before every other one later still has a block)."""
    (top,) = db.execute("SELECT coalesce(max(blk), 0) FROM blocks").fetchone()  # (ids never reused)
    db.execute("DELETE FROM blocks WHERE path = ?", (key,))
    made: list[tuple[int, int, int]] = []
    out: list[tuple[int, int, int]] = []
    for i in range(0, len(starts), BLOCK_ROWS):
        top += 1
        block = (top, 0, 0) if i == 0 else (top, starts[i][0], starts[i][1])
        made.append(block)
        out += [block] * len(starts[i : i + BLOCK_ROWS])
    if not made:
        top += 1
        made.append((top, 0, 0))
    db.executemany("INSERT INTO blocks VALUES (?, ?, ?, ?)", [(b, key, off, line) for b, off, line in made])
    return out


def _rows_in(db: sqlite3.Connection, key: str, lo: int, hi: int, columns: str) -> list[Any]:
    """``columns`` (over ``_JOIN``; first ``b.off + c.rstart``) of a file's rows whose place starts in
    [lo, hi), in file order: only the blocks that can hold them are read."""
    first, last = _block_at(db, key, lo), _block_at(db, key, hi - 1)
    if last is None:
        return []
    return db.execute(f"SELECT {columns} FROM {_JOIN} WHERE c.path = ? AND c.blk >= ? AND c.blk <= ?"
                      " AND b.off + c.rstart >= ? AND b.off + c.rstart < ? ORDER BY c.blk, c.rstart",
                      (key, first[0] if first else 0, last[0], lo, hi)).fetchall()


class Index(Reader):
    """A search index over some profiles; ``path`` None keeps it in memory (nothing on disk).

    Its queries are ``Reader``'s; this adds opening (checked, rebuilt when outdated or corrupt), building
    and updating.  Paths come out as ``Path``.
    """

    make_path = Path
    path: Path | None

    def __init__(self, path: Path | None = None, *, wait: bool = True) -> None:
        self.path = path
        self.wait = wait  # False: a writer finding the index busy (another process building it) gives up (OSError)
        self.opened_as: str | None = None  # "missing", "outdated schema", "corrupt" when (re)created
        self._unjournaled = False  # a new database not yet in WAL mode: its first write is the build (``_write``)
        Reader.__init__(self, path, self._open())
        self._roots: dict[Path, Root] = {}

    @classmethod
    def for_folder(cls, folder: Path | str) -> Index:
        """The persistent index of a searched folder (created when missing).

        When the cache folder cannot be used (read-only, full), an index in memory
        is built instead: slower, never an error.
        """
        path = index_path_for(folder)
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # the index holds memory text: private
            index = cls(path)
        except (OSError, sqlite3.Error):
            index = cls(None)
            index.opened_as = "unusable cache folder: in memory"
            return index
        note = Path(str(path) + FOLDER_NOTE)
        try:
            if not note.exists():
                note.write_bytes(os.path.realpath(folder).encode("utf-8", "surrogateescape"))
            if index.opened_as is not None:  # a new database: a rare moment to forget the gone folders' ones
                forget_gone_folders(path.parent, keep=path)
        except OSError:
            pass  # a note not written: this index is simply never forgotten
        return index

    # -- opening, checking, replacing --

    @contextmanager
    def _file_lock(self) -> Iterator[None]:
        if self.path is None:
            yield
            return
        fd = os.open(str(self.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if self.wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _remove_files(self) -> None:
        assert self.path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.unlink(str(self.path) + suffix)
            except FileNotFoundError:
                pass

    def _open(self) -> sqlite3.Connection:
        with self._file_lock():
            why: str | None = None
            if self.path is not None and self.path.exists():
                try:
                    db = _connect(self.path)
                    version = _schema_of(db)
                    if version == SCHEMA:
                        db.execute("SELECT count(*) FROM files").fetchone()
                        return db
                    db.close()
                    why = "outdated schema" if version is not None else "missing"
                except sqlite3.DatabaseError:
                    why = "corrupt"
                self._remove_files()
            else:
                why = "missing"
            db = _connect(self.path, new=True)
            db.executescript("BEGIN;" + _SCHEMA_SQL + "COMMIT;")
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            self.opened_as = why
            self._unjournaled = self.path is not None
            return db

    def recover(self) -> None:
        """After SQLite reported the file damaged: replace it by an empty index (the caller refreshes)."""
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            if self.path is not None:
                with self._file_lock():
                    self._remove_files()
            self._held.clear()
            self._best_cache.clear()
            self._best_gen = None
            self._db = self._open()
            self.opened_as = "corrupt"

    def close(self) -> None:
        with self._lock:
            try:
                if any(h.dirty for h in self._held.values()):
                    self.flush()  # the places the UI's fast path kept in memory: the next process reads them
            except (OSError, sqlite3.Error):
                pass
            try:
                self._db.close()
            except sqlite3.Error:
                pass

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._file_lock():
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("DELETE FROM best")  # the index changes: the kept best BM25s may not hold
                # and so may those kept beside it (``_stored_best``): a new witness of the index as it is now
                db.execute("INSERT OR REPLACE INTO meta VALUES ('written', ?)", (os.urandom(12).hex(),))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            if self._unjournaled:
                self._to_wal(db)

    def _to_wal(self, db: sqlite3.Connection) -> None:
        """A new database's first write transaction (a first build) ran with SQLite's rollback journal: into a
        file that was empty, it writes each page once, where WAL mode writes it twice (to the WAL, then back
        at the checkpoint: 200 MB at 100k entries, which made the wall time of a first build grow faster than
        its CPU time).  Then WAL mode, for readers beside a writer.  Another process holding the new database
        open (between its creation and the build) keeps it in WAL mode from the start: then nothing changes.
        """
        self._unjournaled = False
        try:
            db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:  # busy: the next connection (``_connect``) sets it
            pass

    # -- profiles --

    def set_roots(self, roots: Sequence[Root]) -> None:
        """The profiles this index covers, in display order; files of others are dropped."""
        with self._write() as db:
            self._set_roots(db, roots)

    def _set_roots(self, db: sqlite3.Connection, roots: Sequence[Root]) -> int:
        keep = {str(r.path) for r in roots}
        dropped = 0
        for (old,) in db.execute("SELECT path FROM profiles").fetchall():
            if old not in keep:
                dropped += self._drop_profile(db, old)
        db.executemany("INSERT OR REPLACE INTO profiles VALUES (?, ?, ?, ?, ?)",
                       [(str(r.path), r.name, r.rel, r.layout, i) for i, r in enumerate(roots)])
        self._roots = {r.path: r for r in roots}
        return dropped

    def _drop_profile(self, db: sqlite3.Connection, path: str) -> int:
        files = [r[0] for r in db.execute("SELECT path FROM files WHERE profile = ?", (path,))]
        for f in files:
            self._drop_file(db, f)
        db.execute("DELETE FROM profiles WHERE path = ?", (path,))
        return len(files)

    def _drop_file(self, db: sqlite3.Connection, path: str) -> None:
        rowids = [(r[0],) for r in db.execute("SELECT rowid FROM chunks WHERE path = ?", (path,))]
        db.executemany("DELETE FROM docs WHERE rowid = ?", rowids)
        db.executemany("DELETE FROM texts WHERE rowid = ?", rowids)
        db.execute("DELETE FROM chunks WHERE path = ?", (path,))
        db.execute("DELETE FROM blocks WHERE path = ?", (path,))
        db.execute("DELETE FROM tagnames WHERE path = ?", (path,))
        db.execute("DELETE FROM files WHERE path = ?", (path,))
        self._held.pop(Path(path), None)

    def owner(self, path: Path) -> Root | None:
        best: Root | None = None
        for r in self.roots():
            if path.is_relative_to(r.path) and (best is None or len(r.path.parts) > len(best.path.parts)):
                best = r
        return best

    # -- refreshing from disk (the CLI, the search screen) --

    def refresh(self, roots: Sequence[Root]) -> Stats:
        """Bring the index up to date with the files on disk: only changed files are read, only changed chunks re-indexed."""
        stats = Stats(rebuilt=self.opened_as)
        self.opened_as = None
        for attempt in (1, 2):
            try:
                if self._current(roots, stats):
                    self._roots = {r.path: r for r in roots}
                    return stats  # nothing to write: no transaction, so closing checkpoints nothing
                with self._write() as db:
                    stats.removed_files += self._set_roots(db, roots)
                    self._refresh(db, roots, stats)
                return stats
            except sqlite3.DatabaseError as exc:
                if attempt == 2 or isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                self.recover()
                stats = Stats(rebuilt="corrupt")
        return stats

    def _current(self, roots: Sequence[Root], stats: Stats) -> bool:
        """True when the profiles and every file's size and mtime are as indexed (read only, no lock)."""
        if stats.rebuilt:
            return False
        with self._lock:
            db = self._db
            profiles = db.execute("SELECT path, name, rel, layout FROM profiles ORDER BY ord").fetchall()
            if profiles != [(str(r.path), r.name, r.rel, r.layout) for r in roots]:
                return False
            known = {p: (size, mtime, h) for p, size, mtime, h in
                     db.execute("SELECT path, size, mtime_ns, hash FROM files")}
        seen = 0
        for root in roots:
            for _rel, path in files_of(root):
                old = known.get(str(path))
                try:
                    st = path.stat()
                except OSError:
                    return False
                if old is None or old[2] is None or old[0] != st.st_size or old[1] != st.st_mtime_ns:
                    return False
                seen += 1
        stats.files = seen
        return seen == len(known)

    def _refresh(self, db: sqlite3.Connection, roots: Sequence[Root], stats: Stats) -> None:
        now = time.time_ns()
        for root in roots:
            known = {p: (size, mtime, h) for p, size, mtime, h in
                     db.execute("SELECT path, size, mtime_ns, hash FROM files WHERE profile = ?", (str(root.path),))}
            present: set[str] = set()
            for rel, path in files_of(root):
                key = str(path)
                present.add(key)
                stats.files += 1
                try:
                    st = path.stat()
                except OSError:
                    continue
                old = known.get(key)
                if old is not None and old[2] is not None and old[0] == st.st_size and old[1] == st.st_mtime_ns:
                    continue
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                stats.read += 1
                import hashlib  # OpenSSL's SHA-1 is the faster one on a big file; loaded only when a file changed

                digest = hashlib.sha1(data).hexdigest()
                mtime = _kept_mtime(st.st_mtime_ns, now)
                held = self._held.get(path)
                if old is not None and old[2] == digest:
                    db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (st.st_size, mtime, key))
                    continue
                text, _bom, utf8 = _parser().decode(data)
                if old is None:
                    del data  # (a first build at 1M entries: 200 MB not held while the text is indexed)
                if not utf8 and not is_memory_rel(rel):
                    self._drop_file(db, key)  # a text file that is not UTF-8 is not searched (as the check reports it)
                    continue
                if not utf8:
                    text = without_surrogates(text)  # the index holds valid UTF-8 only; offsets are kept
                if held is not None and held.text == text:
                    if held.dirty:
                        self._flush_held(db, key, held)
                elif (held is None and old is not None and is_memory_rel(rel)
                      and (counts := self._window_from_rows(db, key, text, old[2] if utf8 else None, _bom, data)) is not None):
                    stats.reindexed += 1  # another program changed entries: only those are read again
                    stats.inserted += counts[0]
                    stats.deleted += counts[1]
                elif old is None and held is None and (ins := self._index_new(db, rel, key, text)) is not None:
                    stats.reindexed += 1
                    stats.inserted += ins
                else:
                    _t, pieces, mf = _pieces(rel, text)
                    ins, dele = self._reindex(db, root, rel, path, text, pieces, mf, keep=held is not None)
                    stats.reindexed += 1
                    stats.inserted += ins
                    stats.deleted += dele
                db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)",
                           (key, str(root.path), rel, st.st_size, mtime, digest))
            for gone in set(known) - present:
                self._drop_file(db, gone)
                stats.removed_files += 1

    def _index_new(self, db: sqlite3.Connection, rel: str, key: str, text: str) -> int | None:
        """Index a file that has no rows yet (a first build): rows inserted, or None when it has some.

        Nothing is matched, so nothing is hashed first; the parse is not kept: each entry is let go once
        its fields are read (``_Piece.fill`` in ``_insert``), so a first build holds the pieces' few
        fields rather than every entry as parsed.
        """
        if db.execute("SELECT 1 FROM chunks WHERE path = ? LIMIT 1", (key,)).fetchone() is not None:
            return None
        if is_memory_rel(rel):
            mf = _parser().parse(text)
            pieces = _memory_pieces(mf)
            del mf  # the entries are now held by the pieces alone
        else:
            pieces = _pieces(rel, text)[1]
        return len(self._insert(db, key, text, pieces))

    def _flush_held(self, db: sqlite3.Connection, key: str, held: _Held) -> None:
        blocks = _new_blocks(db, key, [(d.start, d.line) for d in held.docs])
        db.executemany("UPDATE chunks SET blk = ?, rstart = ?, rend = ?, body_off = ?, rline = ?, rend_line = ?"
                       " WHERE rowid = ?", [(blk, d.start - off, d.end - off, d.body_start - d.start, d.line - bl,
                                             d.end_line - bl, d.rowid) for d, (blk, off, bl) in zip(held.docs, blocks,
                                                                                                     strict=True)])
        held.dirty = False

    def _reindex(self, db: sqlite3.Connection, root: Root, rel: str, path: Path, text: str, pieces: list[_Piece],
                 mf: MemoryFile | None, keep: bool) -> tuple[int, int]:
        """Re-index one file: chunks are matched to the stored ones by the hash of their text."""
        key = str(path)
        pool: dict[str, list[tuple[int, int, int, int, int, int]]] = {}
        for rowid, h, start, end, body_off, line, end_line in db.execute(
                f"SELECT c.rowid, c.hash, {_PLACES} FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk, c.rstart", (key,)):
            pool.setdefault(h, []).append((rowid, start, end, body_off, line, end_line))
        for lst in pool.values():
            lst.reverse()
        if not pool:  # a file indexed for the first time: nothing to match (``_insert`` hashes batch by batch)
            rowids_new = self._insert(db, key, text, pieces)
            if keep:
                self._held[path] = _Held(text, [_Doc(r, p) for r, p in zip(rowids_new, pieces, strict=True)],
                                         mf.preamble_end if mf else 0, mf is not None)
            return len(pieces), 0
        moved: list[tuple[int, int, int, int, int, int]] = []
        new: list[_Piece] = []
        hashes: list[str] = []
        kept: list[int] = []  # rowid, or 0 for a new piece
        for p in pieces:
            h = chunk_hash(text[p.start:p.end])
            olds = pool.get(h)
            if olds:
                rowid, start, end, body_off, line, end_line = olds.pop()
                if (start, end, body_off, line, end_line) != (p.start, p.end, p.body_start - p.start, p.line, p.end_line):
                    moved.append((p.start, p.end, p.body_start - p.start, p.line, p.end_line, rowid))
                kept.append(rowid)
            else:
                new.append(p)
                hashes.append(h)
                kept.append(0)
        self._delete_rows(db, key, [rowid for lst in pool.values() for rowid, *_ in lst])
        gone = [rowid for lst in pool.values() for rowid, *_ in lst]
        new_blocks: list[tuple[int, int, int]] | None = None  # no row moved: the new ones go where the gone ones were
        if moved:  # the file's blocks cut again, every kept row put into its block
            blocks = _new_blocks(db, key, [(p.start, p.line) for p in pieces])
            new_blocks = [b for b, r in zip(blocks, kept, strict=True) if not r]
            db.executemany(
                "UPDATE chunks SET blk = ?, rstart = ?, rend = ?, body_off = ?, rline = ?, rend_line = ? WHERE rowid = ?",
                [(blk, p.start - off, p.end - off, p.body_start - p.start, p.line - bl, p.end_line - bl, r)
                 for p, (blk, off, bl), r in zip(pieces, blocks, kept, strict=True) if r])
        rowids = iter(self._insert(db, key, text, new, hashes, new_blocks))
        if keep:
            full = [_Doc(r or next(rowids), p) for r, p in zip(kept, pieces, strict=True)]
            self._held[path] = _Held(text, full, mf.preamble_end if mf else 0, mf is not None)
        return len(new), len(gone)

    def _delete_rows(self, db: sqlite3.Connection, key: str, rowids: Sequence[int]) -> None:
        if not rowids:
            return
        tags: list[str | None] = []
        for i in range(0, len(rowids), 500):
            part = list(rowids[i : i + 500])
            tags += [t for (t,) in db.execute(
                f"SELECT tags FROM chunks WHERE rowid IN ({','.join('?' * len(part))})", part)]
        self._count_tags(db, key, tags, -1)
        db.executemany("DELETE FROM docs WHERE rowid = ?", [(r,) for r in rowids])
        db.executemany("DELETE FROM texts WHERE rowid = ?", [(r,) for r in rowids])
        db.executemany("DELETE FROM chunks WHERE rowid = ?", [(r,) for r in rowids])

    @staticmethod
    def _count_tags(db: sqlite3.Connection, key: str, tags: Iterable[str | None], sign: int) -> None:
        """Keep ``tagnames`` (tag -> entries carrying it, per file) in step with the rows."""
        counts: dict[str, int] = {}
        for t in tags:
            for name in tags_as_written(t):
                counts[name] = counts.get(name, 0) + sign
        if counts:
            db.executemany("INSERT INTO tagnames VALUES (?, ?, ?) ON CONFLICT(path, tag) DO UPDATE SET n = n + excluded.n",
                           [(key, name, n) for name, n in counts.items()])
            if sign < 0:
                db.execute("DELETE FROM tagnames WHERE path = ? AND n <= 0", (key,))

    def _insert(self, db: sqlite3.Connection, key: str, text: str, pieces: Sequence[_Piece],
                hashes: Sequence[str] | None = None, blocks: Sequence[tuple[int, int, int]] | None = None) -> list[int]:
        """Insert the pieces' rows; returns their rowids, in the order of ``pieces``.

        ``blocks``: (blk, off, line) of each piece's block; by default, a file with no rows yet is cut into
        new blocks (its pieces are all of it, in file order), else each piece goes to the block of its place.

        The rows go in by rowid, ``INSERT_BATCH`` at a time.  In rowid order, FTS5 flushes its pending
        terms only when they fill its hash table: a rowid lower than the one before makes it flush at
        once, and the file order of a memory's days (``DAY_SHIFT``) made a first build write ~one
        segment per few hundred entries, then merge them again and again (the time per entry grew with
        the size).  The tables' b-trees are appended to instead of written all over.  The text, the
        indexed text and the hash of a batch are made for that batch only (a first build at 1M entries
        held ~1 GB of them at once).
        """
        if not pieces:
            return []
        for p in pieces:
            p.fill()
        if blocks is None:
            if db.execute("SELECT 1 FROM chunks WHERE path = ? LIMIT 1", (key,)).fetchone() is None:
                blocks = _new_blocks(db, key, [(p.start, p.line) for p in pieces])
            else:
                blocks = [_block_at(db, key, p.start) or (0, 0, 0) for p in pieces]
        # rowids by day: (day << DAY_SHIFT) + the next number free in that day's block (0: undated)
        top: dict[int, int] = {}
        for day in {p.day or 0 for p in pieces}:
            base = day << DAY_SHIFT
            (top[day],) = db.execute("SELECT coalesce(max(rowid), ?) FROM chunks WHERE rowid >= ? AND rowid < ?",
                                     (base, base, base + (1 << DAY_SHIFT))).fetchone()
        ids: list[int] = []
        for p in pieces:
            day = p.day or 0
            rowid = top[day] = top[day] + 1
            ids.append(rowid)
        fix = has_surrogates(text[pieces[0].start:pieces[-1].end])
        order = sorted(range(len(pieces)), key=ids.__getitem__) if len(pieces) > 1 else [0]
        # by rowid is not file order: into an empty table (a first build), the index of places is made
        # once every row is in (one sort) rather than written all over as they come
        later = len(pieces) > INSERT_BATCH and db.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None
        if later:
            db.execute("DROP INDEX chunks_path")
            # FTS5 merges its segments as they come (4 of a level into one of the next): the deeper the
            # levels, the more often each term is written again.  A first build leaves them unmerged and
            # merges them all once at the end ('optimize'), then restores the defaults for later edits.
            db.execute("INSERT INTO docs(docs, rank) VALUES ('automerge', 0)")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('crisismerge', 1999)")
        tags: dict[str, int] = {}
        for at in range(0, len(order), INSERT_BATCH):
            rows: list[tuple[object, ...]] = []
            texts: list[tuple[int, str]] = []
            bodies: list[tuple[int, str]] = []
            for i in order[at : at + INSERT_BATCH]:
                p = pieces[i]
                rowid = ids[i]
                raw = text[p.start:p.end]
                h = hashes[i] if hashes is not None else chunk_hash(raw)
                stored = clean(raw) if fix else raw
                blk, off, bline = blocks[i]
                row: tuple[object, ...] = (rowid, key, p.start - off, p.end - off, p.body_start - p.start,
                                           p.line - bline, p.end_line - bline, p.id, p.kind, p.day, h, p.tags,
                                           *p.meta, blk)
                if fix:  # an id, a tag or a field read from invalid UTF-8 holds surrogates too
                    row = tuple(clean(v) if isinstance(v, str) else v for v in row)
                rows.append(row)
                texts.append((rowid, stored))
                bodies.append((rowid, index_text(stored)))
                stored_tags = row[11]  # (cleaned) as ``_delete_rows`` will read them back
                for name in tags_as_written(stored_tags if isinstance(stored_tags, str) else None):
                    tags[name] = tags.get(name, 0) + 1
            db.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT INTO texts VALUES (?, ?)", texts)
            db.executemany("INSERT INTO docs(rowid, body) VALUES (?, ?)", bodies)
        if later:
            db.execute(_PLACES_INDEX)
            db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('automerge', 4)")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('crisismerge', 16)")
        if tags:
            db.executemany("INSERT INTO tagnames VALUES (?, ?, ?) ON CONFLICT(path, tag) DO UPDATE SET n = n + excluded.n",
                           [(key, name, n) for name, n in tags.items()])
        return ids

    # -- content given by the caller (the UI) --

    def add_profile(self, profile: Profile) -> None:
        """Index every searchable file of an already loaded profile (appended to the covered profiles)."""
        root = Root(profile.name, profile.rel, Path(profile.path).absolute(), profile.layout)
        with self._write() as db:
            roots = [r for r in self.roots() if r.path != root.path] + [root]
            self._set_roots(db, roots)
            present: set[str] = set()
            for rel, path, content in _profile_contents(profile):
                path = Path(path).absolute()
                present.add(str(path))
                self._set_content(db, root, rel, path, content)
            for (old,) in db.execute("SELECT path FROM files WHERE profile = ?", (str(root.path),)).fetchall():
                if old not in present:
                    self._drop_file(db, old)

    def remove_profile(self, path: Path | str) -> None:
        path = Path(path).absolute()
        with self._write() as db:
            self._drop_profile(db, str(path))

    def update_file(self, path: Path | str, content: str | MemoryFile | None = None) -> bool:
        """Re-index one file after it changed (read from disk unless ``content`` is given).

        A file that is gone, unreadable or outside the indexed files is
        dropped.  Returns True when the file belongs to the index.
        """
        path = Path(path).absolute()
        owner = self.owner(path)
        if owner is None:
            return False
        rel = path.relative_to(owner.path).as_posix()
        if not indexed_rel(owner.layout, rel):
            return False
        if content is None:
            content = _read(owner, path, rel)
        with self._write() as db:
            if content is None:
                self._drop_file(db, str(path))
            else:
                self._set_content(db, owner, rel, path, content)
        return True

    def apply_write(self, path: Path | str, before: bytes | None, after: bytes | None, *,
                    catch_up: bool = False, parsed: Callable[[], MemoryFile] | None = None) -> bool:
        """Bring one file up to date with its new bytes ``after`` (``before``: what it held before).

        The write path (``note_written``) calls it while the writer still holds the file's lock, so the
        file on disk is ``after``.  Only the entries around the change are read (``_window``); the
        file's size, mtime and hash are recorded, so the next ``search`` finds the index current without
        reading it.  When the index is not current for ``before``: with ``catch_up`` (the app's watcher)
        the old text is put back together from the stored rows (``_window_from_rows``), else False (the
        next refresh reads the file as for any change).  ``parsed`` gives the file's parse when one is
        at hand (re-indexing a whole memory file then parses nothing).  False: not covered / left.
        """
        found = self._covering(Path(path))
        if found is None:
            return False
        owner, rel, key = found
        import hashlib

        with self._write() as db:
            if after is None:
                self._drop_file(db, key)
                return True
            row = db.execute("SELECT hash FROM files WHERE path = ?", (key,)).fetchone()
            digest = hashlib.sha1(after).hexdigest()
            st = os.stat(path)
            mtime = _kept_mtime(st.st_mtime_ns, time.time_ns())
            if row is not None and row[0] == digest:  # already indexed (the app's own write, fed twice)
                db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (st.st_size, mtime, key))
                return True
            current = row is not None and before is not None and row[0] == hashlib.sha1(before).hexdigest()
            if row is not None and not current and not catch_up:
                return False
            text, _bom, utf8 = _parser().decode(after)
            if not utf8:
                return False
            done = False
            if row is not None and is_memory_rel(rel):
                if current:
                    from ..files.reload import ChangedRegion

                    assert before is not None
                    old, _b, old_utf8 = _parser().decode(before)
                    done = old_utf8 and self._window(db, key, len(old), text, ChangedRegion(old, text)) is not None
                else:
                    done = self._window_from_rows(db, key, text, row[0], _bom) is not None
            if not done:
                content: str | MemoryFile = parsed() if parsed is not None and is_memory_rel(rel) else text
                _t, pieces, mf = _pieces(rel, content)
                self._reindex(db, owner, rel, Path(key), text, pieces, mf, keep=False)
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)",
                       (key, str(owner.path), rel, st.st_size, mtime, digest))
        return True

    def _window_from_rows(self, db: sqlite3.Connection, key: str, text: str, old_digest: str | None = None,
                          bom: bool = False, data: bytes | None = None) -> tuple[int, int] | None:
        """``_window`` for a file another program changed: its old text is put back together from the stored
        chunks, used only when they tile it exactly (each starts where the one before ended, from 0, each raw
        as long as its place): then it is the text those rows were cut from.  None: re-index it whole.

        With ``old_digest`` (the SHA-1 of the bytes the rows were made from, ``bom``: whether they began
        with one), the old text is first put together from the new one and the few rows an edit changed
        (``_edit_around``, ``data``: the new bytes when at hand): at 100k entries, reading every row's text
        took ~0.5 s, and putting the whole old text together ~0.2 s."""
        if old_digest is not None:
            found = self._edit_around(db, key, text, old_digest, bom, data)
            if found is not None:
                return self._window(db, key, found[0], text, found[1])
        parts: list[str] = []
        at = 0
        for start, end, raw in db.execute(
                f"SELECT b.off + c.rstart, b.off + c.rend, t.raw FROM {_JOIN} JOIN texts t ON t.rowid = c.rowid"
                " WHERE c.path = ? ORDER BY c.blk, c.rstart", (key,)):
            if start != at or len(raw) != end - start:
                return None
            parts.append(raw)
            at = end
        if not parts:
            return None
        from ..files.reload import ChangedRegion

        old = "".join(parts)
        return self._window(db, key, len(old), text, ChangedRegion(old, text))

    @classmethod
    def _old_text_around_edit(cls, db: sqlite3.Connection, key: str, text: str, old_digest: str, bom: bool
                              ) -> str | None:
        """The text a file held when its rows were made (``_edit_around``), put together (tests, diagnostics)."""
        found = cls._edit_around(db, key, text, old_digest, bom)
        if found is None:
            return None
        _old_len, edit = found
        return text[: edit.at] + edit.old_mid + text[edit.new_end :]

    @staticmethod
    def _edit_around(db: sqlite3.Connection, key: str, text: str, old_digest: str, bom: bool,
                     data: bytes | None = None) -> tuple[int, _Edit] | None:
        """Where an edit changed a file since its rows were made, from its new ``text`` and the rows it changed:
        (the old text's length, the edited region with the old text of it), never the whole old text.

        Two binary searches over the file's places (the index of places, a few rows read, O(log n)): the
        first row whose text at its place is no longer its hash, then the first of the rows after it that
        all hold their text shifted by the change of length: one edited region.  The old text is the new
        one with the rows in between put back.  It is returned only when its bytes are the ones indexed
        (SHA-1 ``old_digest``), so edits in several places, or rows that do not tile what changed, give None
        (the caller reads every row), never a wrong text.  Nor does an edit that keeps the length (the rows after it then look
        unchanged in place: comparing every row's hash in Python took longer than reading every row).
        The check hashes the new bytes (``data``, else ``text`` encoded) around the old rows' text, read in
        place: putting the whole old text together and encoding it took ~0.2 s of a 100k-entry file.
        """
        probe = db.cursor()

        def row_at(x: int) -> tuple[int, int, int] | None:
            """The row whose place begins at or before ``x`` (old offsets), the last such."""
            block = _block_at(probe, key, x)
            if block is None:
                return None
            found: tuple[int, int, int] | None = probe.execute(
                f"SELECT b.off + c.rstart, b.off + c.rend, c.rowid FROM {_JOIN} WHERE c.path = ? AND c.blk = ?"
                " AND c.rstart <= ? ORDER BY c.rstart DESC LIMIT 1", (key, block[0], x - block[1])).fetchone()
            if found is None:  # the block's rows all begin after x: the last row of the blocks before it
                found = probe.execute(f"SELECT b.off + c.rstart, b.off + c.rend, c.rowid FROM {_JOIN}"
                                      " WHERE c.path = ? AND c.blk < ? ORDER BY c.blk DESC, c.rstart DESC LIMIT 1",
                                      (key, block[0])).fetchone()
            return found

        def same(row: tuple[int, int, int], shift: int) -> bool:
            start, end, rowid = row
            if start + shift < 0 or end + shift > len(text):
                return False
            (h,) = probe.execute("SELECT hash FROM chunks WHERE rowid = ?", (rowid,)).fetchone()
            return bool(h == chunk_hash(text[start + shift : end + shift]))

        # the first row's start and the last one's end, from the index of places (``max(end)`` read all of it)
        first = db.execute(f"SELECT b.off + c.rstart FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk, c.rstart LIMIT 1",
                           (key,)).fetchone()
        last = db.execute(f"SELECT b.off + c.rend FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk DESC, c.rstart DESC"
                          " LIMIT 1", (key,)).fetchone()
        if first is None or last is None:
            return None
        (first_start,), (old_len,) = first, last  # the last row ends the old file (checked by the digest below)
        delta = len(text) - old_len
        if delta == 0:  # the rows after the edit hold their text in place too: no binary search finds it
            return None
        lo, hi = first_start, old_len  # the first changed row starts in [lo, hi]: rows ending by lo are unchanged
        while lo < hi:
            row = row_at((lo + hi) // 2)
            if row is None or row[1] <= lo:
                return None  # a gap in the rows: not a tiling
            if same(row, 0):
                lo = row[1]
            else:
                hi = row[0]
        at = lo
        lo, hi = at, old_len  # the rows from the first one starting at or after hi on hold their text shifted
        while lo < hi:
            row = row_at((lo + hi) // 2)
            if row is None or row[1] <= lo:
                return None
            if same(row, delta):
                hi = row[0]
            else:
                lo = row[1]
        end = lo
        if end <= at:  # text added between two rows (or at the end): every row holds its text
            if delta <= 0:
                return None
            old_mid = ""
            end = at
        else:
            changed = _rows_in(db, key, at, end, "b.off + c.rstart, b.off + c.rend, c.rowid")
            if (len(changed) > 500 or changed[0][0] != at or changed[-1][1] != end
                    or any(a[1] != b[0] for a, b in zip(changed, changed[1:], strict=False))):
                return None
            raws = dict(db.execute(f"SELECT rowid, raw FROM texts WHERE rowid IN ({','.join('?' * len(changed))})",
                                   [r for _s, _e, r in changed]).fetchall())
            if len(raws) != len(changed):
                return None
            old_mid = "".join(raws[r] for _s, _e, r in changed)
        edit = _Edit(text, at, old_mid, end + delta)
        if not _digest_around_is(text, data, bom, edit, old_digest):
            return None
        return old_len, edit

    def _covering(self, path: Path) -> tuple[Root, str, str] | None:
        """(profile, rel, key in ``files``) of a file this index covers, whatever way its path is spelled."""
        real = Path(os.path.realpath(path))
        best: tuple[Root, str, str] | None = None
        depth = -1
        for r in self.roots():
            base = Path(os.path.realpath(r.path))
            if real.is_relative_to(base) and len(base.parts) > depth:
                rel = real.relative_to(base).as_posix()
                best, depth = (r, rel, str(r.path / rel)), len(base.parts)
        if best is None or not indexed_rel(best[0].layout, best[1]):
            return None
        return best

    def _window(self, db: sqlite3.Connection, key: str, old_len: int, text: str, edit: ChangedRegion | _Edit
                ) -> tuple[int, int] | None:
        """Re-index the entries of a memory file around an ``edit`` from the text indexed (``old_len`` long) to ``text``.

        The blocks are re-read from the entry before the edited one (as ``entries.reparse_edit``) until
        the scan meets an entry start that did not move relative to the end; chunks whose text is
        unchanged keep their rows, the rows after the edit are shifted (by their blocks: ``blocks``).  Returns
        (inserted, deleted) rows,
        or None when it cannot (an edit in the preamble or the first entry, an unclosed fence): the caller
        re-indexes the whole file.
        """
        delta = edit.z_new - edit.z_old
        # one pass over the file's rows near the edit (each query by file reads all its rows): the two
        # entries before the edited line, up to 64 entry starts after it, and the rows in between
        lo, hi = max(0, edit.line - 65_536), edit.z_old + 262_144
        near = _rows_in(db, key, lo, hi, "b.off + c.rstart, b.line + c.rline, c.rowid, c.hash, c.kind")
        around = [(st, ln) for st, ln, _r, _h, kind in near if kind != "preamble" and st <= edit.line][-2:][::-1]
        if len(around) < 2 and lo > 0:
            at = _block_at(db, key, edit.line)
            around = [] if at is None else db.execute(
                f"SELECT b.off + c.rstart, b.line + c.rline FROM {_JOIN} WHERE c.path = ? AND c.kind != 'preamble'"
                " AND (c.blk < ? OR c.blk = ? AND c.rstart <= ?) ORDER BY c.blk DESC, c.rstart DESC LIMIT 2",
                (key, at[0], at[0], edit.line - at[1])).fetchall()
        if len(around) < 2:
            return None
        start, first_line = around[1]
        after = [(st, ln) for st, ln, _r, _h, kind in near if kind != "preamble" and st >= max(edit.z_old, start + 1)][:64]
        # fences matter from the window on only (``entries._fence_iter``): not looked for in the text before it
        fences = text.find("```", start) >= 0 or text.find("~~~", start) >= 0
        middle, synced, failed = _parser()._scan(text, start, first_line, {s + delta for s, _l in after}, fences)
        if failed is not None or not middle or middle[0].start != start:
            return None
        if synced is None:
            middle[-1].end = len(text)
            end_old = old_len + 1
            shift_lines = 0
        else:
            end_old = synced - delta
            old_line = next(line for s, line in after if s == end_old)
            shift_lines = first_line + text.count("\n", start, synced) - old_line
        pool: dict[str, list[int]] = {}
        if start >= lo and end_old <= hi:
            between = [(r, h) for st, _l, r, h, _k in reversed(near) if start <= st < end_old]
        else:
            between = [(r, h) for _s, r, h in reversed(_rows_in(db, key, start, end_old,
                                                                 "b.off + c.rstart, c.rowid, c.hash"))]
        for rowid, h in between:
            pool.setdefault(h, []).append(rowid)
        pieces = [_Piece(e.start, e.end, e.body_start, e.line, max(e.line, _last_line(text, e.start, e.end, e.line)),
                         e.id, _kind(e), None, entry=e if e.error is None else None) for e in middle]
        # the rows of the window go to the block of its first one (W); the rows after it move with their
        # blocks: W's own by its rows, the blocks after it by their base (a few hundred rows at 100k entries,
        # where every row after the edit was rewritten: ~0.15 s, and as much again to write it to the WAL and back)
        w = _block_at(db, key, start)
        if w is None:
            return None
        wblk, woff, wline = w
        moved: list[tuple[int, int, int, int, int, int, int]] = []
        new: list[_Piece] = []
        hashes: list[str] = []
        for p in pieces:
            h = chunk_hash(text[p.start:p.end])
            same = pool.get(h)
            if same:
                moved.append((wblk, p.start - woff, p.end - woff, p.body_start - p.start, p.line - wline,
                              p.end_line - wline, same.pop()))
            else:
                new.append(p)
                hashes.append(h)
        gone = [r for lst in pool.values() for r in lst]
        self._delete_rows(db, key, gone)
        new_end = len(text) if synced is None else synced  # where the rows after the window begin now
        inside = db.execute("SELECT blk, off, line FROM blocks WHERE path = ? AND blk > ? AND off <= ?",
                            (key, wblk, end_old)).fetchall()  # blocks based inside the window
        if delta or shift_lines:
            db.execute("UPDATE chunks SET rstart = rstart + ?, rend = rend + ?, rline = rline + ?,"
                       " rend_line = rend_line + ? WHERE path = ? AND blk = ? AND rstart >= ?",
                       (delta, delta, shift_lines, shift_lines, key, wblk, end_old - woff))
            db.execute("UPDATE blocks SET off = off + ?, line = line + ? WHERE path = ? AND blk > ? AND off > ?",
                       (delta, shift_lines, key, wblk, end_old))
        for blk, off, line in inside:  # based where the rows after the window begin (theirs moved to W)
            db.execute("UPDATE blocks SET off = ?, line = ? WHERE blk = ?", (new_end, line + shift_lines, blk))
            if off + delta != new_end:
                db.execute("UPDATE chunks SET rstart = rstart + ?, rend = rend + ? WHERE path = ? AND blk = ?",
                           (off + delta - new_end, off + delta - new_end, key, blk))
        db.executemany("UPDATE chunks SET blk = ?, rstart = ?, rend = ?, body_off = ?, rline = ?, rend_line = ?"
                       " WHERE rowid = ?", moved)
        self._insert(db, key, text, new, hashes, [w] * len(new))
        return len(new), len(gone)

    def remove_file(self, path: Path | str) -> None:
        with self._write() as db:
            self._drop_file(db, str(Path(path).absolute()))

    def _set_content(self, db: sqlite3.Connection, root: Root, rel: str, path: Path, content: str | MemoryFile) -> None:
        text = content if isinstance(content, str) else content.text
        held = self._held.get(path)
        key = str(path)
        if held is not None and held.text == text:
            return
        if (held is not None and held.memory and not isinstance(content, str) and is_memory_rel(rel)
                and self._update_memory(db, key, held, content)):
            pass
        else:
            _t, pieces, mf = _pieces(rel, content)
            self._reindex(db, root, rel, path, text, pieces, mf, keep=True)
        # the file's bytes were not read here: the next refresh hashes them (and finds the rows current)
        db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, -1, -1, NULL)", (key, str(root.path), rel))

    def _update_memory(self, db: sqlite3.Connection, key: str, f: _Held, mf: MemoryFile) -> bool:
        """Re-index only the blocks around the changed region (as ``reload._Window``); False: cannot."""
        from ..files.reload import ChangedRegion

        old_text, text = f.text, mf.text
        edit = ChangedRegion(old_text, text)
        pre = f.docs[:1] if f.docs and f.docs[0].kind == "preamble" else []
        olds, es = f.docs[len(pre):], mf.entries
        ia, ja = bisect_right(olds, edit.line, key=_END), bisect_right(es, edit.line, key=_END)
        ib = max(ia, bisect_left(olds, edit.z_old + 1, key=_START))
        jb = max(ja, bisect_left(es, edit.z_new + 1, key=_START))
        if ia != ja or len(olds) - ib != len(es) - jb:
            return False
        kind = _kind
        if ia and (olds[ia - 1].start, olds[ia - 1].end, olds[ia - 1].id, olds[ia - 1].kind) != (
                es[ja - 1].start, es[ja - 1].end, es[ja - 1].id, kind(es[ja - 1])):
            return False
        if ib < len(olds) and (olds[ib].start - edit.z_old, olds[ib].id, olds[ib].kind) != (
                es[jb].start - edit.z_new, es[jb].id, kind(es[jb])):
            return False
        same_preamble = old_text[: f.preamble_end] == text[: mf.preamble_end]
        # inside the window, blocks whose text did not change keep their rows (matched by hash)
        window = olds[ia:ib]
        pool: dict[str, list[_Doc]] = {}
        for i in range(0, len(window), 500):
            part = window[i : i + 500]
            by_id = {d.rowid: d for d in part}
            for rowid, h in db.execute(
                    f"SELECT rowid, hash FROM chunks WHERE rowid IN ({','.join('?' * len(part))})",
                    [d.rowid for d in part]):
                pool.setdefault(h, []).append(by_id[rowid])
        for lst in pool.values():
            lst.reverse()
        mid_pieces = _memory_pieces(mf, es[ja:jb], preamble=False)
        middle_opt: list[_Doc | None] = []
        fresh: list[_Piece] = []
        hashes: list[str] = []
        for piece in mid_pieces:
            h = chunk_hash(text[piece.start:piece.end])
            same = pool.get(h)
            if same:
                d = same.pop()
                if (d.start, d.line) != (piece.start, piece.line):
                    f.dirty = True
                middle_opt.append(_Doc(d.rowid, piece))
            else:
                fresh.append(piece)
                hashes.append(h)
                middle_opt.append(None)
        self._delete_rows(db, key, [d.rowid for lst in pool.values() for d in lst]
                          + [d.rowid for d in ([] if same_preamble else pre)])
        f.text = text
        f.preamble_end = mf.preamble_end
        it = iter(self._insert(db, key, text, fresh, hashes))
        middle = [d if d is not None else _Doc(next(it), p) for d, p in zip(middle_opt, mid_pieces, strict=True)]
        tail = olds[ib:]
        if tail:
            delta = edit.z_new - edit.z_old
            lines = text.count("\n", edit.line, edit.z_new) - old_text.count("\n", edit.line, edit.z_old)
            if delta or lines:
                for d in tail:
                    d.start += delta
                    d.end += delta
                    d.body_start += delta
                    d.line += lines
                    d.end_line += lines
                f.dirty = True  # the database still has the old places of the tail: ``rows`` corrects them
        if not same_preamble:
            pre_pieces = _memory_pieces(mf, [], preamble=True)
            pre = [_Doc(r, p) for r, p in zip(self._insert(db, key, text, pre_pieces), pre_pieces, strict=True)]
        f.docs = pre + olds[:ia] + middle + tail
        return True

    def flush(self) -> None:
        """Write the places the UI's fast path kept in memory (call when idle)."""
        with self._write() as db:
            for path, held in self._held.items():
                if held.dirty:
                    self._flush_held(db, str(path), held)

    # -- reading --

    def tag_names(self, paths: Sequence[Path]) -> set[str]:
        """Every tag carried by an entry of these files, as written (``Work`` and ``work`` both when both are)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT DISTINCT tag FROM tagnames WHERE n > 0 AND path IN ({','.join('?' * len(paths))})",
                [str(Path(p).absolute()) for p in paths]).fetchall()
        return {t for (t,) in rows}

    def relevant_entries(self, path: Path, tags: Sequence[str], q: Query | None
                         ) -> list[tuple[str, int, int, str, str | None, str | None, str | None, int, str | None, int]]:
        """The entries of a memory file the agent context needs, in file order: (id, line, end_line, status,
        importance, tags "|a|b|", superseded_by, rowid, raw, mentioned).

        Active entries of high importance or with one of ``tags``; other entries with one of ``tags``;
        and active entries holding any part of ``q`` (``mentioned``, 1 or 0).  Nothing else is read: ``raw``
        only of the active entries of high importance or with one of ``tags`` (the parts the agent loads;
        None for the others), and the rows come as SQLite gives them (at 100k entries, 40k rows: each
        field read, or each row made again in Python, cost tens of milliseconds).
        """
        key = Path(path).absolute()
        like = [_like(t) for t in tags]
        tagmatch = " OR ".join("tags LIKE ? ESCAPE '\\'" for _t in like) or "0"
        status = "coalesce(status, 'active')"
        mention = "c.rowid IN (SELECT rowid FROM docs WHERE docs MATCH ?)" if q is not None else "0"
        margs = [q.fts_any] if q is not None else []
        with self._lock:
            most = self._db.execute("SELECT coalesce(sum(size), 0) <= 2 * coalesce(sum(size * (path = ?)), 0)"
                                    " FROM files", (str(key),)).fetchone()[0]
        # most of the index (a big memories.md): one pass over the table, then a sort, reads it in ~half the
        # time of the index of places (a lookup of the table by rowid per row: ~0.3 s at 100k entries)
        source = "chunks c NOT INDEXED" if most else "chunks c"
        loaded = f"{status} = 'active' AND (importance = 'high' OR {tagmatch})"
        sql = (f"SELECT ident, b.line + c.rline, b.line + c.rend_line, {status}, importance, tags, sup_by, c.rowid,"
               f" CASE WHEN {loaded} THEN (SELECT raw FROM texts t WHERE t.rowid = c.rowid) END, {mention}"
               f" FROM {source}"
               " JOIN blocks b ON b.blk = c.blk"
               f" WHERE c.path = ? AND c.kind = 'entry' AND ("
               f"({loaded})"
               f" OR ({status} != 'active' AND ({tagmatch})) OR ({status} = 'active' AND {mention}))"
               " ORDER BY c.blk, c.rstart")
        with self._lock:
            rows: list[Any] = self._db.execute(sql, [*like, *margs, str(key), *like, *like, *margs]).fetchall()
            held = self._held.get(key)
            fixes = {d.rowid: d for d in held.docs} if held is not None and held.dirty else {}
        if not fixes:
            return rows
        out = []
        for ident, line, end_line, st, imp, tg, by, rowid, raw, m in rows:
            d = fixes.get(rowid)
            if d is not None:
                line, end_line = d.line, d.end_line
            out.append((ident, line, end_line, st, imp, tg, by, rowid, raw, m))
        out.sort(key=lambda r: r[1])
        return out

    def statuses(self, path: Path, ids: Sequence[str]) -> dict[str, str]:
        """The status of entries of a memory file by id."""
        out: dict[str, str] = {}
        with self._lock:
            for i in range(0, len(ids), 500):
                part = list(ids[i : i + 500])
                out.update(self._db.execute(
                    "SELECT ident, coalesce(status, 'active') FROM chunks WHERE path = ? AND kind = 'entry'"
                    f" AND ident IN ({','.join('?' * len(part))})", [str(Path(path).absolute()), *part]).fetchall())
        return out

    def raws(self, rowids: Sequence[int]) -> dict[int, str]:
        """The stored text of chunks by rowid."""
        out: dict[int, str] = {}
        with self._lock:
            for i in range(0, len(rowids), 500):
                part = list(rowids[i : i + 500])
                out.update(self._db.execute(
                    f"SELECT rowid, raw FROM texts WHERE rowid IN ({','.join('?' * len(part))})", part).fetchall())
        return out

    def match_any(self, q: Query) -> set[int]:
        """Rowids of the chunks holding any part of the query (its parts OR-ed)."""
        with self._lock:
            rows = self._db.execute("SELECT rowid FROM docs WHERE docs MATCH ?",
                                    (q.fts_any,)).fetchall()
        return {int(r) for (r,) in rows}

    def put_vectors(self, model: str, items: Iterable[tuple[str, bytes]]) -> None:
        with self._write() as db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", [(h, model, v) for h, v in items])

    def documents(self, path: Path | str) -> list[tuple[int, int, int, str | None, str, str]]:
        """(start, end, line, id, kind, indexed text) of a file's chunks, in file order (diagnostics, tests)."""
        key = Path(path).absolute()
        with self._lock:
            rows = self._db.execute(
                "SELECT c.rowid, b.off + c.rstart, b.off + c.rend, b.line + c.rline, c.ident, c.kind, d.body"
                " FROM chunks c JOIN blocks b ON b.blk = c.blk"
                " JOIN docs d ON d.rowid = c.rowid WHERE c.path = ?", (str(key),)).fetchall()
            held = self._held.get(key)
            fixes = {d.rowid: d for d in held.docs} if held is not None and held.dirty else {}
        out = []
        for rowid, start, end, line, ident, kind, body in rows:
            d = fixes.get(rowid)
            if d is not None:
                start, end, line = d.start, d.end, d.line
            out.append((start, end, line, ident, kind, body))
        out.sort()
        return out


def indexes_covering(path: Path | str) -> list[Path]:
    """The index databases that exist for the folders above ``path`` (the ones a write to it concerns)."""
    from ..userdirs import cache_dir

    base = cache_dir() / "search"
    if not base.is_dir():
        return []
    out = []
    for folder in Path(os.path.realpath(path)).parents:
        db = base / f"{hashlib.sha1(str(folder).encode('utf-8', 'surrogateescape')).hexdigest()[:16]}.sqlite3"
        if db.is_file():
            out.append(db)
    return out


def note_written(changes: Sequence[tuple[Path, bytes | None, bytes | None]], *, catch_up: bool = False,
                 parsed: Mapping[Path, Callable[[], MemoryFile]] | None = None) -> None:
    """After the CLI or the app wrote files: update the search indexes that cover them, from the bytes written.

    Best-effort: an index that cannot be opened or updated is left for the next ``search`` to refresh
    (the file's size and mtime changed, so it will); nothing here ever fails a write, and nothing is
    written outside the user's cache folder.  ``catch_up`` and ``parsed``: see ``Index.apply_write``.
    """
    for path, before, after in changes:
        try:
            dbs = indexes_covering(path)
        except (OSError, ValueError):
            continue
        for db in dbs:
            try:
                index = Index(db, wait=False)  # never make a write wait for a search that builds the index
            except (OSError, sqlite3.Error):
                continue
            try:
                index.apply_write(path, before, after, catch_up=catch_up,
                                  parsed=parsed.get(Path(path)) if parsed is not None else None)
            except (OSError, ValueError, sqlite3.Error):
                pass
            finally:
                index.close()


def note_reloaded(before: Profile | None, after: Profile) -> None:
    """The app re-read a profile (its watcher saw a change): feed the indexes that cover its files.

    Only files whose bytes differ from what the app had loaded are looked at; each is re-indexed
    around the change (from the stored rows), a whole memory file from the app's own parse; a file
    gone is dropped.  Call it off the event loop (the reload worker); best-effort like ``note_written``.
    """
    old, new = _loaded_files(before), _loaded_files(after)
    changes = [(path, old[rel][1] if rel in old else None, data) for rel, (path, data, _p) in new.items()
               if rel not in old or old[rel][1] != data]
    changes += [(path, data, None) for rel, (path, data, _p) in old.items() if rel not in new]
    if changes:
        note_written(changes, catch_up=True, parsed={path: p for path, _d, p in new.values() if p is not None})


def _loaded_files(prof: Profile | None) -> dict[str, tuple[Path, bytes | None, Callable[[], MemoryFile] | None]]:
    out: dict[str, tuple[Path, bytes | None, Callable[[], MemoryFile] | None]] = {}
    if prof is None:
        return out
    for rel, doc in (("memories.md", prof.memories), (ARCHIVE_REL, prof.archive)):
        if doc is not None and doc.data is not None:
            out[rel] = (Path(doc.path), doc.data, _parse_of(doc))
    for f in prof.text_files():
        if f.data is not None:
            out[f.rel] = (Path(f.path), f.data, None)
    return out


def _parse_of(doc: MemoryDoc) -> Callable[[], MemoryFile]:
    return lambda: doc.mf


def _kind(e: Entry) -> str:
    return "malformed" if e.error is not None else "entry"


def _read(owner: Root, path: Path, rel: str) -> str | None:
    if not inside(owner.path, path):
        return None
    try:
        if not path.is_file():
            return None
        data = path.read_bytes()
    except OSError:
        return None
    text, _bom, ok = _parser().decode(data)
    if not ok and not is_memory_rel(rel):
        return None
    return str(text)


def _profile_contents(profile: Profile) -> Iterator[tuple[str, Path, str | MemoryFile]]:
    for doc, rel in ((profile.memories, "memories.md"), (profile.archive, ARCHIVE_REL)):
        if doc is not None:
            yield rel, doc.path, doc.mf
    for f in profile.text_files():
        if f.error is None and f.data is not None and indexed_rel(profile.layout, f.rel):
            yield f.rel, f.path, f.text
