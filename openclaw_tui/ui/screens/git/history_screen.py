"""The history of one profile: its commits (newest first, loaded a page at a time), what each did to the
entries, its text diff; rollback and revert, each previewed first and committed.
"""

from __future__ import annotations

from pathlib import Path

from rich.cells import set_cell_size
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, ContentSwitcher, Header, OptionList, Static
from textual.widgets.option_list import Option

from ....core.files.safe_write import ConcurrentModification
from ....core.git.commitmsg import commit_profile
from ....core.git.gitrepo import GitError, Repo, find_repo
from ....core.git.history import (
    CommitDiff,
    CommitInfo,
    ProfileDiff,
    Refused,
    RollbackPlan,
    apply_rollback,
    commit_semantic_diff,
    log_page,
    plan_rollback,
    revert_commit,
)
from ....core.git.patch import Patch, commit_patch
from ....core.i18n import _
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from ...widgets.semantic_diff_view import PatchView, SemanticDiffView

PAGE = 100
PREFETCH = 15  # load the next page when the cursor is this close to the end


class PageLoaded(Message):
    def __init__(self, skip: int, commits: list[CommitInfo], error: str | None = None) -> None:
        super().__init__()
        self.skip, self.commits, self.error = skip, commits, error


class CommitLoaded(Message):
    def __init__(self, sha: str, diff: CommitDiff | None, patch: Patch | None, error: str | None = None) -> None:
        super().__init__()
        self.sha, self.diff, self.patch, self.error = sha, diff, patch, error


class Planned(Message):
    """A rollback or revert was prepared (not applied): its preview, or why it cannot run."""

    def __init__(self, what: str, sha: str, diff: ProfileDiff | None, plan: RollbackPlan | None,
                 refused: str | None) -> None:
        super().__init__()
        self.what, self.sha, self.diff, self.plan, self.refused = what, sha, diff, plan, refused


class Applied(Message):
    def __init__(self, what: str, sha: str | None, error: str | None) -> None:
        super().__init__()
        self.what, self.sha, self.error = what, sha, error


def commit_prompt(c: CommitInfo) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(c.short, style="bold yellow")
    t.append(f" {c.date[:16].replace('T', ' ')} ", style="dim")
    t.append(set_cell_size(clean_line(c.author), 14), style="cyan")
    if c.is_merge:
        t.append(" ⑂", style="magenta")
    t.append(" " + clean_line(c.subject))
    return t


def commit_header(c: CommitInfo) -> Text:
    t = Text()
    t.append(c.sha, style="bold yellow")
    if c.is_merge:
        t.append("  " + _("merge of %(parents)s") % {"parents": ", ".join(p[:7] for p in c.parents)}, style="magenta")
        t.append(" " + _("(changes shown against the first parent)"), style="dim")
    t.append("\n")
    t.append(f"{clean_line(c.author)} <{clean_line(c.email)}>  ", style="cyan")
    t.append(c.date.replace("T", " "), style="dim")
    t.append("\n")
    t.append(clean_line(c.subject), style="bold")
    return t


