"""The index's rows: the schema, a file cut into pieces, blocks of places, and the writing of a file's rows.

A chunk's rowid is ``(day << DAY_SHIFT) + n`` (day 0: undated): the ranking reads the day from the FTS rowid.
A chunk's places are relative to its block's base (``blocks``, ``BLOCK_ROWS`` rows each in file order), so an
edit moves the rows after it by moving the bases of the blocks after it (``index_edit``).
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count
from typing import TYPE_CHECKING, Any

from .index_files import _parser, day_of_rel
from .reader import _JOIN, _PLACES, DAY_SHIFT, Reader, _in_batches, racy_window
from .text import Chunk, _last_line, clean, has_surrogates, index_text, is_memory_rel, text_chunks

if TYPE_CHECKING:
    from ..format.entries import Entry, MemoryFile


BLOCK_ROWS = 256  # rows per block of a file at a first build or a whole re-index (``_new_blocks``)
INSERT_BATCH = 2048  # rows inserted at once by ``_insert`` (its text made for them only)

# a file's rows in file order, their places read from the index alone
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
"""


def chunk_hash(raw: str) -> str:
    return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:20]


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
    entry: Entry | None = None  # read for day, tags and meta when the piece is inserted (``fill``)

    def fill(self) -> None:
        e = self.entry
        if e is not None:
            self.day, self.tags, self.meta = _entry_fields(e)
            self.entry = None


