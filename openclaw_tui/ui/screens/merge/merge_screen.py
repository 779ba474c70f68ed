"""Resolving merge conflicts: every conflicted file, entry by entry (memory files) or region by region.

Keys follow lazygit's merge panel.  Nothing is written until ``c`` (once every item is decided and every
result parses): the files are written compare-and-swapped and staged, then the merge, cherry-pick, revert or
rebase step can be concluded or aborted.
"""

from __future__ import annotations

import re
from pathlib import Path

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Header, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from ....core.files.external_editor import NoEditor
from ....core.files.safe_write import ConcurrentModification
from ....core.git.gitrepo import CONTINUE_LABEL, Continued, GitError, has_stash
from ....core.i18n import N_, _, catalog, ngettext, recognise
from ....core.merge import conflicts as cf
from ....core.merge.conflicts import BOTH, OURS, THEIRS, ConflictItem, Edited, ResolutionError
from ....core.merge.merge_session import FileResolution, MergeSession, choice_label
from ...actions import bindings
from ...session import Session
from ...widgets.conflict_pane import ConflictPane, choice_word
from ...widgets.dialogs import Ask
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean, clean_line

NARROW = 120  # columns: below this the panes stack vertically
CHOICE_STYLE = {"ours": "green", "theirs": "blue", "both": "magenta", "edited": "cyan"}
# git's operations and their conclusions, as said here (core/git/gitrepo.py: CONTINUE_LABEL's keys)
OPERATION = {"merge": N_("merge"), "rebase": N_("rebase"), "am": N_("patch series"), "cherry-pick": N_("cherry-pick"),
             "revert": N_("revert")}
CONCLUDE = {"merge": N_("Conclude the merge"), "cherry-pick": N_("Commit the cherry-pick"),
            "revert": N_("Commit the revert"), "rebase": N_("Continue the rebase"),
            "am": N_("Continue applying the patches")}


# the notes of core/merge/merge_session.py (collision_notes, reference_notes), as the screen shows them
NOTES = (
    N_("%(file)s: %(old)s was added on both sides as two different entries: both kept, theirs is now %(new)s"),
    N_("%(file)s: %(n)s line their branch added now name %(names)s"),
    N_("%(file)s: %(n)s lines their branch added now name %(names)s"),
)


def merge_note(note: str) -> str:
    """A note of the merge session in the language in use (English: as it is)."""
    if catalog() is None:
        return note

    def was(value: str) -> str:  # "mem-0055 (was mem-0054)"
        return re.sub(r"\(was (\S+?)\)", lambda m: _("(was %(old)s)") % {"old": m.group(1)}, value)

    return recognise(NOTES, note, was) or note


def operation(op: str) -> str:
    return _(OPERATION.get(op, op))


def conclude_label(op: str) -> str:
    return _(CONCLUDE[op]) if op in CONCLUDE else CONTINUE_LABEL.get(op, op)


class SessionLoaded(Message):
    def __init__(self, session: MergeSession | None, error: str | None = None,
                 reference_notes: list[str] | None = None) -> None:
        super().__init__()
        self.session, self.error = session, error
        self.reference_notes = reference_notes or []


class Completed(Message):
    def __init__(self, written: list[Path] | None, error: str | None = None) -> None:
        super().__init__()
        self.written, self.error = written, error


class GitDone(Message):
    """A conclude or abort finished (``error`` None on success)."""

    def __init__(self, what: str, error: str | None, done: Continued | None = None) -> None:
        super().__init__()
        self.what, self.error, self.done = what, error, done


# --- dialogs ---------------------------------------------------------------------------------


