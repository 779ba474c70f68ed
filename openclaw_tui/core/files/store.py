"""Loading memory files and committing edits to them safely.

A ``MemoryDoc`` remembers the exact bytes it was loaded from.  ``commit``
writes an edit under the file's lock; if another program changed the file
meanwhile, the edit is re-applied to the new content when none of the
entries it touches changed (merge by entry id), else it is refused.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from ..format.entries import MemoryFile, decode, parse, reparse
from .safe_write import ConcurrentModification, read_bytes, write_if_unchanged, write_many

Edit = Callable[[MemoryFile], str]


_PARSE_LOCK = threading.Lock()


class MemoryDoc:
    """A memory file as loaded: its exact bytes and, parsed on first use when loaded lazily, ``mf``."""

    def __init__(
        self, path: Path, data: bytes | None, mf: MemoryFile | None = None, utf8: bool = True,
        *, text: str = "", bom: bool = False,
    ) -> None:
        self.path = path
        self.data = data  # None: the file does not exist (yet)
        self.utf8 = utf8
        self._mf = mf
        self.text = mf.text if mf is not None else text  # the content without its BOM
        self.bom = mf.bom if mf is not None else bom

    def __repr__(self) -> str:
        return f"MemoryDoc({str(self.path)!r}, {len(self.data or b'')} bytes, parsed={self.parsed})"

    @property
    def mf(self) -> MemoryFile:
        """The parsed file (a lazily loaded document is parsed here, once)."""
        if self._mf is None:
            with _PARSE_LOCK:
                if self._mf is None:
                    self._mf = parse(self.text, bom=self.bom)
        return self._mf

    @property
    def parsed(self) -> bool:
        return self._mf is not None

    @classmethod
    def load(cls, path: Path, *, lazy: bool = False) -> MemoryDoc:
        data = read_bytes(Path(path))
        return cls.from_bytes(Path(path), data, lazy=lazy)

    @classmethod
    def from_bytes(
        cls, path: Path, data: bytes | None, previous: MemoryFile | None = None, *, lazy: bool = False
    ) -> MemoryDoc:
        """Parse ``data``; with ``previous`` (same file, earlier version) only the changed region is re-read.

        With ``lazy``, nothing is parsed until ``mf`` is first used (an edit of one entry may never need it).
        """
        text, bom, ok = decode(data or b"")
        if previous is not None and previous.bom == bom:
            return cls(Path(path), data, reparse(previous, text), ok)
        if lazy:
            return cls(Path(path), data, None, ok, text=text, bom=bom)
        return cls(Path(path), data, parse(text, bom=bom), ok)

    def render(self, text: str) -> bytes:
        """Bytes of the file with ``text`` as its content (BOM kept)."""
        return (("\ufeff" if self.bom else "") + text).encode("utf-8", "surrogateescape")


def _raws(mf: MemoryFile, ids: Iterable[str]) -> dict[str, list[str]]:
    wanted = set(ids)
    found: dict[str, list[str]] = {i: [] for i in wanted}
    for e in mf.entries:
        if e.id in wanted:
            found[e.id].append(e.raw)
    return found


def rebase_edit(doc: MemoryDoc, current: bytes | None, edit: Edit, touched: Iterable[str]) -> bytes:
    """Re-apply ``edit`` on ``current`` if the touched entries are unchanged there."""
    touched = list(touched)
    if current is None:
        raise ConcurrentModification(doc.path, "it was deleted")
    now = MemoryDoc.from_bytes(doc.path, current)
    if "__preamble__" in touched and now.mf.preamble != doc.mf.preamble:
        raise ConcurrentModification(doc.path, "the preamble changed")
    ids = [t for t in touched if t != "__preamble__"]
    before, after = _raws(doc.mf, ids), _raws(now.mf, ids)
    changed = [i for i in ids if before[i] != after[i]]
    if changed:
        raise ConcurrentModification(doc.path, f"{', '.join(sorted(changed))} changed there too")
    return now.render(edit(now.mf))


def commit(doc: MemoryDoc, edit: Edit, touched: Iterable[str]) -> MemoryDoc:
    """Apply ``edit`` to the file of ``doc`` safely; returns the new document."""
    touched = list(touched)
    new = doc.render(edit(doc.mf))
    written = write_if_unchanged(
        doc.path, doc.data, new, rebase=lambda current: rebase_edit(doc, current, edit, touched)
    )
    return MemoryDoc.from_bytes(doc.path, written, previous=doc.mf)


def commit_many(changes: list[tuple[MemoryDoc, bytes]]) -> None:
    """Write several documents at once (compare-and-swap on each, under all locks)."""
    write_many([(d.path, d.data, data) for d, data in changes])