def _entry_fields(e: Entry) -> tuple[int | None, str | None, tuple[str | None, str | None, str | None]]:
    """(day, tags "|a|b|", (status, importance, superseded_by)) of an entry, its fields not kept on it."""
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
    return (d.toordinal() if d is not None else None, key,
            (sys.intern(status) if isinstance(status, str) else "active", sys.intern(imp) if isinstance(imp, str) else None,
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


def _entry_piece(text: str, e: Entry) -> _Piece:
    return _Piece(e.start, e.end, e.body_start, e.line, max(e.line, _last_line(text, e.start, e.end, e.line)),
                  e.id, "malformed" if e.error is not None else "entry", None, entry=e if e.error is None else None)


def _memory_pieces(mf: MemoryFile) -> list[_Piece]:
    text = mf.text
    out = [_entry_piece(text, e) for e in mf.entries]
    if mf.preamble.strip():
        out.insert(0, _Piece(0, mf.preamble_end, 0, 1, _last_line(text, 0, mf.preamble_end, 1), None, "preamble", None))
    return out


def _pieces(rel: str, content: str | MemoryFile) -> tuple[str, list[_Piece], MemoryFile | None]:
    if is_memory_rel(rel):
        mf = _parser().parse(content) if isinstance(content, str) else content
        return mf.text, _memory_pieces(mf), mf
    text = content if isinstance(content, str) else content.text
    day = day_of_rel(rel)
    chunks: Iterable[Chunk] = text_chunks(text, yaml=rel.endswith((".yaml", ".yml")))
    return text, [_Piece(c.start, c.end, c.start, c.line, c.end_line, None, "text", day) for c in chunks], None


def _kept_mtime(mtime_ns: int, read_at_ns: int) -> int:
    """The mtime to record for a file read at ``read_at_ns`` (taken before reading), or -1 when a change within
    the same tick of its file system's clock could leave it as it is (git's "racy" rule): hashed again next time.
    """
    return mtime_ns if mtime_ns < read_at_ns - racy_window(mtime_ns) else -1


def _block_at(db: sqlite3.Connection | sqlite3.Cursor, key: str, x: int) -> tuple[int, int, int] | None:
    """(blk, off, line) of the block of a file whose rows hold place ``x``: the last one based at or before it."""
    found: tuple[int, int, int] | None = db.execute(
        "SELECT blk, off, line FROM blocks WHERE path = ? AND off <= ? ORDER BY blk DESC LIMIT 1", (key, x)).fetchone()
    return found


def _new_blocks(db: sqlite3.Connection, key: str, starts: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Cut a file's rows (``(start, line)`` each, every row in file order) into new blocks of ``BLOCK_ROWS``;
    returns (blk, off, line) of each row's block.  The first block is based at 0."""
    (top,) = db.execute("SELECT coalesce(max(blk), 0) FROM blocks").fetchone()  # (ids never reused)
    db.execute("DELETE FROM blocks WHERE path = ?", (key,))
    made = [(top + 1 + n, *(starts[i] if i else (0, 0))) for n, i in enumerate(range(0, len(starts), BLOCK_ROWS))]
    db.executemany("INSERT INTO blocks VALUES (?, ?, ?, ?)",
                   [(b, key, off, line) for b, off, line in made or [(top + 1, 0, 0)]])
    return [made[k // BLOCK_ROWS] for k in range(len(starts))]


def _rows_in(db: sqlite3.Connection, key: str, lo: int, hi: int, columns: str) -> list[Any]:
    """``columns`` (over ``_JOIN``) of a file's rows whose place starts in [lo, hi), in file order."""
    first, last = _block_at(db, key, lo), _block_at(db, key, hi - 1)
    if last is None:
        return []
    return db.execute(f"SELECT {columns} FROM {_JOIN} WHERE c.path = ? AND c.blk >= ? AND c.blk <= ?"
                      " AND b.off + c.rstart >= ? AND b.off + c.rstart < ? ORDER BY c.blk, c.rstart",
                      (key, first[0] if first else 0, last[0], lo, hi)).fetchall()


class IndexRows(Reader):
    """Writing a file's rows: inserted in batches, matched to the stored ones by hash, deleted with their tags."""

    def _drop_file(self, db: sqlite3.Connection, path: str) -> None:
        rowids = [(r[0],) for r in db.execute("SELECT rowid FROM chunks WHERE path = ?", (path,))]
        db.executemany("DELETE FROM docs WHERE rowid = ?", rowids)
        db.executemany("DELETE FROM texts WHERE rowid = ?", rowids)
        db.execute("DELETE FROM chunks WHERE path = ?", (path,))
        db.execute("DELETE FROM blocks WHERE path = ?", (path,))
        db.execute("DELETE FROM tagnames WHERE path = ?", (path,))
        db.execute("DELETE FROM files WHERE path = ?", (path,))

    def _index_new(self, db: sqlite3.Connection, rel: str, key: str, text: str) -> tuple[int, int] | None:
        """Index a file that has no rows yet (a first build): (rows inserted, 0), or None when it has some.
        The parse is not kept: each entry is let go once its fields are read (``_Piece.fill``)."""
        if db.execute("SELECT 1 FROM chunks WHERE path = ? LIMIT 1", (key,)).fetchone() is not None:
            return None
        if is_memory_rel(rel):
            mf = _parser().parse(text)
            pieces = _memory_pieces(mf)
            del mf  # the entries are now held by the pieces alone
        else:
            pieces = _pieces(rel, text)[1]
        return len(self._insert(db, key, text, pieces)), 0

    def _reindex(self, db: sqlite3.Connection, key: str, text: str, pieces: list[_Piece]) -> tuple[int, int]:
        """Re-index one file: chunks are matched to the stored ones by the hash of their text."""
        pool: dict[str, list[tuple[int, int, int, int, int, int]]] = {}
        for rowid, h, start, end, body_off, line, end_line in db.execute(
                f"SELECT c.rowid, c.hash, {_PLACES} FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk, c.rstart", (key,)):
            pool.setdefault(h, []).append((rowid, start, end, body_off, line, end_line))
        for lst in pool.values():
            lst.reverse()
        if not pool:  # nothing to match
            self._insert(db, key, text, pieces)
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
        gone = [rowid for lst in pool.values() for rowid, *_ in lst]
        self._delete_rows(db, key, gone)
        new_blocks: list[tuple[int, int, int]] | None = None  # no row moved: the new ones go where the gone ones were
        if moved:  # the file's blocks cut again, every kept row put into its block
            blocks = _new_blocks(db, key, [(p.start, p.line) for p in pieces])
            new_blocks = [b for b, r in zip(blocks, kept, strict=True) if not r]
            db.executemany(
                "UPDATE chunks SET blk = ?, rstart = ?, rend = ?, body_off = ?, rline = ?, rend_line = ? WHERE rowid = ?",
                [(blk, p.start - off, p.end - off, p.body_start - p.start, p.line - bl, p.end_line - bl, r)
                 for p, (blk, off, bl), r in zip(pieces, blocks, kept, strict=True) if r])
        self._insert(db, key, text, new, hashes, new_blocks)
        return len(new), len(gone)

    def _delete_rows(self, db: sqlite3.Connection, key: str, rowids: Sequence[int]) -> None:
        if not rowids:
            return
        tags = [t for (t,) in _in_batches(db, "SELECT tags FROM chunks WHERE rowid IN ({})", rowids)]
        self._count_tags(db, key, tags, -1)
        db.executemany("DELETE FROM docs WHERE rowid = ?", [(r,) for r in rowids])
        db.executemany("DELETE FROM texts WHERE rowid = ?", [(r,) for r in rowids])
        db.executemany("DELETE FROM chunks WHERE rowid = ?", [(r,) for r in rowids])

    @staticmethod
    def _count_tags(db: sqlite3.Connection, key: str, tags: Iterable[str | None], sign: int) -> None:
        """Keep ``tagnames`` (tag -> entries carrying it, per file) in step with the rows."""
        counts = Counter(name for t in tags for name in tags_as_written(t))
        if counts:
            db.executemany("INSERT INTO tagnames VALUES (?, ?, ?) ON CONFLICT(path, tag) DO UPDATE SET n = n + excluded.n",
                           [(key, name, sign * n) for name, n in counts.items()])
            if sign < 0:
                db.execute("DELETE FROM tagnames WHERE path = ? AND n <= 0", (key,))

    def _insert(self, db: sqlite3.Connection, key: str, text: str, pieces: Sequence[_Piece],
                hashes: Sequence[str] | None = None, blocks: Sequence[tuple[int, int, int]] | None = None) -> list[int]:
        """Insert the pieces' rows, in rowid order ``INSERT_BATCH`` at a time; returns their rowids, in the
        order of ``pieces``.  ``blocks``: (blk, off, line) of each piece's block; by default new blocks for a
        file with no rows yet, else the block of each piece's place."""
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
        free: dict[int, Iterator[int]] = {}
        for day in {p.day or 0 for p in pieces}:
            base = day << DAY_SHIFT
            (top,) = db.execute("SELECT coalesce(max(rowid), ?) FROM chunks WHERE rowid >= ? AND rowid < ?",
                                (base, base, base + (1 << DAY_SHIFT))).fetchone()
            free[day] = count(top + 1)
        ids = [next(free[p.day or 0]) for p in pieces]
        fix = has_surrogates(text[pieces[0].start:pieces[-1].end])
        order = sorted(range(len(pieces)), key=ids.__getitem__) if len(pieces) > 1 else [0]
        # into an empty table (a first build) the index of places is made once every row is in
        later = len(pieces) > INSERT_BATCH and db.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None
        if later:
            db.execute("DROP INDEX chunks_path")
            # FTS5's segments merged once at the end ('optimize'), then its defaults back for later edits
            db.execute("INSERT INTO docs(docs, rank) VALUES ('automerge', 0)")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('crisismerge', 1999)")
        tags: list[str | None] = []  # as stored (cleaned), as ``_delete_rows`` will read them back
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
                tags.append(row[11] if isinstance(row[11], str) else None)
            db.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT INTO texts VALUES (?, ?)", texts)
            db.executemany("INSERT INTO docs(rowid, body) VALUES (?, ?)", bodies)
        if later:
            db.execute(_PLACES_INDEX)
            db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('automerge', 4)")
            db.execute("INSERT INTO docs(docs, rank) VALUES ('crisismerge', 16)")
        self._count_tags(db, key, tags, 1)
        return ids
