"""The review screen: profiles and files, the entry table, the selected entry, the audit.

Everything slow runs in thread workers that end by posting a message:
loading (discover + parse), indexing (every row's fields and haystack),
the consistency check and the reference index.  The table is usable as
soon as the file is parsed; filters, counts and marks arrive when ready.

Extension points for other screens: :meth:`selected_entry`,
:meth:`selected_profile`, :meth:`reload_profile`, :meth:`refresh_after_write`,
:meth:`jump`, :meth:`open_file`, :meth:`has_unsaved_changes`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Header, Input, Tree
from textual.worker import get_current_worker

from ..core.check.findings import Finding
from ..core.format.profile import ARCHIVE_REL, Discovery, NotMemory, Profile, discover, load_profile
from ..core.format.rows import (
    MEMORY_FILES,
    EntryRow,
    Location,
    apply_findings,
    fill_all,
    make_rows,
    parse_query,
    problem_count,
    status_counts,
    toggle_token,
)
from ..ui_adapters import RefIndexLike, build_refs, run_check, write_audit_log
from ..widgets.audit_list import AuditGroup, AuditList
from ..widgets.entry_detail import EntryDetail
from ..widgets.entry_table import EntryTable
from ..widgets.file_view import FileView, SourceView
from ..widgets.messages import Jump
from ..widgets.profile_tree import NodeInfo, ProfileTree
from ..widgets.status_bar import StatusBar
from .edit_actions import EditActions
from .git_actions import GitActions


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class ProfileData:
    """What the screen knows about one profile: rows per memory file, findings, references."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.files: dict[str, list[EntryRow]] = {}
        if profile.memories is not None:
            self.files["memories.md"] = make_rows(profile.memories.mf, "memories.md")
        if profile.archive is not None:
            self.files[ARCHIVE_REL] = make_rows(profile.archive.mf, ARCHIVE_REL)
        self.by_id: dict[str, EntryRow] = {}
        for rows in self.files.values():
            for r in rows:
                if r.id and not r.malformed and r.id not in self.by_id:
                    self.by_id[r.id] = r
        self.indexed = False
        self.findings: list[Finding] | None = None
        self.check_note: str | None = None
        self.refs: RefIndexLike | None = None

    @property
    def path(self) -> Path:
        return self.profile.path

    def known(self, ident: str) -> bool:
        return ident in self.by_id


# --- worker messages ------------------------------------------------------------------


class Loaded(Message):
    def __init__(self, discovery: Discovery | None, data: list[ProfileData], error: str | None = None) -> None:
        super().__init__()
        self.discovery, self.data, self.error = discovery, data, error


class ProfileReloaded(Message):
    def __init__(self, data: ProfileData, keep_file: str | None, gen: int = 0) -> None:
        super().__init__()
        self.data, self.keep_file, self.gen = data, keep_file, gen


class Indexed(Message):
    def __init__(self, data: ProfileData) -> None:
        super().__init__()
        self.data = data


class Checked(Message):
    def __init__(self, data: ProfileData) -> None:
        super().__init__()
        self.data = data


class RefsReady(Message):
    def __init__(self, data: ProfileData) -> None:
        super().__init__()
        self.data = data


OWN_WRITE_WINDOW = 3.0  # seconds: file events this soon after the app's own write are not news


class FilesChanged(Message):
    """Files under the opened folder changed on disk (from the watcher's thread)."""

    def __init__(self, batch: Any) -> None:
        super().__init__()
        self.batch = batch


