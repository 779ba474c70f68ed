"""Loading memory files: a ``MemoryDoc`` remembers the exact bytes it was loaded from.

Writing is not done here: every change is a ``core.lifecycle.plan.Plan``
written by ``apply_changes`` (compare-and-swap under the files' locks,
rebuilt by entry id when another program changed a file meanwhile), the one
write path of the app, the commands and the tests alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..format.entries import MemoryFile, decode, parse, reparse
from .safe_write import read_bytes


@dataclass
class MemoryDoc:
    path: Path
    data: bytes | None  # None: the file does not exist (yet)
    mf: MemoryFile
    utf8: bool = True

    @classmethod
    def load(cls, path: Path) -> MemoryDoc:
        data = read_bytes(Path(path))
        return cls.from_bytes(Path(path), data)

    @classmethod
    def from_bytes(cls, path: Path, data: bytes | None, previous: MemoryFile | None = None) -> MemoryDoc:
        """Parse ``data``; with ``previous`` (same file, earlier version) only the changed region is re-read."""
        text, bom, ok = decode(data or b"")
        if previous is not None and previous.bom == bom:
            return cls(Path(path), data, reparse(previous, text), ok)
        return cls(Path(path), data, parse(text, bom=bom), ok)

    def render(self, text: str) -> bytes:
        """Bytes of the file with ``text`` as its content (BOM kept)."""
        return (("\ufeff" if self.mf.bom else "") + text).encode("utf-8", "surrogateescape")
