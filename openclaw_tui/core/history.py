"""A profile's git history, read by entry: what each commit did to which entry.

- ``log_page``: commits touching a path, newest first, one page at a time.
- ``semantic_diff``: two versions of a memory file compared by entry id
  (added / removed / changed, with the fields that changed).
- ``profile_diff`` / ``commit_semantic_diff``: the same over memories.md and
  the archive together, so moves read as ``archived`` / ``restored``.
- ``entry_history``: every commit that created or changed one entry, with
  each version, wherever in the two files it was.
- ``plan_rollback`` / ``apply_rollback``, ``revert_commit``: undo at the
  level of one profile folder.
- ``compare_branches``; branches and sync (``list_branches``, ``switch_branch``,
  ``pull``, ``push``...) are defined in ``gitrepo`` and re-exported here.

Every function returns dataclasses; nothing here prints or prompts.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import re
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .entries import MemoryFile, classify_block, decode, looks_like_frontmatter, parse
from .gitrepo import (
    BranchInfo,
    GitError,
    Repo,
    RepoLike,
    SyncResult,
    as_repo,
    create_branch,
    current_branch,
    git_env,
    git_executable,
    list_branches,
    pull,
    push,
    read_blob,
    rel_path,
    run_git,
    status,
    switch_branch,
    tree_files,
)
from .merge import Labels, merge_bytes, merge_plain, split_trailing

MEMORIES = "memories.md"
ARCHIVE = "contexts/archive/memories.md"
NULL_SHA = "0" * 40
Buf = bytes | bytearray


class Refused(RuntimeError):
    """The operation was not run; the message says why (nothing was written)."""


# --- commits -----------------------------------------------------------------------------------

_LOG_FORMAT = "%x1e%H%x00%h%x00%P%x00%an%x00%ae%x00%aI%x00%at%x00%s"


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    short: str
    parents: tuple[str, ...]
    author: str
    email: str
    date: str  # ISO 8601 with the author's offset
    timestamp: int
    subject: str

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1


def _commit_from(header: str) -> CommitInfo:
    f = header.split("\0")
    short = f[1][:7] if len(f[1]) == 40 else f[1]  # --no-abbrev (used with --raw) also widens %h
    return CommitInfo(f[0], short, tuple(f[2].split()), f[3], f[4], f[5], int(f[6] or 0), f[7] if len(f) > 7 else "")


def _profile_rel(repo: Repo, profile: Any) -> str:
    path = getattr(profile, "path", profile)
    return rel_path(repo, Path(path))


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def log_page(repo: RepoLike, path: Any = "", skip: int = 0, limit: int = 50) -> list[CommitInfo]:
    """Commits touching ``path`` (a Profile, a folder or a file; "" = everything), newest first.

    One ``git log -n LIMIT --skip SKIP`` per page: the first page of a
    10,000-commit history costs milliseconds.
    """
    r = as_repo(repo)
    if _no_commits(r):
        return []
    target = getattr(path, "path", path)
    rel = rel_path(r, target) if str(target) else ""
    args = ["log", f"--format={_LOG_FORMAT}", "-n", str(max(0, limit)), f"--skip={max(0, skip)}", "HEAD"]
    if rel:
        args += ["--", rel]
    out = run_git(args, r.root).stdout.decode("utf-8", "replace")
    return [_commit_from(chunk.strip("\n")) for chunk in out.split("\x1e") if chunk.strip()]


def commit_info(repo: RepoLike, rev: str) -> CommitInfo:
    r = as_repo(repo)
    out = run_git(["log", "-1", f"--format={_LOG_FORMAT}", rev, "--"], r.root).stdout.decode("utf-8", "replace")
    return _commit_from(out.strip("\x1e\n"))


def _no_commits(repo: Repo) -> bool:
    return run_git(["rev-parse", "--verify", "-q", "HEAD"], repo.root, check=False).returncode != 0


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

    def _status(self, raw: str | None) -> str | None:
        if raw is None:
            return None
        mf = parse(raw)
        return mf.entries[0].status if mf.entries and not mf.entries[0].error else None

    @property
    def old_status(self) -> str | None:
        return self._status(self.old_raw)

    @property
    def new_status(self) -> str | None:
        return self._status(self.new_raw)

    @property
    def status_change(self) -> tuple[str, str] | None:
        for f in self.fields:
            if f.name == "status":
                return (str(f.old) if f.old is not None else "active", str(f.new) if f.new is not None else "active")
        return None

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
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.preamble_changed or self.malformed_changed)

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
def _delims_before(data: Buf, pos: int) -> Iterator[int]:
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


def _delims_after(data: Buf, pos: int) -> Iterator[int]:
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


def _line_end(data: Buf, start: int) -> int:
    nl = data.find(b"\n", start)
    return len(data) if nl < 0 else nl + 1


def _kind(data: Buf, opener: int, closer: int) -> str:
    """What the parser makes of the block between two ``---`` lines: entry, malformed or text."""
    start = _line_end(data, opener)
    block = data[start:closer].decode("utf-8", "surrogateescape")
    if data.find(b"id", start, closer) < 0 and not looks_like_frontmatter(block):
        return "text"  # no id and no known key first: neither an entry nor a malformed block (no YAML needed)
    return classify_block(block, 1)[0]


def _is_entry_start(data: Buf, d: int, lo: int, hi: int) -> bool:
    """Is the ``---`` line at ``d`` certainly an entry start, judging only from ``data[lo:hi]``?

    It is when the block before it (from the previous ``---``) is plain text,
    so the parser tests ``d`` as an opener, and its own block up to the next
    ``---`` (inside the range) is an entry or a malformed block.
    """
    prev = next(_delims_before(data, d), None)
    if prev is not None:
        if prev < lo or _kind(data, prev, d) != "text":
            return False
    nxt = next((x for x in _delims_after(data, _line_end(data, d)) if x > d), None)
    if nxt is None or _line_end(data, nxt) > hi:
        return False
    return _kind(data, d, nxt) != "text"


_ID_KEY_RE = re.compile(rb"\nid:([^\n]*)")
Window = tuple[int, int, int, int]  # old start, old end, new start, new end
Span = tuple[int, int]


def _chunks(data: Buf) -> tuple[list[bytes], list[bytes], list[int]] | None:
    """The file cut before every ``\nid:``: (pieces, the id text after each cut, cumulative piece lengths).

    Piece ``k + 1`` starts with the text of key ``k``; the cut before it is at
    ``lengths[k] + 4 * k``.  None when an id text repeats (a duplicate id, or
    an ``id:`` line in a body): then the pieces cannot be paired.
    """
    chunks = (bytes(data) if isinstance(data, bytearray) else data).split(b"\nid:")
    keys = _ID_KEY_RE.findall(data)  # not stripped: a changed spacing only widens the windows
    if len(set(keys)) != len(keys):
        return None
    return chunks, keys, list(itertools.accumulate(map(len, chunks)))


def _cut(lengths: list[int], k: int) -> int:
    """Offset of the newline before key ``k``'s ``id:`` line."""
    return lengths[k] + 4 * k


