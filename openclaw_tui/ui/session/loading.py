"""Loading profiles for the app (worker threads): discovery, the first rows, the parse in steps, the rows'
index and the check, each yielding to the person typing."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.files.profile import Discovery, Profile, discover, load_profile
from ...core.format.spans import block_starts_in_parts, parse_in_steps
from ..adapters import build_refs, run_check
from ..rows import BlockRows, EntryRow, RawText, apply_findings, fill_all, lower_in_slices
from .profiles import ProfileData, preview_rows, reread_docs

INDEX_CHUNK = 500  # rows filled between two looks at the keyboard


class Loading:
    """The loading part of ``Session``: reading, indexing and checking profiles off the UI thread (it waits
    for a reload in flight: ``Watching.wait_for_reload``)."""

    source_path: Path | None
    discovery: Discovery | None
    today: dt.date | None
    data: dict[Path, ProfileData]
    _blocks: dict[Path, RawText]
    _typed_at: float
    if TYPE_CHECKING:  # what Watching and Session provide (for the type checker only)
        def wait_for_reload(self, path: Path, cancelled: Callable[[], bool] = lambda: False) -> None: ...
        def stale(self, data: ProfileData) -> bool: ...

    def discover(self, *, lazy: bool = False) -> Discovery:
        """The profiles under the opened path (``lazy``: not parsed yet). Raises NotMemory. (Worker.)"""
        if self.discovery is not None:
            return self.discovery
        return discover(self.source_path or Path("."), lazy=lazy, workspaces=True)  # W: a workspace under a root

    @staticmethod
    def preview(profile: Profile) -> list[EntryRow]:
        """The first rows of ``profile``'s memories.md, from its first part only (worker thread)."""
        if profile.layout != "profile" or profile.memories is None:
            return []
        return preview_rows(profile.memories, "memories.md")

    def blocks(self, profile: Profile, first: Sequence[EntryRow],
               on_part: Callable[[RawText], None] | None = None) -> RawText | None:
        """The text of ``profile``'s memories.md over every one of its blocks, before the file is parsed
        (:class:`BlockRows`; ``first``: its preview rows), for a filter typed meanwhile; None when only
        the parse can say where its blocks are.  ``on_part`` takes each run of the file's first blocks
        found meanwhile, over more blocks than ``first``. (Worker thread.)"""
        doc = profile.memories
        if profile.layout != "profile" or doc is None or doc.parsed:
            return None
        for found in block_starts_in_parts(doc.text, pause=lambda: time.sleep(0)):
            if found is None:
                return None
            starts, lines, end = found
            if end is not None:  # a run of the first blocks
                if on_part is not None and len(starts) > len(first):
                    on_part(RawText.of_blocks(BlockRows(doc.text, starts, "memories.md", first, lines, end)))
                continue
            blocks = BlockRows(doc.text, starts, "memories.md", first, lines)
            raw = self._blocks[profile.path] = RawText.of_blocks(blocks)
            return raw
        return None

    def lower(self, raw: RawText) -> None:
        """Give ``raw`` its lowered text (words with letters then find their rows too). (Worker thread.)"""
        if raw.text is not None and raw.low is None:
            low = lower_in_slices(raw.text, pause=self.yield_to_user)
            raw.low = low if len(low) == len(raw.text) else None  # offsets kept (else words with case wait)

    def read_found(self, profiles: Sequence[Profile]) -> list[ProfileData]:
        """:meth:`read`, each memories.md whose block starts :meth:`blocks` found parsed in steps between
        them first, yielding to the person typing, its lowered text kept. (Worker thread.)"""
        blocks = {p.path: self._blocks.pop(p.path) for p in profiles if p.path in self._blocks}
        for p in profiles:
            doc, raw = p.memories, blocks.get(p.path)
            if doc is not None and raw is not None and raw.text is doc.text and not doc.parsed:
                doc.adopt(parse_in_steps(doc.text, doc.bom, raw.starts, pause=self._parse_pause))
        datas = self.read(profiles)
        for data in datas:
            made, raw = data.raw.get("memories.md"), blocks.get(data.path)
            if made is not None and raw is not None and raw.text is made.text:
                made.low = raw.low  # lowered meanwhile (else None: the index lowers it)
        return datas

    @staticmethod
    def read(profiles: Sequence[Profile]) -> list[ProfileData]:
        """Rows for each profile, each file with its text's positions (:class:`RawText`, not lowered) for a
        filter typed before the rows are indexed. (Worker thread.)"""
        datas = [ProfileData(p) for p in profiles]
        for data in datas:
            for file, rows in data.files.items():
                if rows:
                    data.raw[file] = RawText(rows, lower=False)
        return datas

    def _parse_pause(self) -> None:
        self.yield_to_user()
        time.sleep(0)

    @staticmethod
    def read_again(profile: Profile, previous: ProfileData | None = None) -> ProfileData:
        """A profile re-read from disk (worker thread); with ``previous`` (the profile as shown now) an unchanged
        memory file keeps its parse and rows, a changed one the rows of its unchanged blocks."""
        if previous is None or previous.profile.layout != profile.layout:
            fresh = load_profile(profile.path, profile.rel, profile.layout)
            return ProfileData(fresh)
        fresh = load_profile(profile.path, profile.rel, profile.layout, lazy=True)
        reread_docs(fresh, previous.profile)
        return ProfileData(fresh, previous)

    # --- the person first: background work waits while they type ---------------------------

    TYPING_PAUSE = 0.4  # seconds after a key during which background Python work stays asleep

    def user_typed(self) -> None:
        """A key went into a filter (UI thread): background work yields the interpreter for a moment."""
        self._typed_at = time.monotonic()

    def since_typed(self) -> float:
        """Seconds since the last key typed into a filter (or since the filter was focused to type)."""
        return time.monotonic() - self._typed_at

    def yield_to_user(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Sleep while the person is typing (worker thread): the UI gets the interpreter."""
        while time.monotonic() - self._typed_at < self.TYPING_PAUSE and not cancelled():
            time.sleep(0.02)

    def index(self, data: ProfileData, cancelled: Callable[[], bool]) -> bool:
        """Fill every row's fields and haystack (filters, counts). False when cancelled. (Worker thread.)"""
        if data.indexed:
            return True
        for file, rows in data.files.items():  # first: a filter typed meanwhile finds rows by their text
            made = data.raw.get(file)
            if rows and not all(r.filled for r in rows[-1:]) and (made is None or made.low is None):
                self.yield_to_user(cancelled)
                data.raw[file] = RawText(rows, pause=lambda: self.yield_to_user(cancelled))
        for rows in data.files.values():
            for start in range(0, len(rows), INDEX_CHUNK):
                self.yield_to_user(cancelled)
                self.wait_for_reload(data.path, cancelled)  # the re-read goes first; it keeps these rows
                if cancelled():
                    return False
                fill_all(rows[start : start + INDEX_CHUNK])
        data.indexed = True
        data.raw = {}
        return True

    def check(self, data: ProfileData, cancelled: Callable[[], bool] | None = None) -> None:
        """Run the consistency check and mark the rows (worker thread; with ``cancelled``, in a child
        process that quitting kills at once)."""
        findings, note = run_check(data.profile, self.today, cancelled=cancelled)
        if self.stale(data) and data.path in self.data:
            return  # re-read meanwhile: its rows are the newer version's, checked by its own run
        apply_findings(data.files, findings)
        data.findings, data.check_note = findings, note
        data.findings_stale = False

    @staticmethod
    def index_refs(data: ProfileData) -> None:
        data.refs = build_refs(data.profile)
        data.refs_stale = False
