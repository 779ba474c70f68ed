"""Two versions of a memory file compared by entry id (``semantic_diff``), and a profile's memories.md and
archive together (``profile_diff``), where a move between them reads as archived or restored.

Pure functions over bytes: ``history`` feeds them blobs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..format.entries import (
    MemoryFile,
    classify_block,
    common_prefix,
    common_suffix,
    decode,
    looks_like_frontmatter,
    parse,
    split_trailing,
)

MEMORIES = "memories.md"
ARCHIVE = "contexts/archive/memories.md"
Buf = bytes | bytearray


def has_fence(data: bytes | bytearray) -> bool:
    """Could the text hold a fenced code block (a run of three backticks or tildes)?"""
    for single, triple in ((b"`", b"```"), (b"~", b"~~~")):
        first = data.find(single)  # one byte: a fast memchr, and most files have none
        if first >= 0 and data.find(triple, first) >= 0:
            return True
    return False


def id_line_re(entry_id: str) -> re.Pattern[bytes]:
    ident = re.escape(entry_id.encode())
    return re.compile(rb"id[ \t]*:[ \t]*(?:" + ident + rb"|'" + ident + rb"'|\"" + ident + rb"\")[ \t]*(?:#[^\n]*)?\r?")


def odd_id_line(data: Buf, idb: bytes) -> bool:
    """Could a line naming ``idb`` be an id line the quick pattern missed (odd quoting, flow style)?"""
    pos = data.find(idb)
    while pos >= 0:
        ls = data.rfind(b"\n", 0, pos) + 1
        if b"id" in data[ls:pos]:
            return True
        pos = data.find(idb, pos + 1)
    return False


# --- semantic diff of one memory file ----------------------------------------------------------


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: Any  # None when the field was absent
    new: Any  # None when the field is absent now

    @property
    def kind(self) -> str:
        return "added" if self.old is None else "removed" if self.new is None else "changed"


@dataclass(frozen=True)
class EntryChange:
    id: str
    kind: str  # "added", "removed", "changed"
    old_raw: str | None = None
    new_raw: str | None = None
    fields: tuple[FieldChange, ...] = ()
    body_changed: bool = False
    format_changed: bool = False  # the frontmatter text changed but no value did (comments, quoting, order)
    old_line: int | None = None
    new_line: int | None = None

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @property
    def status_change(self) -> tuple[str, str] | None:
        f = next((f for f in self.fields if f.name == "status"), None)
        if f is None:
            return None
        return (str(f.old) if f.old is not None else "active", str(f.new) if f.new is not None else "active")

    def describe(self) -> str:
        parts = list(self.field_names) + (["body"] if self.body_changed else [])
        if not parts and self.format_changed:
            parts = ["formatting"]
        return ", ".join(parts)


@dataclass(frozen=True)
class SemanticDiff:
    added: tuple[EntryChange, ...] = ()
    removed: tuple[EntryChange, ...] = ()
    changed: tuple[EntryChange, ...] = ()
    preamble_changed: bool = False
    malformed_changed: bool = False  # malformed blocks appeared, vanished or changed
    bytes_changed: bool = False

    @property
    def unexplained(self) -> bool:
        """The bytes changed in a way no entry change accounts for (preamble, malformed text, blank lines)."""
        return self.bytes_changed and (
            self.preamble_changed or self.malformed_changed or not (self.added or self.removed or self.changed)
        )

    def all(self) -> list[EntryChange]:
        return [*self.added, *self.changed, *self.removed]

    def get(self, entry_id: str) -> EntryChange | None:
        return next((c for c in self.all() if c.id == entry_id), None)


_DELIM_LINE = re.compile(rb"---[ \r]*")
def delims_before(data: Buf, pos: int) -> Iterator[int]:
    """Starts of ``---`` lines that begin before ``pos``, nearest first."""
    while pos > 0:
        nl = data.rfind(b"\n---", 0, pos)
        start = nl + 1 if nl >= 0 else 0
        if nl < 0 and not data.startswith(b"---"):
            return
        if _is_delim(data, start):
            yield start
        if start == 0:
            return
        pos = nl


def delims_after(data: Buf, pos: int) -> Iterator[int]:
    """Starts of ``---`` lines at or after ``pos`` (a line start), in order."""
    if pos == 0 and _is_delim(data, 0):
        yield 0
    while True:
        nl = data.find(b"\n---", max(pos - 1, 0))
        if nl < 0:
            return
        if _is_delim(data, nl + 1):
            yield nl + 1
        pos = nl + 2


def _is_delim(data: Buf, start: int) -> bool:
    end = data.find(b"\n", start)
    return _DELIM_LINE.fullmatch(data, start, len(data) if end < 0 else end) is not None


def line_end(data: Buf, start: int) -> int:
    nl = data.find(b"\n", start)
    return len(data) if nl < 0 else nl + 1


def block_kind(data: Buf, opener: int, closer: int) -> str:
    """What the parser makes of the block between two ``---`` lines: entry, malformed or text."""
    start = line_end(data, opener)
    block = data[start:closer].decode("utf-8", "surrogateescape")
    if data.find(b"id", start, closer) < 0 and not looks_like_frontmatter(block):
        return "text"  # no id and no known key first: neither an entry nor a malformed block (no YAML needed)
    return classify_block(block, 1)[0]


def _is_entry_start(data: Buf, d: int, lo: int, hi: int) -> bool:
    """Is the ``---`` line at ``d`` certainly an entry start, judging only from ``data[lo:hi]``?

    It is when the block before it is plain text and its own block is an entry or a malformed block.
    """
    prev = next(delims_before(data, d), None)
    if prev is not None:
        if prev < lo or block_kind(data, prev, d) != "text":
            return False
    nxt = next((x for x in delims_after(data, line_end(data, d)) if x > d), None)
    if nxt is None or line_end(data, nxt) > hi:
        return False
    return block_kind(data, d, nxt) != "text"


_ID_KEY_RE = re.compile(rb"\nid:([^\n]*)")
Window = tuple[int, int, int, int]  # old start, old end, new start, new end
Span = tuple[int, int]


def _chunks(data: Buf) -> tuple[list[bytes], list[bytes], list[int]] | None:
    """The file cut before every ``\nid:``: (pieces, the id text after each cut, cumulative lengths).

    None when an id text repeats: then the pieces cannot be paired.
    """
    chunks = (bytes(data) if isinstance(data, bytearray) else data).split(b"\nid:")
    keys = _ID_KEY_RE.findall(data)  # not stripped: a changed spacing only widens the windows
    if len(set(keys)) != len(keys):
        return None
    return chunks, keys, list(itertools.accumulate(map(len, chunks)))


def _cut(lengths: list[int], k: int) -> int:
    """Offset of the newline before key ``k``'s ``id:`` line."""
    return lengths[k] + 4 * k


