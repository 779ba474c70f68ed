"""Editing and writing from the app: the selected entry re-read from disk, plans written through the core's
safe path (undoable), undo and redo, each write announced to the watcher with its exact bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.files.profile import ARCHIVE_REL, Profile, load_profile
from ...core.files.safe_write import ConcurrentModification
from ...core.format.edit import EditError
from ...core.format.entries import Entry
from ...core.i18n import _
from ...core.lifecycle.picks import find_block
from ...core.lifecycle.plan import Files, Plan
from ...core.lifecycle.undo import UndoStack
from ..rows import EntryRow
from ..widgets.plan_text import plan_title
from .profiles import ProfileData


class Refused(Exception):
    """An operation the session would not do; the message says why, in the reviewer's words."""


@dataclass
class EntryTarget:
    """The block being edited: in ``memories.md`` (file "memories") or the archive ("archive")."""

    file: str
    rel: str
    entry: Entry


@dataclass(frozen=True)
class WriteOutcome:
    """What a write, an undo or a redo did: ``plan`` when written, else ``error`` (``stale``: re-read first)."""

    plan: Plan | None = None
    error: str | None = None
    stale: bool = False
    nothing: bool = False  # nothing to undo or redo (a note, not an error)

    @property
    def ok(self) -> bool:
        return self.plan is not None


class Writing:
    """The writing part of ``Session``: what to edit, and writes, undo and redo."""

    current: ProfileData | None
    undo_stack: UndoStack
    watcher: Any

    # --- editing -----------------------------------------------------------------------------

    def edit_profile(self) -> Profile:
        """The current profile when its memory files can be edited (layout A). Raises Refused."""
        data = self.current
        if data is None:
            raise Refused(_("No profile is open."))
        if data.profile.layout != "profile":
            raise Refused(_("This is an OpenClaw workspace: it has no memories.md entries to edit."))
        return data.profile

    def editable(self) -> bool:
        """False only when the open profile is a workspace (entry actions are hidden then)."""
        return self.current is None or self.current.profile.layout == "profile"

    def fresh_profile(self) -> Profile:
        profile = self.edit_profile()
        return load_profile(profile.path, profile.rel, profile.layout)

    def files(self) -> Files:
        """Both memory files of the current profile as they are on disk now."""
        return Files.of(self.fresh_profile())

    def profile_root(self) -> Path:
        return self.current.path if self.current is not None else Path(".")

    def target(self, row: EntryRow | None, *, well_formed: bool = True) -> tuple[Files, EntryTarget]:
        """The selected entry, re-read from disk, with the files it was read from. Raises Refused
        (``Refused.args[1]`` is True when the block changed on disk: reload)."""
        self.edit_profile()
        if row is None:
            raise Refused(_("Select an entry first."))
        if row.malformed and well_formed:
            raise Refused(_("This block is broken; fix it first with e (edit)."))
        try:
            files = self.files()
        except (EditError, OSError) as exc:
            raise Refused(str(exc)) from None
        file = "archive" if row.file == ARCHIVE_REL else "memories"
        doc = files.archive if file == "archive" else files.memories
        entry = find_block(doc.mf.entries, row.entry)
        if entry is None:
            raise Refused(_("%(id)s changed on disk; reloading.") % {"id": row.id} if row.id
                          else _("The block changed on disk; reloading."), True)
        return files, EntryTarget(file, row.file, entry)

    def entry_by_id(self, entry_id: str) -> tuple[Files, EntryTarget]:
        files = self.files()
        for file, rel, doc in (("memories", "memories.md", files.memories), ("archive", ARCHIVE_REL, files.archive)):
            entry = next((e for e in doc.mf.entries if e.id == entry_id and e.error is None), None)
            if entry is not None:
                return files, EntryTarget(file, rel, entry)
        raise Refused(_("%(id)s is not defined.") % {"id": entry_id})

    # --- writes ------------------------------------------------------------------------------

    def expect_writes(self, changes: Sequence[tuple[Path, bytes | None]]) -> None:
        """Announce files the app writes itself (any thread): the watcher then does not report them."""
        watcher = self.watcher
        if watcher is not None:
            for path, data in changes:
                watcher.expect_write(path, data)

    def write(self, plan: Plan) -> WriteOutcome:
        """Write ``plan`` (undoable) through the core's safe path."""
        # not at start-up: it imports YAML and the secret scan
        from ...core.check.redact import RedactError

        self.expect_writes([(c.path, c.after) for c in plan.changes if c.changed] + [(p, None) for p in plan.removed])
        try:
            written = self.undo_stack.apply(plan)
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Not written: %(why)s. Another program changed the file after the preview; "
                                        "look again (ctrl+r) and retry.") % {"why": exc}, stale=True)
        except (EditError, RedactError, OSError) as exc:
            return WriteOutcome(error=_("Not written: %(why)s") % {"why": exc})
        if written is not plan:
            self.expect_writes([(c.path, c.after) for c in written.changes if c.changed])
        return WriteOutcome(written)

    def undo(self) -> WriteOutcome:
        plan = self.undo_stack.peek()
        if plan is None:
            return WriteOutcome(error=_("Nothing to undo in this session."), nothing=True)
        self.expect_writes([(c.path, c.before) for c in plan.changes if c.changed] + list(plan.removed.items()))
        try:
            self.undo_stack.undo()
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Cannot undo “%(title)s”: %(file)s changed on disk since it was written. "
                                        "Nothing was changed.") % {"title": plan_title(plan.title), "file": exc.path.name})
        except OSError as exc:
            return WriteOutcome(error=_("Cannot undo: %(why)s") % {"why": exc})
        return WriteOutcome(plan)

    def redo(self) -> WriteOutcome:
        if not self.undo_stack.can_redo:
            return WriteOutcome(error=_("Nothing to redo."), nothing=True)
        nxt = self.undo_stack.peek_redo()
        if nxt is not None:
            self.expect_writes([(c.path, c.after) for c in nxt.changes if c.changed] + [(p, None) for p in nxt.removed])
        try:
            plan = self.undo_stack.redo()
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Cannot redo: %(file)s changed on disk since. Nothing was changed.")
                                % {"file": exc.path.name})
        except OSError as exc:
            return WriteOutcome(error=_("Cannot redo: %(why)s") % {"why": exc})
        return WriteOutcome(plan)
