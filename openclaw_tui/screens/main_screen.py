"""The review screen: profiles and files, the entry table, the selected entry, the audit.

State lives in the session (``self.session``, :class:`openclaw_tui.session.Session`):
the loaded profiles, the selection, the undo stack, writes, reloads and the
watcher.  This screen runs the slow session calls in thread workers, handles
each message they post once, and renders.  Its keys come from the action
registry (``actions.py``, scope ``"main"``); the actions that change memory
files are in :class:`EntryOperations` (``entry_ops.py``) and the git ones in
:class:`GitPanel` (``git_panel.py``), each a plain object the screen delegates to.

Everything slow runs in thread workers that end by posting a message:
loading (discover + parse), indexing (every row's fields and haystack),
the consistency check and the reference index.  The table is usable as
soon as the file is parsed; filters, counts and marks arrive when ready.

Extension points for other screens: :meth:`selected_entry`,
:meth:`selected_profile`, :meth:`reload_profile`, :meth:`refresh_after_write`,
:meth:`jump`, :meth:`open_file`, :meth:`has_unsaved_changes`.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, Input, Tree
from textual.worker import get_current_worker

from ..actions import bindings
from ..core.check.findings import Finding
from ..core.format.profile import Discovery, NotMemory, Profile
from ..core.format.rows import (
    MEMORY_FILES,
    EntryRow,
    Location,
    RawText,
    parse_query,
    query_problems,
    toggle_token,
)
from ..i18n import N_, _, ngettext
from ..session import ProfileData, Session
from ..session.controller import feed_search_index
from ..ui_adapters import write_audit_log
from ..widgets.audit_list import AuditGroup, AuditList
from ..widgets.entry_detail import EntryDetail
from ..widgets.entry_table import EntryTable, FilterInput
from ..widgets.file_view import FileView, SourceView
from ..widgets.footer import KeysFooter
from ..widgets.messages import (
    Checked,
    FilesChanged,
    GitStateRead,
    GitSynced,
    Indexed,
    Jump,
    Loaded,
    Previewed,
    ProfileReloaded,
    RefsReady,
)
from ..widgets.profile_tree import NodeInfo, ProfileTree
from ..widgets.status_bar import StatusBar
from .review_host import ENTRY_ACTIONS, GIT_ACTIONS

if TYPE_CHECKING:
    from .entry_ops import EntryOperations
    from .git_panel import GitPanel

NARROW = 100  # columns: below this the file tree starts hidden (t shows it)
PREVIEW_WAIT = 1.0  # seconds the loader waits for the first rows to be painted before parsing the rest
REFS_SETTLE = 1.0  # seconds a re-read profile keeps its previous reference index before rebuilding it
DETAIL_TYPING_PAUSE = 0.2  # seconds without a filter key before the entry pane shows the row under the cursor


class BlocksFound(Message):
    """The loader found where every block of the first memories.md starts (before parsing it); ``part``: where
    the blocks of a run of its first blocks start (the scan goes on)."""

    def __init__(self, part: bool = False) -> None:
        super().__init__()
        self.part = part


# Modules the first rows do not wait for, imported by the loader thread once they are on screen, so
# that neither the first paint nor the UI thread later (the footer asks the entry actions whether they
# are available) pays for them.  tests/test_ui_startup.py checks they are not imported before.
DEFERRED_MODULES = (
    "openclaw_tui.screens.entry_ops",
    "openclaw_tui.screens.git_panel",
    "rich.markdown",  # the entry pane's first body (~40 ms: it landed on the UI thread as the first key came)
)


def warm_up(pause: Callable[[], None] = lambda: None) -> None:
    """Import :data:`DEFERRED_MODULES` (worker thread), ``pause()`` before each (the person typing goes first:
    an import holds the interpreter for a few hundred milliseconds)."""
    import importlib

    for name in DEFERRED_MODULES:
        pause()
        importlib.import_module(name)


# the entry table's sort keys as the status bar and the palette name them
SORT_LABEL = {"order": N_("file order"), "id": "id", "status": N_("status"), "importance": N_("importance"),
              "marks": N_("problems"), "tags": N_("tags"), "timestamp": N_("timestamp"), "summary": N_("summary")}


class MainScreen(Screen[None]):
    """Browse every memory, see what is wrong at a glance, audit references."""

    CSS_PATH = "main_screen.tcss"
    BINDINGS = bindings("main")

    def __init__(self, path: Path | None = None, discovery: Discovery | None = None,
                 today: dt.date | None = None, session: Session | None = None) -> None:
        super().__init__()
        self.session = session or Session(path, discovery, today)
        self._ops: EntryOperations | None = None  # made on first use (see ops, git, warm_up)
        self._git: GitPanel | None = None
        self.loaded = False
        self.first_paint_at: float | None = None
        self._attention_done = False
        self._detail_due = False  # the entry pane follows the cursor once the keys pause (while typing)
        self._typed_at = 0.0  # time.monotonic() of the last cursor move a filter key made
        self._tree_choice: bool | None = None  # the reviewer's t (None: follow the width)
        self._preview_shown = threading.Event()
        self._started_after_rows = False  # see _start_after_rows
        self._blocks: RawText | None = None  # memories.md over all its blocks, until it is parsed (_load)

    # --- the pieces the screen delegates to (imported once the first rows are on screen) ---

    @property
    def ops(self) -> EntryOperations:
        """The entry actions (edit, archive, undo, ...): their module imports the editing screens and
        the lifecycle operations, which the first rows do not wait for."""
        if self._ops is None:
            from .entry_ops import EntryOperations

            self._ops = EntryOperations(self, self.session)
        return self._ops

    @property
    def git(self) -> GitPanel:
        """The git state and actions (started once the first rows are on screen)."""
        if self._git is None:
            from .git_panel import GitPanel

            self._git = GitPanel(self, self.session)
        return self._git

    # --- what the session holds, for the screen's own code and tests ---------------------

    @property
    def today(self) -> dt.date | None:
        return self.session.today

    @property
    def discovery(self) -> Discovery | None:
        return self.session.discovery

    @property
    def data(self) -> dict[Path, ProfileData]:
        return self.session.data

    @property
    def order(self) -> list[Path]:
        return self.session.order

    @property
    def current(self) -> ProfileData | None:
        return self.session.current

    @property
    def current_file(self) -> str:
        return self.session.current_file

    @property
    def watcher(self) -> Any:
        return self.session.watcher

    @property
    def undo_stack(self) -> Any:
        return self.session.undo_stack

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        with Horizontal(id="main"):
            yield ProfileTree(id="tree")
            with Vertical(id="center"):
                with ContentSwitcher(initial="entries-pane", id="center-switcher"):
                    with Vertical(id="entries-pane"):
                        yield FilterInput(
                            placeholder=_("Filter: words · status:active · imp:high · tag:preference · is:problem   (/ to focus)"),
                            id="filter",
                            compact=True,
                        )
                        yield EntryTable(id="entries")
                    yield FileView(id="file-view")
                yield EntryDetail(id="detail")
        yield AuditList(id="audit")
        yield StatusBar(id="status")
        # its keys once the first rows are on screen (see _start_after_rows), rebuilt when the keys pause
        yield KeysFooter(held=True, since_typed=self.session.since_typed)

    @property
    def table(self) -> EntryTable:
        return self.query_one("#entries", EntryTable)

    @property
    def detail(self) -> EntryDetail:
        return self.query_one("#detail", EntryDetail)

    @property
    def audit(self) -> AuditList:
        return self.query_one("#audit", AuditList)

    @property
    def files_tree(self) -> ProfileTree:
        return self.query_one("#tree", ProfileTree)

    @property
    def status(self) -> StatusBar:
        return self.query_one("#status", StatusBar)

    @property
    def file_view(self) -> FileView:
        return self.query_one("#file-view", FileView)

    @property
    def filter_input(self) -> Input:
        return self.query_one("#filter", Input)

    def on_mount(self) -> None:
        self.query_one("#detail").border_title = _("Entry")
        self.files_tree.border_title = _("Files")
        self.query_one("#entries-pane").border_title = _("Entries")
        self.table.focus()
        self.status.set_busy("loading", True)
        self._fit(self.app.size.width, self.app.size.height)
        self._load()  # the files are read while Textual lays out and paints the empty frame
        self.call_after_refresh(self._painted)

    def on_screen_resume(self) -> None:
        """Back on this screen: an empty filter does not keep the focus.  Covered by a start view while
        it loaded, the table lost its focus to the filter (Textual refocuses a hidden widget's neighbour),
        and the filter took q and j as text: the keys must work at once."""
        if self.filter_input.has_focus and not self.filter_input.value:
            self.table.focus()
        self.count_inbox(force=True)  # the inbox may have changed while another screen was on top

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Narrow: the tree steps aside (short: the app's breakpoints shrink the audit and detail panes)."""
        self._fit_tree(width)

    def _fit_tree(self, width: int) -> None:
        """The tree shows when there is room for it (or when the reviewer said so with t)."""
        show = self._tree_choice if self._tree_choice is not None else width >= NARROW
        tree = self.files_tree
        if tree.display != show:
            if not show and tree.has_focus:
                self.table.focus()
            tree.display = show

    def _painted(self) -> None:
        """The first frame is on screen."""
        self.first_paint_at = time.perf_counter()  # for bench/bench_ui.py

    def _first_rows_shown(self) -> None:
        """The first rows are painted: the loader goes on (see :meth:`_load`)."""
        self._preview_shown.set()
        self._freeze_heap()

    def _freeze_heap(self) -> None:
        """Move every object made so far (Textual's, the modules', the widgets', the first rows) out of the cycle
        collector's walk (``gc.freeze``), when the app is its process's own (``app.freeze_heap``, set by launch).
        They live as long as the app; a full collection walked them all, 40-80 ms of the UI thread at 100k
        entries, and one came during the first filter keys of every launch (a key waited for it)."""
        if getattr(self.app, "freeze_heap", False):
            import gc

            gc.freeze()

    def _start_after_rows(self) -> None:
        """The first rows are on screen and the loader has imported what comes next (:func:`warm_up`;
        or the load ended): what waited for them starts now -- the footer's keys (their availability
        asks the entry actions and the git panel) and the git state (its conflict-marker scan reads
        every memory file) -- so neither holds the interpreter while the person waits for the rows,
        nor waits for the loader's imports on the UI thread."""
        if self._started_after_rows or not self.is_attached:
            return
        self._started_after_rows = True
        self._freeze_heap()  # and what the loader imported meanwhile (the entry actions, the git panel)
        self.query_one(KeysFooter).release()
        self.git.start()

    # --- extension points -------------------------------------------------------------

    def selected_entry(self) -> EntryRow | None:
        """The entry under the table cursor (``.entry``, ``.file``, ``.id``), if any."""
        return self.table.cursor_row if self.loaded else None

    def selected_profile(self) -> Profile | None:
        return self.current.profile if self.current is not None else None

    def findings_for(self, profile_path: Path) -> list[Finding]:
        data = self.data.get(Path(profile_path))
        return list(data.findings or []) if data is not None else []

    def has_unsaved_changes(self) -> bool:
        return False

    def refresh_after_write(self) -> None:
        """Call after writing files of the current profile: reload, re-index, re-check."""
        if self.current is not None:
            self.reload_profile(self.current.path)

    def reload_profile(self, profile_path: Path) -> None:
        """Re-read a profile (then re-index and re-check it)."""
        started = self.session.begin_reload(Path(profile_path))
        if started is None:
            return
        profile, gen = started
        self.status.set_busy("reloading", True)
        data = self.data.get(profile.path)
        self._reload([(profile, data)], self.current_file if data is self.current else None, gen)

    def reload_for_plan(self, profiles: Sequence[Path]) -> None:
        """Reload the profiles a write touched (the current one when none is loaded)."""
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
                # parse once they are on screen: this thread would take the interpreter lock from the paint
                self._preview_shown.wait(PREVIEW_WAIT)
                self.session.yield_to_user()  # a filter typed on the first rows goes first
                # then every block of the file, before it is parsed: a filter typed meanwhile finds its rows
                # in the whole file (the parse then yields to the keys: none of them waits for it)
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
        """Re-read ``what`` (the profile and its data as shown), emptied once read: a finished worker can
        live on in a reference cycle until a full collection, and must not keep a 100k-entry version
        (text, bytes and blocks: ~90 MB) alive with it."""
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
        """Per profile, in turn: fill every row (filters), then index references.

        One thread for all of it: the UI thread shares the interpreter lock with
        it, and several CPU-bound threads at once would slow the UI down more.
        The check runs meanwhile in a child process (:meth:`_checks`).
        """
        worker = get_current_worker()
        try:
            self._index_and_refs(queue, worker)
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
        """Run the check of each profile in a child process (this thread only waits for it), from the
        start: on a second core it is done while this process still fills the rows.  A profile re-read
        meanwhile stops its run (its child is killed)."""
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
        current = [d for d in datas if d is self.current]
        queue = current + [d for d in datas if d is not self.current]
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
            self.status.set_watch(_("watching: polling"))
        if watcher.fallback_reason:
            self.notify(_("Watching by polling: %(reason)s") % {"reason": watcher.fallback_reason})
        self._catch_up()

    @work(thread=True, group="catch-up", description="Comparing the loaded files with disk")
    def _catch_up(self) -> None:
        """Writes made between the first read and the watcher's start raised no event: every loaded
        file is compared with disk once the watcher runs, and what differs reloads as any change does."""
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

    def own_operation(self, what: str) -> None:
        """A git operation of the app starts: its file events are not another program's."""
        self.session.own_operation(what)

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
        """Every block of the file is found (or a run of its first blocks): a filter typed on the first rows looks
        through all of them (unless, for a run, the rows it shows are already its answer's first rows)."""
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

    @on(EntryTable.PicksChanged)
    def _on_picks_changed(self, _message: EntryTable.PicksChanged) -> None:
        self._update_status()
        self.refresh_bindings()

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
        if self.current is data:
            file = message.keep_file or self.current_file
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
        if message.data is self.current:
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
        if data is self.current:
            self.table.marks_changed()
            self._refresh_detail()
            self._update_status()
        if self.session.all_checked():
            self._show_where_attention_is_needed()

    def _show_where_attention_is_needed(self) -> None:
        """Opened on several profiles and nothing touched yet: show the one with findings.

        A reviewer opening a profiles root lands on the first profile; when it
        is clean and another one is not, the other one is what they came for.
        """
        if self._attention_done or getattr(self.app, "user_active", True) or len(self.order) < 2:
            return
        self._attention_done = True
        current = self.current
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
        if message.data is self.current:
            self._refresh_detail()

    @on(GitStateRead)
    def _on_git_state(self, message: GitStateRead) -> None:
        self.git.state_read(message)

    @on(GitSynced)
    def _on_git_synced(self, message: GitSynced) -> None:
        self.git.synced(message)

    # --- showing things ---------------------------------------------------------------

    def _show_profile(self, data: ProfileData, file: str, keep: EntryRow | str | None = None) -> None:
        file, switched = self.session.select(data, file)
        if switched:
            self.table.clear_picks()  # picks belong to one profile's list
        rows = data.files.get(file, [])
        placeholder = (
            _("This profile has no memories.md.") if file not in data.files else _("This file holds no entries.")
        )
        if data.profile.memories_error and file == "memories.md":
            placeholder = _("memories.md cannot be read: %(why)s") % {"why": data.profile.memories_error}
        if data.profile.layout == "openclaw":
            placeholder = _("An OpenClaw workspace: pick a file on the left (MEMORY.md, daily logs).")
        self.table.load(rows, indexed=data.indexed, keep=keep, placeholder=placeholder,
                        raw=lambda: data.raw.get(file))
        shown = self._workspace_file(data) if file not in data.files else None
        # a workspace has no memories.md: name (and show) its MEMORY.md, not a file that does not exist
        self.query_one("#entries-pane").border_title = _("Entries") + f" · {data.profile.name}/{shown or file}"
        if shown is not None and self._show_text_file(data, shown):
            return
        self._show_center("entries")
        self._update_status()

    @staticmethod
    def _workspace_file(data: ProfileData) -> str | None:
        """The file a workspace opens on: MEMORY.md, else its first file (None for a profile)."""
        if data.profile.layout != "openclaw":
            return None
        rels = [f.rel for f in data.profile.text_files()]
        return "MEMORY.md" if "MEMORY.md" in rels else (rels[0] if rels else None)

    def _show_text_file(self, data: ProfileData, rel: str, line: int | None = None) -> bool:
        """Show a non-memory file of ``data`` (the current profile) in the file view, focus unchanged."""
        tf = next((f for f in data.profile.text_files() if f.rel == rel), None)
        if tf is None:
            path = data.path / rel
            if not path.is_file():
                return False
            from ..core.format.profile import TextFile

            tf = TextFile.read(data.path, path)
        self.file_view.show_file(data.path, tf.rel, tf.text, data.known, line=line, error=tf.error,
                                 dark=self.app.current_theme.dark)
        self._show_center("file")
        self.files_tree.select_file(data.path, tf.rel)
        self._update_status()
        self._refresh_detail()
        return True

    def _show_audit(self) -> None:
        groups = [
            AuditGroup(str(p), self.data[p].profile.name, self.data[p].findings, self.data[p].check_note)
            for p in self.order
        ]
        self.audit.show_groups(groups)

    def _show_center(self, which: str) -> None:
        self.query_one("#center-switcher", ContentSwitcher).current = (
            "entries-pane" if which == "entries" else "file-view"
        )

    def _update_status(self) -> None:
        data = self.current
        if data is None:
            return
        rows = data.files.get(self.current_file, [])
        where = f"{data.profile.name} · {self.current_file}"
        if self._center() == "file-view":
            where = f"{data.profile.name} · {self.file_view.rel}"
        counts, problems = data.status_counts(self.current_file)
        sort = self.table.sort_key
        extra = "" if sort == "order" else (_("sorted by %(key)s") % {"key": _(SORT_LABEL.get(sort, sort))}
                                            + (" ▼" if self.table.sort_reverse else ""))
        picked = len(self.table.picked_ids)
        if picked:
            extra = " · ".join(x for x in (_("%(n)s picked (V clears)") % {"n": picked}, extra) if x)
        self.status.set_state(where, counts, self.table.row_count, len(rows), problems, extra)
        self.count_inbox()

    def count_inbox(self, force: bool = False) -> None:
        """Count the review inbox of the current profile (status bar: "N changes since your review")."""
        data = self.current
        if data is not None and (force or getattr(self, "_inbox_for", None) != data.path):
            self._inbox_for = data.path
            self._count_inbox(data.path)

    @work(thread=True, exclusive=True, group="inbox-count", description="Counting changes since your review")
    def _count_inbox(self, path: Path) -> None:
        from ..core.inbox.inbox import load_inbox

        try:
            count: int | None = load_inbox(path).count
        except (OSError, ValueError, RuntimeError):
            count = None
        self.app.call_from_thread(self._inbox_counted, path, count)

    def _inbox_counted(self, path: Path, count: int | None) -> None:
        if self.current is not None and self.current.path == path:
            self.status.set_inbox(count)

    def _center(self) -> str:
        return self.query_one("#center-switcher", ContentSwitcher).current or "entries-pane"

    def _lookup(self, ident: str) -> EntryRow | None:
        return self.session.lookup(ident)

    def _refresh_detail(self) -> None:
        if self._center() == "file-view":
            refs = self.file_view.source.cursor_refs
            ident = next((s.target.id for s in refs if s.target is not None and s.target.id), None)
            self._detail_for_id(ident)
            return
        row = self.table.cursor_row
        data = self.current
        self.detail.show(row, data.refs if data else None, self._lookup,
                         empty=_("No entry selected.") if self.loaded else _("Loading…"))

    def _detail_for_id(self, ident: str | None) -> None:
        row = self._lookup(ident) if ident else None
        data = self.current
        here: list[Finding] = []
        if row is None and data is not None and self._center() == "file-view":
            fv = self.file_view
            line = fv.source.cursor + 1
            here = [f for f in data.findings or () if f.file == fv.rel and f.line == line]
        self.detail.show(row, data.refs if data else None, self._lookup,
                         empty=_("%(id)s is not defined anywhere.") % {"id": ident} if ident else
                         _("Move to a line with an entry id to see that entry here."), messages=here)
        if row is None and self._center() == "file-view":
            fv = self.file_view
            self.detail.show_file_refs(fv.rel, fv.source.refs, self._lookup)

    # --- events -----------------------------------------------------------------------

    @on(EntryTable.Highlighted)
    def _on_highlighted(self, event: EntryTable.Highlighted) -> None:
        if self._center() != "entries-pane":
            return
        if not self.filter_input.has_focus and self.loaded:
            self._refresh_detail()
        else:  # typing, or the first rows: the table's rows are painted first, the entry once the keys pause
            self._typed_at = time.monotonic()
            if not self._detail_due:
                self._detail_due = True
                self.set_timer(DETAIL_TYPING_PAUSE, self._detail_after_typing)

    def _detail_after_typing(self) -> None:
        """The entry under the cursor, once the keys pause: rendering it (and painting it) after every key
        held the event loop the next key needed, for an entry the person had typed past."""
        if not self._detail_due:
            return
        # the table's last cursor move by a key, or a key typed into the filter (``/`` included) since
        wait = DETAIL_TYPING_PAUSE - min(time.monotonic() - self._typed_at, self.session.since_typed())
        if wait > 0.005:
            self.set_timer(wait, self._detail_after_typing)
            return
        if not self._started_after_rows and self.filter_input.has_focus:
            # the keys go into the filter on the first rows: the pane waits for the loader's imports too
            # (its first Markdown body imported them here, 40-80 ms, between '/' and the first key)
            self.set_timer(DETAIL_TYPING_PAUSE, self._detail_after_typing)
            return
        self._detail_due = False
        if self._center() == "entries-pane":
            self._refresh_detail()

    @on(EntryTable.Selected)
    def _on_selected(self, event: EntryTable.Selected) -> None:
        self.detail.ref_list.focus()

    @on(EntryTable.ViewChanged)
    def _on_view_changed(self, event: EntryTable.ViewChanged) -> None:
        self._update_status()

    @on(Input.Changed, "#filter")
    def _on_filter(self, event: Input.Changed) -> None:
        self.session.user_typed()
        self.table.apply_query(parse_query(event.value))
        self.status.set_hint(" · ".join(query_problems(event.value)))

    @on(Input.Submitted, "#filter")
    def _on_filter_submit(self, event: Input.Submitted) -> None:
        self.table.focus()

    @on(Tree.NodeSelected)
    def _on_tree_selected(self, event: Tree.NodeSelected[NodeInfo]) -> None:
        info = event.node.data
        if info is None:
            return
        data = self.data.get(info.profile)
        if data is None:
            return
        if info.kind in ("memories", "archive", "profile"):
            self._show_profile(data, info.rel or "memories.md")
        elif info.kind == "file":
            self.open_file(info.rel, profile=data.path)

    @on(SourceView.LineChanged)
    def _on_source_line(self, event: SourceView.LineChanged) -> None:
        ident = next((s.target.id for s in event.refs if s.target is not None and s.target.id), None)
        if ident is None:
            ident = next((s.label for s in event.refs if s.kind == "id"), None)
        self._detail_for_id(ident)

    @on(Jump)
    def _on_jump(self, event: Jump) -> None:
        event.stop()
        loc = event.location
        self.jump(loc, Path(loc.profile) if loc.profile else None)

    # --- navigation -------------------------------------------------------------------

    def jump(self, loc: Location, profile: Path | None = None) -> bool:
        """Go to an entry (by id or by line of a memory file) or to a file line."""
        data = self.data.get(profile) if profile is not None else self.current
        if data is None:
            return False
        if data is not self.current:
            self._show_profile(data, "memories.md")
        if loc.file in MEMORY_FILES and loc.line is not None:
            return self._select_line(data, loc.file, loc.line)
        if loc.in_memory_file and loc.id:
            row = data.by_id.get(loc.id)
            if row is None:
                self.notify(_("%(id)s is not defined in memories.md or the archive") % {"id": loc.id}, severity="warning")
                return False
            return self.show_entry(row)
        if loc.in_memory_file and loc.file:
            self._show_profile(data, loc.file)
            self.table.focus()
            return True
        if loc.file:
            return self.open_file(loc.file, loc.line, profile=data.path)
        return False

    def show_entry(self, row: EntryRow) -> bool:
        """Select ``row`` in the table (switching file, clearing a filter that hides it)."""
        data = self.current
        if data is None:
            return False
        if row.file != self.current_file or self._center() != "entries-pane":
            self._show_profile(data, row.file)
        if not self.table.select_row(row):
            if self.filter_input.value:
                self.notify(_("Filter cleared to show %(entry)s.") % {"entry": row.id or _("the entry")}, markup=False)
                self.filter_input.value = ""
                self.table.apply_query(parse_query(""))
                self.status.set_hint("")
            if self.table.sort_key != "order" and not self.table.indexed:
                pass
            if not self.table.select_row(row):
                return False
        self.files_tree.select_file(data.path, row.file)
        self.table.focus()
        return True

    def _select_line(self, data: ProfileData, file: str, line: int) -> bool:
        rows = data.files.get(file, [])
        target = next((r for r in rows if r.line <= line <= r.end_line), None)
        if target is None:
            self._show_profile(data, file)
            return False
        return self.show_entry(target)

    def open_file(self, rel: str, line: int | None = None, profile: Path | None = None) -> bool:
        """Show a profile file in the file view (at ``line`` when given)."""
        data = self.data.get(profile) if profile is not None else self.current
        if data is None:
            return False
        if rel in data.files:
            if line is not None:
                return self._select_line(data, rel, line)
            self._show_profile(data, rel)
            return True
        if data is not self.current:
            self._show_profile(data, "memories.md")
        if not self._show_text_file(data, rel, line):
            self.notify(_("%(file)s does not exist in %(profile)s") % {"file": rel, "profile": data.profile.name},
                        severity="warning")
            return False
        self.file_view.focus_content()
        return True

    # --- actions ----------------------------------------------------------------------

    def action_focus_filter(self) -> None:
        if self._center() != "entries-pane":
            self._show_center("entries")
            self._update_status()
        self.session.user_typed()  # keys follow at once: background work and the key bar's rebuild wait
        self.filter_input.focus()

    def action_focus_entries(self) -> None:
        self._show_center("entries")
        self.table.focus()

    def action_focus_tree(self) -> None:
        self.files_tree.focus()

    def action_back(self) -> None:
        if self._center() != "entries-pane":
            self._show_center("entries")
            self.table.focus()
            self._update_status()
            self._refresh_detail()
        elif self.filter_input.value:
            self.filter_input.value = ""
            self.table.focus()
        elif self.focused is not self.table:
            self.table.focus()

    def action_toggle_problems(self) -> None:
        self.set_filter(toggle_token(self.filter_input.value, "is:problem"))

    def set_filter(self, text: str) -> None:
        """Replace the filter text (the table follows through Input.Changed)."""
        if self._center() != "entries-pane":
            self._show_center("entries")
        self.filter_input.value = text
        self.table.apply_query(parse_query(text))
        self.status.set_hint(" · ".join(query_problems(text)))

    def add_filter_token(self, token: str) -> None:
        parts = self.filter_input.value.split()
        if token not in parts:
            self.set_filter(" ".join([*parts, token]))

    def sort_by(self, key: str, reverse: bool = False) -> None:
        self.table.sort_by(key, reverse)
        self._update_status()

    def _step_problem(self, step: int) -> None:
        view = self.table.view
        if not view:
            return
        n = len(view)
        i = self.table.cursor
        for k in range(1, n + 1):
            j = (i + step * k) % n
            if view[j].problem:
                self._show_center("entries")
                self.table.move_cursor(j, center=True)
                self.table.focus()
                return
        self.notify(_("No entry with a problem in this view."))

    def action_next_problem(self) -> None:
        self._step_problem(1)

    def action_prev_problem(self) -> None:
        self._step_problem(-1)

    def action_toggle_audit(self) -> None:
        """Show and focus the audit list; hide it when it already has focus."""
        audit = self.audit
        if not audit.display:
            audit.display = True
            audit.focus()
        elif self.focused is not audit:
            audit.focus()
        else:
            audit.display = False
            self.table.focus()

    def action_write_audit_log(self) -> None:
        data = self.current
        if data is None or data.findings is None:
            self.notify(_("The check has not finished yet."), severity="warning")
            return
        try:
            path = write_audit_log(data.profile, data.findings)
        except ImportError:
            self.notify(_("Writing audit.log is not available in this build."), severity="error")
            return
        except Exception as exc:  # noqa: BLE001 - show any write error to the reviewer
            self.notify(_("Could not write audit.log: %(reason)s") % {"reason": exc}, severity="error")
            return
        n = len(data.findings)
        self.notify(ngettext("Appended %(count)d finding to %(file)s.", "Appended %(count)d findings to %(file)s.", n)
                    % {"count": n, "file": path.name})

    def action_reload(self) -> None:
        for path in self.order:
            self.reload_profile(path)

    def action_toggle_tree(self) -> None:
        tree = self.files_tree
        self._tree_choice = not tree.display
        self._fit_tree(self.app.size.width)
        if tree.display:
            tree.focus()

    # --- the feature screens: search, agent view, workspace view, repair ------------------

    def _profile_key(self, folder: Path | str | None) -> Path | None:
        """The loaded profile's key for a folder a screen names (paths may differ in form)."""
        if folder is None:
            return None
        folder = Path(folder)
        if folder in self.data:
            return folder
        resolved = folder.resolve()
        return next((p for p in self.order if p.resolve() == resolved), None)

    def _jump_result(self, result: tuple[Location, Path] | None) -> None:
        """Enter on a search or agent-view result: go to that entry or file line."""
        if result is None:
            return
        loc, folder = result
        key = self._profile_key(folder)
        if key is None:
            self.notify(_("%(folder)s is not one of the open profiles.") % {"folder": folder}, severity="warning",
                        markup=False)
            return
        loc = Location(loc.file, loc.line, loc.id, str(key))
        self.jump(loc, key)

    def action_open_search(self) -> None:
        from .search_screen import SearchScreen

        discovery = self.session.discovery
        root = discovery.root if discovery is not None else self.session.source_path
        if root is None:
            return
        self.app.push_screen(SearchScreen(root, today=self.today), self._jump_result)

    def action_open_agent(self) -> None:
        from .agent_screen import AgentScreen

        if self.current is None:
            self.notify(_("No profile is open."), severity="warning")
            return
        self.app.push_screen(AgentScreen(self.current.path, today=self.today), self._jump_result)

    def action_open_workspace(self) -> None:
        from .workspace_screen import WorkspaceScreen

        data = self.current
        if data is None or data.profile.layout != "openclaw":
            self.notify(_("The selected profile is not an OpenClaw workspace."), severity="warning")
            return
        path = data.path
        # opened on this workspace: the launcher's factory knows its OpenClaw config (--openclaw-config)
        factory = getattr(self.app, "start_screen", None)
        discovery = self.session.discovery
        screen = factory() if factory is not None and discovery is not None and discovery.kind == "workspace" else None
        if not isinstance(screen, WorkspaceScreen) or screen.path != path.absolute():
            screen = WorkspaceScreen(path, today=self.today, app_session=self.session)
        self.own_operation("the workspace view")  # its writes are the app's own, not another program's

        def closed(_result: object) -> None:
            self.end_own_operation()
            self.reload_profile(path)  # the view may have written its files

        self.app.push_screen(screen, closed)

    def action_repair_finding(self) -> None:
        """Repair the reference finding highlighted in the audit list, writing through the session."""
        from ..core.check.suggest import REPAIRABLE
        from .repair_screen import RepairScreen

        hit = self.audit.highlighted_finding() if self.audit.display else None
        if hit is None:
            self.notify(_("Highlight a reference finding in the audit list first (a shows it)."), severity="warning")
            return
        key, finding = hit
        data = self.data.get(Path(key))
        if data is None or finding.code not in REPAIRABLE:
            self.notify(_("%(code)s has no repair here: f repairs %(codes)s.") % {"code": finding.code,
                                                                                  "codes": ", ".join(sorted(REPAIRABLE))},
                        severity="warning", markup=False)
            return
        self.app.push_screen(RepairScreen(data.profile, finding, session=self.session, today=self.today,
                                          on_written=self._repaired))

    def _repaired(self, plan: Any) -> None:
        self.reload_for_plan(self.session.profiles_touched(plan))

    # --- the registry's actions that other pieces carry out ------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ENTRY_ACTIONS:
            return self.ops.available(action)
        if action in GIT_ACTIONS:
            return self.git.available(action)
        if action == "open_workspace":
            return self.current is not None and self.current.profile.layout == "openclaw"
        return super().check_action(action, parameters)

    def action_edit_entry(self) -> None:
        self.ops.edit_entry()

    def action_distil_context(self) -> None:
        from .context_distil import distil_selected_context

        distil_selected_context(self)

    def action_external_edit(self) -> None:
        self.ops.external_edit()

    def action_new_entry(self) -> None:
        self.ops.new_entry()

    def action_resolve_conflict(self) -> None:
        self.ops.resolve_conflict()

    def action_supersede(self) -> None:
        self.ops.supersede()

    def action_archive_entry(self) -> None:
        self.ops.archive_entry()

    def action_restore_entry(self) -> None:
        self.ops.restore_entry()

    def action_toggle_cold(self) -> None:
        self.ops.toggle_cold()

    def action_gc_preview(self) -> None:
        self.ops.gc_preview()

    def action_compact(self) -> None:
        self.ops.compact()

    def action_redact(self) -> None:
        self.ops.redact()

    def action_undo(self) -> None:
        self.ops.undo()

    def action_redo(self) -> None:
        self.ops.redo()

    def action_commit(self) -> None:
        self.ops.commit()

    def action_commit_unavailable(self) -> None:
        self.ops.commit_unavailable()

    def action_git_history(self) -> None:
        self.git.history()

    def action_git_entry_history(self) -> None:
        self.git.entry_history()

    def action_git_branches(self) -> None:
        self.git.branches()

    def action_git_merge(self) -> None:
        self.git.merge()

    def action_git_pull(self) -> None:
        self.git.pull()

    def action_git_push(self) -> None:
        self.git.push()

    def open_merge_screen(self) -> None:
        self.git.merge()

    def git_refresh(self, announce: bool = False, scan: bool = True) -> None:
        self.git.refresh(announce, scan)

    # --- for the command palette and help ---------------------------------------------

    def palette_commands(self) -> Sequence[tuple[str, str, Any]]:
        """(name, help, callback) for commands that make sense on this screen right now."""
        cmds: list[tuple[str, str, Any]] = []
        data = self.current
        for status in ("active", "superseded", "cold", "archived"):
            cmds.append((_("Filter: status %(status)s") % {"status": status},
                         _("Show only %(status)s entries") % {"status": status},
                         lambda s=status: self.add_filter_token(f"status:{s}")))
        for imp in ("high", "medium", "low"):
            cmds.append((_("Filter: importance %(importance)s") % {"importance": imp},
                         _("Show only %(importance)s-importance entries") % {"importance": imp},
                         lambda s=imp: self.add_filter_token(f"imp:{s}")))
        for mark, label in (("conflict", N_("unresolved conflicts")), ("expired", N_("expired TTL")),
                            ("invalid", N_("invalid fields")), ("malformed", N_("malformed entries")),
                            ("sensitive", N_("sensitive data")), ("suspicious", N_("suspicious instructions"))):
            cmds.append((_("Filter: %(what)s") % {"what": _(label)}, _("Show only entries with %(what)s") % {"what": _(label)},
                         lambda m=mark: self.add_filter_token(f"is:{m}")))
        cmds.append((_("Filter: clear"), _("Show every entry"), lambda: self.set_filter("")))
        for key in ("order", "id", "status", "importance", "marks", "tags", "timestamp", "summary"):
            label = _(SORT_LABEL[key])
            cmds.append((_("Sort by %(key)s") % {"key": label}, _("Sort the entries by %(key)s") % {"key": label},
                         lambda k=key: self.sort_by(k)))
            if key != "order":
                cmds.append((_("Sort by %(key)s (descending)") % {"key": label},
                             _("Sort the entries by %(key)s, reversed") % {"key": label},
                             lambda k=key: self.sort_by(k, True)))
        if data is not None and data.indexed:
            from ..core.format.rows import all_tags

            for tag, n in all_tags(data.files.get(self.current_file, []))[:300]:
                cmds.append((_("Filter: tag %(tag)s") % {"tag": tag},
                             ngettext("%(n)s entry tagged %(tag)s", "%(n)s entries tagged %(tag)s", n) % {"n": n, "tag": tag},
                             lambda t=tag: self.add_filter_token(f"tag:{t}" if " " not in t else f'"tag:{t}"')))
        for p in self.order:
            d = self.data[p]
            cmds.append((_("Open profile %(profile)s") % {"profile": d.profile.name},
                         _("List the entries of %(profile)s") % {"profile": d.profile.name},
                         lambda d=d: self._show_profile(d, "memories.md")))
        if data is not None:
            for f in data.profile.text_files():
                cmds.append((_("Open file %(file)s") % {"file": f.rel},
                             _("Show %(file)s of %(profile)s") % {"file": f.rel, "profile": data.profile.name},
                             lambda rel=f.rel: self.open_file(rel)))
        return cmds

    def known_ids(self) -> list[str]:
        return self.session.known_ids()

    def counts_by_code(self) -> Counter[str]:
        data = self.current
        return Counter(f.code for f in (data.findings or [])) if data else Counter()
