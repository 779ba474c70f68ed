"""The read side of the search index (``Reader``): what a query asks of it, and nothing that writes.
``index.Index`` is a ``Reader`` that also builds and updates it; the tables are described there."""

from __future__ import annotations

import sqlite3
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from threading import RLock
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from .text import Query

SCHEMA = 12
DAY_SHIFT = 24  # a chunk's rowid is (day << DAY_SHIFT) + n: the decay is computed from the rowid
BUSY_TIMEOUT_MS = 30_000
PAGE_SIZE = 16_384  # a new database's pages (SQLite's default 4096)
CACHE_KIB = 32_768  # SQLite's page cache per connection (its default is 2 MiB)
KEEP_FILTERED = 4096  # matches passing a tag filter kept with the best BM25 (``_best_bm25``)
FIRST_PAGE = 64  # matches read at once, newest first, by ``match_decayed``, up to ``EVEN_READ``
EVEN_READ = 1024  # then each page doubles
RACY_NS = 2_000_000_000  # a file's mtime in whole seconds or milliseconds (FAT, some network mounts): git's 2 s
RACY_FINE_NS = 25_000_000  # nanosecond mtimes move with the kernel's coarse clock (1-10 ms a tick): 2.5 ticks

# a chunk's places: its block's + its own
_PLACES = "b.off + c.rstart, b.off + c.rend, c.body_off, b.line + c.rline, b.line + c.rend_line"
_JOIN = "chunks c JOIN blocks b ON b.blk = c.blk"
_MATCHED = "docs d CROSS JOIN chunks c ON c.rowid = d.rowid WHERE docs MATCH ?"  # the matches and their chunks


@dataclass(slots=True, frozen=True)
class Root:
    """A profile or workspace folder the index covers."""

    name: str
    rel: str
    path: Path  # absolute
    layout: str


@dataclass(slots=True)
class Row:
    """One chunk as a search result needs it."""

    rowid: int
    path: Path
    profile: Root
    rel: str
    start: int
    end: int
    body_off: int
    line: int
    end_line: int
    id: str | None
    kind: str
    day: int | None  # date.toordinal() of the entry or daily log; None: never decays
    hash: str
    raw: str


def _connect(path: Path | str | None, new: bool = False) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:" if path is None else str(path), check_same_thread=False,
                         timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    if new:
        db.execute(f"PRAGMA page_size={PAGE_SIZE}")
    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    if path is not None:
        if not new:  # a new database is built with a rollback journal first (``Index._write``)
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    return db


def _schema_of(db: sqlite3.Connection) -> int | None:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    if not tables:
        return None
    if "meta" not in tables:
        return -1
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    try:
        return int(row[0]) if row else -1
    except (TypeError, ValueError):
        return -1


