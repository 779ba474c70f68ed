"""Loading memory files: a ``MemoryDoc`` remembers the exact bytes it was loaded from (writes go
through ``core.lifecycle.plan.apply_changes``)."""

from __future__ import annotations

import threading
from pathlib import Path

from ..format.entries import MemoryFile, decode, parse, reparse
from .safe_write import read_bytes

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

    def adopt(self, mf: MemoryFile) -> None:
        """Take ``mf`` as the parse of this document (it must equal ``parse(self.text)``: a cached one)."""
        with _PARSE_LOCK:
            if self._mf is None:
                self._mf = mf

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
        """Parse ``data``; with ``previous`` (same file, earlier version) only the changed region is
        re-read; with ``lazy``, nothing is parsed until ``mf`` is first used."""
        text, bom, ok = decode(data or b"")
        if previous is not None and previous.bom == bom:
            return cls(Path(path), data, reparse(previous, text), ok)
        if lazy:
            return cls(Path(path), data, None, ok, text=text, bom=bom)
        return cls(Path(path), data, parse(text, bom=bom), ok)

    def render(self, text: str) -> bytes:
        """Bytes of the file with ``text`` as its content (BOM kept)."""
        return (("\ufeff" if self.bom else "") + text).encode("utf-8", "surrogateescape")
