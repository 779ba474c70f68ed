"""What the session knows about one loaded profile: rows per memory file, findings, references."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import attrgetter
from pathlib import Path

from ...core.check.findings import Finding
from ...core.files.profile import ARCHIVE_REL, Profile
from ...core.files.reload import ChangedRegion
from ...core.files.store import MemoryDoc
from ...core.format.entries import Entry, MemoryFile, parse, reparse
from ..adapters import RefIndexLike
from ..rows import EntryRow, RawText, make_rows, problem_count, status_counts

_START, _END = attrgetter("start"), attrgetter("end")
MEMORY_DOCS = (("memories.md", "memories"), (ARCHIVE_REL, "archive"))  # file -> Profile attribute


# Rows kept from the previous version of a file, re-pointed at the new parse when it is shown (UI thread):
# (rows, entries, first, end): rows[i] takes entries[i] for first <= i < end.
Repoint = tuple[list[EntryRow], list[Entry], int, int]


class ProfileData:
    """One profile as the UI shows it: its rows (per memory file), findings and reference index.

    With ``previous`` (the profile as shown before it was re-read), the rows of unchanged blocks are
    kept, and findings and references carried over (``findings_stale``, ``refs_stale``) until the
    background work replaces them.  :meth:`adopt_rows` must run (UI thread) before it is shown.
    """

    def __init__(self, profile: Profile, previous: ProfileData | None = None) -> None:
        self.profile = profile
        self.files: dict[str, list[EntryRow]] = {}
        self._repoint: list[Repoint] = []
        all_filled = True  # every row filled (rows of an indexed previous version are)
        for rel, attr in MEMORY_DOCS:
            doc: MemoryDoc | None = getattr(profile, attr)
            if doc is None:
                continue
            old_doc = getattr(previous.profile, attr) if previous is not None else None
            old_rows = previous.files.get(rel) if previous is not None else None
            if old_doc is None or old_rows is None or not old_doc.parsed:
                self.files[rel] = make_rows(doc.mf, rel)
                all_filled = all_filled and not self.files[rel]
                continue
            rows, repoint = reuse_rows(old_rows, old_doc.mf, doc.mf, rel)
            self.files[rel] = rows
            self._repoint += repoint
            if rows is old_rows or not repoint:  # the same rows, or new rows for a parse they did not come from
                all_filled = all_filled and all(r.filled for r in rows)
            # else: the kept rows are the previous version's (filled when it was indexed), the others new and filled
        self.by_id: dict[str, EntryRow] = {}
        for rows in self.files.values():
            for r in rows:
                if r.id and not r.malformed and r.id not in self.by_id:
                    self.by_id[r.id] = r
        self.indexed = False
        self.raw: dict[str, RawText] = {}  # file -> its text lowered, while the rows are being indexed
        self.findings: list[Finding] | None = None
        self.check_note: str | None = None
        self.refs: RefIndexLike | None = None
        self.findings_stale = False  # findings (and marks) of the previous version, until re-checked
        self.refs_stale = False
        if previous is not None:
            self.indexed = previous.indexed and all_filled
            self.findings, self.check_note = previous.findings, previous.check_note
            self.findings_stale = previous.findings is not None
            self.refs, self.refs_stale = previous.refs, previous.refs is not None
        self._counts: dict[str, tuple[bool, int, tuple[dict[str, int], int | None]]] = {}
        # (the data it was worded against, the notices): made by the reload worker (Session.prepare_reload)
        self.notices: tuple[ProfileData, list[str]] | None = None

    def adopt_rows(self) -> None:
        """Re-point the rows kept from the previous version at the new parse (UI thread, before showing)."""
        for rows, entries, first, end in self._repoint:
            for i in range(first, end):
                row, entry = rows[i], entries[i]
                row.entry, row.line, row.order = entry, entry.line, i
        self._repoint = []

    @property
    def path(self) -> Path:
        return self.profile.path

    @property
    def prefix(self) -> str:
        """The profile's folder relative to the opened root, as watcher paths start (``""`` for the root)."""
        rel = self.profile.rel
        return "" if rel in (".", "") else rel.rstrip("/") + "/"

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


def reread_docs(fresh: Profile, previous: Profile) -> None:
    """Give ``fresh`` (loaded lazily) the parses of ``previous`` for its memory files: the same document
    when the text is unchanged, else a parse of only the changed region (``reparse``, equal to a full
    parse).  A file whose encoding changed is parsed in full on first use."""
    for _rel, attr in MEMORY_DOCS:
        new: MemoryDoc | None = getattr(fresh, attr)
        old: MemoryDoc | None = getattr(previous, attr)
        if new is None or old is None or not old.parsed or new.bom != old.bom or new.utf8 != old.utf8:
            continue
        if new.text == old.text and new.data == old.data:
            setattr(fresh, attr, old)
        else:
            new.adopt(reparse(old.mf, new.text))