class Reader:
    """Queries over an open index database ``db`` (at ``path``; None: in memory)."""

    def __init__(self, path: Path | str | None, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db
        self._lock = RLock()
        self._best_cache: dict[tuple[str, tuple[str, ...]],
                               tuple[float | None, list[tuple[int, float]] | None]] = {}
        self._best_gen: tuple[int, int] | None = None

    def close(self) -> None:
        with self._lock, suppress(sqlite3.Error):
            self._db.close()

    def roots(self) -> list[Root]:
        with self._lock:
            rows = self._db.execute("SELECT path, name, rel, layout FROM profiles ORDER BY ord").fetchall()
        return [Root(name, rel, Path(path), layout) for path, name, rel, layout in rows]

    def __len__(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT count(*) FROM chunks").fetchone()
        return int(n)

    def match_decayed(self, q: Query | None, limit: int, tags: Sequence[str], today: int, half_life_days: float
                      ) -> tuple[list[tuple[int, float]], float]:
        """The best ``limit`` chunks by BM25 × temporal decay over *every* match, and the best BM25 of all.

        Returns ([(rowid, BM25 higher-better)], best BM25), best product first, with every chunk tied with
        the last one at the cut.  ``today`` is a date ordinal; ``half_life_days <= 0``: no decay.  With no
        query, BM25 is 1.0.

        With a query and a decay, the matches are read newest first (the day is in the rowid), undated ones
        before them, in growing pages, until the ``limit``-th best product beats the best BM25 of all × the
        decay of the day reached: decay never grows with age, so no match left can reach or tie it.
        """
        if q is None or half_life_days <= 0 or limit <= 0:
            return self._match_decayed_all(q, limit, tags, today, half_life_days)
        where, args = _tag_filter(tags)
        source, r = _MATCHED if tags else "docs d WHERE docs MATCH ?", "d.rowid"
        hl = float(half_life_days)

        @cache
        def decay(day: int) -> float:  # as rank.decay_factor computes it
            return 1.0 if day == 0 else float(0.5 ** (max(0, today - day) / hl))

        got: list[tuple[float, int, float]] = []  # (product, rowid, BM25): every match read that may still count

        def take(rows: Iterable[tuple[int, float]]) -> None:
            for rowid, b in rows:
                bm = -float(b)
                got.append((bm * decay(rowid >> DAY_SHIFT), int(rowid), bm))

        def cut() -> float | None:
            """The ``limit``-th best product so far (``got`` trimmed to what reaches it), None while too few."""
            if len(got) < limit:
                return None
            got.sort(key=lambda g: -g[0])
            kth = got[limit - 1][0]
            n = limit
            while n < len(got) and got[n][0] == kth:
                n += 1
            del got[n:]
            return kth

        undated = 1 << DAY_SHIFT
        sql = f"SELECT {r}, bm25(docs) FROM {source} AND {r} < ?{where}"
        # one statement read page by page (SQLite's bm25 counts each phrase's matches once per statement)
        newest = f"SELECT {r}, bm25(docs) FROM {source} AND {r} >= ?{where} ORDER BY {r} DESC"
        with self._lock:
            best, every = self._best_bm25(q, tags, source, r, where, args)
            if best is None:
                return [], 0.0
            if every is not None:  # a tag filter left few matches: they were all read with the best BM25
                take(every)
            else:
                take(self._db.execute(sql, [q.fts, undated, *args]))
                cur = self._db.execute(newest, [q.fts, undated, *args])
                try:
                    size = FIRST_PAGE
                    read = 0
                    while True:
                        rows = cur.fetchmany(size)
                        take(rows)
                        if len(rows) < size:
                            break
                        kth = cut()
                        # what is left is at most as old as the last row read: at most best × its decay
                        if kth is not None and kth > best * decay(int(rows[-1][0]) >> DAY_SHIFT):
                            break
                        read += size
                        if read >= EVEN_READ:
                            size *= 2
                finally:
                    cur.close()
        cut()
        got.sort(key=lambda g: -g[0])
        return [(rowid, bm) for _p, rowid, bm in got], best

    def _best_bm25(self, q: Query, tags: Sequence[str], source: str, r: str, where: str, args: list[Any]
                   ) -> tuple[float | None, list[tuple[int, float]] | None]:
        """The best BM25 (higher-better) of every match of the query and tags (None when nothing matches),
        and with tags, when at most ``KEEP_FILTERED`` matches pass them, those matches (rowid, SQLite's BM25).
        Remembered until the index changes (``total_changes`` here, ``PRAGMA data_version`` by another).
        """
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        gen = (self._db.total_changes, int(version))
        if gen != self._best_gen:
            self._best_cache.clear()
            self._best_gen = gen
        key = (q.fts, tuple(tags))
        kept = self._best_cache.get(key)
        if kept is not None:
            return kept
        every: list[tuple[int, float]] | None = None
        if tags:
            every = self._db.execute(f"SELECT {r}, bm25(docs) FROM {source}{where}", [q.fts, *args]).fetchall()
            best = -float(min(b for _r, b in every)) if every else None
            if len(every) > KEEP_FILTERED:
                every = None
        else:
            found = self._db.execute(f"SELECT bm25(docs) FROM {source}{where} ORDER BY bm25(docs) LIMIT 1",
                                     [q.fts, *args]).fetchone()
            best = None if found is None else -float(found[0])
        kept_rows = sum(len(e) for _b, e in self._best_cache.values() if e is not None)
        if len(self._best_cache) >= 256 or kept_rows + len(every or ()) > 4 * KEEP_FILTERED:
            self._best_cache.clear()
        self._best_cache[key] = (best, every)
        return best, every

    def _match_decayed_all(self, q: Query | None, limit: int, tags: Sequence[str], today: int,
                           half_life_days: float) -> tuple[list[tuple[int, float]], float]:
        """``match_decayed`` by SQLite over every match at once: no query (tags only) or no decay."""
        where, args = _tag_filter(tags)
        if q is None:
            if not tags:
                return [], 0.0
            source, margs, r = "chunks c WHERE 1", [], "c.rowid"
            bm25 = "-1.0"
        else:  # with no tag, the FTS table alone: the day is in the rowid
            source, margs, r = _MATCHED if tags else "docs d WHERE docs MATCH ?", [q.fts], "d.rowid"
            bm25 = "bm25(docs)"
        if half_life_days > 0:
            decay = (f"(CASE WHEN {r} >> {DAY_SHIFT} = 0 THEN 1.0"
                     f" ELSE pow(0.5, max(0, ? - ({r} >> {DAY_SHIFT})) / ?) END)")
            dargs: list[Any] = [today, float(half_life_days)]
        else:
            decay, dargs = "1.0", []
        cte = f"WITH m(r, b, s) AS MATERIALIZED (SELECT {r}, {bm25}, {bm25} * {decay} FROM {source}{where})"
        with self._lock:
            _math_functions(self._db)
            extra = 64  # a tie across the cut is usually short: read past it in the same query
            rows = self._db.execute(f"{cte} SELECT r, b, s, (SELECT min(b) FROM m) FROM m ORDER BY s LIMIT ?",
                                    [*dargs, *margs, *args, limit + extra]).fetchall()
            best = -float(rows[0][3]) if rows else 0.0
            if len(rows) > limit:
                cut = rows[limit - 1][2]
                if rows[-1][2] == cut and len(rows) == limit + extra:  # the tie goes on: take it whole
                    rows = self._db.execute(f"{cte} SELECT r, b, s, 0 FROM m WHERE s <= ? ORDER BY s",
                                            [*dargs, *margs, *args, cut]).fetchall()
                else:
                    rows = [r for r in rows if r[2] <= cut]
        return [(int(r), -float(b)) for r, b, _s, _best in rows], best

    def rows(self, rowids: Sequence[int]) -> dict[int, Row]:
        """The chunks by rowid (places corrected by what the UI holds in memory)."""
        out: dict[int, Row] = {}
        if not rowids:
            return out
        roots = {str(r.path): r for r in self.roots()}
        with self._lock:
            found = _in_batches(self._db, f"SELECT c.rowid, c.path, f.profile, f.rel, {_PLACES}, c.ident, c.kind, c.day,"
                                f" c.hash, t.raw FROM {_JOIN} JOIN files f ON f.path = c.path"
                                " JOIN texts t ON t.rowid = c.rowid WHERE c.rowid IN ({})", rowids)
        path_of = cache(Path)  # one Path per file
        for rowid, path, prof, rel, start, end, body_off, line, end_line, ident, kind, day, h, raw in found:
            root = roots.get(prof)
            if root is not None:
                out[rowid] = Row(rowid, path_of(path), root, rel, start, end, body_off, line, end_line, ident, kind,
                                 day, h, raw)
        return out

    def all_hashes(self) -> list[tuple[int, str]]:
        with self._lock:
            return [(int(r), h) for r, h in self._db.execute("SELECT rowid, hash FROM chunks")]

    def raw_by_hash(self, hashes: Sequence[str]) -> dict[str, str]:
        with self._lock:
            return dict(_in_batches(self._db, "SELECT c.hash, t.raw FROM chunks c JOIN texts t ON t.rowid = c.rowid"
                                    " WHERE c.hash IN ({})", hashes))

    def vectors(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        with self._lock:
            return dict(_in_batches(self._db, "SELECT hash, vec FROM vectors WHERE model = ? AND hash IN ({})",
                                    hashes, model))


def _math_functions(db: sqlite3.Connection) -> None:
    """``pow`` and ``max`` for the decay in SQL: SQLite's own when built with its math functions, else Python's."""
    try:
        db.execute("SELECT pow(0.5, 1.0)").fetchone()
    except sqlite3.OperationalError:
        import math

        db.create_function("pow", 2, lambda x, y: None if x is None or y is None else math.pow(x, y),
                           deterministic=True)


def _in_batches(db: sqlite3.Connection | sqlite3.Cursor, sql: str, items: Sequence[Any], *first: Any) -> list[Any]:
    """The rows of ``sql`` over every item, 500 at a time: its ``{}`` the items' placeholders, after ``first``."""
    out: list[Any] = []
    for i in range(0, len(items), 500):
        part = list(items[i : i + 500])
        out += db.execute(sql.format(",".join("?" * len(part))), [*first, *part]).fetchall()
    return out


def _tag_filter(tags: Sequence[str]) -> tuple[str, list[Any]]:
    """The condition on ``chunks c`` that an entry carries every one of ``tags``, and its arguments."""
    return "".join(" AND c.tags LIKE ? ESCAPE '\\'" for _t in tags), [_like(t) for t in tags]


def _like(tag: str) -> str:
    return "%|" + tag.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "|%"


def racy_window(stamp_ns: int) -> int:
    """How long after a file system stamped a time (an mtime, a ctime) a change may still leave it as it is:
    its clock's tick (git's "racy" rule), coarse when the stamp has no part below the millisecond."""
    return RACY_NS if stamp_ns % 1_000_000 == 0 else RACY_FINE_NS