def _common_run(a: list[bytes], b: list[bytes]) -> int:
    """Length of the longest common prefix of two lists (list slices compare in C)."""
    lo, hi = 0, min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _entry_spans(data: Buf, lengths: list[int], picked: list[int], with_preamble: bool) -> list[Span] | None:
    """From the entry start of each picked key to the next key's entry start, runs merged.

    ``with_preamble`` adds the span from the top of the file to the first entry.
    """
    keys = len(lengths) - 1
    raw: list[Span] = []
    if with_preamble:
        first = _opener_of(data, _cut(lengths, 0) + 1) if keys else len(data)
        if first is None:
            return None
        raw.append((0, first))
    for k in sorted(picked):
        start = _opener_of(data, _cut(lengths, k) + 1)
        end = _opener_of(data, _cut(lengths, k + 1) + 1) if k + 1 < keys else len(data)
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


def _opener_of(data: Buf, id_line: int) -> int | None:
    """The entry start holding the ``id:`` line at ``id_line``, when it certainly is one."""
    d = next(_delims_before(data, id_line), None)
    return d if d is not None and _is_entry_start(data, d, 0, len(data)) else None


def _windows(old: Buf, new: Buf) -> list[Window]:
    """Slices of both files, cut at entry starts, that hold every entry that may differ.

    Both files are cut before each ``id:`` line; a piece then holds one
    entry's id line, the rest of it, and the head (``---``...) of the next.
    An entry certainly did not change when its piece and the piece before
    it are the same bytes in both files; every other entry goes into a
    window.  Anything unusual (fences, a repeated id, an entry start that
    cannot be told locally) gives one window over everything.
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
    head = _common_run(o_keys, n_keys)
    tail = _common_run(o_keys[head:][::-1], n_keys[head:][::-1])
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
    id_re = _id_line_re(entry_id)
    gaps, last = [], 0
    for lo, hi in spans:
        gaps.append((last, lo))
        last = hi
    gaps.append((last, len(data)))
    for a, b in gaps:
        pos = data.find(idb, a, b)
        while pos >= 0:
            ls = data.rfind(b"\n", 0, pos) + 1
            le = data.find(b"\n", pos)
            if id_re.fullmatch(data, ls, len(data) if le < 0 else le) or _odd_id_line(data[ls : pos + len(idb)], idb):
                return True
            pos = data.find(idb, pos + 1, b)
    return False


def _parse_slice(data: Buf, a: int, b: int) -> MemoryFile:
    text, bom, _ok = decode(bytes(data[a:b]))
    return parse(text, bom=bom)


def _field_changes(old: dict[str, Any], new: dict[str, Any]) -> tuple[FieldChange, ...]:
    out = []
    for key in list(old) + [k for k in new if k not in old]:
        if key in old and key in new and old[key] == new[key]:
            continue
        out.append(FieldChange(key, old.get(key), new.get(key)))
    return tuple(out)


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
    """Compare two versions of a memory file by entry id (None: the file did not exist).

    Only the stretches that differ are parsed (cut at entry starts), so a
    few changes in a 100k-entry file cost little.
    """
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
        out.append((_parse_slice(old, o_start, o_end), o_line, _parse_slice(new, n_start, n_end), n_line))
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

    @property
    def empty(self) -> bool:
        return not self.events and not self.files

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


def _superseded_by(change: EntryChange | None) -> str | None:
    if change is None:
        return None
    for f in change.fields:
        if f.name == "superseded_by" and isinstance(f.new, str):
            return f.new
    return None


def _meta_of(raw: str | None) -> dict[str, Any]:
    if raw is None:
        return {}
    mf = parse(raw)
    return mf.entries[0].meta if mf.entries and not mf.entries[0].error else {}


def _move_change(eid: str, old_raw: str, new_raw: str) -> EntryChange | None:
    if old_raw == new_raw:
        return None
    o, n = parse(old_raw), parse(new_raw)
    if not o.entries or not n.entries or o.entries[0].error or n.entries[0].error:
        return EntryChange(eid, "changed", old_raw, new_raw)
    return _entry_change(eid, o.entries[0], n.entries[0], 0, 0)


def profile_events(mem: SemanticDiff, arch: SemanticDiff) -> tuple[EntryEvent, ...]:
    """Combine the two files' diffs: a removal from one plus an addition to the other is a move."""
    events: list[EntryEvent] = []
    mem_removed = {c.id: c for c in mem.removed}
    arch_removed = {c.id: c for c in arch.removed}
    moved_in_archive: set[str] = set()
    moved_to_memories: set[str] = set()
    for c in arch.added:
        if c.id in mem_removed:
            moved_in_archive.add(c.id)
            change = _move_change(c.id, mem_removed[c.id].old_raw or "", c.new_raw or "")
            sup = _meta_of(c.new_raw).get("superseded_by")
            was = _meta_of(mem_removed[c.id].old_raw).get("superseded_by")
            events.append(EntryEvent(c.id, "archived", ARCHIVE, change, sup if isinstance(sup, str) and sup != was else None))
        else:
            events.append(EntryEvent(c.id, "added", ARCHIVE, c))
    for c in mem.added:
        if c.id in arch_removed:
            moved_to_memories.add(c.id)
            change = _move_change(c.id, arch_removed[c.id].old_raw or "", c.new_raw or "")
            events.append(EntryEvent(c.id, "restored", MEMORIES, change))
        else:
            events.append(EntryEvent(c.id, "added", MEMORIES, c))
    for diff, where in ((mem, MEMORIES), (arch, ARCHIVE)):
        for c in diff.changed:
            sc = c.status_change
            if sc is not None and sc[1] == "superseded" and sc[0] != "superseded":
                events.append(EntryEvent(c.id, "superseded", where, c, _superseded_by(c)))
            else:
                events.append(EntryEvent(c.id, "changed", where, c))
    for c in mem.removed:
        if c.id not in moved_in_archive:
            events.append(EntryEvent(c.id, "removed", MEMORIES, c))
    for c in arch.removed:
        if c.id not in moved_to_memories:
            events.append(EntryEvent(c.id, "removed", ARCHIVE, c))
    events.sort(key=lambda e: _EVENT_ORDER.get(e.kind, 9))  # stable: file order within a kind
    return tuple(events)