def _entry_spans(data: Buf, lengths: list[int], picked: list[int], with_preamble: bool) -> list[Span] | None:
    """Spans from each picked key's entry start to the next one's, runs merged (``with_preamble``: and
    the top of the file to the first entry)."""
    keys = len(lengths) - 1
    raw: list[Span] = []
    if with_preamble:
        first = opener_of(data, _cut(lengths, 0) + 1) if keys else len(data)
        if first is None:
            return None
        raw.append((0, first))
    for k in sorted(picked):
        start = opener_of(data, _cut(lengths, k) + 1)
        end = opener_of(data, _cut(lengths, k + 1) + 1) if k + 1 < keys else len(data)
        if start is None or end is None:
            return None
        raw.append((start, end))
    spans: list[Span] = []
    for start, end in raw:
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def opener_of(data: Buf, id_line: int) -> int | None:
    """The entry start holding the ``id:`` line at ``id_line``, when it certainly is one."""
    d = next(delims_before(data, id_line), None)
    return d if d is not None and _is_entry_start(data, d, 0, len(data)) else None


def _windows(old: Buf, new: Buf) -> list[Window]:
    """Slices of both files, cut at entry starts, that hold every entry that may differ.

    An entry did not change when its piece and the one before it are the same bytes in both files.
    Anything unusual (fences, a repeated id, an uncertain entry start) gives one window over everything.
    """
    full = [(0, len(old), 0, len(new))]
    if has_fence(old) or has_fence(new):
        return full  # fences could hide delimiters: read everything
    o, n = _chunks(old), _chunks(new)
    if o is None or n is None:
        return full
    (o_chunks, o_keys, o_lengths), (n_chunks, n_keys, n_lengths) = o, n
    preamble = o_chunks[0] != n_chunks[0]
    # keys in the same place at both ends are paired by position (cheap); the rest by key
    head = common_prefix(o_keys, n_keys)
    tail = common_suffix(o_keys, n_keys, min(len(o_keys), len(n_keys)) - head)
    o_pick: list[int] = []  # key numbers (piece k+1 holds key k) of entries that may differ
    n_pick: list[int] = []
    if head:
        same = [x == y for x, y in zip(o_chunks[: head + 1], n_chunks[: head + 1], strict=True)]
        o_pick += [k for k in range(head) if not (same[k] and same[k + 1])]
    if tail:
        o0, n0 = len(o_keys) - tail, len(n_keys) - tail
        same = [x == y for x, y in zip(o_chunks[o0 : o0 + tail + 1], n_chunks[n0 : n0 + tail + 1], strict=True)]
        o_pick += [o0 + k for k in range(tail) if not (same[k] and same[k + 1])]
    n_pick += [k if k < head else k - len(o_keys) + len(n_keys) for k in o_pick]
    o_mid = {key: i for i, key in enumerate(o_keys[head : len(o_keys) - tail], head)}
    n_mid = {key: j for j, key in enumerate(n_keys[head : len(n_keys) - tail], head)}
    for key, i in o_mid.items():
        j = n_mid.get(key)
        if j is None or o_chunks[i + 1] != n_chunks[j + 1] or o_chunks[i] != n_chunks[j]:
            o_pick.append(i)
            if j is not None:
                n_pick.append(j)
    n_pick += [j for key, j in n_mid.items() if key not in o_mid]
    o_spans = _entry_spans(old, o_lengths, o_pick, preamble)
    n_spans = _entry_spans(new, n_lengths, n_pick, preamble)
    if o_spans is None or n_spans is None:
        return full
    if not o_spans and not n_spans:
        return full  # the bytes differ outside any entry we could see: compare everything
    # pair the spans up for parsing (a window may be empty on one side)
    width = max(len(o_spans), len(n_spans))
    o_spans += [(len(old), len(old))] * (width - len(o_spans))
    n_spans += [(len(new), len(new))] * (width - len(n_spans))
    return [(a, b, c, d) for (a, b), (c, d) in zip(o_spans, n_spans, strict=True)]


