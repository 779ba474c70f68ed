"""Planned changes to memory files: compute the new bytes first (a ``Plan``, to show), write them later.

``apply_changes`` writes a plan through ``safe_write.write_many`` (all locks, compare-and-swap, in
the plan's order).  If a file changed meanwhile and none of the entries the plan touches did, the
plan is rebuilt on the new content and tried again.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec

from ..files.profile import Profile
from ..files.safe_write import ConcurrentModification, locked, read_bytes, replace_all, write_many
from ..files.store import MemoryDoc
from ..format.edit import EditError
from ..format.entries import parse_bytes

RETRIES = 8
P = ParamSpec("P")


@dataclass(frozen=True)
class FileChange:
    """One file's bytes before (None: it does not exist) and after the change."""

    path: Path
    before: bytes | None
    after: bytes

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass
class Plan:
    """What an operation will write (or wrote), and what it did by entry id."""

    title: str  # one line: "archive mem-0007"
    changes: list[FileChange] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)  # id -> fields changed ("body" too)
    superseded: dict[str, str] = field(default_factory=dict)  # old id -> new id
    archived: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    cold: list[str] = field(default_factory=list)
    new_id: str | None = None  # the entry an add/compact/merge created
    touched: dict[Path, frozenset[str]] = field(default_factory=dict, repr=False)
    rebuild: Callable[[], Plan] | None = field(default=None, repr=False, compare=False)
    base: Files | None = field(default=None, repr=False, compare=False)  # the files it was computed from
    # files the plan deletes, with the bytes they hold (the source of a move: a context file moved
    # to contexts/archive/ is a change creating the copy plus this); written by undo.write_plan
    removed: dict[Path, bytes] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """True when applying the plan would write nothing."""
        return not any(c.changed for c in self.changes) and not self.removed

    @property
    def files(self) -> list[Path]:
        """The files whose bytes change (removed ones included)."""
        return [c.path for c in self.changes if c.changed] + list(self.removed)

    def commit_lines(self) -> list[str]:
        """Body lines of a commit message (spec: Commits), one per entry touched."""
        lines = [f"- {i}: added" for i in self.added]
        for old, new in self.superseded.items():
            lines.append(f"- {old}: superseded by {new}")
        lines += [f"- {i}: archived" for i in self.archived if i not in self.superseded]
        lines += [f"- {i}: restored" for i in self.restored]
        lines += [f"- {i}: cold" for i in self.cold]
        done = set(self.added) | set(self.superseded) | set(self.archived) | set(self.restored) | set(self.cold)
        for i, what in self.changed.items():
            if i not in done:
                lines.append(f"- {i}: changed ({', '.join(what)})" if what else f"- {i}: changed")
        return lines

    def diff(self, root: Path | None = None, context: int = 3) -> str:
        """A unified diff of every file the plan changes (paths relative to ``root``; fast on big files)."""
        from ..diff.lines import unified_diff  # only when a diff is shown: the CLI edits start faster

        out: list[str] = []
        for c in self.changes:
            if not c.changed:
                continue
            name = rel_name(c.path, root) if root is not None else c.path.as_posix()
            before = "" if c.before is None else c.before.decode("utf-8", "replace")
            after = c.after.decode("utf-8", "replace")
            out.append(unified_diff(before, after, "/dev/null" if c.before is None else f"a/{name}", f"b/{name}", n=context))
        return "".join(out)  # each part already ends every line with a newline


