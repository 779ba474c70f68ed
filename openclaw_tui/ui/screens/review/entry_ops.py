"""The review screen's actions that change memory files (registry scope ``"main"``, group ``fix``).

``EntryOperations(screen, session)`` carries them out: every write is previewed as the exact diff
of the file bytes, then written by the session (core plans, on the session's undo stack).  It is
also the ``WriteHost`` the editing screens get (``load_files()``, ``confirm_write()``, ...).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ....core.check.findings import Finding
from ....core.check.redact import RedactError, plan_redaction
from ....core.files.profile import ARCHIVE_REL, Profile
from ....core.format.edit import EditError
from ....core.git.gitrepo import GitError
from ....core.i18n import N_, _, ngettext
from ....core.lifecycle.archive import gc_plan, plan_archive, plan_restore
from ....core.lifecycle.operations import plan_set, plan_set_many, plan_supersede
from ....core.lifecycle.picks import archive_picks, cold_picks, compact_picks, conflict_pair
from ....core.lifecycle.plan import Files, Plan
from ....core.lifecycle.rawedit import normalize_raw, plan_replace, raw_problems
from ...rows import Location
from ...session import EntryTarget, ProfileData, Refused, Session
from ...widgets.dialogs import AskId, ConfirmWrite
from ...widgets.plan_text import plan_title
from ..edit.edit_screen import EditScreen, edit_loop
from .review_host import ENTRY_ACTIONS, ReviewHost

WORKSPACE_HIDDEN = ENTRY_ACTIONS - {"undo", "redo", "commit", "commit_unavailable"}

PICKED_GROUP = N_("picked entries")

T = TypeVar("T")


def undo_step(host: Any, session: Session, redo: bool) -> Plan | None:
    """Undo (or redo) the session's last write and say so on ``host``; returns its plan, None if none."""
    outcome = session.redo() if redo else session.undo()
    if outcome.plan is None:
        host.notify(outcome.error or "", severity="information" if outcome.nothing else "error", timeout=10,
                    markup=False)
        return None
    done = _("Redone: %(title)s") if redo else _("Undone: %(title)s  (U redoes)")
    host.notify(done % {"title": plan_title(outcome.plan.title)}, markup=False)
    return outcome.plan


def _plural(n: int) -> str:
    return ngettext("%(n)s entry", "%(n)s entries", n) % {"n": n}