def profile_diff(
    old_mem: bytes | None, old_arch: bytes | None, new_mem: bytes | None, new_arch: bytes | None,
    files: Sequence[FileChange] = (),
) -> ProfileDiff:
    mem, arch = semantic_diff(old_mem, new_mem), semantic_diff(old_arch, new_arch)
    return ProfileDiff(mem, arch, profile_events(mem, arch), tuple(files))


@dataclass(frozen=True)
class CommitDiff:
    commit: CommitInfo
    diff: ProfileDiff


_STATUS = {"A": "added", "M": "changed", "D": "deleted", "R": "renamed", "C": "added", "T": "changed"}


def _tree_changes(repo: Repo, old: str | None, new: str, rel: str) -> list[FileChange]:
    """Files under the profile ``rel`` that differ between two commits (paths relative to the profile)."""
    args = ["diff-tree", "-r", "-z", "--no-commit-id", "--name-status", "-M"]
    args += [old, new] if old else ["--root", new]
    if rel:
        args += ["--", rel]
    out = run_git(args, repo.root).stdout.decode("utf-8", "surrogateescape").split("\0")
    changes: list[FileChange] = []
    i = 0
    prefix = rel + "/" if rel else ""
    while i < len(out) and out[i]:
        code = out[i]
        if code[0] in "RC":
            src, dst = out[i + 1], out[i + 2]
            i += 3
            changes.append(FileChange(dst.removeprefix(prefix), _STATUS[code[0]], src.removeprefix(prefix)))
        else:
            path = out[i + 1]
            i += 2
            changes.append(FileChange(path.removeprefix(prefix), _STATUS.get(code[0], "changed")))
    return sorted(changes, key=lambda c: c.path)