class EditResolution(ModalScreen[str | None]):
    """Type the result of one conflict yourself, both versions in view (ctrl+s keeps it, escape cancels)."""

    CSS_PATH = ["../git/git_common.tcss", "merge_screen.tcss"]
    BINDINGS = bindings("merge-edit")

    def __init__(self, item: ConflictItem, text: str, title: str, labels: tuple[str, str] = ("ours", "theirs")) -> None:
        super().__init__()
        self.item = item
        self.initial = text
        self.title_text = title
        self.labels = labels

    def compose(self) -> ComposeResult:
        with Vertical(id="edit-box"):
            yield Static(Text(self.title_text, style="bold"), id="edit-title")
            with Horizontal(id="edit-sides"):
                for label, text in ((self.labels[0], self.item.ours), (self.labels[1], self.item.theirs)):
                    with VerticalScroll(classes="edit-side") as side:
                        side.border_title = Text(clean_line(label))
                        side.can_focus = False
                        yield Static(Text(clean(text)) if text is not None else Text(_("(not on this side)"),
                                                                                     style="italic dim"))
            yield TextArea(self.initial, id="edit-area", soft_wrap=True, show_line_numbers=True, tab_behavior="focus")
            yield Static(Text(_("ctrl+s keeps this text as the result · escape cancels"), style="dim"), id="edit-error")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_save(self) -> None:
        text = self.query_one(TextArea).text
        if text and not text.endswith("\n"):
            text += "\n"
        reason = cf.validate_edit(self.item, text)
        if reason:
            self.query_one("#edit-error", Static).update(Text(_("Not kept: %(why)s") % {"why": reason}, style="bold red"))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


# --- the screen -------------------------------------------------------------------------------


