"""What the session knows about one loaded profile: rows per memory file, findings, references."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from ..core.check.findings import Finding
from ..core.format.profile import ARCHIVE_REL, Profile
from ..core.format.rows import EntryRow, make_rows, problem_count, status_counts
from ..ui_adapters import RefIndexLike


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Build many small objects without cycles: collecting meanwhile would only cost time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class ProfileData:
    """One profile as the UI shows it: its rows (per memory file), findings and reference index."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.files: dict[str, list[EntryRow]] = {}
        if profile.memories is not None:
            self.files["memories.md"] = make_rows(profile.memories.mf, "memories.md")
        if profile.archive is not None:
            self.files[ARCHIVE_REL] = make_rows(profile.archive.mf, ARCHIVE_REL)
        self.by_id: dict[str, EntryRow] = {}
        for rows in self.files.values():
            for r in rows:
                if r.id and not r.malformed and r.id not in self.by_id:
                    self.by_id[r.id] = r
        self.indexed = False
        self.findings: list[Finding] | None = None
        self.check_note: str | None = None
        self.refs: RefIndexLike | None = None
        self._counts: dict[str, tuple[bool, int, tuple[dict[str, int], int | None]]] = {}

    @property
    def path(self) -> Path:
        return self.profile.path

    @property
    def prefix(self) -> str:
        """The profile's folder relative to the opened root, as watcher paths start (``""`` for the root)."""
        rel = self.profile.rel
        return "" if rel in (".", "") else rel.rstrip("/") + "/"

    def known(self, ident: str) -> bool:
        return ident in self.by_id

    def serious(self) -> int:
        """Findings that are not merely informative."""
        return sum(1 for f in self.findings or () if f.severity != "info")

    def status_counts(self, file: str) -> tuple[dict[str, int], int | None]:
        """Entries per status in ``file`` and how many have a problem (None until checked); empty until
        indexed.  Cached until the check reports."""
        if not self.indexed:
            return {}, None
        cached = self._counts.get(file)
        key = (self.findings is not None, id(self.findings))
        if cached is not None and cached[:2] == key:
            return cached[2]
        rows = self.files.get(file, [])
        value = (status_counts(rows), problem_count(rows) if self.findings is not None else None)
        self._counts[file] = (*key, value)
        return value

    def counts_by_file(self) -> dict[str, tuple[int, int]]:
        """(errors, warnings) per file, for the file tree's ✗ n / ! n."""
        counts: dict[str, list[int]] = {}
        for f in self.findings or []:
            c = counts.setdefault(f.file, [0, 0])
            if f.severity == "error":
                c[0] += 1
            elif f.severity == "warning":
                c[1] += 1
        return {k: (v[0], v[1]) for k, v in counts.items()}