def commit_semantic_diff(repo: RepoLike, sha: str, profile: Any) -> CommitDiff:
    """What commit ``sha`` did to the profile (against its first parent)."""
    r = as_repo(repo)
    info = commit_info(r, sha)
    rel = _profile_rel(r, profile)
    parent = info.parents[0] if info.parents else None
    mem, arch = _join(rel, MEMORIES), _join(rel, ARCHIVE)

    def blob(rev: str | None, path: str) -> bytes | None:
        return read_blob(r, rev, path) if rev else None

    diff = profile_diff(
        blob(parent, mem), blob(parent, arch), blob(info.sha, mem), blob(info.sha, arch),
        _tree_changes(r, parent, info.sha, rel),
    )
    return CommitDiff(info, diff)


def diff_revs(repo: RepoLike, profile: Any, old_rev: str, new_rev: str) -> ProfileDiff:
    """The profile's difference between two revisions (branches, tags, shas)."""
    r = as_repo(repo)
    rel = _profile_rel(r, profile)
    mem, arch = _join(rel, MEMORIES), _join(rel, ARCHIVE)
    old_sha = run_git(["rev-parse", "--verify", f"{old_rev}^{{commit}}"], r.root).stdout.decode().strip()
    new_sha = run_git(["rev-parse", "--verify", f"{new_rev}^{{commit}}"], r.root).stdout.decode().strip()
    files = _tree_changes(r, old_sha, new_sha, rel)
    return profile_diff(read_blob(r, old_sha, mem), read_blob(r, old_sha, arch),
                        read_blob(r, new_sha, mem), read_blob(r, new_sha, arch), files)


# --- one entry's history ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryVersion:
    """One commit that created, changed, moved or removed the entry."""

    commit: CommitInfo
    kind: str  # created, changed, archived, restored, removed
    file: str | None  # where the entry is after the commit (profile-relative), None when removed
    raw: str | None  # its text after the commit (None when removed)
    previous: str | None  # its text before the commit
    change: EntryChange | None = None  # field-level difference from ``previous``


class _BlobStream:
    """Stream blobs out of one ``git cat-file --batch`` process, one at a time.

    Reads straight from the pipe into one buffer per blob (no second copy):
    with a 10k-entry file and 1,000 versions, that is 2 GB going through.
    """

    def __init__(self, repo: Repo, shas: list[str]) -> None:
        exe = git_executable()
        if exe is None:
            raise GitError(["cat-file"], 127, "git is not installed")
        r, w = os.pipe()
        with contextlib.suppress(OSError, AttributeError):
            fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        self.proc = subprocess.Popen(
            [exe, "cat-file", "--batch"], cwd=repo.root, stdin=subprocess.PIPE, stdout=w,
            stderr=subprocess.DEVNULL, env=git_env(),
        )
        os.close(w)
        self.fd = r
        self.pending = bytearray()
        self.buf = bytearray()
        self.shas = shas
        request = "".join(s + "\n" for s in shas).encode()
        stdin = self.proc.stdin
        assert stdin is not None

        def feed() -> None:
            with contextlib.suppress(OSError, ValueError):
                stdin.write(request)
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

        self.feeder = threading.Thread(target=feed, daemon=True)
        self.feeder.start()

    def _line(self) -> bytes:
        while True:
            nl = self.pending.find(b"\n")
            if nl >= 0:
                line = bytes(self.pending[:nl])
                del self.pending[: nl + 1]
                return line
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise EOFError("git cat-file stopped early")
            self.pending += chunk

    def _body(self, size: int) -> bytearray:
        """The next blob, in a buffer reused from one blob to the next (valid until the next call)."""
        buf = self.buf
        if len(buf) > size + 1:
            del buf[size + 1 :]  # shrinking keeps the memory: no new pages for the next blob
        elif len(buf) < size + 1:
            buf += bytes(size + 1 - len(buf))
        have = min(len(self.pending), size + 1)
        buf[:have] = self.pending[:have]
        del self.pending[:have]
        view = memoryview(buf)
        try:
            while have < size + 1:
                n = os.readv(self.fd, [view[have:]])
                if n == 0:
                    raise EOFError("git cat-file stopped early")
                have += n
        finally:
            view.release()
        del buf[size:]  # the newline after the blob
        return buf

    def __iter__(self) -> Iterator[tuple[str, bytearray | None]]:
        """(sha, bytes) pairs; the bytes are only valid until the next pair is taken."""
        try:
            for sha in self.shas:
                header = self._line().split()
                if len(header) < 3 or header[1] == b"missing":
                    yield sha, None
                    continue
                yield sha, self._body(int(header[2]))
        finally:
            self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def has_fence(data: bytes | bytearray) -> bool:
    """Could the text hold a fenced code block (a run of three backticks or tildes)?"""
    for single, triple in ((b"`", b"```"), (b"~", b"~~~")):
        first = data.find(single)  # one byte: a fast memchr, and most files have none
        if first >= 0 and data.find(triple, first) >= 0:
            return True
    return False


