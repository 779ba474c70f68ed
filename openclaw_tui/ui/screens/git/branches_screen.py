"""Branches: list them, create one, switch (git refuses on a dirty work tree: the reason is shown), and
compare two by entry.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from ....core.git.gitrepo import (
    BranchInfo,
    GitError,
    Repo,
    create_branch,
    find_repo,
    list_branches,
    switch_branch,
)
from ....core.git.history import BranchComparison, compare_branches
from ....core.i18n import _, ngettext
from ...actions import bindings
from ...widgets.dialogs import AskText
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from ...widgets.semantic_diff_view import SemanticDiffView


class BranchesLoaded(Message):
    def __init__(self, branches: list[BranchInfo], error: str | None = None) -> None:
        super().__init__()
        self.branches, self.error = branches, error


class Compared(Message):
    def __init__(self, result: BranchComparison | None, error: str | None = None) -> None:
        super().__init__()
        self.result, self.error = result, error


class BranchDone(Message):
    def __init__(self, what: str, name: str, error: str | None) -> None:
        super().__init__()
        self.what, self.name, self.error = what, name, error


class BranchName(AskText):
    """Ask for a new branch's name."""

    def __init__(self) -> None:
        super().__init__(_("New branch from HEAD"), _("Enter creates it, escape cancels."), placeholder=_("branch name"))


def comparison_header(c: BranchComparison) -> Text:
    t = Text()
    t.append(f"{clean_line(c.base)} → {clean_line(c.other)}", style="bold")
    n = len(c.diff.events)
    t.append("   " + ngettext("%(n)s entry differs", "%(n)s entries differ", n) % {"n": n}, style="yellow" if n else "green")
    t.append("\n")
    for label, commits in ((c.base, c.only_base), (c.other, c.only_other)):
        t.append(ngettext("only on %(branch)s: %(n)s commit", "only on %(branch)s: %(n)s commits", len(commits))
                 % {"branch": clean_line(label), "n": len(commits)}, style="dim")
        for ci in commits[:5]:
            t.append(f"\n  {ci.short} {clean_line(ci.subject)}", style="dim")
        if len(commits) > 5:
            t.append("\n  " + _("… %(n)s more") % {"n": len(commits) - 5}, style="dim")
        t.append("\n")
    t.append(_("(read as: what changes in the profile going from the first branch to the second)"), style="dim italic")
    return t


