"""Git on the review screen: a mixin with the keys, the status-bar segment and the merge banner.

``MainScreen`` lists ``GitActions`` among its bases.  Textual calls the
``on_mount`` of every class in the MRO, so this one runs beside the main
screen's: it reads the repository state in a thread worker (branch,
uncommitted files, merge in progress, files with conflict markers), shows
it in the status bar, and announces a pending merge once.  The state is
re-read every few seconds and after every git action.  Whenever HEAD
moves, a low-key worker indexes the profiles' history (``entry_index``)
so that an entry's history opens in a fraction of a second.

Without git, or outside a repository, nothing is shown and the actions are
disabled (dimmed in the footer; their tooltip says why).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from ..core.git.entry_history import index_entry_history
from ..core.git.gitrepo import GitError, SyncResult, git_available, pull, push
from ..core.git.repo_state import RepoState, read_state
from ..core.merge.merge_session import files_with_markers

POLL_SECONDS = 5.0
NEEDS_GIT = "needs the memory folder to be inside a git repository (git init)"
GIT_ACTIONS = ("git_history", "git_entry_history", "git_branches", "git_merge", "git_pull", "git_push")


class GitStateRead(Message):
    """The repository state, read in a worker (``state`` None: no git or no repository)."""

    def __init__(self, state: RepoState | None, conflicted: tuple[str, ...], announce: bool) -> None:
        super().__init__()
        self.state, self.conflicted, self.announce = state, conflicted, announce


class GitSynced(Message):
    def __init__(self, what: str, result: SyncResult) -> None:
        super().__init__()
        self.what, self.result = what, result


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


class GitActions(Screen[Any]):
    """History, entry history, branches, merge conflicts and sync for the screen that mixes it in."""

    BINDINGS = [
        Binding("H", "git_history", "History", id="git.history",
                tooltip="Commits that touched this profile, their semantic diff; rollback and revert"),
        Binding("L", "git_entry_history", "Entry history", show=False, id="git.entry-history",
                tooltip="Every commit that created or changed the selected entry"),
        Binding("B", "git_branches", "Branches", show=False, id="git.branches",
                tooltip="List, create, switch and compare branches"),
        Binding("m", "git_merge", "Resolve conflicts", id="git.merge",
                tooltip="Resolve the merge conflicts of the memory files"),
        Binding("F", "git_pull", "Pull", show=False, id="git.pull", tooltip="Fetch and merge the current branch"),
        Binding("P", "git_push", "Push", show=False, id="git.push", tooltip="Push the current branch"),
    ]

    git_state: RepoState | None = None
    git_conflicted: tuple[str, ...] = ()  # files with conflict markers or unmerged, relative to the scope
    git_ready: bool = False  # the state was read at least once
    _git_announced: bool = False
    _git_polling: bool = False
    _git_indexed_head: str | None = None  # HEAD when the entry-history index was last brought up to date

    # --- state ---------------------------------------------------------------------------

    def git_scope(self) -> Path:
        """The folder the app was opened on (the discovery root once loaded)."""
        discovery = getattr(self, "discovery", None)
        if discovery is not None:
            return Path(discovery.root).absolute()
        source = getattr(self, "source_path", None)
        return Path(source).absolute() if source is not None else Path.cwd()

    def git_profile_path(self) -> Path | None:
        getter = getattr(self, "selected_profile", None)
        profile = getter() if getter is not None else None
        return Path(profile.path).absolute() if profile is not None else None

    def on_mount(self) -> None:
        if not git_available():
            self.git_ready = True
            return
        self.git_refresh(announce=True)

    @work(thread=True, exclusive=True, group="git-state", description="Reading the git state", exit_on_error=False)
    def git_refresh(self, announce: bool = False, scan: bool = True) -> None:
        """Re-read the repository state (and, with ``scan``, look for conflict markers)."""
        scope = self.git_scope()
        try:
            state = read_state(scope)
        except (GitError, OSError):
            state = None
        conflicted: list[str] = []
        base = state.repo.root if state is not None else scope
        if scan or (state is not None and (state.operation or state.conflicted)) or self.git_conflicted:
            try:
                conflicted = [_relative(p, base) for p in files_with_markers(scope)]
            except OSError:
                conflicted = []
            if state is not None:
                conflicted += [rel for rel in state.conflicted if rel not in conflicted]
        self.post_message(GitStateRead(state, tuple(sorted(conflicted)), announce))

    def on_git_state_read(self, message: GitStateRead) -> None:
        self.git_state = message.state
        self.git_conflicted = message.conflicted
        first = not self.git_ready
        self.git_ready = True
        self._git_paint()
        self.refresh_bindings()
        if first and message.state is not None and not self._git_polling:
            self._git_polling = True
            self.set_interval(POLL_SECONDS, self._git_poll)
        self.git_index_if_moved()
        if message.announce and message.conflicted and not self._git_announced:
            self._git_announced = True
            self.notify(self.git_banner_text(), title="Merge conflicts", severity="warning", timeout=30,
                        markup=False)

    def git_index_if_moved(self) -> None:
        """Index the history when HEAD moved since the last time (and the profiles are known)."""
        state = self.git_state
        if state is None or state.head is None or getattr(self, "discovery", None) is None:
            return
        if state.head != self._git_indexed_head:
            self._git_indexed_head = state.head
            self.git_index_history()

    @work(thread=True, exclusive=True, group="entry-index", description="Indexing entry history",
          exit_on_error=False)
    def git_index_history(self) -> None:
        """Index the new commits of every profile's memory files (cancelled with the screen)."""
        worker = get_current_worker()
        state = self.git_state
        discovery = getattr(self, "discovery", None)
        if state is None or discovery is None:
            return
        for profile in discovery.profiles:
            if worker.is_cancelled:
                return
            try:
                index_entry_history(state.repo, profile, should_stop=lambda: worker.is_cancelled)
            except (GitError, OSError, ValueError):
                continue  # a profile outside the repository, or git gone: its history is read the slow way

    def _git_poll(self) -> None:
        if self.is_current:
            self.git_refresh(scan=False)

    def on_profile_reloaded(self, _message: object) -> None:
        """The main screen re-read a profile (after an edit or a git action): the repo changed too."""
        self.git_refresh()

    def git_banner_text(self) -> str:
        files = self.git_conflicted
        if not files:
            return ""
        more = f" (and {len(files) - 1} more file{'s' if len(files) > 2 else ''})" if len(files) > 1 else ""
        return f"{files[0]} has merge conflicts{more} — press m to resolve"

    def git_status_text(self) -> Text | None:
        st = self.git_state
        if st is None and not self.git_conflicted:
            return None
        t = Text()
        if st is not None:
            t.append("⎇ ", style="dim")
            t.append(st.branch or (f"detached {st.head[:7]}" if st.head else "no commits"), style="bold")
            if st.ahead or st.behind:
                t.append(f" ↑{st.ahead} ↓{st.behind}", style="dim")
            if st.dirty:
                t.append(f" · {st.dirty} uncommitted", style="yellow")
            if st.operation:
                t.append(f" · {st.operation.upper()} in progress", style="bold magenta")
        if self.git_conflicted:
            n = len(self.git_conflicted)
            t.append(f" · {n} conflicted file{'s' if n != 1 else ''} — m to resolve", style="bold red")
        return t

    def _git_paint(self) -> None:
        try:
            from ..widgets.status_bar import StatusBar

            bar = self.query_one(StatusBar)
        except NoMatches:
            return
        setter = getattr(bar, "set_repo", None)
        if setter is not None:
            setter(self.git_status_text())

    def git_changed(self) -> None:
        """After a git action: re-read the memory files and the repository state."""
        reload = getattr(self, "action_reload", None)
        if reload is not None:
            reload()
        self.git_refresh()

    # --- availability ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in GIT_ACTIONS:
            return super().check_action(action, parameters)
        if not self.git_ready:
            return True  # not known yet: the action itself says why when it cannot run
        if action == "git_merge":
            return True if self.git_conflicted or (self.git_state is not None and self.git_state.operation) else False
        return True if self.git_state is not None else None

    def _git_require(self) -> RepoState | None:
        st = self.git_state
        if st is None:
            self.notify("Git is not available here: this " + NEEDS_GIT + ".", severity="warning", markup=False)
        return st

    # --- actions --------------------------------------------------------------------------

    def action_git_history(self) -> None:
        if self._git_require() is None:
            return
        profile = self.git_profile_path()
        if profile is None:
            self.notify("Open a profile first.", severity="warning")
            return
        from .history_screen import HistoryScreen

        self.app.push_screen(HistoryScreen(profile), self._after_git_screen)

    def action_git_entry_history(self) -> None:
        if self._git_require() is None:
            return
        profile = self.git_profile_path()
        getter = getattr(self, "selected_entry", None)
        row = getter() if getter is not None else None
        ident = getattr(row, "id", None)
        if profile is None or not ident:
            self.notify("Select an entry with an id first.", severity="warning")
            return
        from .entry_history_screen import EntryHistoryScreen

        self.app.push_screen(EntryHistoryScreen(profile, str(ident)), self._after_git_screen)

    def action_git_branches(self) -> None:
        if self._git_require() is None:
            return
        profile = self.git_profile_path() or self.git_scope()
        from .branches_screen import BranchesScreen

        self.app.push_screen(BranchesScreen(profile), self._after_git_screen)

    def action_git_merge(self) -> None:
        self.open_merge_screen()

    def open_merge_screen(self) -> None:
        from .merge_screen import MergeScreen

        scope = self.git_scope()
        self.app.push_screen(MergeScreen(scope, [scope]), self._after_git_screen)

    def _after_git_screen(self, changed: bool | None) -> None:
        if changed:
            self.git_changed()
        else:
            self.git_refresh()

    def action_git_pull(self) -> None:
        if self._git_require() is None:
            return
        self.notify("Pulling…", timeout=3)
        self._git_sync("pull")

    def action_git_push(self) -> None:
        if self._git_require() is None:
            return
        self.notify("Pushing…", timeout=3)
        self._git_sync("push")

    @work(thread=True, exclusive=True, group="git-sync", description="Sync", exit_on_error=False)
    def _git_sync(self, what: str) -> None:
        st = self.git_state
        if st is None:
            return
        try:
            result = pull(st.repo) if what == "pull" else push(st.repo)
        except GitError as exc:
            result = SyncResult(False, str(exc))
        self.post_message(GitSynced(what, result))

    def on_git_synced(self, message: GitSynced) -> None:
        r = message.result
        self.notify(r.message, severity="information" if r.ok else "warning" if r.conflicts else "error",
                    markup=False, timeout=8)
        if message.what == "pull":
            self.git_changed()
            if r.conflicts:
                self.open_merge_screen()
        else:
            self.git_refresh(scan=False)