class ConfirmDiff(ModalScreen[bool]):
    """Preview what an operation changes (semantic diff) and confirm it."""

    CSS_PATH = ["git_common.tcss", "history_screen.tcss"]
    BINDINGS = bindings("confirm-diff")

    def __init__(self, title: str, diff: ProfileDiff | None, detail: str = "", yes: str | None = None) -> None:
        super().__init__()
        self.title_text, self.diff, self.detail, self.yes = title, diff, detail, yes or _("Apply and commit")

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-diff-box"):
            yield Static(Text(self.title_text, style="bold"), id="confirm-diff-title")
            if self.detail:
                yield Static(Text(self.detail, style="dim"), id="confirm-diff-detail")
            yield SemanticDiffView(id="confirm-diff-view", classes="pane")
            with Horizontal(id="confirm-diff-buttons"):
                yield Button(Text(_("Cancel (n)")), variant="primary", id="confirm-diff-no")
                yield Button(Text(_("%(label)s (y)") % {"label": self.yes}), variant="warning", id="confirm-diff-yes")

    def on_mount(self) -> None:
        view = self.query_one(SemanticDiffView)
        view.border_title = _("What changes")
        view.show(self.diff, empty=_("Nothing would change."))
        self.query_one("#confirm-diff-no", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-diff-yes")


class HistoryScreen(Screen[bool]):
    """Commits that touched the profile, each one's semantic and text diff; rollback and revert."""

    CSS_PATH = ["git_common.tcss", "history_screen.tcss"]
    BINDINGS = bindings("history")

    def __init__(self, profile: Path) -> None:
        super().__init__()
        self.profile = Path(profile).absolute()
        self.repo: Repo | None = None
        self.commits: list[CommitInfo] = []
        self.page_loading = False
        self.exhausted = False
        self.current: str | None = None
        self.diffs: dict[str, CommitDiff] = {}
        self.patches: dict[str, Patch] = {}
        self.changed = False
        self.view = "semantic"

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        yield Static(Text(_("History of %(profile)s") % {"profile": self.profile.name}, style="bold"), id="history-title", classes="hint")
        with Horizontal(id="history-main"):
            yield OptionList(id="commits", classes="pane")
            with Vertical(id="commit-detail", classes="pane"):
                yield Static(Text(_("Loading…"), style="dim italic"), id="commit-header")
                with ContentSwitcher(initial="semantic", id="diff-switcher"):
                    yield SemanticDiffView(id="semantic")
                    yield PatchView(id="patch")
        yield KeysFooter()

    @property
    def commit_list(self) -> OptionList:
        return self.query_one("#commits", OptionList)

    def action_charts(self) -> None:
        """Memory over time, drawn from this history (screens/trends_screen.py)."""
        from ..inbox.trends_screen import TrendsScreen

        self.app.push_screen(TrendsScreen(self.profile, getattr(self.app, "today", None)))

    def on_mount(self) -> None:
        self.commit_list.border_title = _("Commits (newest first)")
        self.query_one("#commit-detail").border_title = _("Semantic diff")
        self.commit_list.focus()
        self.watch(self.commit_list, "scroll_y", self._on_scroll, init=False)
        self.page_loading = True
        self._load_page(0)

    # --- the commit list ------------------------------------------------------------------

    def _find_repo(self) -> Repo | None:
        if self.repo is None:
            self.repo = find_repo(self.profile)
        return self.repo

    @work(thread=True, group="history-page", description="Reading the history")
    def _load_page(self, skip: int) -> None:
        repo = self._find_repo()
        if repo is None:
            self.post_message(PageLoaded(skip, [], _("this profile is not inside a git repository")))
            return
        try:
            commits = log_page(repo, self.profile, skip, PAGE)
        except GitError as exc:
            self.post_message(PageLoaded(skip, [], str(exc)))
            return
        self.post_message(PageLoaded(skip, commits))

    def _more(self) -> None:
        if self.page_loading or self.exhausted:
            return
        self.page_loading = True
        self._load_page(len(self.commits))

    @on(PageLoaded)
    def _on_page(self, message: PageLoaded) -> None:
        self.page_loading = False
        if message.error is not None:
            self.exhausted = True
            self.query_one("#commit-header", Static).update(Text(_("No history: %(why)s") % {"why": message.error}, style="bold red"))
            return
        if message.skip != len(self.commits):
            return  # a stale page (the list was reloaded meanwhile)
        self.commits.extend(message.commits)
        if len(message.commits) < PAGE:
            self.exhausted = True
        ol = self.commit_list
        ol.add_options(Option(commit_prompt(c), id=c.sha) for c in message.commits)
        total = f"{len(self.commits)}{'' if self.exhausted else '+'}"
        ol.border_title = _("Commits (newest first) · %(count)s") % {"count": total}
        if message.skip == 0:
            if self.commits:
                ol.highlighted = 0
            else:
                self.query_one("#commit-header", Static).update(
                    Text(_("No commit touched this profile yet."), style="dim italic"))
                self.query_one("#semantic", SemanticDiffView).show_message("")

    def _on_scroll(self, _old: float, _new: float) -> None:
        ol = self.commit_list
        if ol.max_scroll_y - ol.scroll_y <= PREFETCH:
            self._more()

    @on(OptionList.OptionHighlighted, "#commits")
    def _on_highlight(self, event: OptionList.OptionHighlighted) -> None:
        sha = event.option.id
        if sha is None:
            return
        if event.option_index >= len(self.commits) - PREFETCH:
            self._more()
        self._show_commit(sha)

    def action_move(self, step: int) -> None:
        if step > 0:
            self.commit_list.action_cursor_down()
        else:
            self.commit_list.action_cursor_up()

    # --- one commit -----------------------------------------------------------------------

    def _info(self, sha: str) -> CommitInfo | None:
        return next((c for c in self.commits if c.sha == sha), None)

    def _show_commit(self, sha: str) -> None:
        self.current = sha
        info = self._info(sha)
        if info is not None:
            self.query_one("#commit-header", Static).update(commit_header(info))
        if sha in self.diffs:
            self._render_commit(sha)
            return
        self.query_one("#semantic", SemanticDiffView).show_message(_("Loading…"))
        self.query_one("#patch", PatchView).show_message(_("Loading…"))
        self._load_commit(sha)

    @work(thread=True, exclusive=True, group="history-commit", description="Reading a commit")
    def _load_commit(self, sha: str) -> None:
        repo = self._find_repo()
        if repo is None:
            return
        try:
            diff = commit_semantic_diff(repo, sha, self.profile)
            patch = commit_patch(repo, sha, str(self.profile))
        except GitError as exc:
            self.post_message(CommitLoaded(sha, None, None, str(exc)))
            return
        self.post_message(CommitLoaded(sha, diff, patch))

    @on(CommitLoaded)
    def _on_commit(self, message: CommitLoaded) -> None:
        if message.error is not None:
            if message.sha == self.current:
                self.query_one("#semantic", SemanticDiffView).show_message(_("Cannot read it: %(why)s") % {"why": message.error})
            return
        assert message.diff is not None and message.patch is not None
        self.diffs[message.sha] = message.diff
        self.patches[message.sha] = message.patch
        if message.sha == self.current:
            self._render_commit(message.sha)

    def _render_commit(self, sha: str) -> None:
        self.query_one("#semantic", SemanticDiffView).show(self.diffs[sha].diff)
        self.query_one("#patch", PatchView).show(self.patches[sha])

    def action_toggle_view(self) -> None:
        self.view = "patch" if self.view == "semantic" else "semantic"
        self.query_one("#diff-switcher", ContentSwitcher).current = self.view
        self._title_detail()

    def action_toggle_layout(self) -> None:
        self.query_one("#patch", PatchView).toggle_layout()
        if self.view != "patch":
            self.action_toggle_view()
        else:
            self._title_detail()

    def _title_detail(self) -> None:
        side_by_side = self.query_one("#patch", PatchView).side_by_side
        self.query_one("#commit-detail").border_title = (
            _("Semantic diff") if self.view == "semantic" else
            _("Text diff · %(layout)s") % {"layout": _("side by side") if side_by_side else _("unified")})

    # --- rollback and revert --------------------------------------------------------------

    def action_rollback(self) -> None:
        if self.current is not None:
            self._plan("rollback", self.current)

    def action_revert(self) -> None:
        if self.current is not None:
            self._plan("revert", self.current)

    @work(thread=True, exclusive=True, group="history-plan", description="Preparing")
    def _plan(self, what: str, sha: str) -> None:
        repo = self._find_repo()
        if repo is None:
            return
        try:
            if what == "rollback":
                plan = plan_rollback(repo, self.profile, sha)
                self.post_message(Planned(what, sha, plan.diff, plan, plan.blocked))
            else:
                result = revert_commit(repo, self.profile, sha, dry_run=True)
                self.post_message(Planned(what, sha, result.diff, None, None if result.files else
                                          _("this commit changed nothing that is still there to undo")))
        except (Refused, GitError) as exc:
            self.post_message(Planned(what, sha, None, None, str(exc)))

    @on(Planned)
    def _on_planned(self, message: Planned) -> None:
        info = self._info(message.sha)
        short = info.short if info else message.sha[:7]
        if message.refused is not None:
            refused = _("Roll back refused: %(why)s") if message.what == "rollback" else _("Revert refused: %(why)s")
            self.notify(refused % {"why": message.refused}, severity="error", markup=False, timeout=10)
            return
        if message.plan is not None and message.plan.empty:
            self.notify(_("The profile already is as it was at %(commit)s.") % {"commit": short}, markup=False)
            return
        values = {"profile": self.profile.name, "commit": short, "subject": info.subject if info else ""}
        if message.what == "rollback":
            title = _("Roll %(profile)s back to %(commit)s?") % values
            detail = _("Every file of the profile folder is restored as it was at %(commit)s (%(subject)s), "
                       "then committed.") % values
        else:
            title = _("Revert %(commit)s in %(profile)s?") % values
            detail = _("Undo what %(commit)s did to the profile (%(subject)s), then commit.") % values

        def done(yes: bool | None) -> None:
            if yes:
                self._apply(message.what, message.sha, message.plan)

        self.app.push_screen(ConfirmDiff(title, message.diff, detail), done)

    @work(thread=True, exclusive=True, group="history-apply", description="Applying")
    def _apply(self, what: str, sha: str, plan: RollbackPlan | None) -> None:
        repo = self._find_repo()
        if repo is None:
            return
        info = self._info(sha)
        short = info.short if info else sha[:7]
        try:
            if what == "rollback":
                assert plan is not None
                apply_rollback(plan)
                summary = f"{self.profile.name}: roll back to {short}"
            else:
                revert_commit(repo, self.profile, sha)
                summary = f"{self.profile.name}: revert {short}"
            new = commit_profile(self.profile, summary, repo=repo)
        except (Refused, GitError, ConcurrentModification, OSError) as exc:
            self.post_message(Applied(what, None, str(exc)))
            return
        self.post_message(Applied(what, new, None))

    @on(Applied)
    def _on_applied(self, message: Applied) -> None:
        if message.error is not None:
            self.notify(_("Not done: %(why)s") % {"why": message.error}, severity="error", markup=False, timeout=10)
            return
        self.changed = True
        done = (_("Rolled back and committed as %(sha)s.") if message.what == "rollback"
                else _("Reverted and committed as %(sha)s."))
        self.notify(done % {"sha": (message.sha or "")[:7]}, markup=False)
        self.reload()

    def reload(self) -> None:
        self.commits = []
        self.diffs.clear()
        self.patches.clear()
        self.exhausted = False
        self.page_loading = True
        self.commit_list.clear_options()
        self._load_page(0)

    def action_close(self) -> None:
        self.dismiss(self.changed)
