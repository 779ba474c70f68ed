"""Correcting memories by hand: every lifecycle operation of the review screen, as key bindings.

``EditActions`` is a mixin for the review screen (``MainScreen``): it holds
the bindings (each with an id, remappable) and the actions for editing an
entry (form/YAML or ``$EDITOR``), adding one, resolving a conflict,
superseding, archiving, restoring, cold/active, gc, compaction, redaction,
undo/redo and committing.  Every write is previewed as the exact diff of the
file bytes, goes through the core's plans (atomic, compare-and-swap, only
the intended lines) and lands on an undo stack for the session.

It relies on the host screen's extension points: ``selected_entry()``,
``selected_profile()``, ``refresh_after_write()``/``reload_profile()``,
``findings_for()`` and ``today``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from ..core.check.findings import Finding
from ..core.files.safe_write import ConcurrentModification
from ..core.format.edit import EditError
from ..core.format.entries import Entry
from ..core.format.fields import ids_in_value
from ..core.format.profile import ARCHIVE_REL, Profile, load_profile
from ..core.format.rawedit import normalize_raw, plan_replace, raw_problems
from ..core.format.rows import Location
from ..core.git.gitrepo import GitError, find_repo
from ..core.lifecycle.lifecycle import gc_plan, plan_archive, plan_restore
from ..core.lifecycle.operations import plan_set, plan_set_many, plan_supersede
from ..core.lifecycle.plan import Files, Plan
from ..core.lifecycle.redact import RedactError, plan_redaction
from ..core.lifecycle.undo import UndoStack
from .confirm_screen import AskId, ConfirmWrite
from .edit_screen import EditScreen, EntryTarget, edit_loop

ENTRY_ACTIONS = frozenset({
    "edit_entry", "external_edit", "new_entry", "resolve_conflict", "supersede", "archive_entry",
    "restore_entry", "toggle_cold", "gc_preview", "compact", "redact",
})


PICKED_GROUP = "picked entries"


class EditActions(Screen[None]):
    """Bindings and actions that change memory files (mixed into the review screen)."""

    BINDINGS = [
        Binding("e", "edit_entry", "Edit", id="edit.entry", tooltip="Edit the selected entry (form or YAML)"),
        Binding("E", "external_edit", "Edit in $EDITOR", show=False, id="edit.external",
                tooltip="Open the selected entry in $VISUAL/$EDITOR"),
        Binding("plus", "new_entry", "New", id="edit.new", tooltip="Write a new entry"),
        Binding("r", "resolve_conflict", "Resolve", id="edit.resolve-conflict",
                tooltip="Resolve the selected entry's conflict side by side"),
        Binding("x", "supersede", "Supersede", show=False, id="edit.supersede",
                tooltip="Mark the selected entry superseded by another one"),
        Binding("A", "archive_entry", "Archive", show=False, id="edit.archive",
                tooltip="Move the selected entry (or every picked one, v) to contexts/archive/memories.md"),
        Binding("R", "restore_entry", "Restore", show=False, id="edit.restore",
                tooltip="Move an archived entry back to memories.md (the selected one, or by id)"),
        Binding("c", "toggle_cold", "Cold/active", show=False, id="edit.cold",
                tooltip="Switch the selected entry (or every picked one, v) between active and cold"),
        Binding("ctrl+g", "gc_preview", "GC", show=False, id="edit.gc",
                tooltip="Preview what the TTL, cold and cap rules would move"),
        Binding("M", "compact", "Compact", show=False, id="edit.compact",
                tooltip="Merge many small entries on one topic into one"),
        Binding("X", "redact", "Redact", show=False, id="edit.redact",
                tooltip="Replace secrets by placeholders"),
        Binding("u,ctrl+z", "undo", "Undo", id="edit.undo", tooltip="Undo the last write of this session"),
        Binding("U,ctrl+y", "redo", "Redo", show=False, id="edit.redo", tooltip="Write the undone change again"),
        Binding("C", "commit", "Commit", id="edit.commit", tooltip="Commit the profile's changes to git"),
        Binding("C", "commit_unavailable", "", show=False, id="edit.commit-unavailable"),
    ]

    # --- state kept on the screen -------------------------------------------------------

    @property
    def undo_stack(self) -> UndoStack:
        stack: UndoStack | None = self.__dict__.get("_edit_undo")
        if stack is None:
            stack = self.__dict__["_edit_undo"] = UndoStack()
        return stack

    def edit_now(self) -> dt.datetime | None:
        """The time new timestamps get (None: now); tests set ``edit_clock``."""
        clock: Callable[[], dt.datetime] | None = getattr(self, "edit_clock", None)
        return clock() if clock is not None else None

    def edit_today(self) -> dt.date:
        today: dt.date | None = getattr(self, "today", None)
        return today or dt.date.today()

    # --- what is selected -------------------------------------------------------------------

    def _profile(self) -> Profile | None:
        get = getattr(self, "selected_profile", None)
        profile: Profile | None = get() if get is not None else None
        return profile

    def edit_profile(self, quiet: bool = False) -> Profile | None:
        """The current profile when its memory files can be edited (layout A)."""
        profile = self._profile()
        if profile is None:
            if not quiet:
                self.notify("No profile is open.", severity="warning")
            return None
        if profile.layout != "profile":
            if not quiet:
                self.notify("This is an OpenClaw workspace: it has no memories.md entries to edit.",
                            severity="warning")
            return None
        return profile

    def profile_root(self) -> Path:
        profile = self._profile()
        return profile.path if profile is not None else Path(".")

    def load_profile_fresh(self) -> Profile:
        profile = self._profile()
        assert profile is not None
        return load_profile(profile.path, profile.rel, profile.layout)

    def load_files(self) -> Files:
        """Both memory files of the current profile as they are on disk now."""
        return Files.of(self.load_profile_fresh())

    def _selected_row(self) -> Any:
        get = getattr(self, "selected_entry", None)
        return get() if get is not None else None

    def selected_target(self, *, well_formed: bool = True, quiet: bool = False) -> tuple[Files, EntryTarget] | None:
        """The selected entry, re-read from disk, with the files it was read from."""
        if self.edit_profile(quiet) is None:
            return None
        row = self._selected_row()
        if row is None:
            if not quiet:
                self.notify("Select an entry first.", severity="warning")
            return None
        if row.malformed and well_formed:
            if not quiet:
                self.notify("This block is broken; fix it first with e (edit).", severity="warning")
            return None
        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None
        file = "archive" if row.file == ARCHIVE_REL else "memories"
        doc = files.archive if file == "archive" else files.memories
        entry = _find_block(doc.mf.entries, row.entry)
        if entry is None:
            self.notify(f"{row.id or 'The block'} changed on disk; reloading.", severity="warning", markup=False)
            self._refresh()
            return None
        return files, EntryTarget(file, row.file, entry)

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
            self.notify("Nothing to change: the files already say that.")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.notify("Nothing was written.")
                return
            written = self.write_plan(plan, done)
            if written is not None and on_written is not None:
                on_written(written)

        self.app.push_screen(ConfirmWrite(plan, self.profile_root(), notes=notes, secrets=secrets), answered)

    def write_plan(self, plan: Plan, done: str) -> Plan | None:
        """Write ``plan`` now (undoable); returns what was written, None when refused."""
        try:
            written = self.undo_stack.apply(plan)
        except ConcurrentModification as exc:
            self.notify(f"Not written: {exc}. Another program changed the file after the preview; "
                        "look again (ctrl+r) and retry.", severity="error", markup=False, timeout=10)
            self._refresh()
            return None
        except (EditError, RedactError, OSError) as exc:
            self.notify(f"Not written: {exc}", severity="error", markup=False, timeout=10)
            return None
        target = written.new_id or next(iter(written.restored), None)
        if target is not None:
            self.__dict__["_edit_show"] = target  # selected once the reload is shown
        self._reload_for(written)
        self.notify(f"{done}  (u undoes)", markup=False)
        return written

    def on_profile_reloaded(self, message: Any) -> None:
        """After the host screen shows a reloaded profile: select the entry a write created.

        Only the reload that is shown and holds the entry counts: the
        watcher may start a second reload of the same write, and the first
        one then arrives stale (the host screen skips it).
        """
        ident = self.__dict__.get("_edit_show")
        jump = getattr(self, "jump", None)
        data = getattr(message, "data", None)
        if ident is None or jump is None or data is None:
            return
        latest = getattr(self, "_reloads", {}).get(getattr(data, "path", None))
        if getattr(message, "gen", latest) != latest or ident not in getattr(data, "by_id", {}):
            return  # not the reload that will be shown: wait for it
        del self.__dict__["_edit_show"]
        self.call_after_refresh(jump, Location(None, None, ident))

    def _refresh(self) -> None:
        hook = getattr(self, "refresh_after_write", None)
        if hook is not None:
            hook()

    def _reload_for(self, plan: Plan) -> None:
        """Reload every open profile that holds a file the plan changed."""
        data: dict[Path, Any] = getattr(self, "data", {}) or {}
        reload = getattr(self, "reload_profile", None)
        done = False
        if reload is not None:
            for folder in data:
                if any(_inside(c.path, Path(folder)) for c in plan.changes):
                    reload(folder)
                    done = True
        if not done:
            self._refresh()

    # --- availability -------------------------------------------------------------------

    def _git_ok(self) -> bool:
        profile = self._profile()
        if profile is None:
            return False
        cache: dict[Path, bool] = self.__dict__.setdefault("_edit_git", {})
        if profile.path not in cache:
            try:
                cache[profile.path] = find_repo(profile.path) is not None
            except (GitError, OSError):
                cache[profile.path] = False
        return cache[profile.path]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ENTRY_ACTIONS:
            profile = self._profile()
            return profile is None or profile.layout == "profile"
        if action == "commit":
            return True if self._git_ok() else None
        if action == "commit_unavailable":
            return not self._git_ok()
        return super().check_action(action, parameters)

    # --- edit ---------------------------------------------------------------------------

    def action_edit_entry(self) -> None:
        found = self.selected_target(well_formed=False)
        if found is None:
            return
        files, target = found
        self.app.push_screen(EditScreen(self, target, taken_ids=files.all_ids()))

    def action_external_edit(self) -> None:
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
            try:
                plan = plan_replace(self.load_files(), target.file, entry.raw, edited,
                                    entry_id=entry.id if entry.error is None else None, line=entry.line)
            except (EditError, OSError) as exc:
                self.notify(f"Not saved: {exc}", severity="error", markup=False)
                return
            self.confirm_write(plan, done=f"Saved {entry.id or 'the block'} from your editor.")

        edit_loop(self, text, 1, problems, valid)

    def action_new_entry(self) -> None:
        if self.edit_profile() is None:
            return
        from .new_entry_screen import NewEntryScreen

        self.app.push_screen(NewEntryScreen(self))

    def open_editor_for(self, entry_id: str, body: str | None = None) -> None:
        """Open the edit screen on an entry by id (used by "update the existing one instead")."""
        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        for file, rel, doc in (("memories", "memories.md", files.memories), ("archive", ARCHIVE_REL, files.archive)):
            entry = next((e for e in doc.mf.entries if e.id == entry_id and e.error is None), None)
            if entry is not None:
                self.app.push_screen(EditScreen(self, EntryTarget(file, rel, entry), taken_ids=files.all_ids(),
                                                body=body))
                return
        self.notify(f"{entry_id} is not defined.", severity="warning", markup=False)

    # --- conflicts ------------------------------------------------------------------------

    def action_resolve_conflict(self) -> None:
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        pair = conflict_pair(files, target.entry)
        if pair is None:
            self.notify(f"{target.entry.id} has no conflict: link with another entry.", markup=False)
            return
        from .conflict_screen import ConflictScreen

        self.app.push_screen(ConflictScreen(self, pair[0], pair[1]))

    # --- lifecycle ------------------------------------------------------------------------

    def action_supersede(self) -> None:
        found = self.selected_target()
        if found is None:
            return
        files, target = found
        old = target.entry.id
        assert old is not None
        if target.file == "archive":
            self.notify(f"{old} is archived; restore it first (R).", severity="warning", markup=False)
            return
        live = [e.id for e in files.memories.mf.well_formed()
                if e.id and e.id != old and e.status not in ("superseded", "archived")]

        def chosen(new: str | None) -> None:
            if not new:
                return
            try:
                plan = plan_supersede(self.load_files(), old, new)
            except (EditError, OSError) as exc:
                self.notify(f"Cannot supersede: {exc}", severity="error", markup=False)
                return
            self.confirm_write(plan, done=f"{old} is superseded by {new}.")

        self.app.push_screen(
            AskId(f"Supersede {old}", f"Which entry replaces {old}? (one of the {len(live)} live entries)",
                  known=live),
            chosen,
        )

    def _picked(self) -> list[str]:
        """Ids picked in the entry table (``v``), in the order they were picked."""
        table = getattr(self, "table", None)
        return list(getattr(table, "picked_ids", []) or [])

    def _clear_picks(self, _plan: Plan) -> None:
        table = getattr(self, "table", None)
        if table is not None:
            table.clear_picks()

    def _archive_picked(self, picked: list[str]) -> None:
        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        already = [i for i in picked if files.memories.mf.get(i) is None and files.archive.mf.get(i) is not None]
        ids = [i for i in picked if i not in already]
        if not ids:
            self.notify("The picked entries are all in the archive already.", markup=False)
            return
        try:
            plan = plan_archive(files, ids, self.edit_now())
        except (EditError, OSError) as exc:
            self.notify(f"Cannot archive: {exc}", severity="error", markup=False)
            return
        notes = [f"{len(ids)} entr{'y' if len(ids) == 1 else 'ies'} move to contexts/archive/memories.md: "
                 + ", ".join(ids)]
        if already:
            notes.append(f"already in the archive, left alone: {', '.join(already)}")
        self.confirm_write(plan, done=f"Archived {len(ids)} entr{'y' if len(ids) == 1 else 'ies'}.",
                           notes=notes, on_written=self._clear_picks)

    def _cold_picked(self, picked: list[str]) -> None:
        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        eligible: list[tuple[str, str]] = []
        skipped: list[str] = []
        for ident in picked:
            e = files.memories.mf.get(ident)
            if e is None or e.error or e.status not in ("active", "cold"):
                skipped.append(ident)
            else:
                eligible.append((ident, e.status))
        if not eligible:
            self.notify("None of the picked entries is active or cold in memories.md.", severity="warning",
                        markup=False)
            return
        new = "active" if all(status == "cold" for _i, status in eligible) else "cold"
        ids = [i for i, status in eligible if status != new]
        try:
            plan = plan_set_many(files, ids, {"status": new})
        except (EditError, OSError) as exc:
            self.notify(f"Cannot change the status: {exc}", severity="error", markup=False)
            return
        notes = [f"{len(ids)} entr{'y' if len(ids) == 1 else 'ies'}: status → {new} (they stay in memories.md)"]
        if skipped:
            notes.append(f"not active or cold, left alone: {', '.join(skipped)}")
        self.confirm_write(plan, done=f"{len(ids)} entr{'y is' if len(ids) == 1 else 'ies are'} {new} now.",
                           notes=notes, on_written=self._clear_picks)

    def action_archive_entry(self) -> None:
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
            self.notify(f"{ident} is already in the archive.", markup=False)
            return
        try:
            plan = plan_archive(files, ident, self.edit_now())
        except (EditError, OSError) as exc:
            self.notify(f"Cannot archive: {exc}", severity="error", markup=False)
            return
        self.confirm_write(plan, done=f"Archived {ident} (contexts/archive/memories.md).")

    def action_restore_entry(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        row = self._selected_row()
        if row is not None and row.file == ARCHIVE_REL and not row.malformed and row.id:
            self.restore_by_id(row.id)
            return
        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        archived = [e.id for e in files.archive.mf.well_formed() if e.id]
        if not archived:
            self.notify("The archive holds no entries.")
            return

        def chosen(ident: str | None) -> None:
            if ident:
                self.restore_by_id(ident)

        self.app.push_screen(
            AskId("Restore by id", f"Which archived entry goes back to memories.md? ({len(archived)} archived: "
                  f"{', '.join(archived[:6])}{'…' if len(archived) > 6 else ''})", known=archived),
            chosen,
        )

    def restore_by_id(self, ident: str) -> None:
        try:
            plan = plan_restore(self.load_files(), ident)
        except (EditError, OSError) as exc:
            self.notify(f"Cannot restore: {exc}", severity="error", markup=False)
            return
        self.confirm_write(plan, done=f"Restored {ident} to memories.md.")

    def action_toggle_cold(self) -> None:
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
            self.notify(f"{ident} is archived; restore it first (R).", severity="warning", markup=False)
            return
        if entry.status not in ("active", "cold"):
            self.notify(f"{ident} is {entry.status}; only active and cold entries switch.", severity="warning",
                        markup=False)
            return
        new = "active" if entry.status == "cold" else "cold"
        try:
            plan = plan_set(files, ident, {"status": new})
        except (EditError, OSError) as exc:
            self.notify(f"Cannot change the status: {exc}", severity="error", markup=False)
            return
        self.confirm_write(plan, done=f"{ident} is {new} now.",
                           notes=[f"{ident}: status {entry.status} → {new} (stays in memories.md)"])

    def action_gc_preview(self) -> None:
        if self.edit_profile() is None:
            return
        try:
            files = self.load_files()
            actions = gc_plan(files, self.edit_today())
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        if not actions:
            self.notify(f"GC on {self.edit_today().isoformat()}: nothing to move (no expired TTL, cold or "
                        "over-capacity entry).")
            return
        from .gc_screen import GcScreen

        self.app.push_screen(GcScreen(self, actions, self.edit_today()))

    def action_compact(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        from .compact_screen import CompactScreen, TagGroup, candidate_tags

        try:
            files = self.load_files()
        except (EditError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        get_findings = getattr(self, "findings_for", None)
        findings: list[Finding] = list(get_findings(profile.path)) if get_findings is not None else []
        row = self._selected_row()
        prefer = [] if row is None or row.malformed else list(row.entry.tags)
        tags = candidate_tags(files, findings, prefer)
        picked = [i for i in self._picked() if (e := files.memories.mf.get(i)) is not None and e.status == "active"
                  and not e.error]
        if len(picked) >= 2:
            tags.insert(0, TagGroup(PICKED_GROUP, tuple(picked)))  # the picks (v) come first, all ticked
        if not tags:
            self.notify("No tag is shared by two or more active entries: nothing to compact.")
            return
        self.app.push_screen(CompactScreen(self, files, tags))

    def action_redact(self) -> None:
        if self.edit_profile() is None:
            return
        try:
            profile = self.load_profile_fresh()
            reds = plan_redaction(profile)
        except (RedactError, EditError, OSError) as exc:
            self.notify(f"Cannot redact: {exc}", severity="error", markup=False)
            return
        if not reds:
            self.notify("No unredacted secret in this profile.")
            return
        from .redact_screen import RedactScreen

        self.app.push_screen(RedactScreen(self, profile, reds))

    # --- undo -----------------------------------------------------------------------------

    def action_undo(self) -> None:
        stack = self.undo_stack
        plan = stack.peek()
        if plan is None:
            self.notify("Nothing to undo in this session.")
            return
        try:
            stack.undo()
        except ConcurrentModification as exc:
            self.notify(f"Cannot undo “{plan.title}”: {exc.path.name} changed on disk since it was written. "
                        "Nothing was changed.", severity="error", markup=False, timeout=10)
            return
        except OSError as exc:
            self.notify(f"Cannot undo: {exc}", severity="error", markup=False)
            return
        self._reload_for(plan)
        self.notify(f"Undone: {plan.title}  (U redoes)", markup=False)

    def action_redo(self) -> None:
        stack = self.undo_stack
        if not stack.can_redo:
            self.notify("Nothing to redo.")
            return
        try:
            plan = stack.redo()
        except ConcurrentModification as exc:
            self.notify(f"Cannot redo: {exc.path.name} changed on disk since. Nothing was changed.",
                        severity="error", markup=False, timeout=10)
            return
        except OSError as exc:
            self.notify(f"Cannot redo: {exc}", severity="error", markup=False)
            return
        self._reload_for(plan)
        self.notify(f"Redone: {plan.title}", markup=False)

    # --- commit -----------------------------------------------------------------------------

    def action_commit(self) -> None:
        profile = self.edit_profile()
        if profile is None:
            return
        from .commit_screen import CommitScreen, commit_message

        try:
            message = commit_message(profile.path)
        except GitError as exc:
            self.notify(f"Cannot commit: {exc}", severity="error", markup=False)
            return
        if message is None:
            self.notify(f"Nothing to commit in {profile.name}: the files match the last commit.", markup=False)
            return
        self.app.push_screen(CommitScreen(self, profile.path, message))

    def action_commit_unavailable(self) -> None:
        profile = self._profile()
        where = profile.name if profile is not None else "this memory"
        self.notify(f"Commit is unavailable: {where} is not in a git repository. "
                    "Run `git init` in the memory folder (or openclaw-tui --demo) to track changes.",
                    title="No git repository", severity="warning", markup=False)

    def after_commit(self) -> None:
        self.__dict__.pop("_edit_git", None)
        self._refresh()


# --- helpers ---------------------------------------------------------------------------------


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _find_block(entries: Sequence[Entry], old: Entry) -> Entry | None:
    """The block of a fresh parse that is ``old``: same id (well-formed), else same raw text."""
    if old.error is None and old.id is not None:
        same = [e for e in entries if e.id == old.id and e.error is None]
        exact = [e for e in same if e.raw == old.raw]
        return (exact or same)[0] if same else None
    return next((e for e in entries if e.raw == old.raw), None)


def conflict_pair(files: Files, entry: Entry) -> tuple[Entry, Entry] | None:
    """``entry`` and the entry it conflicts with (either side naming the other), earlier in the file first.

    An unresolved pair (both active) is preferred.
    """
    ident = entry.id
    if ident is None:
        return None
    by_id = {}
    order = {}
    for n, e in enumerate(files.memories.mf.well_formed()):
        if e.id is not None and e.id not in by_id:
            by_id[e.id] = e
            order[e.id] = n
    partners: list[str] = [i for i in ids_in_value(entry.meta.get("conflict")) if i in by_id and i != ident]
    for other_id, other in by_id.items():
        if other_id != ident and ident in ids_in_value(other.meta.get("conflict")) and other_id not in partners:
            partners.append(other_id)
    if not partners:
        return None
    partners.sort(key=lambda i: (not (by_id[i].status == "active" and entry.status == "active"), order[i]))
    other = by_id[partners[0]]
    me = by_id.get(ident, entry)
    first, second = sorted((me, other), key=lambda e: order.get(e.id or "", 0))
    return first, second