@dataclass
class Files:
    """The two memory files of a profile, as loaded."""

    memories: MemoryDoc
    archive: MemoryDoc
    archive_error: str | None = None  # the archive exists but cannot be used: edits must not touch it

    @classmethod
    def load(cls, memories_path: Path, archive_path: Path) -> Files:
        return cls(MemoryDoc.load(memories_path, lazy=True), MemoryDoc.load(archive_path, lazy=True))

    @classmethod
    def of(cls, target: Profile | Files) -> Files:
        """The files of a profile (refuses a workspace or an unusable memories.md)."""
        if isinstance(target, Files):
            return target
        if target.layout != "profile":
            raise EditError(f"{target.path}: an OpenClaw workspace has no memories.md entries to edit")
        # a file that is not UTF-8 is still edited losslessly (its bad bytes survive as they are);
        # one that could not be loaded at all (a link out of the profile, not a regular file) is refused
        if target.memories is None and target.memories_error:
            raise EditError(f"memories.md: {target.memories_error}")
        mem = target.memories or MemoryDoc.from_bytes(target.memories_path, None)
        arc = target.archive or MemoryDoc.from_bytes(target.archive_path, None)
        error = None
        if target.archive is None and target.archive_error:
            error = f"{target.archive_path.relative_to(target.path).as_posix()}: {target.archive_error}"
        return cls(mem, arc, error)

    def reload(self) -> Files:
        return Files.load(self.memories.path, self.archive.path)

    def docs(self) -> tuple[MemoryDoc, MemoryDoc]:
        return self.memories, self.archive

    def find(self, entry_id: str) -> tuple[MemoryDoc, int] | None:
        """The first well-formed entry with this id: memories.md first, then the archive."""
        for doc in self.docs():
            k = next((k for k, e in enumerate(doc.mf.entries) if e.id == entry_id and e.error is None), None)
            if k is not None:
                return doc, k
        return None

    def all_ids(self) -> set[str]:
        """Every id in both files, malformed blocks' readable ids included."""
        return {e.id for doc in self.docs() for e in doc.mf.entries if e.id is not None}


def change(doc: MemoryDoc, text: str) -> FileChange:
    return FileChange(doc.path, doc.data, doc.render(text))


def rel_name(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root``, or its name alone when it is not below it."""
    if root is not None and path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    return path.name


def now_iso(now: dt.datetime | None = None) -> str:
    """``now`` (default: the current local time; naive = local) with its UTC offset, ISO 8601 to the second."""
    moment = now if now is not None else dt.datetime.now()
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return moment.isoformat(timespec="seconds")


# --- applying -----------------------------------------------------------------------


def _raws(plan: Plan, path: Path, ids: Iterable[str]) -> dict[str, list[str]]:
    """Raw texts of ``ids`` in ``path`` as the plan found it (each id: every copy, in order)."""
    wanted = set(ids)
    found: dict[str, list[str]] = {i: [] for i in wanted}
    mf = None
    if plan.base is not None:
        mf = next((d.mf for d in plan.base.docs() if d.path == path), None)
    if mf is None:
        data = next((c.before for c in plan.changes if c.path == path), None) or read_bytes(path)
        mf = parse_bytes(data or b"")
    for e in mf.entries:
        if e.id in wanted:
            found[e.id].append(e.raw)
    return found


def _check_untouched(plan: Plan, fresh: Plan) -> None:
    """Refuse a rebuilt plan when an entry the first plan touches changed on disk meanwhile."""
    for path, ids in plan.touched.items():
        if ids:
            a, b = _raws(plan, path, ids), _raws(fresh, path, ids)
            moved = sorted(i for i in ids if a[i] != b[i])
            if moved:
                raise ConcurrentModification(path, f"{', '.join(moved)} changed there too")


def apply_changes(plan: Plan) -> Plan:
    """Write ``plan`` safely; returns the plan that was written (maybe rebuilt on newer files)."""
    for attempt in range(RETRIES):
        todo = [(c.path, c.before, c.after) for c in plan.changes if c.changed]
        if not todo:
            return plan
        try:
            write_many(todo)
            return plan
        except ConcurrentModification:
            if plan.rebuild is None:
                raise
            time.sleep(random.uniform(0, 0.005 * attempt))  # let a busy writer finish
            fresh = plan.rebuild()
            _check_untouched(plan, fresh)
            plan = fresh
    return _apply_locked(plan)


def applying(plan_of: Callable[P, Plan]) -> Callable[P, Plan]:
    """The operation that builds ``plan_of(...)`` and writes it; it returns the plan written."""

    def apply(*args: P.args, **kwargs: P.kwargs) -> Plan:
        return apply_changes(plan_of(*args, **kwargs))

    return apply


def _apply_locked(plan: Plan) -> Plan:
    """Last try against a writer that never pauses: rebuild and write while holding the locks."""
    paths = {c.path for c in plan.changes}
    with locked(*paths):
        fresh = plan.rebuild() if plan.rebuild is not None else plan
        _check_untouched(plan, fresh)
        todo = [(c.path, c.before, c.after) for c in fresh.changes if c.changed]
        if any(path not in paths or read_bytes(path) != before for path, before, _ in todo):
            raise ConcurrentModification(plan.changes[0].path, "it keeps changing; try again")
        replace_all(todo)
    return fresh
