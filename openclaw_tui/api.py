"""A small Python API for agents: read and write memory the safe way, without the UI.

    from openclaw_tui.api import open_profile

    mem = open_profile("profiles/assistant")
    note = mem.remember("The user now drinks decaf.", tags=["coffee", "health"], importance="high",
                        source="chat#3412")
    print(note.id, [d.id for d in note.duplicates], [c.id for c in note.conflicts])
    mem.supersede("mem-0007", note.id)
    mem.archive("mem-0002")
    for hit in mem.search("coffee"):
        print(hit.id, hit.score, hit.snippet)

Every write goes through the core functions and the write protocol the CLI and the UI use (another
writer's change in between is merged by entry id or refused, never lost).  Bad input raises ``EditError``
(a ``ValueError``) and writes nothing; ``dry_run=True`` computes a change without writing it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.check.findings import Finding
from .core.files.profile import NotMemory, Profile, resolve_profile
from .core.files.safe_write import ConcurrentModification
from .core.format.edit import EditError
from .core.format.entries import Entry
from .core.lifecycle.operations import Similar
from .core.lifecycle.plan import Plan, apply_changes
from .core.lifecycle.remember import TagShare, plan_remember
from .core.search.api import Hit
from .core.search.index_feed import follow_writes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .core.inbox.inbox import Inbox

__all__ = [
    "Change", "ConcurrentModification", "EditError", "Hit", "Memory", "NotMemory", "Remembered", "Similar",
    "TagShare", "open_profile",
]


@dataclass(frozen=True)
class Change:
    """What a write did (or, with ``dry_run``, would do)."""

    title: str  # one line: "supersede mem-0007 by mem-0054"
    written: bool
    files: tuple[Path, ...]  # the files whose bytes changed (or would change)
    lines: tuple[str, ...]  # by entry, as a commit body says it: "mem-0007: superseded by mem-0054"
    diff: str  # unified diff of the change
    new_id: str | None = None

    @classmethod
    def of(cls, plan: Plan, written: bool, root: Path) -> Change:
        return cls(plan.title, written and not plan.empty, tuple(plan.files),
                   tuple(line.removeprefix("- ") for line in plan.commit_lines()), plan.diff(root), plan.new_id)


@dataclass(frozen=True)
class Remembered:
    """The outcome of ``remember``: the new id, and what looked alike before it was written."""

    id: str  # the new entry's id; when skip_duplicate found the same text: that entry's id
    written: bool
    duplicates: tuple[Similar, ...]  # active entries with the same or nearly the same text
    conflicts: tuple[TagShare, ...]  # active entries sharing a tag: candidates for ``conflict=``
    change: Change


class Memory:
    """One profile (or OpenClaw workspace) opened for reading and writing; files are re-read on each call."""

    def __init__(self, path: Path | str, profile: str | None = None) -> None:
        self.profile = resolve_profile(Path(path), profile)
        follow_writes()

    def __repr__(self) -> str:
        return f"Memory({str(self.path)!r}, layout={self.profile.layout!r})"

    @property
    def path(self) -> Path:
        return self.profile.path

    @property
    def layout(self) -> str:
        """``profile`` (memories.md entries) or ``openclaw`` (a workspace)."""
        return self.profile.layout

    def _fresh(self) -> Profile:
        self.profile = self.profile.reload()
        return self.profile

    def _apply(self, plan: Plan, dry_run: bool) -> Change:
        written = apply_changes(plan) if not dry_run else plan
        return Change.of(written, not dry_run, self.path)

    # --- reading ------------------------------------------------------------------------------

    def entries(self, *, archived: bool = False) -> list[Entry]:
        """The well-formed entries of memories.md (or of the archive), in file order."""
        prof = self._fresh()
        doc = prof.archive if archived else prof.memories
        return list(doc.mf.well_formed()) if doc is not None else []

    def get(self, entry_id: str) -> Entry | None:
        """One entry by id, from memories.md or else the archive."""
        return next((e for archived in (False, True) for e in self.entries(archived=archived) if e.id == entry_id),
                    None)

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """Ranked hits over the profile's files (the search ``openclaw-tui search`` runs)."""
        from .core.search.api import search_profiles

        return search_profiles([self._fresh()], query, limit)

    def context(self, query: str = "", tags: Sequence[str] = (), **options: Any) -> Any:
        """What the agent would load for ``query`` (the ``openclaw-tui context`` contract).

        Returns the core's ``AgentContext`` (``.to_json()`` gives the spec's JSON).
        """
        from .core.search.context import agent_context

        return agent_context(self._fresh(), query, tags, **options)

    def check(self, today: dt.date | None = None) -> list[Finding]:
        """The consistency check's findings (the ``openclaw-tui check`` codes)."""
        from .core.check.rules import check_discovery
        from .core.files.profile import Discovery

        prof = self._fresh()
        kind = "workspace" if prof.layout == "openclaw" else "profile"
        return list(check_discovery(Discovery(prof.path, kind, [prof]), today=today))

    # --- writing ------------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        tags: Sequence[str] = (),
        importance: str | None = None,
        source: str = "agent",
        conflict: str | Sequence[str] | None = None,
        skip_duplicate: bool = False,
        fields: dict[str, Any] | None = None,
        dry_run: bool = False,
    ) -> Remembered:
        """Dedupe, detect conflicts, then append one entry with the next free id.

        ``duplicates`` lists active entries with the same or nearly the same
        text, ``conflicts`` the active entries sharing a tag; with
        ``skip_duplicate`` an active entry with the same text means nothing is
        written and ``id`` is that entry's.  ``fields`` adds other fields
        (``ttl``, ``refs``...), validated like every edit.
        """
        result = plan_remember(self._fresh(), text, tags=tags, importance=importance, source=source,
                               conflict=conflict, extra=fields, skip_duplicate=skip_duplicate)
        change = self._apply(result.plan, dry_run or result.skipped)
        # skipped: the same entry's id; else a plan rebuilt on newer files took the next free id then
        new_id = result.id if result.skipped else change.new_id or result.id
        return Remembered(new_id, change.written, tuple(result.duplicates), tuple(result.conflicts), change)

    def supersede(self, old: str, new: str, *, dry_run: bool = False) -> Change:
        """``old`` becomes ``superseded`` with ``superseded_by: new`` (``new`` must be active)."""
        from .core.lifecycle.operations import plan_supersede

        return self._apply(plan_supersede(self._fresh(), old, new), dry_run)

    def archive(self, *ids: str, dry_run: bool = False) -> Change:
        """Move entries of memories.md to contexts/archive/memories.md (all or none)."""
        from .core.lifecycle.archive import plan_archive

        if not ids:
            raise EditError("archive: give one or more ids")
        return self._apply(plan_archive(self._fresh(), list(dict.fromkeys(ids))), dry_run)

    def restore(self, entry_id: str, *, dry_run: bool = False) -> Change:
        """Move an archived entry back to memories.md (``status: active``)."""
        from .core.lifecycle.archive import plan_restore

        return self._apply(plan_restore(self._fresh(), entry_id), dry_run)

    def update(self, entry_id: str, fields: dict[str, Any] | None = None, *, text: str | None = None,
               dry_run: bool = False) -> Change:
        """Set fields and/or the text of one entry (a known field only to a valid value)."""
        from .core.lifecycle.operations import plan_set

        return self._apply(plan_set(self._fresh(), entry_id, fields or {}, text), dry_run)

    # --- the review inbox (what changed since the user's review) ------------------------------------

    def inbox(self) -> Inbox:
        """The changes since the review mark (``openclaw-tui inbox PATH``); ``inbox().count`` is the number
        the status bar and ``inbox --json`` show."""
        from .core.inbox.inbox import load_inbox

        return load_inbox(self.path)

    def approve(self, *ids: str) -> int:
        """Take these changes (ids, or a group such as ``"dreaming 2026-04-27"``) into the review mark;
        returns how many changes are left."""
        from .core.inbox.actions import InboxError, approve

        if not ids:
            raise InboxError("approve: give one or more change ids (or use approve_all)")
        approve(self.path, ids)
        return self.inbox().count

    def approve_all(self) -> None:
        """Move the review mark to the folder as it is now."""
        from .core.inbox.actions import approve_all

        approve_all(self.path)

    def revert(self, *ids: str, dry_run: bool = False) -> Change:
        """Give these changes back the bytes they had at the review mark (only their entries, items or
        files); raises ``InboxError`` (a ``ValueError``) for an unknown id."""
        from .core.inbox.actions import revert_plan
        from .core.lifecycle.undo import write_plan

        plan = revert_plan(self.path, ids)
        if not dry_run and not plan.empty:
            plan = write_plan(plan)
        return Change.of(plan, not dry_run, self.path)


def open_profile(path: Path | str, profile: str | None = None) -> Memory:
    """Open a profile folder (or a profiles root with ``profile=NAME``, or an OpenClaw workspace).

    Raises NotMemory (a ``ValueError``) when ``path`` is none of those.
    """
    return Memory(path, profile)