def _id_line_re(entry_id: str) -> re.Pattern[bytes]:
    ident = re.escape(entry_id.encode())
    return re.compile(rb"id[ \t]*:[ \t]*(?:" + ident + rb"|'" + ident + rb"'|\"" + ident + rb"\")[ \t]*(?:#[^\n]*)?\r?")


def find_entry_raw(data: bytes | bytearray, entry_id: str, id_re: re.Pattern[bytes] | None = None) -> str | None:
    """The content (trailing blank lines removed) of entry ``entry_id`` in a memory file's bytes.

    Looks around the ``id:`` line instead of parsing the whole file when the
    file is simple enough for that to be certain; else parses it.
    """
    idb = entry_id.encode()
    pos = data.find(idb)
    if pos < 0:
        return None
    id_re = id_re or _id_line_re(entry_id)
    found: list[int] = []
    while pos >= 0:
        ls = data.rfind(b"\n", 0, pos) + 1
        le = data.find(b"\n", pos)
        le = len(data) if le < 0 else le
        if id_re.fullmatch(data, ls, le):
            found.append(ls)
        pos = data.find(idb, le)
    if len(found) == 1 and not has_fence(data):
        located = _locate(data, found[0], entry_id)
        if located is not None:
            return located
    if not found and not _odd_id_line(data, idb):
        return None  # the id is only mentioned (a reference), never defined
    text, bom, _ok = decode(bytes(data))
    entry = parse(text, bom=bom).get(entry_id)
    return split_trailing(entry.raw)[0] if entry is not None else None


class _EntryFinder:
    """``find_entry_raw`` with a memory: a version usually holds the entry where the last one did.

    Looks for the previous version's exact text near its previous place
    first (a few kilobytes instead of megabytes), and checks it is still a
    whole entry there; only when that fails does it search the whole blob.
    """

    def __init__(self, entry_id: str) -> None:
        self.entry_id = entry_id
        self.id_re = _id_line_re(entry_id)
        self.last: tuple[int, bytes, int, str] | None = None  # (start, content bytes, id line offset, content)

    def __call__(self, data: Buf) -> str | None:
        if self.last is not None and not has_fence(data):
            pos, content_b, id_off, content = self.last
            at = data.find(content_b, max(0, pos - (1 << 16)), pos + len(content_b) + (1 << 16))
            if at >= 0 and _locate(data, at + id_off, self.entry_id) == content:
                self.last = (at, content_b, id_off, content)
                return content
        content_or_none = find_entry_raw(data, self.entry_id, self.id_re)
        if content_or_none is not None:
            content_b = content_or_none.encode("utf-8", "surrogateescape")
            at = data.find(content_b)
            id_at = self.id_re.search(content_b)
            if at >= 0 and id_at is not None:
                line_start = content_b.rfind(b"\n", 0, id_at.start()) + 1
                self.last = (at, content_b, line_start, content_or_none)
        return content_or_none


def _read_versions(repo: Repo, shas: list[str], entry_id: str) -> dict[str, str | None]:
    """The entry's content in each blob; two ``cat-file`` streams in parallel when there are many."""
    found: dict[str, str | None] = {}

    def work(part: list[str]) -> None:
        finder = _EntryFinder(entry_id)
        for sha, data in _BlobStream(repo, part):
            found[sha] = finder(data) if data is not None else None

    if len(shas) < 64 or (os.cpu_count() or 1) < 2:
        work(shas)
        return found
    half = len(shas) // 2
    errors: list[BaseException] = []

    def guarded(part: list[str]) -> None:
        try:
            work(part)
        except BaseException as exc:  # noqa: BLE001 - re-raised below in the caller's thread
            errors.append(exc)

    helper = threading.Thread(target=guarded, args=(shas[half:],), daemon=True)
    helper.start()
    guarded(shas[:half])
    helper.join()
    if errors:
        raise errors[0]
    return found