class MainScreen(EditActions, GitActions, Screen[None]):
    """Browse every memory, see what is wrong at a glance, audit references."""

    CSS_PATH = "main_screen.tcss"

    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", id="main.filter"),
        Binding("p", "toggle_problems", "Problems", id="main.problems-only",
                tooltip="Show only entries with a finding (p again: all)"),
        Binding("n", "next_problem", "Next problem", show=False, id="main.next-problem"),
        Binding("N", "prev_problem", "Prev problem", show=False, id="main.prev-problem"),
        Binding("a", "toggle_audit", "Audit", id="main.audit"),
        Binding("w", "write_audit_log", "audit.log", id="main.write-audit-log",
                tooltip="Append the findings to the profile's audit.log"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="main.reload"),
        Binding("escape", "back", "Back", show=False, id="main.back"),
        Binding("ctrl+e", "focus_entries", "Entries", show=False, id="main.focus-entries"),
        Binding("ctrl+t", "focus_tree", "Files", show=False, id="main.focus-tree"),
    ]

    def __init__(self, path: Path | None = None, discovery: Discovery | None = None,
                 today: dt.date | None = None) -> None:
        super().__init__()
        self.source_path = path
        self.discovery = discovery
        self.today = today
        self.data: dict[Path, ProfileData] = {}
        self.order: list[Path] = []
        self.current: ProfileData | None = None
        self.current_file = "memories.md"
        self.loaded = False
        self.first_paint_at: float | None = None
        self.watcher: Any = None  # core.watch.MemoryWatcher once loaded
        self._reloads: dict[Path, int] = {}  # profile -> generation of its latest reload
        self._reloading: set[Path] = set()
        self._own_write_at: dict[Path, float] = {}  # profile -> when the app last reloaded it after a write
        self._external: dict[Path, ProfileData] = {}  # profile -> its data before another program changed it
        self._attention_done = False
        self._counts_key: tuple[object, ...] | None = None
        self._counts: tuple[dict[str, int], int | None] = ({}, None)

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        with Horizontal(id="main"):
            yield ProfileTree(id="tree")
            with Vertical(id="center"):
                with ContentSwitcher(initial="entries-pane", id="center-switcher"):
                    with Vertical(id="entries-pane"):
                        yield Input(
                            placeholder="Filter: words · status:active · imp:high · tag:coffee · is:problem   (/ to focus)",
                            id="filter",
                            compact=True,
                        )
                        yield EntryTable(id="entries")
                    yield FileView(id="file-view")
                yield EntryDetail(id="detail")
        yield AuditList(id="audit")
        yield StatusBar(id="status")
        yield Footer()

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
        self.query_one("#detail").border_title = "Entry"
        self.files_tree.border_title = "Files"
        self.query_one("#entries-pane").border_title = "Entries"
        self.table.focus()
        self.status.set_busy("loading", True)
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        """The empty frame is on screen: now read the files (so reading never delays it)."""
        self.first_paint_at = time.perf_counter()  # for bench/bench_ui.py
        self._load()

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

    def reload_profile(self, profile_path: Path, *, by_app: bool = True) -> None:
        """Re-read a profile (then re-index and re-check it); ``by_app``: after the app's own write."""
        data = self.data.get(Path(profile_path))
        if data is None:
            return
        if by_app:
            self._own_write_at[data.path] = time.monotonic()
        self.status.set_busy("reloading", True)
        gen = self._reloads[data.path] = self._reloads.get(data.path, 0) + 1
        self._reloading.add(data.path)
        self._reload(data.profile, self.current_file if data is self.current else None, gen)

    # --- workers ----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load", description="Reading the memory files")
    def _load(self) -> None:
        try:
            found = self.discovery if self.discovery is not None else discover(self.source_path or Path("."))
        except NotMemory as exc:
            self.post_message(Loaded(None, [], str(exc)))
            return
        with _no_gc():  # 100k small objects without cycles: collecting would only cost time
            data = [ProfileData(p) for p in found.profiles]
        self.post_message(Loaded(found, data))

    @work(thread=True, group="reload", description="Re-reading a profile")
    def _reload(self, profile: Profile, keep_file: str | None, gen: int) -> None:
        fresh = load_profile(profile.path, profile.rel, profile.layout)
        with _no_gc():
            data = ProfileData(fresh)
        self.post_message(ProfileReloaded(data, keep_file, gen))

    @work(thread=True, group="background", description="Indexing and checking")
    def _background(self, queue: list[ProfileData]) -> None:
        """Per profile, in turn: fill every row (filters), run the check (marks), index references.

        One thread for all of it: the UI thread shares the interpreter lock with
        it, and several CPU-bound threads at once would slow the UI down more.
        """
        worker = get_current_worker()
        for data in queue:
            if not data.indexed:
                with _no_gc():
                    for rows in data.files.values():
                        for start in range(0, len(rows), 5000):
                            if worker.is_cancelled:
                                return
                            fill_all(rows[start : start + 5000])
                data.indexed = True
                self.post_message(Indexed(data))
        for data in queue:
            if worker.is_cancelled:
                return
            if data.findings is None:
                findings, note = run_check(data.profile, self.today, cancelled=lambda: worker.is_cancelled)
                apply_findings(data.files, findings)
                data.findings, data.check_note = findings, note
                self.post_message(Checked(data))
        for data in queue:
            if worker.is_cancelled:
                return
            if data.refs is None:
                data.refs = build_refs(data.profile)
                self.post_message(RefsReady(data))

    def _start_background(self, datas: list[ProfileData]) -> None:
        self.status.set_busy("indexing", True)
        self.status.set_busy("checking", True)
        current = [d for d in datas if d is self.current]
        self._background(current + [d for d in datas if d is not self.current])

    # --- watching the folder ----------------------------------------------------------

    def _start_watcher(self, root: Path) -> None:
        """Reload a profile when another program (an agent, an editor, git) changes its files."""
        if not getattr(self.app, "watch_files", True) or self.watcher is not None:
            return
        from ..core.files.watch import MemoryWatcher

        def changed(batch: Any) -> None:  # on the watcher's thread: only post
            self.post_message(FilesChanged(batch))

        watcher = MemoryWatcher(root, changed)
        try:
            watcher.start()
        except OSError as exc:
            self.notify(f"Changes made by other programs will not show: {exc}", severity="warning")
            return
        self.watcher = watcher
        if watcher.mode == "polling":
            self.status.set_watch("watching: polling")
        if watcher.fallback_reason:
            self.notify(f"Watching by polling: {watcher.fallback_reason}")

    def expect_write(self, path: Path, data: bytes | None) -> None:
        """Screens that write files announce it, so the watcher does not report it as foreign."""
        if self.watcher is not None:
            self.watcher.expect_write(path, data)

    def on_unmount(self) -> None:
        if self.watcher is not None:
            self.watcher.stop(timeout=1.0)
            self.watcher = None

    @on(FilesChanged)
    def _on_files_changed(self, message: FilesChanged) -> None:
        batch = message.batch
        changed = {f for f in batch.files() - batch.own
                   if not f.endswith(("audit.log", ".lock")) and f.rsplit("/", 1)[-1] != "audit.log"}
        for path in self.order:
            data = self.data[path]
            prefix = "" if data.profile.rel in (".", "") else data.profile.rel.rstrip("/") + "/"
            mine = sorted(f[len(prefix):] for f in changed if f.startswith(prefix))
            if mine or (batch.git and not prefix):
                own = time.monotonic() - self._own_write_at.get(path, -1e9) < OWN_WRITE_WINDOW
                if mine and not own:
                    others = [f for f in mine if f not in MEMORY_FILES]
                    if len(others) < len(mine):  # worded by id once the reload is parsed
                        self._external.setdefault(path, data)
                    if others:
                        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
                        self.notify(f"{data.profile.name}: {shown} changed by another program; reloaded.")
                self.reload_profile(path, by_app=False)

    def _notify_external(self, old: ProfileData, new: ProfileData) -> None:
        """Say by id what another program changed in the memory files (``xiaoyu/memories.md: 2 added``)."""
        from ..core.files.reload import IdDiff, diff_ids, summary

        for rel, attr in (("memories.md", "memories"), (ARCHIVE_REL, "archive")):
            before, after = getattr(old.profile, attr), getattr(new.profile, attr)
            if before is None and after is None:
                continue
            if before is None:
                diff = IdDiff(added=tuple(after.mf.by_id()), other=True)
            elif after is None:
                diff = IdDiff(removed=tuple(before.mf.by_id()), other=True)
            else:
                diff = diff_ids(before.mf, after.mf)
            if diff:
                self.notify(summary(f"{new.profile.name}/{rel}", diff))

    def _kept_row(self, old: ProfileData, new: ProfileData, file: str) -> EntryRow | str | None:
        """The entry to select after a reload: the same id, else the nearest surviving one."""
        from ..core.files.reload import nearest_surviving

        row = self.table.cursor_row
        if row is None or not row.id:
            return row
        new_rows = new.files.get(file, [])
        new_ids = [r.id for r in new_rows if r.id]
        if row.id in set(new_ids):
            return row.id
        old_ids = [r.id for r in old.files.get(file, []) if r.id]
        return nearest_surviving(old_ids, row.id, new_ids)

    # --- worker results ---------------------------------------------------------------

    @on(Loaded)
    def _on_loaded(self, message: Loaded) -> None:
        self.status.set_busy("loading", False)
        if message.error is not None or message.discovery is None:
            self.table.load([], indexed=True, placeholder=f"Cannot open: {message.error}")
            self.notify(message.error or "not memory", severity="error")
            return
        self.discovery = message.discovery
        self.data = {d.path: d for d in message.data}
        self.order = [d.path for d in message.data]
        self.files_tree.show_profiles([d.profile for d in message.data])
        self._show_audit()
        root = self.discovery.root
        self.app.sub_title = root.resolve().name or str(root)
        self.loaded = True
        first = message.data[0] if message.data else None
        if first is not None:
            self._show_profile(first, "memories.md")
        self._start_background(list(message.data))
        self._start_watcher(self.discovery.root)
        self.git_index_if_moved()

    @on(EntryTable.PicksChanged)
    def _on_picks_changed(self, _message: EntryTable.PicksChanged) -> None:
        self._update_status()
        self.refresh_bindings()

    @on(ProfileReloaded)
    def _on_reloaded(self, message: ProfileReloaded) -> None:
        data = message.data
        if message.gen != self._reloads.get(data.path, 0):
            return  # a newer reload of this profile is on its way
        self._reloading.discard(data.path)
        if not self._reloading:
            self.status.set_busy("reloading", False)
        old = self.data.get(data.path)
        before = self._external.pop(data.path, None)
        self.data[data.path] = data
        self.files_tree.show_profiles([self.data[p].profile for p in self.order])
        if before is not None:
            self._notify_external(before, data)
        if self.current is not None and self.current.path == data.path:
            file = message.keep_file or self.current_file
            keep = self._kept_row(old, data, file) if old is not None else self.table.cursor_row
            self.current = data
            self._show_profile(data, file, keep=keep)
        self._start_background([data])

    def _stale(self, data: ProfileData) -> bool:
        """A result for a profile that was reloaded since (a newer run will report)."""
        return self.data.get(data.path) is not data

    @on(Indexed)
    def _on_indexed(self, message: Indexed) -> None:
        if self._stale(message.data):
            return
        if all(d.indexed for d in self.data.values()):
            self.status.set_busy("indexing", False)
        if message.data is self.current:
            self.table.set_indexed()
            self._update_status()

    @on(Checked)
    def _on_checked(self, message: Checked) -> None:
        data = message.data
        if self._stale(data):
            return
        if all(d.findings is not None for d in self.data.values()):
            self.status.set_busy("checking", False)
        counts: dict[str, list[int]] = {}
        for f in data.findings or []:
            c = counts.setdefault(f.file, [0, 0])
            if f.severity == "error":
                c[0] += 1
            elif f.severity == "warning":
                c[1] += 1
        self.files_tree.set_problem_counts(data.path, {k: (v[0], v[1]) for k, v in counts.items()})
        self._show_audit()
        if data is self.current:
            self.table.marks_changed()
            self._refresh_detail()
            self._update_status()
        if all(d.findings is not None for d in self.data.values()):
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
        if current is None or self._serious(current) or self._center() != "entries-pane":
            return
        ranked = sorted((d for d in self.data.values() if self._serious(d)), key=lambda d: -self._serious(d))
        if ranked:
            target = ranked[0]
            self._show_profile(target, "memories.md")
            self.files_tree.select_file(target.path, "memories.md")
            self.notify(f"Showing {target.profile.name}: {current.profile.name} has no finding.",
                        title="Needs review", timeout=10)

    @staticmethod
    def _serious(data: ProfileData) -> int:
        return sum(1 for f in data.findings or () if f.severity != "info")

    @on(RefsReady)
    def _on_refs(self, message: RefsReady) -> None:
        if self._stale(message.data):
            return
        if message.data is self.current:
            self._refresh_detail()

    # --- showing things ---------------------------------------------------------------

    def _show_profile(self, data: ProfileData, file: str, keep: EntryRow | None = None) -> None:
        if self.current is not None and self.current.path != data.path:
            self.table.clear_picks()  # picks belong to one profile's list
        self.current = data
        if file not in data.files:
            file = next(iter(data.files), "memories.md")
        self.current_file = file
        rows = data.files.get(file, [])
        placeholder = (
            "This profile has no memories.md." if file not in data.files else "This file holds no entries."
        )
        if data.profile.memories_error and file == "memories.md":
            placeholder = f"memories.md cannot be read: {data.profile.memories_error}"
        if data.profile.layout == "openclaw":
            placeholder = "An OpenClaw workspace: pick a file on the left (MEMORY.md, daily logs)."
        self.table.load(rows, indexed=data.indexed, keep=keep, placeholder=placeholder)
        self.query_one("#entries-pane").border_title = f"Entries · {data.profile.name}/{file}"
        self._show_center("entries")
        self._update_status()

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
        key = (id(data), self.current_file, data.indexed, id(data.findings))
        if self._counts_key == key:
            counts, problems = self._counts
        elif data.indexed:
            counts = status_counts(rows)
            problems = problem_count(rows) if data.findings is not None else None
            self._counts_key, self._counts = key, (counts, problems)
        else:
            counts, problems = {}, None
        sort = self.table.sort_key
        extra = "" if sort == "order" else f"sorted by {sort}{' ▼' if self.table.sort_reverse else ''}"
        picked = len(self.table.picked_ids)
        if picked:
            extra = " · ".join(x for x in (f"{picked} picked (V clears)", extra) if x)
        self.status.set_state(where, counts, self.table.row_count, len(rows), problems, extra)

    def _center(self) -> str:
        return self.query_one("#center-switcher", ContentSwitcher).current or "entries-pane"

    def _lookup(self, ident: str) -> EntryRow | None:
        return self.current.by_id.get(ident) if self.current is not None else None

    def _refresh_detail(self) -> None:
        if self._center() == "file-view":
            refs = self.file_view.source.cursor_refs
            ident = next((s.target.id for s in refs if s.target is not None and s.target.id), None)
            self._detail_for_id(ident)
            return
        row = self.table.cursor_row
        data = self.current
        self.detail.show(row, data.refs if data else None, self._lookup,
                         empty="No entry selected." if self.loaded else "Loading…")

    def _detail_for_id(self, ident: str | None) -> None:
        row = self._lookup(ident) if ident else None
        data = self.current
        here: list[Finding] = []
        if row is None and data is not None and self._center() == "file-view":
            fv = self.file_view
            line = fv.source.cursor + 1
            here = [f for f in data.findings or () if f.file == fv.rel and f.line == line]
        self.detail.show(row, data.refs if data else None, self._lookup,
                         empty=f"{ident} is not defined anywhere." if ident else
                         "Move to a line with an entry id to see that entry here.", messages=here)
        if row is None and self._center() == "file-view":
            fv = self.file_view
            self.detail.show_file_refs(fv.rel, fv.source.refs, self._lookup)

    # --- events -----------------------------------------------------------------------

    @on(EntryTable.Highlighted)
    def _on_highlighted(self, event: EntryTable.Highlighted) -> None:
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
        self.table.apply_query(parse_query(event.value))

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
                self.notify(f"{loc.id} is not defined in memories.md or the archive", severity="warning")
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
                self.notify(f"Filter cleared to show {row.id or 'the entry'}.", markup=False)
                self.filter_input.value = ""
                self.table.apply_query(parse_query(""))
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
        tf = next((f for f in data.profile.text_files() if f.rel == rel), None)
        if tf is None:
            path = data.path / rel
            if not path.is_file():
                self.notify(f"{rel} does not exist in {data.profile.name}", severity="warning")
                return False
            from ..core.format.profile import TextFile

            tf = TextFile.read(data.path, path)
        self.file_view.show_file(data.path, tf.rel, tf.text, data.known, line=line, error=tf.error,
                                 dark=self.app.current_theme.dark)
        self._show_center("file")
        self.files_tree.select_file(data.path, tf.rel)
        self.file_view.focus_content()
        self._update_status()
        self._refresh_detail()
        return True

    # --- actions ----------------------------------------------------------------------

    def action_focus_filter(self) -> None:
        if self._center() != "entries-pane":
            self._show_center("entries")
            self._update_status()
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
        self.notify("No entry with a problem in this view.")

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
            self.notify("The check has not finished yet.", severity="warning")
            return
        try:
            path = write_audit_log(data.profile, data.findings)
        except ImportError:
            self.notify("Writing audit.log is not available in this build.", severity="error")
            return
        except Exception as exc:  # noqa: BLE001 - show any write error to the reviewer
            self.notify(f"Could not write audit.log: {exc}", severity="error")
            return
        n = len(data.findings)
        self.notify(f"Appended {n} finding{'s' if n != 1 else ''} to {path.name}.")

    def action_reload(self) -> None:
        for path in self.order:
            self.reload_profile(path)

    # --- for the command palette and help ---------------------------------------------

    def palette_commands(self) -> Sequence[tuple[str, str, Any]]:
        """(name, help, callback) for commands that make sense on this screen right now."""
        cmds: list[tuple[str, str, Any]] = []
        data = self.current
        for status in ("active", "superseded", "cold", "archived"):
            cmds.append((f"Filter: status {status}", f"Show only {status} entries",
                         lambda s=status: self.add_filter_token(f"status:{s}")))
        for imp in ("high", "medium", "low"):
            cmds.append((f"Filter: importance {imp}", f"Show only {imp}-importance entries",
                         lambda s=imp: self.add_filter_token(f"imp:{s}")))
        for mark, label in (("conflict", "unresolved conflicts"), ("expired", "expired TTL"),
                            ("invalid", "invalid fields"), ("malformed", "malformed entries"),
                            ("sensitive", "sensitive data"), ("suspicious", "suspicious instructions")):
            cmds.append((f"Filter: {label}", f"Show only entries with {label}",
                         lambda m=mark: self.add_filter_token(f"is:{m}")))
        cmds.append(("Filter: clear", "Show every entry", lambda: self.set_filter("")))
        for key in ("order", "id", "status", "importance", "marks", "tags", "timestamp", "summary"):
            label = "file order" if key == "order" else ("problems" if key == "marks" else key)
            cmds.append((f"Sort by {label}", f"Sort the entries by {label}", lambda k=key: self.sort_by(k)))
            if key != "order":
                cmds.append((f"Sort by {label} (descending)", f"Sort the entries by {label}, reversed",
                             lambda k=key: self.sort_by(k, True)))
        if data is not None and data.indexed:
            from ..core.format.rows import all_tags

            for tag, n in all_tags(data.files.get(self.current_file, []))[:300]:
                cmds.append((f"Filter: tag {tag}", f"{n} entries tagged {tag}",
                             lambda t=tag: self.add_filter_token(f"tag:{t}" if " " not in t else f'"tag:{t}"')))
        for p in self.order:
            d = self.data[p]
            cmds.append((f"Open profile {d.profile.name}", f"List the entries of {d.profile.name}",
                         lambda d=d: self._show_profile(d, "memories.md")))
        if data is not None:
            for f in data.profile.text_files():
                cmds.append((f"Open file {f.rel}", f"Show {f.rel} of {data.profile.name}",
                             lambda rel=f.rel: self.open_file(rel)))
        return cmds

    def known_ids(self) -> list[str]:
        return list(self.current.by_id) if self.current is not None else []

    def counts_by_code(self) -> Counter[str]:
        data = self.current
        return Counter(f.code for f in (data.findings or [])) if data else Counter()
