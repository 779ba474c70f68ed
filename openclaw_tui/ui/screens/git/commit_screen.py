"""Commit the profile's changes with the spec's message, generated from what changed and editable first."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static, TextArea

from ....core.git.commitmsg import PREFIX, default_summary, format_message, left_out, profile_changes
from ....core.git.gitrepo import GitError, as_repo, commit_paths
from ....core.i18n import _
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line


class CommitHost(Protocol):
    def after_commit(self) -> None: ...


def commit_message(profile_path: Path) -> str | None:
    """The generated message for the profile's uncommitted changes (None: nothing to commit).

    Raises GitError when the folder is not in a repository.
    """
    repo = as_repo(profile_path)
    diff = profile_changes(repo, profile_path)
    if not diff.files:
        return None
    return format_message(default_summary(diff, Path(profile_path).name), diff)


class CommitScreen(ModalScreen[str | None]):
    """Edit the commit message, then commit (dismissed with the new commit's sha)."""

    CSS_PATH = "../edit/edit_dialogs.tcss"

    BINDINGS = bindings("commit")

    def __init__(self, host: CommitHost, profile_path: Path, message: str) -> None:
        super().__init__()
        self.host = host
        self.profile_path = Path(profile_path)
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="commit-box", classes="dialog wide"):
            yield Static(Text(_("Commit %(profile)s") % {"profile": clean_line(self.profile_path.name)}, style="bold"), classes="dialog-title")
            yield Label(_("Message (generated from what changed; edit freely)"), classes="field-label")
            yield TextArea(self.message, id="commit-message", soft_wrap=True)
            yield Static("", id="commit-error", classes="field-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        area = self.query_one("#commit-message", TextArea)
        area.focus()
        area.move_cursor((0, len(PREFIX)))

    def has_unsaved_changes(self) -> bool:
        return False  # the message is not memory: closing loses nothing that matters

    def action_commit(self) -> None:
        message = self.query_one("#commit-message", TextArea).text
        first = message.split("\n", 1)[0].strip()
        if not first:
            self.query_one("#commit-error", Static).update(Text(_("The first line (summary) cannot be empty."),
                                                                style="bold red"))
            return
        if not message.endswith("\n"):
            message += "\n"
        try:
            repo = as_repo(self.profile_path)
            sha = commit_paths(repo, repo.rel(self.profile_path), message, leave=left_out(repo, self.profile_path))
        except GitError as exc:
            self.query_one("#commit-error", Static).update(Text(f"git: {clean_line(str(exc))}", style="bold red"))
            self.notify(_("Commit failed: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        self.notify(_("Committed %(sha)s: %(summary)s") % {"sha": sha[:10], "summary": first}, markup=False)
        self.host.after_commit()
        self.dismiss(sha)

    def action_cancel(self) -> None:
        self.dismiss(None)