def _odd_id_line(data: Buf, idb: bytes) -> bool:
    """Could a line naming ``idb`` be an id line the quick pattern missed (odd quoting, flow style)?"""
    pos = data.find(idb)
    while pos >= 0:
        ls = data.rfind(b"\n", 0, pos) + 1
        if b"id" in data[ls:pos]:
            return True
        pos = data.find(idb, pos + 1)
    return False


def _locate(data: Buf, id_line: int, entry_id: str) -> str | None:
    opener = next(_delims_before(data, id_line), None)
    if opener is None:
        return None
    closer = next((d for d in _delims_after(data, id_line) if d > id_line), None)
    if closer is None:
        return None
    block = data[_line_end(data, opener) : closer].decode("utf-8", "surrogateescape")
    kind, ident, _m, _k, _e = classify_block(block, 1)
    if kind != "entry" or ident != entry_id:
        return None
    prev = next(_delims_before(data, opener), None)
    if prev is not None and _kind(data, prev, opener) != "text":
        return None  # the opener might be another block's closer: let the parser decide
    end = len(data)
    delims = _delims_after(data, _line_end(data, closer))
    d = next(delims, None)
    while d is not None:
        nxt = next(delims, None)
        if nxt is not None and _kind(data, d, nxt) != "text":
            end = d
            break
        d = nxt
    return split_trailing(data[opener:end].decode("utf-8", "surrogateescape"))[0]


def entry_history(
    repo: RepoLike, profile: Any, entry_id: str, max_commits: int | None = None
) -> list[EntryVersion]:
    """Every commit that created or changed ``entry_id`` (newest first), with each version.

    Follows the entry between memories.md and the archive.  Reads each blob of
    the two files once through one ``git cat-file --batch``, looking only at
    the lines around the entry's ``id:`` line.
    """
    r = as_repo(repo)
    if _no_commits(r):
        return []
    rel = _profile_rel(r, profile)
    mem, arch = _join(rel, MEMORIES), _join(rel, ARCHIVE)
    args = ["log", f"--format={_LOG_FORMAT}", "--raw", "--no-abbrev", "--diff-merges=first-parent", "HEAD"]
    if max_commits is not None:
        args[1:1] = ["-n", str(max_commits)]
    out = run_git([*args, "--", mem, arch], r.root).stdout.decode("utf-8", "surrogateescape")
    commits: list[tuple[CommitInfo, dict[str, tuple[str, str]]]] = []
    for chunk in out.split("\x1e"):
        if not chunk.strip():
            continue
        header, _, rest = chunk.partition("\n")
        changes: dict[str, tuple[str, str]] = {}
        for line in rest.splitlines():
            if not line.startswith(":"):
                continue
            meta, _, path = line.partition("\t")
            f = meta.split()
            which = MEMORIES if path == mem else ARCHIVE if path == arch else None
            if which is not None and len(f) >= 4:
                changes[which] = (f[2], f[3])
        if changes:
            commits.append((_commit_from(header), changes))
    wanted = list(dict.fromkeys(s for _, ch in commits for pair in ch.values() for s in pair if s != NULL_SHA))
    found = _read_versions(r, wanted, entry_id)
    versions: list[EntryVersion] = []
    for info, changes in commits:
        before: dict[str, str | None] = {}
        after: dict[str, str | None] = {}
        for which, (old, new) in changes.items():
            before[which] = found.get(old) if old != NULL_SHA else None
            after[which] = found.get(new) if new != NULL_SHA else None
        if before == after:
            continue
        version = _classify_version(info, entry_id, before, after)
        if version is not None:
            versions.append(version)
    return versions


def _classify_version(
    info: CommitInfo, entry_id: str, before: dict[str, str | None], after: dict[str, str | None]
) -> EntryVersion | None:
    prev = before.get(MEMORIES) or before.get(ARCHIVE)
    now_file = MEMORIES if after.get(MEMORIES) else ARCHIVE if after.get(ARCHIVE) else None
    now = after.get(now_file) if now_file else None
    was_file = MEMORIES if before.get(MEMORIES) else ARCHIVE if before.get(ARCHIVE) else None
    if now is None and prev is None:
        return None
    if now is None:
        kind = "removed"
    elif prev is None:
        kind = "created"
    elif was_file == MEMORIES and now_file == ARCHIVE and MEMORIES in after and after[MEMORIES] is None:
        kind = "archived"
    elif was_file == ARCHIVE and now_file == MEMORIES and ARCHIVE in after and after[ARCHIVE] is None:
        kind = "restored"
    elif prev == now:
        return None
    else:
        kind = "changed"
    change = _move_change(entry_id, prev, now) if prev is not None and now is not None else None
    return EntryVersion(info, kind, now_file, now, prev, change)


