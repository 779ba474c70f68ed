"""A fresh ``search`` process whose index is current: the index asked, nothing found again.

``search.search_path`` is the full way: ``locate`` the profiles, walk their folders for the files that
belong in the index, bring the index up to date, load the settings, rank.  When it found the index current
and no folder it looked at changed while it looked, it keeps those folders' stats beside the index
(``index.keep_folders``: ``<db>.folders``).  ``search_current`` answers from that witness: when the
folders (``reader.folder_stats``: their ctime moves whenever an entry is added, removed or renamed), the
profiles and every indexed file's size and mtime are as recorded, the index is the one the full way would
use, unchanged, and ranking it gives the full way's results.  It imports ``reader``, ``query`` and ``rank``
(with ``os``, ``_sqlite3`` and ``time``): none of ``pathlib``, ``re``, ``datetime``, ``threading`` or the
``sqlite3`` package, which were two thirds of a fresh search's time.

Anything else takes the full way (``None``): a config file (its settings, providers), an OpenClaw
workspace (its own settings), ``--today``, no witness or a changed folder, a file changed, an index of
another schema, missing or damaged, a query that holds nothing to search for (the full way says why).
"""

from __future__ import annotations

import os

from .query import QueryError
from .reader import (
    FOLDERS_FILE,
    SCHEMA,
    Reader,
    _connect,
    _schema_of,
    folder_stats,
    index_file_for,
    read_folders,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .rank import Results


def search_current(path: str, query: str, limit: int, tags: Sequence[str] = ()) -> tuple[Results, int] | None:
    """(the results ``search_path(path, query, limit, tags=tags)`` would give, the number of profiles), or None."""
    from ..userdirs import config_present

    if config_present():
        return None
    given = os.path.abspath(path)
    db_file = index_file_for(given)
    witness = read_folders(db_file + FOLDERS_FILE)
    if witness is None:
        return None
    searched, roots, folders, files = witness
    if searched != given or any(layout != "profile" for _p, _n, _r, layout in roots):
        return None
    if folder_stats([f[0] for f in folders]) != folders or not os.path.exists(db_file):  # (never made here)
        return None
    from _sqlite3 import DatabaseError

    try:
        db = _connect(db_file)
    except DatabaseError:
        return None
    reader = Reader(db_file, db)
    try:
        if _schema_of(db) != SCHEMA or [tuple(r) for r in db.execute(
                "SELECT path, name, rel, layout FROM profiles ORDER BY ord")] != roots:
            return None
        known = db.execute("SELECT path, size, mtime_ns, hash FROM files").fetchall()
        if sorted(k[0] for k in known) != files:
            return None
        for file, size, mtime_ns, digest in known:
            try:
                st = os.stat(file)
            except OSError:
                return None
            if digest is None or st.st_size != size or st.st_mtime_ns != mtime_ns:
                return None
        from .rank import rank

        return rank(reader, query, limit, tags=tags), len(roots)
    except (DatabaseError, QueryError):
        return None
    finally:
        reader.close()

