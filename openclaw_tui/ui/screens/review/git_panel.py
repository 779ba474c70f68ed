"""Git on the review screen (``GitPanel``, registry scope ``"main"``, group ``git``): the repository
state in the status bar, read in a thread worker every few seconds and after every git action, a
pending merge first on the status line, the history index rebuilt when HEAD moves, and the git
actions, bracketed as the session's own operations.  Without a repository the actions are disabled.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.worker import get_current_worker

from ....core.git.entry_history import index_entry_history
from ....core.git.gitrepo import GitError, SyncResult, git_available, pull, push
from ....core.git.repo_state import RepoState, read_state
from ....core.i18n import N_, _, ngettext
from ....core.merge.merge_session import files_with_markers
from ...session import Session
from ...widgets.messages import GitStateRead, GitSynced
from .review_host import ReviewHost

POLL_SECONDS = 5.0
NEEDS_GIT = N_("needs the memory folder to be inside a git repository (git init)")


def _relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)


class GitPanel:
    """History, entry history, branches, merge conflicts and sync for the review screen."""

    def __init__(self, screen: ReviewHost, session: Session) -> None:
        self.screen = screen
        self.session = session
        self.state: RepoState | None = None
        self.conflicted: tuple[str, ...] = ()  # files with conflict markers or unmerged, relative to the scope
        self.ready = False  # the state was read at least once
        self._polling = False
        self._indexed_head: str | None = None  # HEAD when the entry-history index was last brought up to date

    def notify(self, message: str, **kw: object) -> None:
        kw.pop("markup", None)
        self.screen.notify(message, **kw)  # type: ignore[arg-type]

    # --- state ---------------------------------------------------------------------------

    def start(self) -> None:
        if not git_available():
            self.ready = True
            return
        self.refresh()

    def refresh(self, scan: bool = True) -> None:
        """Re-read the repository state (and, with ``scan``, look for conflict markers) in a worker."""
        if self.ready and self.state is None and not git_available():
            return
        self.screen.run_worker(lambda: self._read(scan), thread=True, exclusive=True, group="git-state",
                               description="Reading the git state", exit_on_error=False)

    def _read(self, scan: bool) -> None:
        scope = self.session.scope()
        try:
            state = read_state(scope)
        except (GitError, OSError):
            state = None
        conflicted: list[str] = []
        base = state.repo.root if state is not None else scope
        if scan or (state is not None and (state.operation or state.conflicted)) or self.conflicted:
            try:
                conflicted = [_relative(p, base) for p in files_with_markers(scope)]
            except OSError:
                conflicted = []
            if state is not None:
                conflicted += [rel for rel in state.conflicted if rel not in conflicted]
        self.screen.post_message(GitStateRead(state, tuple(sorted(conflicted))))

    def state_read(self, message: GitStateRead) -> None:
        self.state = message.state
        self.conflicted = message.conflicted
        first = not self.ready
        self.ready = True
        self.screen.status.show(repo_info=self.status_text())
        self.screen.refresh_bindings()
        if first and message.state is not None and not self._polling:
            self._polling = True
            self.screen.set_interval(POLL_SECONDS, self._poll)
        self.index_if_moved()
        # a pending merge is a lasting state: first on the status line for as long as it lasts, not a notice
        self.screen.status.show(alert=self.alert_text())

    def index_if_moved(self) -> None:
        """Index the history when HEAD moved since the last time (and the profiles are known)."""
        state = self.state
        if state is None or state.head is None or self.session.discovery is None:
            return
        if state.head != self._indexed_head:
            self._indexed_head = state.head
            self.screen.run_worker(self._index_history, thread=True, exclusive=True, group="entry-index",
                                   description="Indexing entry history", exit_on_error=False)

    def _index_history(self) -> None:
        """Index the new commits of every profile's memory files (cancelled with the screen)."""
        worker = get_current_worker()
        state = self.state
        discovery = self.session.discovery
        if state is None or discovery is None:
            return
        for profile in discovery.profiles:
            if worker.is_cancelled:
                return
            try:
                index_entry_history(state.repo, profile, should_stop=lambda: worker.is_cancelled)
            except (GitError, OSError, ValueError):
                continue  # a profile outside the repository, or git gone: its history is read the slow way

    def _poll(self) -> None:
        if self.screen.is_current:
            self.refresh(scan=False)

    def alert_text(self) -> Text | None:
        """The status line's first segment while files hold merge conflicts (None: none do)."""
        files = self.conflicted
        if not files:
            return None
        n = len(files)
        more = ", …" if n > 1 else ""
        return Text(ngettext("%(count)d conflicted file (%(file)s%(more)s) — m to resolve",
                             "%(count)d conflicted files (%(file)s%(more)s) — m to resolve", n)
                    % {"count": n, "file": files[0], "more": more}, style="bold red")

    def status_text(self) -> Text | None:
        st = self.state
        if st is None and not self.conflicted:
            return None
        t = Text()
        if st is not None:
            t.append("⎇ ", style="dim")
            t.append(st.branch or (_("detached %(head)s") % {"head": st.head[:7]} if st.head else _("no commits")),
                     style="bold")
            if st.ahead or st.behind:
                t.append(f" ↑{st.ahead} ↓{st.behind}", style="dim")
            if st.dirty:
                t.append(" · " + _("%(count)s uncommitted") % {"count": st.dirty}, style="yellow")
            if st.operation:
                t.append(" · " + _("%(operation)s in progress") % {"operation": st.operation.upper()},
                         style="bold magenta")
        return t  # the conflicted files come first on the line (alert_text)

    def changed(self) -> None:
        """After a git action: re-read the memory files and the repository state."""
        self.screen.action_reload()
        self.refresh()

    # --- availability ---------------------------------------------------------------------

    def available(self, action: str) -> bool | None:
        if not self.ready:
            return True  # not known yet: the action itself says why when it cannot run
        if action == "merge":
            return True if self.conflicted or (self.state is not None and self.state.operation) else False
        return True if self.state is not None else None

    def _require(self) -> RepoState | None:
        st = self.state
        if st is None:
            self.notify(_("Git is not available here: this ") + _(NEEDS_GIT) + ".", severity="warning")
        return st

    def _profile_path(self) -> Path | None:
        profile = self.screen.selected_profile()
        return Path(profile.path).absolute() if profile is not None else None

    # --- actions --------------------------------------------------------------------------

    def _push(self, screen: object, *, bracket: bool = True) -> None:
        """Open a git screen.  With ``bracket``, whatever it does to the files while open is the app's own
        operation (history rollback, branch switch); the merge screen announces its writes itself."""
        if bracket:
            self.session.own_operation(type(screen).__name__)

        def after(changed: bool | None) -> None:
            touched: list[Path] = []
            if bracket:
                self.session.mark_files_own()
                touched = self.session.end_own_operation()
            if changed:
                self.changed()
            else:
                for path in touched:
                    self.screen.reload_profile(path)
                self.refresh()

        self.screen.app.push_screen(screen, after)

    def history(self) -> None:
        if self._require() is None:
            return
        profile = self._profile_path()
        if profile is None:
            self.notify(_("Open a profile first."), severity="warning")
            return
        from ..git.history_screen import HistoryScreen

        self._push(HistoryScreen(profile))

    def entry_history(self) -> None:
        if self._require() is None:
            return
        profile = self._profile_path()
        row = self.screen.selected_entry()
        ident = row.id if row is not None else None
        if profile is None or not ident:
            self.notify(_("Select an entry with an id first."), severity="warning")
            return
        from ..git.entry_history_screen import EntryHistoryScreen

        self._push(EntryHistoryScreen(profile, str(ident)))

    def branches(self) -> None:
        if self._require() is None:
            return
        profile = self._profile_path() or self.session.scope()
        from ..git.branches_screen import BranchesScreen

        self._push(BranchesScreen(profile))

    def merge(self) -> None:
        from ..merge.merge_screen import MergeScreen

        scope = self.session.scope()
        self._push(MergeScreen(scope, [scope], session=self.session), bracket=False)

    def pull(self) -> None:
        self._sync("pull", _("Pulling…"))

    def push(self) -> None:
        self._sync("push", _("Pushing…"))

    def _sync(self, what: str, saying: str) -> None:
        st = self._require()
        if st is None:
            return
        self.notify(saying, timeout=3)
        self.session.own_operation(what)

        def run() -> None:
            try:
                result = pull(st.repo) if what == "pull" else push(st.repo)
            except (GitError, OSError) as exc:
                result = SyncResult(False, str(exc))
            except Exception as exc:  # noqa: BLE001 - the own operation must end: say what happened
                result = SyncResult(False, f"{type(exc).__name__}: {exc}")
            self.session.mark_files_own()
            self.screen.post_message(GitSynced(what, result))

        self.screen.run_worker(run, thread=True, exclusive=True, group="git-sync", description="Sync",
                               exit_on_error=False)

    def synced(self, message: GitSynced) -> None:
        self.session.end_own_operation()
        r = message.result
        self.notify(r.message, severity="information" if r.ok else "warning" if r.conflicts else "error", timeout=8)
        if message.what == "pull":
            self.changed()
            if r.conflicts:
                self.merge()
        else:
            self.refresh(scan=False)