def _block(e: Entry, shift: int) -> tuple[object, ...]:
    return (e.id, e.error, e.start - shift, e.fm_end - shift, e.body_start - shift, e.end - shift)


def _kept(old: MemoryFile, new: MemoryFile) -> tuple[int, int]:
    """How many blocks at the start (head) and at the end (tail) of both parses are the same blocks:
    those ending before the first difference, and those starting inside the common suffix (every
    block is compared when the boundary blocks disagree, e.g. a code fence opened far away).
    """
    oe, ne = old.entries, new.entries
    if old.text == new.text:
        return len(ne), 0
    region = ChangedRegion(old.text, new.text)
    lo, ln = len(old.text), len(new.text)
    ha = bisect_right(oe, region.line, key=_END)
    hb = bisect_right(ne, region.line, key=_END)
    ta = len(oe) - max(ha, bisect_left(oe, region.z_old + 1, key=_START))
    tb = len(ne) - max(hb, bisect_left(ne, region.z_new + 1, key=_START))
    if (ha == hb and (ha == 0 or _block(oe[ha - 1], 0) == _block(ne[ha - 1], 0))
            and ta == tb and (ta == 0 or _block(oe[-ta], lo) == _block(ne[-tb], ln))):
        return ha, ta
    head = 0  # compare block by block (both lists are in file order)
    n = min(len(oe), len(ne))
    while head < n and oe[head].end <= region.prefix and _block(oe[head], 0) == _block(ne[head], 0):
        head += 1
    tail = 0
    while (tail < len(oe) - head and tail < len(ne) - head and oe[-1 - tail].start > region.z_old
           and _block(oe[-1 - tail], lo) == _block(ne[-1 - tail], ln)):
        tail += 1
    return head, tail


def reuse_rows(old_rows: list[EntryRow], old: MemoryFile, new: MemoryFile,
               file: str) -> tuple[list[EntryRow], list[Repoint]]:
    """Rows for ``new``: the old row of every block whose bytes and parse did not change (kept, with its
    fill and marks, to re-point with the returned ranges), a new row for each other block (with the
    marks of the old row of its id until the check reports again).
    """
    if old is new:
        return old_rows, []
    if len(old_rows) != len(old.entries) or (old_rows and old_rows[0].entry is not old.entries[0]):
        return make_rows(new, file), []  # rows of another parse: nothing to match them with
    head, tail = _kept(old, new)
    oe, ne = old.entries, new.entries
    old_mid = {r.id: r for r in old_rows[head : len(oe) - tail] if r.id and not r.malformed}
    mid: list[EntryRow] = []
    for i in range(head, len(ne) - tail):
        row = EntryRow(ne[i], file, i)
        row.fill()
        before = old_mid.get(row.id)
        if before is not None and not row.malformed:
            row.marks = {**before.marks}
            row.problem, row.partners, row.messages = before.problem, before.partners, before.messages
        mid.append(row)
    rows = old_rows[:head] + mid + old_rows[len(oe) - tail :]
    repoint: list[Repoint] = [(rows, ne, 0, head), (rows, ne, len(ne) - tail, len(ne))]
    return rows, repoint


PREVIEW_CHARS = 1 << 17  # the part of memories.md read for the first screenful (a few hundred entries)


def preview_rows(doc: MemoryDoc, file: str, chars: int = PREVIEW_CHARS) -> list[EntryRow]:
    """Rows (filled) for the first blocks of ``doc``, parsed from its first ``chars`` characters only:
    exactly the first rows of the whole file's parse (the part's last block, and every block from a
    code fence the part does not close, are left out).
    """
    text = doc.text
    cut = len(text) if len(text) <= chars else text.rfind("\n", 0, chars) + 1
    mf = parse(text[:cut], bom=doc.bom) if cut < len(text) else doc.mf
    entries = mf.entries if cut == len(text) else mf.entries[:-1]
    if cut < len(text) and mf.failed_fence is not None:
        stop = mf.failed_fence
        entries = [e for e in entries if e.end <= stop]
    rows = [EntryRow(e, file, i) for i, e in enumerate(entries)]
    for r in rows:
        r.fill()
    return rows
