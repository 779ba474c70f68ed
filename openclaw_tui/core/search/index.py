"""The persistent search index: SQLite FTS5 in the user's cache folder, updated file by file, entry by entry.

One database per searched folder (``index_cache``; never inside the memory folder); its tables are made in
``index_rows``.  A file whose size and mtime are as recorded is not read again (``_current``); a changed one
is re-indexed around its changed entries.  A database of another schema, or one SQLite cannot read, is
deleted and rebuilt, never trusted.

Concurrency: WAL mode and a busy timeout; every writer takes an exclusive ``fcntl.flock`` on
``<db>.lock``, so two processes never build at once.  Readers need no lock.  A new database's first
write (its first build) runs with SQLite's rollback journal, then it is put in WAL mode (``_write``).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .index_cache import FOLDER_NOTE, forget_gone_folders, index_path_for
from .index_edit import IndexEdits
from .index_files import _parser, files_of, profile_contents, read_indexed
from .index_rows import _SCHEMA_SQL, _kept_mtime, _pieces
from .reader import SCHEMA, Root, _connect, _in_batches, _like, _schema_of
from .text import Query, indexed_rel, is_memory_rel, without_surrogates

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..files.profile import Profile
    from ..format.entries import MemoryFile


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


class Index(IndexEdits):
    """A search index over some profiles; ``path`` None keeps it in memory (nothing on disk).
    Opened checked (rebuilt when outdated or corrupt), built and updated; its queries are ``Reader``'s."""

    path: Path | None

    def __init__(self, path: Path | None = None, *, wait: bool = True) -> None:
        self.path = path
        self.wait = wait  # False: a writer finding the index busy (another process building it) gives up (OSError)
        self.opened_as: str | None = None  # "missing", "outdated schema", "corrupt" when (re)created
        self._unjournaled = False  # a new database not yet in WAL mode (``_write``)
        super().__init__(path, self._open())

    @classmethod
    def for_folder(cls, folder: Path | str) -> Index:
        """The persistent index of a searched folder (created when missing); in memory when the cache folder
        cannot be used (read-only, full): slower, never an error."""
        path = index_path_for(folder)
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # the index holds memory text: private
            index = cls(path)
        except (OSError, sqlite3.Error):
            index = cls(None)
            index.opened_as = "unusable cache folder: in memory"
            return index
        note = Path(str(path) + FOLDER_NOTE)
        with suppress(OSError):  # a note not written: this index is simply never forgotten
            if not note.exists():
                note.write_bytes(os.path.realpath(folder).encode("utf-8", "surrogateescape"))
            if index.opened_as is not None:  # a new database: a rare moment to forget the gone folders' ones
                forget_gone_folders(path.parent, keep=path)
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
            yield
        finally:
            os.close(fd)  # (which releases the lock)

    def _remove_files(self) -> None:
        assert self.path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            with suppress(FileNotFoundError):
                os.unlink(str(self.path) + suffix)

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
            self.close()
            if self.path is not None:
                with self._file_lock():
                    self._remove_files()
            self._best_cache.clear()
            self._best_gen = None
            self._db = self._open()
            self.opened_as = "corrupt"

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._file_lock():
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            if self._unjournaled:  # a new database's first write (its build) done: WAL mode from now on
                self._unjournaled = False
                with suppress(sqlite3.OperationalError):  # busy: the next connection (``_connect``) sets it
                    db.execute("PRAGMA journal_mode=WAL")

    # -- profiles --

    def _set_roots(self, db: sqlite3.Connection, roots: Sequence[Root]) -> int:
        """Record the profiles covered, in order; drops the others' files and returns how many."""
        keep = {str(r.path) for r in roots}
        gone = [(old,) for (old,) in db.execute("SELECT path FROM profiles").fetchall() if old not in keep]
        files = [f for old in gone for (f,) in db.execute("SELECT path FROM files WHERE profile = ?", old).fetchall()]
        for f in files:
            self._drop_file(db, f)
        db.executemany("DELETE FROM profiles WHERE path = ?", gone)
        db.executemany("INSERT OR REPLACE INTO profiles VALUES (?, ?, ?, ?, ?)",
                       [(str(r.path), r.name, r.rel, r.layout, i) for i, r in enumerate(roots)])
        return len(files)

    # -- refreshing from disk (the CLI, the search screen) --

    def refresh(self, roots: Sequence[Root]) -> Stats:
        """Bring the index up to date with the files on disk: only changed files are read, only changed chunks re-indexed."""
        stats = Stats(rebuilt=self.opened_as)
        self.opened_as = None
        for attempt in (1, 2):
            try:
                if self._current(roots, stats):
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
        if stats.rebuilt or self.roots() != list(roots):
            return False
        with self._lock:
            known = {p: (size, mtime, h) for p, size, mtime, h in
                     self._db.execute("SELECT path, size, mtime_ns, hash FROM files")}
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
                digest = hashlib.sha1(data).hexdigest()
                mtime = _kept_mtime(st.st_mtime_ns, now)
                if old is not None and old[2] == digest:
                    db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (st.st_size, mtime, key))
                    continue
                text, _bom, utf8 = _parser().decode(data)
                if old is None:
                    del data  # (a first build: the bytes are not held while the text is indexed)
                if not utf8 and not is_memory_rel(rel):
                    self._drop_file(db, key)  # a text file that is not UTF-8 is not searched (as the check reports it)
                    continue
                if not utf8:
                    text = without_surrogates(text)  # the index holds valid UTF-8 only; offsets are kept
                counts = None
                if old is not None and is_memory_rel(rel):  # another program changed entries: only those are read again
                    counts = self._window_from_rows(db, key, text, old[2] if utf8 else None, _bom, data)
                elif old is None:
                    counts = self._index_new(db, rel, key, text)
                if counts is None:
                    counts = self._reindex(db, key, text, _pieces(rel, text)[1])
                stats.reindexed += 1
                stats.inserted += counts[0]
                stats.deleted += counts[1]
                db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)",
                           (key, str(root.path), rel, st.st_size, mtime, digest))
            for gone in set(known) - present:
                self._drop_file(db, gone)
                stats.removed_files += 1

    # -- content given by the caller (loaded profiles) --

    def add_profile(self, profile: Profile) -> None:
        """Index every searchable file of an already loaded profile (appended to the covered profiles)."""
        root = Root(profile.name, profile.rel, Path(profile.path).absolute(), profile.layout)
        with self._write() as db:
            roots = [r for r in self.roots() if r.path != root.path] + [root]
            self._set_roots(db, roots)
            present: set[str] = set()
            for rel, path, content in profile_contents(profile):
                path = Path(path).absolute()
                present.add(str(path))
                self._set_content(db, root, rel, path, content)
            for (old,) in db.execute("SELECT path FROM files WHERE profile = ?", (str(root.path),)).fetchall():
                if old not in present:
                    self._drop_file(db, old)

    def update_file(self, path: Path | str, content: str | MemoryFile | None = None) -> bool:
        """Re-index one file after it changed (read from disk unless ``content`` is given); one gone or
        unreadable is dropped.  Returns True when the file belongs to the index."""
        found = self._covering(Path(path))
        if found is None:
            return False
        owner, rel, key = found
        if content is None:
            content = read_indexed(owner, Path(key), rel)
        with self._write() as db:
            if content is None:
                self._drop_file(db, key)
            else:
                self._set_content(db, owner, rel, Path(key), content)
        return True

    def apply_write(self, path: Path | str, before: bytes | None, after: bytes | None, *,
                    catch_up: bool = False, parsed: Callable[[], MemoryFile] | None = None) -> bool:
        """Bring one file up to date with its new bytes ``after`` (on disk: the writer holds its lock;
        ``before``: what it held).  Only the entries around the change are read, and the file's size, mtime
        and hash are recorded, so the next ``search`` finds the index current.  When the index is not current
        for ``before``: with ``catch_up`` the old text is put back from the stored rows, else False (the next
        refresh reads the file).  ``parsed``: the file's parse when at hand.  False: not covered / left.
        """
        found = self._covering(Path(path))
        if found is None:
            return False
        owner, rel, key = found
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
                self._reindex(db, key, text, _pieces(rel, content)[1])
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)",
                       (key, str(owner.path), rel, st.st_size, mtime, digest))
        return True

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

    def _set_content(self, db: sqlite3.Connection, root: Root, rel: str, path: Path, content: str | MemoryFile) -> None:
        text = content if isinstance(content, str) else content.text
        key = str(path)
        self._reindex(db, key, text, _pieces(rel, content)[1])
        # the hash of the text in UTF-8: a refresh finding those bytes only records their size and mtime
        try:
            digest: str | None = hashlib.sha1(text.encode("utf-8")).hexdigest()
        except UnicodeEncodeError:
            digest = None
        db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, -1, -1, ?)", (key, str(root.path), rel, digest))

    # -- reading --

    def tag_names(self, paths: Sequence[Path]) -> set[str]:
        """Every tag carried by an entry of these files, as written (``Work`` and ``work`` both when both are)."""
        with self._lock:
            return {t for (t,) in _in_batches(self._db, "SELECT tag FROM tagnames WHERE n > 0 AND path IN ({})",
                                              [str(Path(p).absolute()) for p in paths])}

    def relevant_entries(self, path: Path, tags: Sequence[str], q: Query | None
                         ) -> list[tuple[str, int, int, str, str | None, str | None, str | None, int, str | None, int]]:
        """The entries of a memory file the agent context needs, in file order: (id, line, end_line, status,
        importance, tags "|a|b|", superseded_by, rowid, raw, mentioned).

        Active entries of high importance or with one of ``tags``; other entries with one of ``tags``;
        and active entries holding any part of ``q`` (``mentioned``, 1 or 0).  ``raw`` only of the
        entries the agent loads (None for the others).
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
        # most of the index (a big memories.md): one pass over the table beats the index of places
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
        return rows

    def statuses(self, path: Path, ids: Sequence[str]) -> dict[str, str]:
        """The status of entries of a memory file by id."""
        with self._lock:
            return dict(_in_batches(self._db, "SELECT ident, coalesce(status, 'active') FROM chunks WHERE path = ?"
                                    " AND kind = 'entry' AND ident IN ({})", ids, str(Path(path).absolute())))

    def raws(self, rowids: Sequence[int]) -> dict[int, str]:
        """The stored text of chunks by rowid."""
        with self._lock:
            return dict(_in_batches(self._db, "SELECT rowid, raw FROM texts WHERE rowid IN ({})", rowids))

    def put_vectors(self, model: str, items: Iterable[tuple[str, bytes]]) -> None:
        with self._write() as db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", [(h, model, v) for h, v in items])

    def documents(self, path: Path | str) -> list[tuple[int, int, int, str | None, str, str]]:
        """(start, end, line, id, kind, indexed text) of a file's chunks, in file order (diagnostics, tests)."""
        key = Path(path).absolute()
        with self._lock:
            rows = self._db.execute(
                "SELECT b.off + c.rstart, b.off + c.rend, b.line + c.rline, c.ident, c.kind, d.body"
                " FROM chunks c JOIN blocks b ON b.blk = c.blk"
                " JOIN docs d ON d.rowid = c.rowid WHERE c.path = ?", (str(key),)).fetchall()
        return sorted(rows)
