"""The review inbox (``I``): what the agent changed since your review, to approve or revert change by change.

The list reloads when the folder changes while the screen is open.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....core.i18n import N_, _, ngettext
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...workers import call_if_attached

KIND_STYLE = {"added": "green", "removed": "red", "changed": "yellow", "rewritten": "yellow", "moved": "cyan",
              "appended": "green", "archived": "dim", "restored": "cyan", "superseded": "magenta"}
# the kinds of change, for the catalog (shown with _(); the JSON of `inbox` keeps them English)
KIND_WORDS = (N_("added"), N_("removed"), N_("changed"), N_("rewritten"), N_("moved"), N_("appended"), N_("archived"),
              N_("restored"), N_("superseded"))
POLL = 1.0  # seconds between looks at the folder's files for another program's writes


def folder_signature(folder: Path, git_dir: Path | None = None) -> tuple[Any, ...]:
    """Names, sizes and times of the folder's files, and git's HEAD and refs: changes when anyone writes."""
    sig: list[Any] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for n in sorted(names):
            if n.endswith(".lock"):
                continue
            try:
                st = os.stat(os.path.join(root, n))
            except OSError:
                continue
            sig.append((root, n, st.st_size, st.st_mtime_ns))
    if git_dir is not None:
        for rel in ("HEAD", "packed-refs", "refs/heads", "refs/openclaw-tui/reviewed"):
            p = git_dir / rel
            try:
                sig.append((rel, p.stat().st_mtime_ns, sorted(os.listdir(p)) if p.is_dir() else None))
            except OSError:
                pass
    return tuple(sig)


class InboxScreen(Screen[None]):
    CSS_PATH = "inbox.tcss"
    BINDINGS = bindings("inbox")

    def __init__(self, session: Any, folder: Path | None = None) -> None:
        super().__init__()
        self.session = session
        current = session.current
        self.folder = Path(folder or (current.path if current is not None else "."))
        self.inbox: Any = None
        self._signature: tuple[Any, ...] | None = None
        self._git_dir: Path | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Reading the changes since your review…")), id="inbox-head")
        with Horizontal(id="inbox-panes"):
            yield OptionList(id="inbox-list")
            with VerticalScroll(id="inbox-detail-pane"):
                yield Static(Text(""), id="inbox-detail")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#inbox-list", OptionList).border_title = _("Inbox")
        self.query_one("#inbox-detail-pane").border_title = _("Change")
        self.query_one("#inbox-list").focus()
        self.reload()
        self.set_interval(POLL, self.poll)

    # --- reading ------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="inbox", description="Reading the changes since your review")
    def reload(self) -> None:
        from ....core.git.gitrepo import find_repo
        from ....core.inbox.inbox import load_inbox

        repo = find_repo(self.folder)
        self._git_dir = repo.git_dir if repo is not None else None  # looked up once a load, not once a second
        sig = folder_signature(self.folder, self._git_dir)
        try:
            inbox = load_inbox(self.folder)
        except (OSError, ValueError, RuntimeError) as exc:
            call_if_attached(self, self.notify, _("Cannot read the inbox: %(error)s") % {"error": exc}, severity="error")
            return
        call_if_attached(self, self.show, inbox, sig)

    @work(thread=True, exclusive=True, group="inbox-poll")
    def poll(self) -> None:
        """Reload when the agent (or anyone) wrote to the folder since the last look."""
        if self._signature is not None and folder_signature(self.folder, self._git_dir) != self._signature:
            self._signature = None
            call_if_attached(self, self.reload)

    @property
    def count(self) -> int:
        return self.inbox.count if self.inbox is not None else 0

    def show(self, inbox: Any, signature: tuple[Any, ...] | None = None) -> None:
        self.inbox = inbox
        self._signature = signature
        head = Text()
        n = inbox.count
        head.append(ngettext("%(count)d change since your review", "%(count)d changes since your review", n)
                    % {"count": n}, style="bold")
        if inbox.mark.time:
            head.append(" · " + _("reviewed %(time)s") % {"time": inbox.mark.time}, style="dim")
        head.append(f" · {inbox.folder.name}", style="dim")
        for note in inbox.notes:
            head.append("\n" + _(note), style="yellow")  # (the fixed notes are marked in core/inbox/mark.py)
        self.query_one("#inbox-head", Static).update(head)
        ol = self.query_one("#inbox-list", OptionList)
        keep = ol.highlighted_option.id if ol.highlighted_option is not None else None
        ol.clear_options()
        options: list[Option] = []
        group = None
        ordered = sorted(inbox.changes, key=lambda c: c.group or "") if inbox.groups() else inbox.changes
        for c in ordered:
            if c.group != group:
                group = c.group
                label = Text(f"── {group} ──" if group else "── " + _("other changes") + " ──", style="bold magenta")
                options.append(Option(label, disabled=True))
            t = Text(no_wrap=True, overflow="ellipsis")
            kind = _(c.kind)
            t.append(kind + " " * max(1, 10 - cell_len(kind)), style=KIND_STYLE.get(c.kind, ""))
            t.append(f"{c.what:<9} ", style="dim")
            t.append(c.title)
            options.append(Option(t, id=c.id))
        if not options:
            options.append(Option(Text(_("Nothing changed since your review."), style="italic dim"), disabled=True))
        ol.add_options(options)
        ids = [o.id for o in options]
        if keep in ids:
            ol.highlighted = ids.index(keep)
        else:
            ol.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)
        self.show_detail()

    def selected(self) -> Any:
        ol = self.query_one("#inbox-list", OptionList)
        opt = ol.highlighted_option
        if self.inbox is None or opt is None or opt.id is None:
            return None
        return self.inbox.get(opt.id)

    def on_option_list_option_highlighted(self, _message: OptionList.OptionHighlighted) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        c = self.selected()
        t = Text()
        if c is not None:
            t.append(f"{c.title}\n", style="bold")
            t.append(f"{_(c.kind)} {c.what} · {c.file}\n", style=KIND_STYLE.get(c.kind, ""))
            t.append(f"{c.detail}\n")
            t.append(f"{c.who}\n", style="dim")
            if c.group:
                t.append(_("part of %(night)s (N reverts the whole night)") % {"night": c.group} + "\n", style="magenta")
            t.append("\n")
            for line in c.diff[:400]:
                style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
                t.append(line + "\n", style=style)
        self.query_one("#inbox-detail", Static).update(t)

    # --- actions ------------------------------------------------------------------------------

    def _done(self, message: str) -> None:
        self.notify(message)
        self.reload()

    def action_approve(self) -> None:
        from ....core.inbox.actions import approve

        c = self.selected()
        if c is None:
            return
        approve(self.folder, [c.id])
        self._done(_("Approved: %(change)s") % {"change": c.title[:60]})

    def action_approve_all(self) -> None:
        from ....core.inbox.actions import approve_all

        approve_all(self.folder)
        self._done(_("Approved everything: your review mark is now the folder as it is"))

    def _revert(self, ids: list[str], what: str) -> None:
        from ....core.inbox.actions import InboxError, revert_plan

        try:
            plan = revert_plan(self.folder, ids)
        except InboxError as exc:
            self.notify(str(exc), severity="warning")
            return
        outcome = self.session.write(plan)
        if outcome.error:
            self.notify(outcome.error, severity="error")
        else:
            self._done(_("Reverted %(change)s (u undoes)") % {"change": what})

    def action_revert(self) -> None:
        c = self.selected()
        if c is not None:
            self._revert([c.id], c.title[:60])

    def action_revert_group(self) -> None:
        c = self.selected()
        if c is None or not c.group:
            self.notify(_("This change is not part of a dreaming night."), severity="warning")
            return
        self._revert([c.group], c.group)

    def action_undo(self) -> None:
        outcome = self.session.undo()
        if outcome.error:
            self.notify(outcome.error, severity="warning")
        else:
            self._done(_("Undone"))

    def action_edit(self) -> None:
        from ....core.files.external_editor import NoEditor, editor_from
        from ..edit.edit_screen import run_file_editor

        c = self.selected()
        if c is None:
            return
        if editor_from() is None:
            self.notify(_("Set $EDITOR (or $VISUAL) to edit a change in your editor."), severity="warning")
            return
        try:
            run_file_editor(self.app, self.folder / c.file)
        except NoEditor as exc:
            self.notify(str(exc), severity="warning")
            return
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)
