"""Which entries a change between two versions of a memory file may have touched, remembered.

``touched_ids`` works it out while both versions are at hand; ``EntryIndex`` keeps the answers by pair of
blob ids in SQLite under the git folder. Blob ids name content, so an answer never goes stale.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ..format.entries import common_prefix, common_suffix
from .gitrepo import GitError, RepoLike, common_dir
from .semantic_diff import Buf, has_fence, opener_of, parse_slice

Pair = tuple[str, str]  # (old blob id, new blob id)
Touched = frozenset[str] | None  # None: "cannot tell cheaply, read both versions"

SCHEMA = 1  # bump when touched_ids changes what it records: older answers are then dropped
_ID_KEY = b"\nid:"


def _ids_around(data: Buf, a: int, b: int) -> set[str] | None:
    """Ids of the entries that bytes ``data[a:b]`` may belong to (parsed from certain entry starts)."""
    before = data.rfind(_ID_KEY, 0, a)  # the id line of the entry holding ``a``, or of the one before
    start = 0
    if before >= 0:
        found = opener_of(data, before + 1)
        if found is None:
            return None
        start = found
    last = data.find(_ID_KEY, max(b, start))  # the next entry's id line: a change may end in its head
    end = len(data)
    if last >= 0:
        following = data.find(_ID_KEY, last + len(_ID_KEY))
        if following >= 0:
            found = opener_of(data, following + 1)
            if found is None:
                return None
            end = found
    if end < b:
        return None
    mf = parse_slice(data, start, end)
    ids: set[str] = set()
    for e in mf.entries:
        if e.error or e.id is None:
            return None  # a malformed block: what it holds, and what it does to the blocks after it, needs a full parse
        ids.add(e.id)
    return ids


def touched_ids(old: Buf | None, new: Buf | None) -> Touched:
    """Every entry id whose text may differ between two versions of a memory file (None: cannot tell).

    The stretch that differs, widened to whole entries from certain entry starts, is parsed; a
    neighbour of the change may be named too.
    """
    if old is None or new is None:
        return None  # a created or deleted file: every entry in it
    if old == new:
        return frozenset()
    if has_fence(old) or has_fence(new):
        return None  # a fence could hide or reveal delimiters anywhere
    p = common_prefix(old, new)
    s = common_suffix(old, new, min(len(old), len(new)) - p)
    ids: set[str] = set()
    for data in (old, new):
        got = _ids_around(data, p, len(data) - s)
        if got is None:
            return None
        ids |= got
    return frozenset(ids)


class EntryIndex:
    """Answers of ``touched_ids`` by pair of blob ids, in SQLite (in memory when the file cannot be used)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        try:
            self.db = self._prepare(sqlite3.connect(path or ":memory:", timeout=5, check_same_thread=False))
        except sqlite3.Error:  # unreadable or read-only: in memory (slower histories, nothing wrong)
            self.db = self._prepare(sqlite3.connect(":memory:", check_same_thread=False))

    @classmethod
    def for_repo(cls, repo: RepoLike) -> EntryIndex:
        try:
            folder = common_dir(repo) / "openclaw-tui"
            folder.mkdir(exist_ok=True)
        except (OSError, GitError):
            return cls(None)
        return cls(folder / "entry-index.sqlite")

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> sqlite3.Connection:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA:
            with db:
                db.execute("DROP TABLE IF EXISTS pairs")
                db.execute(f"PRAGMA user_version = {SCHEMA}")
        with db:
            db.execute("CREATE TABLE IF NOT EXISTS pairs (old TEXT, new TEXT, ids TEXT, PRIMARY KEY (old, new))"
                       " WITHOUT ROWID")
        return db

    def lookup(self, pairs: Iterable[Pair]) -> dict[Pair, Touched]:
        """The known answers among ``pairs`` (a pair absent from the result was never indexed)."""
        out: dict[Pair, Touched] = {}
        try:
            cur = self.db.cursor()
            for pair in dict.fromkeys(pairs):
                row = cur.execute("SELECT ids FROM pairs WHERE old = ? AND new = ?", pair).fetchone()
                if row is not None:
                    out[pair] = None if row[0] is None else frozenset(row[0].split("\n")) - {""}
        except sqlite3.Error:
            return out
        return out

    def store(self, answers: dict[Pair, Touched]) -> None:
        if not answers:
            return
        rows = [(o, n, None if ids is None else "\n".join(sorted(ids))) for (o, n), ids in answers.items()]
        with contextlib.suppress(sqlite3.Error), self.db:
            self.db.executemany("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        try:
            return int(self.db.execute("SELECT count(*) FROM pairs").fetchone()[0])
        except sqlite3.Error:
            return 0

    def close(self) -> None:
        self.db.close()