def _id_elsewhere(data: Buf, entry_id: str, spans: list[tuple[int, int]]) -> bool:
    """Does an ``id:`` line for ``entry_id`` appear outside the given (sorted) spans?"""
    idb = entry_id.encode()
    id_re = id_line_re(entry_id)
    bounds = [0, *itertools.chain.from_iterable(spans), len(data)]
    for a, b in zip(bounds[::2], bounds[1::2], strict=True):
        pos = data.find(idb, a, b)
        while pos >= 0:
            ls = data.rfind(b"\n", 0, pos) + 1
            le = data.find(b"\n", pos)
            if id_re.fullmatch(data, ls, len(data) if le < 0 else le) or odd_id_line(data[ls : pos + len(idb)], idb):
                return True
            pos = data.find(idb, pos + 1, b)
    return False


def parse_slice(data: Buf, a: int, b: int) -> MemoryFile:
    text, bom, _ok = decode(bytes(data[a:b]))
    return parse(text, bom=bom)


def _field_changes(old: dict[str, Any], new: dict[str, Any]) -> tuple[FieldChange, ...]:
    keys = list(old) + [k for k in new if k not in old]
    changed = [k for k in keys if not (k in old and k in new and old[k] == new[k])]
    return tuple(FieldChange(k, old.get(k), new.get(k)) for k in changed)


def _entry_change(eid: str, old: Any, new: Any, old_off: int, new_off: int) -> EntryChange:
    o_content, n_content = split_trailing(old.raw)[0], split_trailing(new.raw)[0]
    fields = _field_changes(old.meta, new.meta)
    body_changed = split_trailing(old.body)[0] != split_trailing(new.body)[0]
    fm_changed = old.frontmatter != new.frontmatter
    return EntryChange(
        eid, "changed", o_content, n_content, fields, body_changed, fm_changed and not fields,
        old.line + old_off, new.line + new_off,
    )


