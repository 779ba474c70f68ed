"""The review screen's loading pipeline (``ProfileLoading``, a base of ``MainScreen``): thread workers
that read, index, check and re-read profiles and post their results, the watcher that starts re-reads,
and the handlers of what they post.  The table works once the file is parsed; marks arrive when ready.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from ....core.files.profile import NotMemory, Profile
from ....core.i18n import _
from ...rows import EntryRow, RawText
from ...session import ProfileData, Session
from ...session.watching import feed_search_index
from ...widgets.entry_table import EntryTable
from ...widgets.footer import KeysFooter
from ...widgets.messages import (
    Checked,
    FilesChanged,
    Indexed,
    Loaded,
    Previewed,
    ProfileReloaded,
    RefsReady,
)
from ...widgets.profile_tree import ProfileTree
from ...widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ....core.lifecycle.plan import Plan
    from .entry_ops import EntryOperations
    from .git_panel import GitPanel

PREVIEW_WAIT = 1.0  # seconds the loader waits for the first rows to be painted before parsing the rest
REFS_SETTLE = 1.0  # seconds a re-read profile keeps its previous reference index before rebuilding it


class BlocksFound(Message):
    """The loader found where every block of the first memories.md starts (``part``: of a run of its first)."""

    def __init__(self, part: bool = False) -> None:
        super().__init__()
        self.part = part


# Modules the first rows do not wait for, imported by the loader thread once they are on screen
# (tests/ui/test_ui_startup.py checks they are not imported before).
DEFERRED_MODULES = (
    "openclaw_tui.ui.screens.review.entry_ops",
    "openclaw_tui.ui.screens.review.git_panel",
    "rich.markdown",  # the entry pane's first body
)


def warm_up(pause: Callable[[], None] = lambda: None) -> None:
    """Import :data:`DEFERRED_MODULES` (worker thread), ``pause()`` before each: the person typing goes first."""
    import importlib

    for name in DEFERRED_MODULES:
        pause()
        importlib.import_module(name)


class ProfileLoading(Screen[None]):
    """Loading, re-reading and watching the profiles of ``MainScreen`` (which shows what they bring)."""

    session: Session
    if TYPE_CHECKING:  # what MainScreen provides (for the type checker only)
        @property
        def ops(self) -> EntryOperations: ...
        @property
        def git(self) -> GitPanel: ...
        def _show_profile(self, data: ProfileData, file: str, keep: EntryRow | str | None = None) -> None: ...
        def _show_audit(self) -> None: ...
        def _center(self) -> str: ...
        def _update_status(self) -> None: ...
        def _refresh_detail_when_idle(self) -> None: ...
        def count_inbox(self, force: bool = False) -> None: ...

    def __init__(self) -> None:
        super().__init__()
        self.loaded = False
        self._attention_done = False
        self._preview_shown = threading.Event()
        self._started_after_rows = False  # see _start_after_rows
        self._blocks: RawText | None = None  # memories.md over all its blocks, until it is parsed (_load)

    # --- what the session holds, the panes ------------------------------------------------

    @property
    def table(self) -> EntryTable:
        return self.query_one("#entries", EntryTable)

    @property
    def files_tree(self) -> ProfileTree:
        return self.query_one("#tree", ProfileTree)

    @property
    def status(self) -> StatusBar:
        return self.query_one("#status", StatusBar)

    def _first_rows_shown(self) -> None:
        """The first rows are painted: the loader goes on (see :meth:`_load`), and what the app built so far
        leaves the cycle collector's walk when the app is its process's own (``app.freeze_heap``)."""
        self._preview_shown.set()
        if getattr(self.app, "freeze_heap", False):
            gc.freeze()

    def _start_after_rows(self) -> None:
        """The first rows are on screen and the loader has imported what comes next (:func:`warm_up`, or
        the load ended): the footer's keys and the git state, which waited for them, start now."""
        if self._started_after_rows or not self.is_attached:
            return
        self._started_after_rows = True
        self.query_one(KeysFooter).release()
        self.git.start()

    def refresh_after_write(self) -> None:
        """Call after writing files of the current profile: reload, re-index, re-check."""
        if self.session.current is not None:
            self.reload_profile(self.session.current.path)

    def reload_profile(self, profile_path: Path) -> None:
        """Re-read a profile (then re-index and re-check it)."""
        started = self.session.begin_reload(Path(profile_path))
        if started is None:
            return
        profile, gen = started
        self.status.set_busy("reloading", True)
        data = self.session.data.get(profile.path)
        self._reload([(profile, data)], self.session.current_file if data is self.session.current else None, gen)

    def reload_for_plan(self, plan: Plan) -> None:
        """Reload the profiles ``plan`` touched (the current one when none is loaded)."""
        profiles = self.session.profiles_touched(plan)
        if not profiles:
            self.refresh_after_write()
        for path in profiles:
            self.reload_profile(path)

    # --- workers ----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load", description="Reading the memory files")
    def _load(self) -> None:
        try:
            found = self.session.discover(lazy=True)
        except NotMemory as exc:
            self.post_message(Loaded(None, [], str(exc)))
            return
        if found.profiles:  # the first screenful first: parsing 100k entries takes a second
            first = found.profiles[0]
            rows = self.session.preview(first)
            if rows:
                self.post_message(Previewed(first, rows))
                self._preview_shown.wait(PREVIEW_WAIT)  # parse once they are on screen
                self.session.yield_to_user()  # a filter typed on the first rows goes first
                # then every block of the file, before it is parsed: a filter typed meanwhile looks at all
                blocks = self.session.blocks(first, rows, on_part=self._found_part)
                if blocks is not None:
                    self._blocks = blocks
                    self.post_message(BlocksFound())
                    self.session.lower(blocks)
        warm_up(self.session.yield_to_user)
        self.call_later(self._start_after_rows)  # (posts a message: safe from this thread)
        self.post_message(Loaded(found, self.session.read_found(found.profiles)))

    def _found_part(self, raw: RawText) -> None:
        """A run of the first file's first blocks, found while the scan goes on (loader thread)."""
        self._blocks = raw
        self.post_message(BlocksFound(part=True))

    @work(thread=True, group="reload", description="Re-reading a profile")
    def _reload(self, what: list[tuple[Profile, ProfileData | None]], keep_file: str | None, gen: int) -> None:
        """Re-read ``what`` (the profile and its data as shown), emptied once read: a finished worker may
        live on in a reference cycle and must not keep the old version alive."""
        profile, previous = what.pop()
        data = self.session.read_again(profile, previous)
        del previous
        self.session.prepare_reload(data)
        self.post_message(ProfileReloaded(data, keep_file, gen))
        feed_search_index(profile, data.profile)  # after the rows are on their way: the index can wait

    def _gone(self, data: ProfileData, worker: Any) -> bool:
        """The worker was cancelled, or ``data`` was re-read since (its work would be thrown away)."""
        return bool(worker.is_cancelled) or (self.session.stale(data) and data.path in self.session.data)

    @work(thread=True, group="background", description="Indexing")
    def _background(self, queue: list[ProfileData]) -> None:
        """Per profile, in turn: fill every row (filters), then index references, in one thread (several
        CPU-bound threads would slow the UI more).  The check runs meanwhile in a child process."""
        try:
            self._index_and_refs(queue, get_current_worker())
        finally:
            queue.clear()  # this worker object may outlive its run (see _reload): it keeps no data

    def _index_and_refs(self, queue: list[ProfileData], worker: Any) -> None:
        for data in queue:
            if not data.indexed and not self._gone(data, worker):
                if self.session.index(data, lambda d=data: self._gone(d, worker)):  # type: ignore[misc]
                    self.post_message(Indexed(data))
        for data in queue:
            if data.refs_stale and not self._gone(data, worker):
                time.sleep(REFS_SETTLE)  # an agent writing again soon would make this index stale at once
            if (data.refs is None or data.refs_stale) and not self._gone(data, worker):
                self.session.yield_to_user(lambda d=data: self._gone(d, worker))  # type: ignore[misc]
                self.session.wait_for_reload(data.path, lambda d=data: self._gone(d, worker))  # type: ignore[misc]
                if self._gone(data, worker):
                    continue  # re-read meanwhile: the newer version's run indexes it
                self.session.index_refs(data)
                self.post_message(RefsReady(data))

    @work(thread=True, group="check", description="Checking")
    def _checks(self, queue: list[ProfileData]) -> None:
        """Run the check of each profile in a child process (this thread only waits for it); a profile
        re-read meanwhile stops its run."""
        worker = get_current_worker()
        try:
            for data in queue:
                if (data.findings is None or data.findings_stale) and not self._gone(data, worker):
                    self.session.check(data, cancelled=lambda d=data: self._gone(d, worker))  # type: ignore[misc]
                    self.post_message(Checked(data))
        finally:
            queue.clear()  # see _background

    def _start_background(self, datas: list[ProfileData]) -> None:
        self.status.set_busy("indexing", not self.session.all_indexed())
        self.status.set_busy("checking", True)
        current = [d for d in datas if d is self.session.current]
        queue = current + [d for d in datas if d is not self.session.current]
        self._checks(list(queue))
        self._background(queue)

    # --- watching the folder ----------------------------------------------------------

    def _start_watcher(self, root: Path) -> None:
        """Reload a profile when another program (an agent, an editor, git) changes its files."""
        if not self.session.watch_enabled or self.session.watcher is not None:
            return

        def changed(batch: Any) -> None:  # on the watcher's thread: only post
            self.post_message(FilesChanged(batch))

        try:
            watcher = self.session.watch(root, changed)
        except OSError as exc:
            self.notify(_("Changes made by other programs will not show: %(reason)s") % {"reason": exc}, severity="warning")
            return
        if watcher.mode == "polling":
            self.status.show(watch_note=_("watching: polling"))
        if watcher.fallback_reason:
            self.notify(_("Watching by polling: %(reason)s") % {"reason": watcher.fallback_reason})
        self._catch_up()

    @work(thread=True, group="catch-up", description="Comparing the loaded files with disk")
    def _catch_up(self) -> None:
        """Writes made between the first read and the watcher's start raised no event: compare every
        loaded file with disk once the watcher runs; what differs reloads as any change does."""
        batch = self.session.missed_changes()
        if batch is not None:
            self.post_message(FilesChanged(batch))

    def on_unmount(self) -> None:
        self.session.stop_watching()

    @on(FilesChanged)
    def _on_files_changed(self, message: FilesChanged) -> None:
        for change in self.session.changes(message.batch):
            notice = change.notice()
            if notice:
                self.notify(notice)
            self.reload_profile(change.profile)
        self.count_inbox(force=True)

    def end_own_operation(self) -> None:
        for path in self.session.end_own_operation():
            self.reload_profile(path)

    # --- worker results (each message has one handler: this screen's) ----------------------

    @on(Previewed)
    def _on_previewed(self, message: Previewed) -> None:
        """The first rows, before the whole file is parsed (no entry action works on them yet)."""
        if self.loaded:
            return
        self.table.load(message.rows, indexed=False, placeholder=_("Loading…"), complete=False,
                        raw=lambda: self._blocks)
        self.query_one("#entries-pane").border_title = _("Entries") + f" · {message.profile.name}/memories.md"
        self.call_after_refresh(self._first_rows_shown)

    @on(BlocksFound)
    def _on_blocks(self, message: BlocksFound) -> None:
        """Every block of the file is found (or a run of its first blocks): a filter typed on the first rows
        looks through them."""
        if not self.loaded and not (message.part and self.table.shows_enough()):
            self.table.refilter()

    @on(Loaded)
    def _on_loaded(self, message: Loaded) -> None:
        self._blocks = None  # the parse's rows from now on
        self.status.set_busy("loading", False)
        self.call_after_refresh(self._start_after_rows)  # (already done unless the load failed early)
        if message.error is not None or message.discovery is None:
            self.table.load([], indexed=True, placeholder=_("Cannot open: %(reason)s") % {"reason": message.error})
            self.notify(message.error or _("not memory"), severity="error", markup=False)
            return
        self.session.adopt(message.discovery, message.data)
        self.files_tree.show_profiles([d.profile for d in message.data])
        self._show_audit()
        root = message.discovery.root
        self.app.sub_title = root.resolve().name or str(root)
        self.loaded = True
        first = message.data[0] if message.data else None
        if first is not None:
            self._show_profile(first, "memories.md")
        self._start_background(list(message.data))
        self._start_watcher(root)
        self.git.index_if_moved()

    @on(ProfileReloaded)
    def _on_reloaded(self, message: ProfileReloaded) -> None:
        data: ProfileData = message.data
        accepted = self.session.accept_reload(data, message.gen)
        if accepted is None:
            return  # a newer reload of this profile is on its way
        old, notices = accepted
        if not self.session.reloading:
            self.status.set_busy("reloading", False)
        self.files_tree.show_profiles([d.profile for d in self.session.profiles()])
        for notice in notices:
            self.notify(notice)
        if self.session.current is data:
            file = message.keep_file or self.session.current_file
            row = self.table.cursor_row
            keep = self.session.kept_row(old, data, file, row) if old is not None else row
            self._show_profile(data, file, keep=keep)
        self._start_background([data])
        self.ops.after_reload(data)
        self.git.refresh()

    @on(Indexed)
    def _on_indexed(self, message: Indexed) -> None:
        if self.session.stale(message.data):
            return
        if self.session.all_indexed():
            self.status.set_busy("indexing", False)
        if message.data is self.session.current:
            self.table.set_indexed()
            self._update_status()

    @on(Checked)
    def _on_checked(self, message: Checked) -> None:
        data = message.data
        if self.session.stale(data):
            return
        if self.session.all_checked():
            self.status.set_busy("checking", False)
        self.files_tree.set_problem_counts(data.path, data.counts_by_file())
        self._show_audit()
        if data is self.session.current:
            self.table.marks_changed()
            self._refresh_detail_when_idle()
            self._update_status()
        if self.session.all_checked():
            self._show_where_attention_is_needed()

    def _show_where_attention_is_needed(self) -> None:
        """Opened on several profiles and nothing touched yet: from a clean first profile, show one with findings."""
        if self._attention_done or getattr(self.app, "user_active", True) or len(self.session.order) < 2:
            return
        self._attention_done = True
        current = self.session.current
        if current is None or current.serious() or self._center() != "entries-pane":
            return
        target = self.session.most_serious()
        if target is not None:
            self._show_profile(target, "memories.md")
            self.files_tree.select_file(target.path, "memories.md")
            self.notify(_("Showing %(shown)s: %(current)s has no finding.") % {"shown": target.profile.name,
                                                                             "current": current.profile.name},
                        title=_("Needs review"), timeout=10)

    @on(RefsReady)
    def _on_refs(self, message: RefsReady) -> None:
        if self.session.stale(message.data):
            return
        if message.data is self.session.current:
            self._refresh_detail_when_idle()