class MergeScreen(Screen[bool]):
    """Resolve every conflicted file of the memory, then conclude or abort the merge."""

    CSS_PATH = ["../git/git_common.tcss", "merge_screen.tcss"]
    BINDINGS = bindings("merge")

    def __init__(self, scope: Path, folders: list[Path] | None = None, session: Session | None = None) -> None:
        super().__init__()
        self.app_session = session  # the app's session: told about every file this screen writes
        self.scope = Path(scope)
        self.folders = list(folders or [])
        self.session: MergeSession | None = None
        self.side = "ours"
        self.current: tuple[int, str] | None = None  # (file index, item key)
        self.written = False  # files were written (complete ran)
        self.changed_repo = False
        self._narrow: bool | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        yield Static(Text(_("Looking for conflicts…"), style="dim"), id="merge-banner")
        with Horizontal(id="merge-main"):
            yield OptionList(id="merge-items")
            yield ConflictPane(id="conflict")
        yield KeysFooter()

    @property
    def items_list(self) -> OptionList:
        return self.query_one("#merge-items", OptionList)

    @property
    def pane(self) -> ConflictPane:
        return self.query_one("#conflict", ConflictPane)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        """Narrow: the list over the conflict, the versions one under the other (the base hidden: v shows it)."""
        narrow = width < NARROW  # the same width as the app's "-narrow" breakpoint (merge_screen.tcss)
        if narrow != self._narrow:
            self._narrow = narrow
            self.pane.show_base = not narrow
            self.pane.refresh_view()

    def on_mount(self) -> None:
        if self.app_session is None:
            self.app_session = getattr(self.app, "session", None)  # opened directly (tests, other screens)
        self._fit(self.app.size.width)
        self.items_list.border_title = _("Conflicts")
        self.items_list.focus()
        self.load()

    # --- loading ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="merge-load", description="Reading the conflicted files")
    def load(self) -> None:
        try:
            session = MergeSession.open(self.scope, self.folders)
            refs = session.reference_notes()  # git reads: here in the worker, not in the event loop
        except Exception as exc:  # noqa: BLE001 - shown to the reviewer
            self.post_message(SessionLoaded(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(SessionLoaded(session, reference_notes=refs))

    @on(SessionLoaded)
    def _on_loaded(self, message: SessionLoaded) -> None:
        if message.session is None:
            self.query_one("#merge-banner", Static).update(Text(_("Cannot read the conflicts: %(why)s")
                                                                % {"why": message.error}, style="bold red"))
            return
        self.session = message.session
        self.current = None
        self._rebuild()
        self._first_open()
        notes = [merge_note(n) for f in self.session.files for n in f.collision_notes()]
        notes += [_("%(note)s (when written)") % {"note": merge_note(n)} for n in message.reference_notes]
        if notes:  # ids both branches added: both entries kept, theirs renumbered (decided, but said)
            self.notify("\n".join(notes), markup=False, timeout=12)

    # --- what is shown ------------------------------------------------------------------

    def _option_id(self, fi: int, key: str) -> str:
        return f"{fi}\x1f{key}"

    def _item_prompt(self, f: FileResolution, it: ConflictItem) -> Text:
        choice = f.choices.get(it.key)
        t = Text()
        if choice is None:
            t.append("● ", style="bold yellow")
        else:
            t.append("✓ ", style="bold green")
        t.append(clean_line(it.key), style="bold" if choice is None else "")
        label = choice_label(choice)
        if choice is None:
            t.append(f"  {clean_line(_(it.description.split(': ', 1)[-1]))}", style="dim")
        else:
            t.append(f"  → {choice_word(label)}", style=CHOICE_STYLE.get(label, ""))
        return t

    def _file_prompt(self, f: FileResolution) -> Text:
        t = Text()
        t.append(clean_line(f.display), style="bold underline")
        if f.data is None:
            t.append("  " + _("deleted on one side"), style="yellow")
        elif not f.items:
            t.append("  " + _("no markers: staged as it is"), style="dim")
        else:
            left = f.remaining
            t.append("  " + _("%(count)s left") % {"count": left} if left else "  " + _("✓ all decided"),
                     style="yellow" if left else "green")
        if f.conflicts.reason:
            t.append("\n  " + _("by region: %(why)s") % {"why": clean_line(f.conflicts.reason)}, style="dim italic")
        return t

    def _rebuild(self) -> None:
        session = self.session
        ol = self.items_list
        keep = self.current
        options: list[Option] = []
        for fi, f in enumerate(session.files if session else []):
            options.append(Option(self._file_prompt(f), id=f"file\x1f{fi}", disabled=True))
            for it in f.items:
                options.append(Option(self._item_prompt(f, it), id=self._option_id(fi, it.key)))
        with self.app.batch_update():
            ol.clear_options()
            ol.add_options(options)
            if keep is not None:
                try:
                    ol.highlighted = ol.get_option_index(self._option_id(*keep))
                except Exception:  # noqa: BLE001 - the item vanished (file reloaded)
                    self.current = None
        self._update_banner()
        self._show_current()
        self.refresh_bindings()

    def _refresh_prompts(self) -> None:
        session = self.session
        if session is None:
            return
        ol = self.items_list
        for fi, f in enumerate(session.files):
            ol.replace_option_prompt(f"file\x1f{fi}", self._file_prompt(f))
            for it in f.items:
                ol.replace_option_prompt(self._option_id(fi, it.key), self._item_prompt(f, it))
        self._update_banner()
        self._show_current()
        self.refresh_bindings()

    def _update_banner(self) -> None:
        banner = self.query_one("#merge-banner", Static)
        s = self.session
        if s is None:
            return
        t = Text()
        if s.operation == "merge":
            merging = s.merging or ""
            named = re.fullmatch(r"branch '(.+)'", merging)  # git's "branch 'agent-thread-b'"
            what = _("branch '%(name)s'") % {"name": named.group(1)} if named else merging or _("another branch")
            t.append(_("Merging %(branch)s") % {"branch": clean_line(what)}, style="bold")
        elif s.operation:
            t.append(_("A %(operation)s is in progress") % {"operation": s.operation}, style="bold")
        else:
            t.append(_("Conflict markers found"), style="bold")
        if not s.files:
            if s.operation:
                t.append(" · " + _("nothing left to resolve: c: %(conclude)s, A: abort")
                         % {"conclude": conclude_label(s.operation)}, style="green")
            else:
                t.append(" · " + _("no file has conflict markers"), style="green")
            banner.update(t)
            return
        left, total = s.remaining, s.total
        t.append(" · " + ngettext("%(left)s of %(total)s conflict left", "%(left)s of %(total)s conflicts left", total)
                 % {"left": left, "total": total}, style="bold yellow" if left else "bold green")
        t.append(" " + ngettext("in %(count)s file", "in %(count)s files", len(s.files)) % {"count": len(s.files)})
        problems = s.problems()
        if left == 0 and not problems:
            t.append(" · " + _("c writes and stages the result"), style="green")
        elif left == 0 and problems:
            f, reason = problems[0]
            t.append(" · " + _("cannot complete: %(file)s: %(why)s") % {"file": clean_line(f.display), "why": clean_line(reason)},
                     style="bold red")
        banner.update(t)

    def _selected(self) -> tuple[FileResolution, ConflictItem] | None:
        s = self.session
        if s is None or self.current is None:
            return None
        fi, key = self.current
        if fi >= len(s.files):
            return None
        f = s.files[fi]
        try:
            return f, f.conflicts.item(key)
        except KeyError:
            return None

    def _show_current(self) -> None:
        sel = self._selected()
        if sel is None:
            s = self.session
            f = s.files[0] if s and s.files else None
            self.pane.show(f, None, self.side)
            return
        self.pane.show(sel[0], sel[1], self.side)

    def _select(self, fi: int, key: str) -> None:
        self.current = (fi, key)
        ol = self.items_list
        idx = ol.get_option_index(self._option_id(fi, key))
        if ol.highlighted != idx:
            ol.highlighted = idx
        self._show_current()

    def _all_items(self) -> list[tuple[int, str]]:
        s = self.session
        return [(fi, it.key) for fi, f in enumerate(s.files) for it in f.items] if s else []

    def _next_undecided(self, step: int = 1, *, from_start: bool = False) -> bool:
        """Select the next undecided item from the current one (or from the start), going round; False: none."""
        s = self.session
        items = self._all_items()
        if s is None or not items:
            return False
        pos = items.index(self.current) if self.current in items and not from_start else -1
        for k in range(1, len(items) + 1):
            fi, key = items[(pos + step * k) % len(items)]
            if key not in s.files[fi].choices:
                self._select(fi, key)
                return True
        return False

    def _first_open(self) -> None:
        if self.session is None or self._next_undecided(from_start=True):
            return
        items = self._all_items()
        if items:
            self._select(*items[0])
        else:
            self._show_current()

    @on(OptionList.OptionHighlighted, "#merge-items")
    def _on_highlight(self, event: OptionList.OptionHighlighted) -> None:
        oid = event.option.id or ""
        if oid.startswith("file\x1f"):
            return
        fi, _, key = oid.partition("\x1f")
        if fi.isdigit():
            self.current = (int(fi), key)
            self._show_current()

    @on(OptionList.OptionSelected, "#merge-items")
    def _on_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_edit()

    # --- availability -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        s = self.session
        if action == "complete":
            if s is None:
                return None
            if not s.files:
                return True if s.operation in CONTINUE_LABEL else None
            return True if s.can_complete() else None
        if action == "abort":
            return True if s is not None and s.repo is not None and s.operation else None
        if action in ("pick", "choose", "edit"):
            return True if self._selected() is not None else None
        if action == "undo":
            sel = self._selected()
            return True if sel is not None and sel[0].undo_stack else None
        return True

    def has_unsaved_changes(self) -> bool:
        s = self.session
        return s is not None and not self.written and any(f.choices for f in s.files)

    # --- choosing -----------------------------------------------------------------------

    def _decide(self, choice: str | Edited) -> None:
        sel = self._selected()
        if sel is None:
            return
        f, item = sel
        try:
            f.choose(item.key, choice)
        except ResolutionError as exc:
            self.notify(f"{item.key}: {exc}", severity="error", markup=False)
            return
        self._refresh_prompts()
        self._next_undecided()

    def action_side(self, side: str) -> None:
        self.side = side
        self.pane.set_side(side)

    def action_pick(self) -> None:
        self._decide(OURS if self.side == "ours" else THEIRS)

    def action_choose(self, which: str) -> None:
        self._decide({"ours": OURS, "theirs": THEIRS, "both": BOTH}[which])

    def action_edit(self) -> None:
        sel = self._selected()
        if sel is None:
            return
        f, item = sel
        try:
            start = f.preview(item.key)
        except ResolutionError:
            start = None
        if start is None:
            start = item.ours if item.ours is not None else (item.theirs or "")

        def done(text: str | None) -> None:
            if text is not None:
                self._decide(Edited(text))

        title = (_("The result for %(item)s in %(file)s (starts from the current choice, else ours)")
                 % {"item": item.key, "file": f.display})
        labels = f.labels
        self.app.push_screen(EditResolution(item, start, title, (_("ours · %(label)s") % {"label": labels[0]},
                                                                 _("theirs · %(label)s") % {"label": labels[2]})), done)

    def action_move(self, step: int) -> None:
        ol = self.items_list
        if step > 0:
            ol.action_cursor_down()
        else:
            ol.action_cursor_up()

    def action_next_open(self, step: int) -> None:
        if self._all_items() and not self._next_undecided(step):
            self.notify(_("Every conflict is decided."))

    def action_toggle_base(self) -> None:
        self.pane.show_base = not self.pane.show_base
        self.pane.refresh_view()

    def action_undo(self) -> None:
        sel = self._selected()
        if sel is None or not sel[0].undo():
            self.notify(_("Nothing to undo in this file."))
            return
        self._refresh_prompts()

    def action_accept_suggestions(self) -> None:
        s = self.session
        if s is None:
            return
        n = sum(f.accept_suggestions() for f in s.files)
        self.notify(ngettext("Took the changed side for %(n)s conflict only one side changed.",
                             "Took the changed side for %(n)s conflicts only one side changed.", n) % {"n": n}
                    if n else _("No conflict has an obvious side (the base is unknown or both sides changed)."))
        self._refresh_prompts()

    def action_open_editor(self) -> None:
        """Open the selected conflicted file itself in $VISUAL/$EDITOR (the one launcher of the app)."""
        sel = self._selected()
        s = self.session
        if s is None:
            return
        f = sel[0] if sel is not None else (s.files[0] if s.files else None)
        if f is None or f.data is None:
            return
        from ..edit.edit_screen import run_file_editor

        before = f.data
        try:
            run_file_editor(self.app, f.path)
        except NoEditor as exc:
            self.notify(_(str(exc)), title=_("No editor"), severity="warning", markup=False)
            return
        except OSError as exc:
            self.notify(_("Cannot open the editor: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        try:
            after = f.path.read_bytes()
        except OSError:
            after = None
        if after == before:
            return
        if self.app_session is not None and after is not None:
            self.app_session.expect_writes([(f.path, after)])  # the reviewer's own edit, made from here
        fi = s.files.index(f)
        s.files[fi] = FileResolution.load(f.path, f.display, f.unmerged)
        s.files[fi].extra_ids = f.extra_ids
        if f.choices:
            self.notify(_("%(file)s changed in the editor: its choices here were reset.") % {"file": f.display}, markup=False)
        self.current = None
        self._rebuild()
        self._first_open()

    # --- completing ----------------------------------------------------------------------

    def action_complete(self) -> None:
        s = self.session
        if s is None:
            return
        if not s.files:
            self._offer_conclusion()
            return
        bad = s.problems()
        if bad:
            f, reason = bad[0]
            self.notify(f"{f.display}: {reason}", severity="warning", markup=False)
            return
        self._complete()

    @work(thread=True, exclusive=True, group="merge-write", description="Writing the resolved files")
    def _complete(self) -> None:
        s = self.session
        assert s is not None
        try:
            written = s.complete()
        except (ResolutionError, ConcurrentModification, GitError, OSError) as exc:
            self.post_message(Completed(None, str(exc)))
            return
        if self.app_session is not None:  # the exact bytes written: the watcher recognises them
            self.app_session.expect_writes(list(s.last_written))
        self.post_message(Completed(written))

    @on(Completed)
    def _on_completed(self, message: Completed) -> None:
        if message.error is not None:
            self.notify(_("Nothing was written: %(why)s") % {"why": message.error}, severity="error", markup=False, timeout=10)
            return
        self.written = True
        self.changed_repo = True
        n = len(message.written or [])
        s = self.session
        staged = s is not None and s.repo is not None
        note = ""
        if s is not None and s.repo is not None and s.operation is None and has_stash(s.repo):
            note = " " + _("A stash that did not apply cleanly stays in git stash list: drop it once you are done.")
        refs = "" if s is None or not s.reference_notes_done else (
            "\n" + _("References to renumbered entries rewritten:") + "\n" + "\n".join(merge_note(n) for n in s.reference_notes_done))
        written = (ngettext("%(n)s file written and staged.", "%(n)s files written and staged.", n) if staged
                   else ngettext("%(n)s file written.", "%(n)s files written.", n)) % {"n": n}
        self.notify(f"{written}{note}{refs}", markup=False,
                    timeout=12 if note or refs else 5)
        if s is not None and s.operation in CONTINUE_LABEL:
            self._offer_conclusion()
        else:
            self.dismiss(True)

    def _offer_conclusion(self) -> None:
        s = self.session
        if s is None or s.operation not in CONTINUE_LABEL:
            self.dismiss(self.changed_repo)
            return
        op = s.operation
        how = {"rebase": _("git rebase --continue: the next commits are replayed, and it may stop again"),
               "am": "git am --continue"}.get(op) or _("commits the %(operation)s with git's message") % {"operation": operation(op)}
        detail = (_("%(conclude)s: %(how)s. Abort puts every file back as it was before the %(operation)s.")
                  % {"conclude": conclude_label(op), "how": how, "operation": operation(op)})
        answers = [
            ("L", _("Later"), "later", "default"),
            ("A", _("Abort %(operation)s") % {"operation": operation(op)}, "abort", "error"),
            ("y", conclude_label(op), "conclude", "success"),
        ]

        def done(answer: str | None) -> None:
            if answer == "conclude":
                self._run_git("conclude")
            elif answer == "abort":
                self._confirm_abort()
            else:
                self.dismiss(self.changed_repo)

        self.app.push_screen(Ask(_("The conflicts are resolved and staged."), detail, answers), done)

    def action_abort(self) -> None:
        self._confirm_abort()

    def _confirm_abort(self) -> None:
        s = self.session
        if s is None or s.repo is None or not s.operation:
            return
        detail = (_("git %(command)s --abort puts every file back as it was before the %(operation)s; "
                    "the choices made here are dropped.") % {"command": s.operation, "operation": operation(s.operation)})

        def done(answer: str | None) -> None:
            if answer == "abort":
                self._run_git("abort")

        self.app.push_screen(Ask(_("Abort the %(operation)s?") % {"operation": operation(s.operation)}, detail,
                                 [("n", _("Keep resolving"), "no", "primary"), ("y", _("Abort"), "abort", "error")]), done)

    def _run_git(self, what: str) -> None:
        if self.app_session is not None:
            self.app_session.own_operation(f"merge {what}")  # git rewrites the files: the app's own change
        self._git_worker(what)

    @work(thread=True, exclusive=True, group="merge-git", description="git")
    def _git_worker(self, what: str) -> None:
        s = self.session
        assert s is not None
        try:
            if what == "conclude":
                message = GitDone(what, None, s.conclude())
            else:
                s.abort()
                message = GitDone(what, None)
        except (GitError, OSError) as exc:
            message = GitDone(what, str(exc))
        except Exception as exc:  # noqa: BLE001 - the own operation must end: say what happened
            message = GitDone(what, f"{type(exc).__name__}: {exc}")
        if self.app_session is not None:
            self.app_session.mark_files_own()
        self.post_message(message)

    @on(GitDone)
    def _on_git_done(self, message: GitDone) -> None:
        if self.app_session is not None and self.app_session.end_own_operation():
            self.changed_repo = True  # profiles git changed: the review screen reloads them once this one closes
        if message.error is not None:
            self.notify(f"git: {message.error}", severity="error", markup=False, timeout=10)
            return
        self.changed_repo = True
        self.written = True
        done = message.done
        if message.what == "conclude" and done is not None and done.still:
            n = len(done.conflicted)
            self.notify(ngettext("The %(operation)s stopped again at its next commit: %(n)s conflicted file. "
                                 "Press m to resolve it.",
                                 "The %(operation)s stopped again at its next commit: %(n)s conflicted files. "
                                 "Press m to resolve them.", n) % {"operation": operation(done.still), "n": n},
                        severity="warning", markup=False, timeout=15)
        elif message.what == "conclude" and done is not None:
            what = {"merge": _("Merge concluded"), "rebase": _("Rebase finished"), "am": _("Patches applied"),
                    "cherry-pick": _("Cherry-pick committed"), "revert": _("Revert committed")}.get(
                done.operation) or _("%(operation)s committed") % {"operation": operation(done.operation)}
            self.notify(_("%(what)s: %(sha)s.") % {"what": what, "sha": done.sha[:7]}, markup=False)
        else:
            op = self.session.operation if self.session is not None else None
            self.notify(_("Aborted the %(operation)s: the files are as they were before it.")
                        % {"operation": operation(op or "merge")}, markup=False)
        self.dismiss(True)

    def action_close(self) -> None:
        if not self.has_unsaved_changes():
            self.dismiss(self.changed_repo)
            return

        def done(answer: str | None) -> None:
            if answer == "leave":
                self.dismiss(self.changed_repo)

        self.app.push_screen(Ask(_("Leave without writing? The choices made here are dropped (the files are untouched)."),
                                 "", [("n", _("Stay"), "stay", "primary"), ("y", _("Leave"), "leave", "error")]), done)