# --- rollback and revert ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileRestore:
    path: str  # relative to the profile folder
    action: str  # "restore", "create" or "delete"
    current: bytes | None
    target: bytes | None


@dataclass(frozen=True)
class RollbackPlan:
    repo: Repo
    profile_rel: str  # the profile folder, relative to the repository root
    sha: str
    commit: CommitInfo
    files: tuple[FileRestore, ...]
    diff: ProfileDiff  # what applying it changes (now -> that commit)
    blocked: str | None = None  # why it cannot be applied (then ``apply_rollback`` refuses)

    @property
    def empty(self) -> bool:
        return not self.files


def _dirty_reason(repo: Repo, rel: str) -> str | None:
    st = status(repo.root, repo.path(rel))
    if st is None:
        return "not inside a git repository"
    if st.operation is not None:
        return f"a {st.operation} is in progress; finish or abort it first"
    if st.files:
        prefix = rel + "/" if rel else ""
        names = ", ".join(f.path.removeprefix(prefix) for f in st.files[:5])
        more = f" and {len(st.files) - 5} more" if len(st.files) > 5 else ""
        return f"the profile has uncommitted changes ({names}{more}); commit or discard them first"
    return None


def _regular(files: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {p: sha for p, (mode, sha) in files.items() if mode in ("100644", "100755")}


def plan_rollback(repo: RepoLike, profile: Any, sha: str) -> RollbackPlan:
    """What restoring the profile folder's files to commit ``sha`` would change."""
    r = as_repo(repo)
    rel = _profile_rel(r, profile)
    info = commit_info(r, sha)
    blocked = _dirty_reason(r, rel)
    now = _regular(tree_files(r, "HEAD", rel)) if not _no_commits(r) else {}
    then = _regular(tree_files(r, info.sha, rel))
    prefix = rel + "/" if rel else ""
    files: list[FileRestore] = []
    for path in sorted(set(now) | set(then)):
        if now.get(path) == then.get(path):
            continue
        current = _read_file(r.path(path))
        target = read_blob(r, info.sha, path) if path in then else None
        action = "create" if path not in now else "delete" if path not in then else "restore"
        files.append(FileRestore(path.removeprefix(prefix), action, current, target))
    by = {f.path: f for f in files}

    def pair(name: str) -> tuple[bytes | None, bytes | None]:
        f = by.get(name)
        if f is None:
            data = _read_file(r.path(_join(rel, name)))
            return data, data
        return f.current, f.target

    (om, nm), (oa, na) = pair(MEMORIES), pair(ARCHIVE)
    changes = [FileChange(f.path, {"create": "added", "delete": "deleted"}.get(f.action, "changed")) for f in files]
    return RollbackPlan(r, rel, info.sha, info, tuple(files), profile_diff(om, oa, nm, na, changes), blocked)


def _read_file(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def _write_files(changes: Sequence[tuple[Path, bytes | None, bytes | None]]) -> None:
    """Write (or delete, for None) several files, each compare-and-swapped, under all their locks."""
    from .safe_write import ConcurrentModification, atomic_write, fsync_dir, locked, read_bytes

    with locked(*[p for p, _, _ in changes]):
        for p, expected, _ in changes:
            if read_bytes(p) != expected:
                raise ConcurrentModification(p)
        # additions first, deletions last: a crash in between duplicates, never loses
        for p, expected, data in sorted(changes, key=lambda c: c[2] is None):
            if data is None:
                if expected is not None:
                    p.unlink()
                    fsync_dir(p.parent)
            elif data != expected:
                atomic_write(p, data)


def apply_rollback(plan: RollbackPlan) -> list[str]:
    """Restore the files as planned (uncommitted); returns the profile-relative paths written."""
    if plan.blocked:
        raise Refused(plan.blocked)
    reason = _dirty_reason(plan.repo, plan.profile_rel)
    if reason:
        raise Refused(reason)
    base = plan.repo.path(plan.profile_rel)
    _write_files([(base / f.path, f.current, f.target) for f in plan.files])
    return [f.path for f in plan.files]


def rollback_profile(repo: RepoLike, profile: Any, sha: str) -> RollbackPlan:
    """Plan and apply a rollback in one go; returns the plan that was applied."""
    plan = plan_rollback(repo, profile, sha)
    apply_rollback(plan)
    return plan


@dataclass(frozen=True)
class RevertResult:
    sha: str
    files: tuple[str, ...]  # profile-relative paths written
    diff: ProfileDiff  # what the revert changed


def revert_commit(repo: RepoLike, profile: Any, sha: str, *, dry_run: bool = False) -> RevertResult:
    """Undo what commit ``sha`` did to the profile's files (left uncommitted).

    Each file is merged 3-way (memory files by entry id): later changes to the
    same entries make it refuse, writing nothing.
    """
    r = as_repo(repo)
    rel = _profile_rel(r, profile)
    info = commit_info(r, sha)
    reason = _dirty_reason(r, rel)
    if reason:
        raise Refused(reason)
    parent = info.parents[0] if info.parents else None
    changes = _tree_changes(r, parent, info.sha, rel)
    writes: list[tuple[Path, bytes | None, bytes | None]] = []
    conflicts: list[str] = []
    labels = Labels("current", info.short, f"before {info.short}")
    for ch in changes:
        paths = [ch.path] + ([ch.old_path] if ch.old_path else [])
        for path in paths:
            full = _join(rel, path)
            base = read_blob(r, info.sha, full)
            theirs = read_blob(r, parent, full) if parent else None
            ours = _read_file(r.path(full))
            if base == theirs:
                continue
            if ours == base:
                result: bytes | None = theirs
            elif ours == theirs:
                continue
            elif ours is None or theirs is None or base is None:
                conflicts.append(path)
                continue
            elif path in (MEMORIES, ARCHIVE) or path.endswith("/memories.md"):
                merged = merge_bytes(base, ours, theirs, labels)
                if not merged.clean:
                    conflicts.append(path + (f" ({', '.join(merged.conflict_ids)})" if merged.conflict_ids else ""))
                    continue
                result = merged.data
            else:
                data, n, _mode = merge_plain(base, ours, theirs, labels)
                if n:
                    conflicts.append(path)
                    continue
                result = data
            writes.append((r.path(full), ours, result))
    if conflicts:
        raise Refused(f"reverting {info.short} conflicts with later changes in {', '.join(conflicts)}; nothing written")
    prefix = rel + "/" if rel else ""
    by = {str(p): (old, new) for p, old, new in writes}

    def pair(name: str) -> tuple[bytes | None, bytes | None]:
        p = str(r.path(_join(rel, name)))
        if p in by:
            return by[p]
        data = _read_file(Path(p))
        return data, data

    (om, nm), (oa, na) = pair(MEMORIES), pair(ARCHIVE)
    rels = tuple(r.rel(p).removeprefix(prefix) for p, _, _ in writes)
    files = [FileChange(x, "changed") for x in rels]
    diff = profile_diff(om, oa, nm, na, files)
    if not dry_run and writes:
        _write_files(writes)
    return RevertResult(info.sha, rels, diff)


# --- branches -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchComparison:
    base: str  # the branch compared from
    other: str
    merge_base: str | None
    only_base: tuple[CommitInfo, ...]  # commits on ``base`` not on ``other`` (touching the profile)
    only_other: tuple[CommitInfo, ...]
    diff: ProfileDiff  # the profile on ``base`` -> on ``other``


def _range_log(repo: Repo, spec: str, rel: str, limit: int) -> tuple[CommitInfo, ...]:
    args = ["log", f"--format={_LOG_FORMAT}", "-n", str(limit), spec]
    if rel:
        args += ["--", rel]
    out = run_git(args, repo.root).stdout.decode("utf-8", "replace")
    return tuple(_commit_from(c.strip("\n")) for c in out.split("\x1e") if c.strip())


def compare_branches(repo: RepoLike, profile: Any, base: str, other: str, limit: int = 200) -> BranchComparison:
    """How the profile differs between two branches (or any revisions), entry by entry."""
    r = as_repo(repo)
    rel = _profile_rel(r, profile)
    mb = run_git(["merge-base", base, other], r.root, check=False).stdout.decode().strip() or None
    return BranchComparison(
        base, other, mb,
        _range_log(r, f"{other}..{base}", rel, limit), _range_log(r, f"{base}..{other}", rel, limit),
        diff_revs(r, profile, base, other),
    )


__all__ = [
    "CommitInfo", "log_page", "commit_info", "FieldChange", "EntryChange", "SemanticDiff", "semantic_diff",
    "EntryEvent", "FileChange", "ProfileDiff", "profile_events", "profile_diff", "CommitDiff",
    "commit_semantic_diff", "diff_revs", "EntryVersion", "entry_history", "find_entry_raw", "FileRestore",
    "RollbackPlan", "plan_rollback", "apply_rollback", "rollback_profile", "RevertResult", "revert_commit",
    "BranchComparison", "compare_branches", "Refused", "MEMORIES", "ARCHIVE",
    # repository operations the history screens offer, defined in gitrepo
    "BranchInfo", "list_branches", "create_branch", "switch_branch", "current_branch", "SyncResult", "pull", "push",
]
