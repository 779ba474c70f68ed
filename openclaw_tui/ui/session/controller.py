"""The session: everything the UI holds about the opened memory, in plain Python (no Textual).

Its concerns live beside it: loading (``loading.Loading``), writing and undo (``writing.Writing``),
watching and reloads (``watching.Watching``); this module holds the state they share (the loaded
profiles, the selection, the undo stack) and a git cache.  Screens call its methods from the UI
thread (the loading ones from thread workers, as they say) and render what they return; nothing
here notifies, pushes screens or touches widgets.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...core.files.profile import Discovery, NotMemory
from ...core.git.gitrepo import GitError, find_repo
from ...core.lifecycle.undo import UndoStack
from ...core.search.index_feed import index_writes
from ..rows import EntryRow, RawText
from .loading import Loading
from .profiles import ProfileData
from .watching import ExternalChange, Watching, _OwnOperation, relevant
from .writing import EntryTarget, Refused, WriteOutcome, Writing


class Session(Loading, Writing, Watching):
    """The opened memory and everything done to it in this run of the app."""

    def __init__(self, source_path: Path | None = None, discovery: Discovery | None = None,
                 today: dt.date | None = None, clock: Callable[[], dt.datetime] | None = None,
                 *, watch: bool = True) -> None:
        self.source_path = source_path
        index_writes(False)  # the search index is fed by the reload worker (feed_search_index), not the UI thread
        self.watch_enabled = watch  # reload profiles other programs change (False in some tests)
        self.discovery = discovery
        self.today = today
        self.clock = clock  # the time new timestamps get (tests fix it); None: now
        self.data: dict[Path, ProfileData] = {}
        self.order: list[Path] = []
        self.current: ProfileData | None = None
        self.current_file = "memories.md"
        self.undo_stack = UndoStack()
        self.watcher: Any = None  # core.files.watch.MemoryWatcher while watching
        self._reloads: dict[Path, int] = {}  # profile -> generation of its latest reload
        self._reloading: set[Path] = set()
        self._external: dict[Path, ProfileData] = {}  # profile -> its data before another program changed it
        self._own: list[_OwnOperation] = []
        self._git_ok: dict[Path, bool] = {}
        self._typed_at = 0.0  # time.monotonic() of the last key typed into a filter (background work waits)
        self._blocks: dict[Path, RawText] = {}  # profile -> its memories.md over its blocks, until parsed

    # --- time ---------------------------------------------------------------------------

    def now(self) -> dt.datetime | None:
        """The time new timestamps get (None: now)."""
        return self.clock() if self.clock is not None else None

    def today_or_now(self) -> dt.date:
        return self.today or dt.date.today()

    # --- loaded state (UI thread) ---------------------------------------------------------

    def adopt(self, discovery: Discovery, data: Sequence[ProfileData]) -> None:
        self.discovery = discovery
        self.data = {d.path: d for d in data}
        self.order = [d.path for d in data]

    def profiles(self) -> list[ProfileData]:
        return [self.data[p] for p in self.order]

    def select(self, data: ProfileData, file: str) -> tuple[str, bool]:
        """Make ``data`` current on ``file`` (the first memory file when it has none); returns
        (the file shown, whether the profile changed: picks belong to one profile's list)."""
        switched = self.current is not None and self.current.path != data.path
        self.current = data
        if file not in data.files:
            file = next(iter(data.files), "memories.md")
        self.current_file = file
        return file, switched

    def stale(self, data: ProfileData) -> bool:
        """A worker result for a profile that was reloaded since (a newer run will report)."""
        return self.data.get(data.path) is not data

    def all_indexed(self) -> bool:
        return all(d.indexed for d in self.data.values())

    def all_checked(self) -> bool:
        return all(d.findings is not None and not d.findings_stale for d in self.data.values())

    def most_serious(self) -> ProfileData | None:
        """The profile with most findings (errors and warnings), when any has one."""
        ranked = sorted((d for d in self.profiles() if d.serious()), key=lambda d: -d.serious())
        return ranked[0] if ranked else None

    def known_ids(self) -> list[str]:
        return list(self.current.by_id) if self.current is not None else []

    def lookup(self, ident: str) -> EntryRow | None:
        return self.current.by_id.get(ident) if self.current is not None else None

    # --- git ---------------------------------------------------------------------------------

    def git_ok(self) -> bool:
        """The current profile is inside a git repository (cached; :meth:`forget_git` after a commit)."""
        data = self.current
        if data is None:
            return False
        path = data.path
        if path not in self._git_ok:
            try:
                self._git_ok[path] = find_repo(path) is not None
            except (GitError, OSError):
                self._git_ok[path] = False
        return self._git_ok[path]

    def forget_git(self) -> None:
        self._git_ok.clear()

    def scope(self) -> Path:
        """The folder the app was opened on (the discovery root once loaded)."""
        if self.discovery is not None:
            return Path(self.discovery.root).absolute()
        return Path(self.source_path).absolute() if self.source_path is not None else Path.cwd()


__all__ = ["EntryTarget", "ExternalChange", "NotMemory", "ProfileData", "Refused", "Session", "WriteOutcome",
           "relevant"]