class BranchesScreen(Screen[bool]):
    """Local branches of the repository holding the profile."""

    CSS_PATH = ["git_common.tcss", "branches_screen.tcss"]
    BINDINGS = bindings("branches")

    def __init__(self, profile: Path) -> None:
        super().__init__()
        self.profile = Path(profile).absolute()
        self.repo: Repo | None = None
        self.branches: list[BranchInfo] = []
        self.base: str | None = None  # marked with m; else the current branch
        self.changed = False
        self.comparison: BranchComparison | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        yield Static(Text(_("Branches"), style="bold"), classes="hint", id="branches-title")
        with Horizontal(id="branches-main"):
            yield OptionList(id="branches", classes="pane")
            yield SemanticDiffView(id="branch-compare", classes="pane")
        yield KeysFooter()

    @property
    def branch_list(self) -> OptionList:
        return self.query_one("#branches", OptionList)

    def on_mount(self) -> None:
        self.branch_list.border_title = _("Local branches")
        view = self.query_one("#branch-compare", SemanticDiffView)
        view.border_title = _("Comparison")
        view.show_message(_("c compares the current branch with the highlighted one, entry by entry."))
        self.branch_list.focus()
        self._load()

    # --- loading --------------------------------------------------------------------------

    def _find_repo(self) -> Repo | None:
        if self.repo is None:
            self.repo = find_repo(self.profile)
        return self.repo

    @work(thread=True, exclusive=True, group="branches-load", description="Reading the branches")
    def _load(self) -> None:
        repo = self._find_repo()
        if repo is None:
            self.post_message(BranchesLoaded([], _("not inside a git repository")))
            return
        try:
            self.post_message(BranchesLoaded(list_branches(repo)))
        except GitError as exc:
            self.post_message(BranchesLoaded([], str(exc)))

    def _prompt(self, b: BranchInfo) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("✓ " if b.current else "  ", style="bold green")
        t.append(clean_line(b.name), style="bold" if b.current else "")
        if b.name == self.base:
            t.append(" " + _("[base]"), style="magenta")
        if b.upstream:
            t.append(f" → {clean_line(b.upstream)}", style="dim")
        t.append(f"  {b.sha[:7]} {clean_line(b.subject)}", style="dim")
        return t

    @on(BranchesLoaded)
    def _on_loaded(self, message: BranchesLoaded) -> None:
        if message.error is not None:
            self.query_one("#branch-compare", SemanticDiffView).show_message(_("No branches: %(why)s") % {"why": message.error})
            return
        self.branches = message.branches
        ol = self.branch_list
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options(Option(self._prompt(b), id=b.name) for b in self.branches)
        if self.branches:
            ol.highlighted = min(keep or 0, len(self.branches) - 1)
        current = self.current_name()
        self.query_one("#branches-title", Static).update(
            Text(_("Branches · on %(branch)s") % {"branch": current} if current else _("Branches · HEAD is detached"), style="bold"))

    def current_name(self) -> str | None:
        return next((b.name for b in self.branches if b.current), None)

    def highlighted(self) -> BranchInfo | None:
        ol = self.branch_list
        if ol.highlighted is None or ol.highlighted >= len(self.branches):
            return None
        return self.branches[ol.highlighted]

    # --- actions --------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if step > 0:
            self.branch_list.action_cursor_down()
        else:
            self.branch_list.action_cursor_up()

    @on(OptionList.OptionSelected, "#branches")
    def _on_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_switch()

    def action_switch(self) -> None:
        b = self.highlighted()
        if b is None:
            return
        if b.current:
            self.notify(_("Already on %(branch)s.") % {"branch": b.name}, markup=False)
            return
        self._git("switch", b.name)

    def action_new(self) -> None:
        def done(name: str | None) -> None:
            if name:
                self._git("create", name)

        self.app.push_screen(BranchName(), done)

    def action_mark_base(self) -> None:
        b = self.highlighted()
        if b is None:
            return
        self.base = None if self.base == b.name else b.name
        self._refresh_prompts()
        self.notify(_("Comparisons now start from %(branch)s.") % {"branch": self.base} if self.base else
                    _("Comparisons start from the current branch again."), markup=False)

    def _refresh_prompts(self) -> None:
        for b in self.branches:
            self.branch_list.replace_option_prompt(b.name, self._prompt(b))

    def action_compare(self) -> None:
        b = self.highlighted()
        base = self.base or self.current_name() or "HEAD"
        if b is None:
            return
        if b.name == base:
            self.notify(_("Highlight another branch to compare with."), markup=False)
            return
        self.query_one("#branch-compare", SemanticDiffView).show_message(_("Comparing %(base)s with %(other)s…") % {"base": base, "other": b.name})
        self._compare(base, b.name)

    @work(thread=True, exclusive=True, group="branches-compare", description="Comparing branches")
    def _compare(self, base: str, other: str) -> None:
        repo = self._find_repo()
        if repo is None:
            return
        try:
            self.post_message(Compared(compare_branches(repo, self.profile, base, other)))
        except GitError as exc:
            self.post_message(Compared(None, str(exc)))

    @on(Compared)
    def _on_compared(self, message: Compared) -> None:
        view = self.query_one("#branch-compare", SemanticDiffView)
        if message.result is None:
            view.show_message(_("Cannot compare: %(why)s") % {"why": message.error})
            return
        self.comparison = message.result
        view.show(message.result.diff, comparison_header(message.result),
                  empty=_("The profile is the same on both branches."))

    @work(thread=True, exclusive=True, group="branches-git", description="git")
    def _git(self, what: str, name: str) -> None:
        repo = self._find_repo()
        if repo is None:
            return
        try:
            if what == "switch":
                switch_branch(repo, name)
            else:
                create_branch(repo, name)
        except GitError as exc:
            self.post_message(BranchDone(what, name, str(exc)))
            return
        self.post_message(BranchDone(what, name, None))

    @on(BranchDone)
    def _on_done(self, message: BranchDone) -> None:
        values = {"branch": message.name, "why": message.error}
        if message.error is not None:
            failed = _("Cannot switch to %(branch)s: %(why)s") if message.what == "switch" else _("Cannot create %(branch)s: %(why)s")
            self.notify(failed % values, severity="error", markup=False, timeout=10)
            return
        self.notify((_("Switched to %(branch)s.") if message.what == "switch" else _("Created %(branch)s.")) % values,
                    markup=False)
        if message.what == "switch":
            self.changed = True
        self._load()

    def action_close(self) -> None:
        self.dismiss(self.changed)