def semantic_diff(old: bytes | None, new: bytes | None) -> SemanticDiff:
    """Compare two versions of a memory file by entry id (None: absent); only what differs is parsed."""
    old_b, new_b = old or b"", new or b""
    if old_b == new_b:
        return SemanticDiff()
    windows = _windows(old_b, new_b)
    parsed = _parse_windows(old_b, new_b, windows)
    o_by, n_by = _by_id(parsed, 0), _by_id(parsed, 1)
    if windows != [(0, len(old_b), 0, len(new_b))]:
        touched = (set(o_by) ^ set(n_by)) | {i for i in set(o_by) & set(n_by) if o_by[i][0].raw != n_by[i][0].raw}
        if any(_id_elsewhere(old_b, i, [(w[0], w[1]) for w in windows])
               or _id_elsewhere(new_b, i, [(w[2], w[3]) for w in windows]) for i in touched):
            windows = [(0, len(old_b), 0, len(new_b))]  # an id defined twice: compare everything
            parsed = _parse_windows(old_b, new_b, windows)
            o_by, n_by = _by_id(parsed, 0), _by_id(parsed, 1)
    added, removed, changed = [], [], []
    for eid, (e, off) in n_by.items():
        if eid not in o_by:
            added.append(EntryChange(eid, "added", None, split_trailing(e.raw)[0], new_line=e.line + off))
    for eid, (e, off) in o_by.items():
        if eid not in n_by:
            removed.append(EntryChange(eid, "removed", split_trailing(e.raw)[0], None, old_line=e.line + off))
            continue
        n, n_off = n_by[eid]
        if split_trailing(e.raw)[0] != split_trailing(n.raw)[0]:
            changed.append(_entry_change(eid, e, n, off, n_off))
    changed.sort(key=lambda c: c.new_line or 0)
    first = parsed[0]
    preamble = windows[0][0] == 0 and first[0].preamble != first[2].preamble
    malformed = [e.raw for w in parsed for e in w[0].entries if e.error] != [
        e.raw for w in parsed for e in w[2].entries if e.error]
    return SemanticDiff(tuple(added), tuple(removed), tuple(changed), preamble, malformed, True)


def _parse_windows(old: Buf, new: Buf, windows: list[Window]) -> list[tuple[MemoryFile, int, MemoryFile, int]]:
    """Each window parsed on both sides, with the line offset of its start."""
    out = []
    o_line = n_line = 0
    o_pos = n_pos = 0
    for o_start, o_end, n_start, n_end in windows:
        o_line += old.count(b"\n", o_pos, o_start)
        n_line += new.count(b"\n", n_pos, n_start)
        o_pos, n_pos = o_start, n_start
        out.append((parse_slice(old, o_start, o_end), o_line, parse_slice(new, n_start, n_end), n_line))
    return out


def _by_id(parsed: list[tuple[MemoryFile, int, MemoryFile, int]], side: int) -> dict[str, tuple[Any, int]]:
    """First well-formed entry of every id over the windows of one side, with its window's line offset."""
    found: dict[str, tuple[Any, int]] = {}
    for w in parsed:
        mf, off = (w[0], w[1]) if side == 0 else (w[2], w[3])
        for eid, e in mf.by_id().items():
            found.setdefault(eid, (e, off))
    return found


# --- a profile: memories.md and the archive together -----------------------------------------------


@dataclass(frozen=True)
class EntryEvent:
    """What one commit (or the working tree) did to one entry, over memories.md and the archive."""

    id: str
    kind: str  # added, changed, superseded, archived, restored, removed
    file: str  # where it is now (where it was, when removed)
    change: EntryChange | None = None  # the text change, when its text changed
    superseded_by: str | None = None

    def describe(self) -> str:
        details = self.change.describe() if self.change is not None else ""
        if self.kind == "changed":
            return f"changed ({details})" if details else "changed"
        if self.kind == "superseded":
            text = f"superseded by {self.superseded_by}" if self.superseded_by else "superseded"
            rest = [f for f in (self.change.field_names if self.change else ()) if f not in ("status", "superseded_by")]
            if self.change is not None and self.change.body_changed:
                rest.append("body")
            return text + (f", changed ({', '.join(rest)})" if rest else "")
        if self.kind == "archived":
            sup = f"superseded by {self.superseded_by}, " if self.superseded_by else ""
            return sup + "archived"
        if self.kind == "added" and self.file == ARCHIVE:
            return "added to the archive"
        return self.kind


