"""The index databases in the user's cache folder: where a searched folder's index lives, which indexes cover
a file, and the forgetting of indexes whose folder is gone."""

from __future__ import annotations

import hashlib
import os
from contextlib import suppress
from pathlib import Path

from ..format.places import present


def index_path_for(folder: Path | str) -> Path:
    """The database file of a searched folder, in the user's cache folder."""
    from ..userdirs import cache_dir

    return _db_in(cache_dir() / "search", os.path.realpath(folder))


def _db_in(base: Path, real_folder: str) -> Path:
    return base / f"{hashlib.sha1(real_folder.encode('utf-8', 'surrogateescape')).hexdigest()[:16]}.sqlite3"


FOLDER_NOTE = ".folder"  # beside each index: the searched folder's real path (``forget_gone_folders``)


def forget_gone_folders(search_dir: Path, keep: Path | None = None) -> list[Path]:
    """Delete the indexes of searched folders that no longer exist, as named by the note beside each one
    (an index with no note is left alone; so is ``keep``).  Returns the indexes deleted."""
    gone: list[Path] = []
    for note in search_dir.glob(f"*.sqlite3{FOLDER_NOTE}"):
        db = Path(str(note)[: -len(FOLDER_NOTE)])
        try:
            folder = note.read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            continue
        if db == keep or not os.path.isabs(folder) or present(Path(folder)):  # unreadable just now: kept
            continue
        for suffix in ("", "-wal", "-shm", "-journal", ".lock", FOLDER_NOTE, ".best", ".folders"):  # (.best, .folders: left by older versions)
            with suppress(OSError):
                os.unlink(str(db) + suffix)
        gone.append(db)
    return gone


def indexes_covering(path: Path | str) -> list[Path]:
    """The index databases that exist for the folders above ``path`` (the ones a write to it concerns)."""
    from ..userdirs import cache_dir

    base = cache_dir() / "search"
    if not base.is_dir():
        return []
    dbs = (_db_in(base, str(folder)) for folder in Path(os.path.realpath(path)).parents)
    return [db for db in dbs if db.is_file()]