class EntryOperations:
    """The actions that change memory files, for the review screen (see the module docstring)."""

    def __init__(self, screen: ReviewHost, session: Session) -> None:
        self.screen = screen
        self.session = session
        self._show_after_reload: str | None = None  # an entry a write created: selected once reloaded

    def notify(self, message: str, **kw: Any) -> None:
        kw.pop("markup", None)
        self.screen.notify(message, **kw)

    @property
    def app(self) -> Any:
        return self.screen.app

    def _try(self, make: Callable[[], T], failed: str = "%(why)s") -> T | None:
        """``make()``, or None once the reviewer is told why it failed (``failed`` % {"why": the error})."""
        try:
            return make()
        except (Refused, EditError, RedactError, OSError) as exc:
            self.notify(failed % {"why": exc}, severity="error")
            return None

    # --- WriteHost ------------------------------------------------------------------------

    def edit_now(self) -> dt.datetime | None:
        """The time new timestamps get (None: now); tests set ``session.clock``."""
        return self.session.now()

    def profile_root(self) -> Path:
        return self.session.profile_root()

    def load_files(self) -> Files:
        """Both memory files of the current profile as they are on disk now."""
        return self.session.files()

    def edit_profile(self, quiet: bool = False) -> Profile | None:
        """The current profile when its memory files can be edited (layout A)."""
        try:
            return self.session.edit_profile()
        except Refused as exc:
            if not quiet:
                self.notify(str(exc), severity="warning")
            return None

    def selected_target(self, *, well_formed: bool = True, quiet: bool = False) -> tuple[Files, EntryTarget] | None:
        """The selected entry, re-read from disk, with the files it was read from."""
        try:
            return self.session.target(self.screen.selected_entry(), well_formed=well_formed)
        except Refused as exc:
            stale = len(exc.args) > 1 and exc.args[1]
            if not quiet or stale:
                self.notify(str(exc.args[0]), severity="error" if "cannot" in str(exc) else "warning")
            if stale:
                self.screen.refresh_after_write()
            return None

    # --- writing ------------------------------------------------------------------------

    def confirm_write(
        self,
        plan: Plan,
        *,
        done: str,
        notes: Sequence[str] = (),
        on_written: Callable[[Plan], object] | None = None,
        secrets: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Show what ``plan`` writes (diff); write it when confirmed."""
        if plan.empty:
            self.notify(_("Nothing to change: the files already say that."))
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.notify(_("Nothing was written."))
                return
            written = self.write_plan(plan, done)
            if written is not None and on_written is not None:
                on_written(written)

        self.app.push_screen(ConfirmWrite(plan, self.profile_root(), notes=notes, secrets=secrets), answered)

    def write_plan(self, plan: Plan, done: str) -> Plan | None:
        """Write ``plan`` now (undoable); returns what was written, None when refused."""
        outcome = self.session.write(plan)
        if outcome.plan is None:
            self.notify(outcome.error or _("Not written."), severity="error", timeout=10)
            if outcome.stale:
                self.screen.refresh_after_write()
            return None
        written = outcome.plan
        self._show_after_reload = written.new_id or next(iter(written.restored), None)
        self.screen.reload_for_plan(written)
        self.notify(_("%(done)s  (u undoes)") % {"done": done})
        return written

    def after_reload(self, data: ProfileData) -> None:
        """The review screen shows a reloaded profile: select the entry a write created, once it is there."""
        ident = self._show_after_reload
        if ident is None or ident not in data.by_id:
            return
        self._show_after_reload = None
        self.screen.call_after_refresh(self.screen.jump, Location(None, None, ident))

    # --- availability -------------------------------------------------------------------

    def available(self, action: str) -> bool | None:
        if action in WORKSPACE_HIDDEN:
            return self.session.editable()
        if action == "commit":
            return True if self.session.git_ok() else None
        if action == "commit_unavailable":
            return not self.session.git_ok()
        return True

    # --- edit ---------------------------------------------------------------------------

    def edit_entry(self) -> None:
        found = self.selected_target(well_formed=False)
        if found is None:
            return
        files, target = found
        self.app.push_screen(EditScreen(self, target, taken_ids=files.all_ids()))

    def external_edit(self) -> None:
        found = self.selected_target(well_formed=False)
        if found is None:
            return
        files, target = found
        entry = target.entry
        taken = files.all_ids()
        text = entry.raw.rstrip("\r\n") + ("\r\n" if entry.raw.endswith("\r\n") else "\n")

        def problems(edited: str) -> list[str]:
            return raw_problems(normalize_raw(edited, entry.raw), entry, taken)

        def valid(edited: str) -> None:
            plan = self._try(lambda: plan_replace(self.load_files(), target.file, entry.raw, edited,
                                                  entry_id=entry.id if entry.error is None else None, line=entry.line),
                             _("Not saved: %(why)s"))
            if plan is None:
                return
            self.confirm_write(plan, done=_("Saved %(id)s from your editor.") % {"id": entry.id} if entry.id
                               else _("Saved the block from your editor."))

        edit_loop(self.screen, text, 1, problems, valid)

    def new_entry(self) -> None:
        if self.edit_profile() is None:
            return
        from ..edit.new_entry_screen import NewEntryScreen

        self.app.push_screen(NewEntryScreen(self))

    def open_editor_for(self, entry_id: str, body: str | None = None) -> None:
        """Open the edit screen on an entry by id (used by "update the existing one instead")."""
        try:
            files, target = self.session.entry_by_id(entry_id)
        except (Refused, EditError, OSError) as exc:
            self.notify(str(exc), severity="warning")
            return
        self.app.push_screen(EditScreen(self, target, taken_ids=files.all_ids(), body=body))

    # --- conflicts ------------------------------------------------------------------------

    def resolve_conflict(self) -> None:
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        pair = conflict_pair(files, target.entry)
        if pair is None:
            self.notify(_("%(id)s has no conflict: link with another entry.") % {"id": target.entry.id}, markup=False)
            return
        from ..edit.conflict_screen import ConflictScreen

        self.app.push_screen(ConflictScreen(self, pair[0], pair[1]))

    # --- lifecycle ------------------------------------------------------------------------

    def supersede(self) -> None:
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        old = target.entry.id
        assert old is not None
        if target.file == "archive":
            self.notify(_("%(id)s is archived; restore it first (R).") % {"id": old}, severity="warning", markup=False)
            return
        live = [e.id for e in files.memories.mf.well_formed()
                if e.id and e.id != old and e.status not in ("superseded", "archived")]

        def chosen(new: str | None) -> None:
            if not new:
                return
            plan = self._try(lambda: plan_supersede(self.load_files(), old, new), _("Cannot supersede: %(why)s"))
            if plan is None:
                return
            self.confirm_write(plan, done=_("%(old)s is superseded by %(new)s.") % {"old": old, "new": new})

        self.app.push_screen(
            AskId(_("Supersede %(id)s") % {"id": old},
                  ngettext("Which entry replaces %(id)s? (one of the %(n)s live entries)",
                           "Which entry replaces %(id)s? (one of the %(n)s live entries)", len(live))
                  % {"id": old, "n": len(live)}, known=live),
            chosen,
        )

    def _picked(self) -> list[str]:
        """Ids picked in the entry table (``v``), in the order they were picked."""
        return list(self.screen.table.picked_ids)

    def _clear_picks(self, _plan: Plan) -> None:
        self.screen.table.clear_picks()

    def _archive_picked(self, picked: list[str]) -> None:
        files = self._try(self.load_files)
        if files is None:
            return
        picks = archive_picks(files, picked)
        ids = list(picks.ids)
        if not ids:
            self.notify(_("The picked entries are all in the archive already."))
            return
        plan = self._try(lambda: plan_archive(files, ids, self.edit_now()), _("Cannot archive: %(why)s"))
        if plan is None:
            return
        notes = [_("%(entries)s move to contexts/archive/memories.md: %(ids)s")
                 % {"entries": _plural(len(ids)), "ids": ", ".join(ids)}]
        if picks.already:
            notes.append(_("already in the archive, left alone: %(ids)s") % {"ids": ", ".join(picks.already)})
        self.confirm_write(plan, done=_("Archived %(entries)s.") % {"entries": _plural(len(ids))}, notes=notes,
                           on_written=self._clear_picks)

    def _cold_picked(self, picked: list[str]) -> None:
        files = self._try(self.load_files)
        if files is None:
            return
        picks = cold_picks(files, picked)
        if not picks.eligible:
            self.notify(_("None of the picked entries is active or cold in memories.md."), severity="warning")
            return
        new, ids = picks.status, list(picks.ids)
        plan = self._try(lambda: plan_set_many(files, ids, {"status": new}), _("Cannot change the status: %(why)s"))
        if plan is None:
            return
        notes = [_("%(entries)s: status → %(status)s (they stay in memories.md)")
                 % {"entries": _plural(len(ids)), "status": new}]
        if picks.skipped:
            notes.append(_("not active or cold, left alone: %(ids)s") % {"ids": ", ".join(picks.skipped)})
        self.confirm_write(plan, done=ngettext("%(n)s entry is %(status)s now.", "%(n)s entries are %(status)s now.",
                                               len(ids)) % {"n": len(ids), "status": new},
                           notes=notes, on_written=self._clear_picks)

    def archive_entry(self) -> None:
        picked = self._picked()
        if picked:
            self._archive_picked(picked)
            return
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        ident = target.entry.id
        assert ident is not None
        if target.file == "archive":
            self.notify(_("%(id)s is already in the archive.") % {"id": ident}, markup=False)
            return
        plan = self._try(lambda: plan_archive(files, ident, self.edit_now()), _("Cannot archive: %(why)s"))
        if plan is None:
            return
        self.confirm_write(plan, done=_("Archived %(id)s (contexts/archive/memories.md).") % {"id": ident})

    def restore_entry(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        row = self.screen.selected_entry()
        if row is not None and row.file == ARCHIVE_REL and not row.malformed and row.id:
            self.restore_by_id(row.id)
            return
        files = self._try(self.load_files)
        if files is None:
            return
        archived = [e.id for e in files.archive.mf.well_formed() if e.id]
        if not archived:
            self.notify(_("The archive holds no entries."))
            return

        def chosen(ident: str | None) -> None:
            if ident:
                self.restore_by_id(ident)

        self.app.push_screen(
            AskId(_("Restore by id"), _("Which archived entry goes back to memories.md? (%(n)s archived: %(ids)s)")
                  % {"n": len(archived), "ids": ", ".join(archived[:6]) + ("…" if len(archived) > 6 else "")},
                  known=archived),
            chosen,
        )

    def restore_by_id(self, ident: str) -> None:
        plan = self._try(lambda: plan_restore(self.load_files(), ident), _("Cannot restore: %(why)s"))
        if plan is None:
            return
        self.confirm_write(plan, done=_("Restored %(id)s to memories.md.") % {"id": ident})

    def toggle_cold(self) -> None:
        picked = self._picked()
        if picked:
            self._cold_picked(picked)
            return
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        entry = target.entry
        ident = entry.id
        assert ident is not None
        if target.file == "archive":
            self.notify(_("%(id)s is archived; restore it first (R).") % {"id": ident}, severity="warning", markup=False)
            return
        if entry.status not in ("active", "cold"):
            self.notify(_("%(id)s is %(status)s; only active and cold entries switch.")
                        % {"id": ident, "status": entry.status}, severity="warning", markup=False)
            return
        new = "active" if entry.status == "cold" else "cold"
        plan = self._try(lambda: plan_set(files, ident, {"status": new}), _("Cannot change the status: %(why)s"))
        if plan is None:
            return
        self.confirm_write(plan, done=_("%(id)s is %(status)s now.") % {"id": ident, "status": new},
                           notes=[_("%(id)s: status %(old)s → %(new)s (stays in memories.md)")
                                  % {"id": ident, "old": entry.status, "new": new}])

    def gc_preview(self) -> None:
        if self.edit_profile() is None:
            return
        today = self.session.today_or_now()
        actions = self._try(lambda: gc_plan(self.load_files(), today))
        if actions is None:
            return
        if not actions:
            self.notify(_("GC on %(date)s: nothing to move (no expired TTL, cold or over-capacity entry).")
                        % {"date": today.isoformat()})
            return
        from ..edit.gc_screen import GcScreen

        self.app.push_screen(GcScreen(self, actions, today))

    def compact(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        from ..edit.compact_screen import CompactScreen, TagGroup, candidate_tags

        files = self._try(self.load_files)
        if files is None:
            return
        findings: list[Finding] = self.screen.findings_for(profile.path)
        row = self.screen.selected_entry()
        prefer = [] if row is None or row.malformed else list(row.entry.tags)
        tags = candidate_tags(files, findings, prefer)
        picked = compact_picks(files, self._picked())
        if len(picked) >= 2:
            tags.insert(0, TagGroup(_(PICKED_GROUP), tuple(picked)))  # the picks (v) come first, all ticked
        if not tags:
            self.notify(_("No tag is shared by two or more active entries: nothing to compact."))
            return
        self.app.push_screen(CompactScreen(self, files, tags))

    def redact(self) -> None:
        if self.edit_profile() is None:
            return
        try:
            profile = self.session.fresh_profile()
            reds = plan_redaction(profile)
        except (Refused, RedactError, EditError, OSError) as exc:
            self.notify(_("Cannot redact: %(why)s") % {"why": exc}, severity="error")
            return
        if not reds:
            self.notify(_("No unredacted secret in this profile."))
            return
        from ..edit.redact_screen import RedactScreen

        self.app.push_screen(RedactScreen(self, profile, reds))

    # --- undo -----------------------------------------------------------------------------

    def undo(self, redo: bool = False) -> None:
        plan = undo_step(self, self.session, redo)
        if plan is not None:
            self.screen.reload_for_plan(plan)

    def redo(self) -> None:
        self.undo(redo=True)

    # --- commit -----------------------------------------------------------------------------

    def commit(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        from ..git.commit_screen import CommitScreen, commit_message

        try:
            message = commit_message(profile.path)
        except GitError as exc:
            self.notify(_("Cannot commit: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        if message is None:
            self.notify(_("Nothing to commit in %(profile)s: the files match the last commit.") % {"profile": profile.name},
                        markup=False)
            return
        self.app.push_screen(CommitScreen(self, profile.path, message))

    def commit_unavailable(self) -> None:
        profile = self.screen.selected_profile()
        where = profile.name if profile is not None else _("this memory")
        self.notify(_("Commit is unavailable: %(where)s is not in a git repository. "
                      "Run `git init` in the memory folder (or openclaw-tui --demo) to track changes.") % {"where": where},
                    title=_("No git repository"), severity="warning", markup=False)

    def after_commit(self) -> None:
        self.session.forget_git()
        self.screen.refresh_after_write()