@dataclass(frozen=True)
class FileChange:
    path: str  # relative to the profile folder
    status: str  # added, changed, deleted, renamed
    old_path: str | None = None


@dataclass(frozen=True)
class ProfileDiff:
    memories: SemanticDiff = field(default_factory=SemanticDiff)
    archive: SemanticDiff = field(default_factory=SemanticDiff)
    events: tuple[EntryEvent, ...] = ()
    files: tuple[FileChange, ...] = ()  # every file that changed, memory files included

    def lines(self) -> list[str]:
        """The commit-message body: ``mem-0013: added``, ``state.yaml: changed``..."""
        out = [f"{e.id}: {e.describe()}" for e in self.events]
        for f in self.files:
            diff = self.memories if f.path == MEMORIES else self.archive if f.path == ARCHIVE else None
            if diff is not None and f.status == "changed" and not diff.unexplained:
                continue  # its entries tell the story
            if f.status == "renamed" and f.old_path:
                out.append(f"{f.path}: renamed from {f.old_path}")
            else:
                out.append(f"{f.path}: {f.status}")
        return out


_EVENT_ORDER = {"added": 0, "superseded": 1, "changed": 2, "archived": 3, "restored": 4, "removed": 5}


def _superseded_by(change: EntryChange) -> str | None:
    return next((f.new for f in change.fields if f.name == "superseded_by" and isinstance(f.new, str)), None)


def _meta_of(raw: str | None) -> dict[str, Any]:
    if raw is None:
        return {}
    mf = parse(raw)
    return mf.entries[0].meta if mf.entries and not mf.entries[0].error else {}


def move_change(eid: str, old_raw: str, new_raw: str) -> EntryChange | None:
    if old_raw == new_raw:
        return None
    o, n = parse(old_raw), parse(new_raw)
    if not o.entries or not n.entries or o.entries[0].error or n.entries[0].error:
        return EntryChange(eid, "changed", old_raw, new_raw)
    return _entry_change(eid, o.entries[0], n.entries[0], 0, 0)


def profile_events(mem: SemanticDiff, arch: SemanticDiff) -> tuple[EntryEvent, ...]:
    """Combine the two files' diffs: a removal from one plus an addition to the other is a move."""
    events: list[EntryEvent] = []
    for into, left, where, move in ((arch, mem, ARCHIVE, "archived"), (mem, arch, MEMORIES, "restored")):
        gone = {c.id: c.old_raw for c in left.removed}
        for c in into.added:
            if c.id not in gone:
                events.append(EntryEvent(c.id, "added", where, c))
                continue
            sup = _meta_of(c.new_raw).get("superseded_by") if move == "archived" else None
            sup = sup if isinstance(sup, str) and sup != _meta_of(gone[c.id]).get("superseded_by") else None
            events.append(EntryEvent(c.id, move, where, move_change(c.id, gone[c.id] or "", c.new_raw or ""), sup))
    for diff, where in ((mem, MEMORIES), (arch, ARCHIVE)):
        for c in diff.changed:
            sc = c.status_change
            if sc is not None and sc[1] == "superseded" and sc[0] != "superseded":
                events.append(EntryEvent(c.id, "superseded", where, c, _superseded_by(c)))
            else:
                events.append(EntryEvent(c.id, "changed", where, c))
    # a removal the other file added back is the move above
    for diff, where, other in ((mem, MEMORIES, arch), (arch, ARCHIVE, mem)):
        moved = {c.id for c in other.added}
        events += [EntryEvent(c.id, "removed", where, c) for c in diff.removed if c.id not in moved]
    events.sort(key=lambda e: _EVENT_ORDER.get(e.kind, 9))  # stable: file order within a kind
    return tuple(events)


def profile_diff(
    old_mem: bytes | None, old_arch: bytes | None, new_mem: bytes | None, new_arch: bytes | None,
    files: Sequence[FileChange] = (),
) -> ProfileDiff:
    mem, arch = semantic_diff(old_mem, new_mem), semantic_diff(old_arch, new_arch)
    return ProfileDiff(mem, arch, profile_events(mem, arch), tuple(files))
