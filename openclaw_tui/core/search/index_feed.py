"""The search indexes follow the writes: ``safe_write``'s write hook hands the files written to the indexes
covering them (the CLI, the MCP server and the Python API subscribe; the app feeds them from its reload worker).

Whether a write also updates the indexes is the user's ``[search] index_on_write`` (off by default: the next
``search`` re-indexes the changed entries itself); ``index_writes`` decides it for this process.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import write_hooks
from ..format.places import ARCHIVE_REL

if TYPE_CHECKING:
    from ..files.profile import Profile
    from ..files.store import MemoryDoc
    from ..format.entries import MemoryFile

_ON: list[bool | None] = [None]  # None: the config decides, read at the first write


def follow_writes() -> None:
    """Subscribe the search indexes to this process's writes (the config decides whether they take them)."""
    write_hooks.subscribe(_on_write)


def index_writes(on: bool | None) -> None:
    """Whether this process's writes update the indexes: ``on``, off, or None: as the config says."""
    _ON[0] = on
    follow_writes()


def _on_write(changes: Sequence[write_hooks.Change]) -> None:
    if _ON[0] is None:
        try:
            from ..config import load_config

            _ON[0] = load_config().search.index_on_write
        except Exception:  # noqa: BLE001 - a broken config file is reported by the commands that read it
            _ON[0] = False
    if _ON[0]:
        note_written(changes)


def note_written(changes: Sequence[tuple[Path, bytes | None, bytes | None]], *, catch_up: bool = False,
                 parsed: Mapping[Path, Callable[[], MemoryFile]] | None = None) -> None:
    """After the CLI or the app wrote files: update the search indexes that cover them, from the bytes written.
    Best-effort: an index that cannot be updated is left for the next ``search``; a write never fails here.
    ``catch_up`` and ``parsed``: see ``Index.apply_write``."""
    from .index import Index
    from .index_cache import indexes_covering

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
            with closing(index), suppress(OSError, ValueError, sqlite3.Error):
                index.apply_write(path, before, after, catch_up=catch_up,
                                  parsed=parsed.get(Path(path)) if parsed is not None else None)


def note_reloaded(before: Profile | None, after: Profile) -> None:
    """The app re-read a profile (its watcher saw a change): feed the indexes the files whose bytes changed.
    Call it off the event loop (the reload worker); best-effort like ``note_written``."""
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
