"""The review screen: profiles and files, the entry table, the selected entry, the audit.

State lives in the session (``self.session``).  The loading pipeline is :class:`ProfileLoading`
(``main_loading.py``), the filter and sort :class:`FilterAndSort` on it (``main_filter.py``); the registry's
``ops('<name>')`` actions run on :class:`EntryOperations` (``entry_ops.py``) and ``git('<name>')`` on
:class:`GitPanel` (``git_panel.py``).  Other screens use :meth:`selected_entry`, :meth:`selected_profile`,
:meth:`reload_profile`, :meth:`refresh_after_write`, :meth:`jump` and :meth:`open_file`.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Header, Input, Tree

from ....core.check.findings import Finding
from ....core.files.profile import Discovery, Profile
from ....core.i18n import N_, _, ngettext
from ...actions import bindings
from ...rows import (
    MEMORY_FILES,
    EntryRow,
    Location,
    parse_query,
)
from ...session import ProfileData, Session
from ...widgets.audit_list import AuditGroup, AuditList
from ...widgets.entry_detail import EntryDetail
from ...widgets.entry_table import EntryTable, FilterInput
from ...widgets.file_view import FileView, SourceView
from ...widgets.footer import KeysFooter
from ...widgets.messages import (
    GitStateRead,
    GitSynced,
    Jump,
)
from ...widgets.profile_tree import NodeInfo, ProfileTree
from ...widgets.status_bar import StatusBar
from ...workers import call_if_attached
from .main_filter import FilterAndSort

if TYPE_CHECKING:
    from .entry_ops import EntryOperations
    from .git_panel import GitPanel

NARROW = 100  # columns: below this the file tree starts hidden (t shows it)
DETAIL_TYPING_PAUSE = 0.2  # seconds without a filter key before the entry pane shows the row under the cursor


# the entry table's sort keys as the status bar and the palette name them
SORT_LABEL = {"order": N_("file order"), "id": "id", "status": N_("status"), "importance": N_("importance"),
              "marks": N_("problems"), "tags": N_("tags"), "timestamp": N_("timestamp"), "summary": N_("summary")}


class MainScreen(FilterAndSort):
    """Browse every memory, see what is wrong at a glance, audit references."""

    CSS_PATH = "main_screen.tcss"
    BINDINGS = bindings("main")

    def __init__(self, path: Path | None = None, discovery: Discovery | None = None,
                 today: dt.date | None = None, session: Session | None = None) -> None:
        super().__init__()
        self.session = session or Session(path, discovery, today)
        self._ops: EntryOperations | None = None  # made on first use (see ops, git, warm_up)
        self._git: GitPanel | None = None
        self.first_paint_at: float | None = None
        self._detail_due = False  # the entry pane follows the cursor once the keys pause (while typing)
        self._typed_at = 0.0  # time.monotonic() of the last cursor move a filter key made
        self._tree_choice: bool | None = None  # the reviewer's t (None: follow the width)

    # --- the pieces the screen delegates to (imported once the first rows are on screen) ---

    @property
    def ops(self) -> EntryOperations:
        """The entry actions (edit, archive, undo, ...), imported on first use: the first rows do not wait."""
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
    def detail(self) -> EntryDetail:
        return self.query_one("#detail", EntryDetail)

    @property
    def audit(self) -> AuditList:
        return self.query_one("#audit", AuditList)

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
        self._fit_tree(self.app.size.width)
        self._load()  # the files are read while Textual lays out and paints the empty frame
        self.call_after_refresh(self._painted)

    def on_screen_resume(self) -> None:
        """Back on this screen: an empty filter does not keep the focus (it would take q and j as text)."""
        if self.filter_input.has_focus and not self.filter_input.value:
            self.table.focus()
        self.count_inbox(force=True)  # the inbox may have changed while another screen was on top

    def on_resize(self, event: Any) -> None:
        self._fit_tree(event.size.width)

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

    # --- extension points -------------------------------------------------------------

    def selected_entry(self) -> EntryRow | None:
        """The entry under the table cursor (``.entry``, ``.file``, ``.id``), if any."""
        return self.table.cursor_row if self.loaded else None

    def selected_profile(self) -> Profile | None:
        return self.session.current.profile if self.session.current is not None else None

    def findings_for(self, profile_path: Path) -> list[Finding]:
        data = self.session.data.get(Path(profile_path))
        return list(data.findings or []) if data is not None else []

    @on(EntryTable.PicksChanged)
    def _on_picks_changed(self, _message: EntryTable.PicksChanged) -> None:
        self._update_status()
        self.refresh_bindings()

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
            from ....core.files.profile import TextFile

            tf = TextFile.read(data.path, path)
        self.file_view.show_file(data.path, tf.rel, tf.text, data.by_id.__contains__, line=line, error=tf.error,
                                 dark=self.app.current_theme.dark)
        self._show_center("file")
        self.files_tree.select_file(data.path, tf.rel)
        self._update_status()
        self._refresh_detail()
        return True

    def _show_audit(self) -> None:
        groups = [
            AuditGroup(str(p), self.session.data[p].profile.name, self.session.data[p].findings, self.session.data[p].check_note)
            for p in self.session.order
        ]
        self.audit.show_groups(groups)

    def _show_center(self, which: str) -> None:
        self.query_one("#center-switcher", ContentSwitcher).current = (
            "entries-pane" if which == "entries" else "file-view"
        )

    def _update_status(self) -> None:
        data = self.session.current
        if data is None:
            return
        rows = data.files.get(self.session.current_file, [])
        where = f"{data.profile.name} · {self.session.current_file}"
        if self._center() == "file-view":
            where = f"{data.profile.name} · {self.file_view.rel}"
        counts, problems = data.status_counts(self.session.current_file)
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
        data = self.session.current
        if data is not None and (force or getattr(self, "_inbox_for", None) != data.path):
            self._inbox_for = data.path
            self._count_inbox(data.path)

    @work(thread=True, exclusive=True, group="inbox-count", description="Counting changes since your review")
    def _count_inbox(self, path: Path) -> None:
        from ....core.inbox.inbox import load_inbox

        try:
            count: int | None = load_inbox(path).count
        except (OSError, ValueError, RuntimeError):
            count = None
        call_if_attached(self, self._inbox_counted, path, count)

    def _inbox_counted(self, path: Path, count: int | None) -> None:
        if self.session.current is not None and self.session.current.path == path:
            for bar in self.query("#status").results(StatusBar):  # none once the app closes (the worker outlived it)
                bar.show(inbox=count)

    def _center(self) -> str:
        return self.query_one("#center-switcher", ContentSwitcher).current or "entries-pane"

    def _refresh_detail(self) -> None:
        if self._center() == "file-view":
            refs = self.file_view.source.cursor_refs
            ident = next((s.target.id for s in refs if s.target is not None and s.target.id), None)
            self._detail_for_id(ident)
            return
        row = self.table.cursor_row
        data = self.session.current
        self.detail.show(row, data.refs if data else None, self.session.lookup,
                         empty=_("No entry selected.") if self.loaded else _("Loading…"))

    def _detail_for_id(self, ident: str | None) -> None:
        row = self.session.lookup(ident) if ident else None
        data = self.session.current
        here: list[Finding] = []
        if row is None and data is not None and self._center() == "file-view":
            fv = self.file_view
            line = fv.source.cursor + 1
            here = [f for f in data.findings or () if f.file == fv.rel and f.line == line]
        self.detail.show(row, data.refs if data else None, self.session.lookup,
                         empty=_("%(id)s is not defined anywhere.") % {"id": ident} if ident else
                         _("Move to a line with an entry id to see that entry here."), messages=here)
        if row is None and self._center() == "file-view":
            fv = self.file_view
            self.detail.show_file_refs(fv.rel, fv.source.refs, self.session.lookup)

    # --- events -----------------------------------------------------------------------

    @on(EntryTable.Highlighted)
    def _on_highlighted(self, event: EntryTable.Highlighted) -> None:
        if self._center() != "entries-pane":
            return
        if not self.filter_input.has_focus and self.loaded:
            self._refresh_detail()
        else:  # typing, or the first rows: the table's rows are painted first, the entry once the keys pause
            self._typed_at = time.monotonic()
            self._detail_later()

    def _detail_later(self) -> None:
        if not self._detail_due:
            self._detail_due = True
            self.set_timer(DETAIL_TYPING_PAUSE, self._detail_after_typing)

    def _refresh_detail_when_idle(self) -> None:
        """Render the entry pane now, or once the keys pause when the filter has the focus (a check or the
        references landing while the person types must not take the event loop the next key needs)."""
        if self.filter_input.has_focus or self._detail_due:
            self._detail_later()
            return
        self._refresh_detail()

    def _detail_after_typing(self) -> None:
        """The entry under the cursor, once the keys pause (not after every key: the next key waits)."""
        if not self._detail_due:
            return
        # the table's last cursor move by a key, or a key typed into the filter (``/`` included) since
        wait = DETAIL_TYPING_PAUSE - min(time.monotonic() - self._typed_at, self.session.since_typed())
        if wait > 0.005:
            self.set_timer(wait, self._detail_after_typing)
            return
        if not self._started_after_rows and self.filter_input.has_focus:
            # the keys go into the filter on the first rows: the pane waits for the loader's imports too
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

    @on(Tree.NodeSelected)
    def _on_tree_selected(self, event: Tree.NodeSelected[NodeInfo]) -> None:
        info = event.node.data
        if info is None:
            return
        data = self.session.data.get(info.profile)
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
        data = self.session.data.get(profile) if profile is not None else self.session.current
        if data is None:
            return False
        if data is not self.session.current:
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
        data = self.session.current
        if data is None:
            return False
        if row.file != self.session.current_file or self._center() != "entries-pane":
            self._show_profile(data, row.file)
        if not self.table.select_row(row):
            if self.filter_input.value:
                self.notify(_("Filter cleared to show %(entry)s.") % {"entry": row.id or _("the entry")}, markup=False)
                self.filter_input.value = ""
                self.table.apply_query(parse_query(""))
                self.status.show(hint="")
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
        data = self.session.data.get(profile) if profile is not None else self.session.current
        if data is None:
            return False
        if rel in data.files:
            if line is not None:
                return self._select_line(data, rel, line)
            self._show_profile(data, rel)
            return True
        if data is not self.session.current:
            self._show_profile(data, "memories.md")
        if not self._show_text_file(data, rel, line):
            self.notify(_("%(file)s does not exist in %(profile)s") % {"file": rel, "profile": data.profile.name},
                        severity="warning")
            return False
        self.file_view.focus_content()
        return True

    # --- actions ----------------------------------------------------------------------

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
        data = self.session.current
        if data is None or data.findings is None:
            self.notify(_("The check has not finished yet."), severity="warning")
            return
        try:
            from ....core.check.report import append_audit_log

            append_audit_log(data.profile, data.findings)
        except ImportError:
            self.notify(_("Writing audit.log is not available in this build."), severity="error")
            return
        except Exception as exc:  # noqa: BLE001 - show any write error to the reviewer
            self.notify(_("Could not write audit.log: %(reason)s") % {"reason": exc}, severity="error")
            return
        n = len(data.findings)
        self.notify(ngettext("Appended %(count)d finding to %(file)s.", "Appended %(count)d findings to %(file)s.", n)
                    % {"count": n, "file": data.profile.audit_log_path.name})

    def action_reload(self) -> None:
        for path in self.session.order:
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
        if folder in self.session.data:
            return folder
        resolved = folder.resolve()
        return next((p for p in self.session.order if p.resolve() == resolved), None)

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
        from ..search.search_screen import SearchScreen

        discovery = self.session.discovery
        root = discovery.root if discovery is not None else self.session.source_path
        if root is None:
            return
        self.app.push_screen(SearchScreen(root, today=self.session.today), self._jump_result)

    def action_open_agent(self) -> None:
        from ..workspace.agent_screen import AgentScreen

        if self.session.current is None:
            self.notify(_("No profile is open."), severity="warning")
            return
        self.app.push_screen(AgentScreen(self.session.current.path, today=self.session.today), self._jump_result)

    def action_open_workspace(self) -> None:
        from ..workspace.workspace_screen import WorkspaceScreen

        data = self.session.current
        if data is None or data.profile.layout != "openclaw":
            self.notify(_("The selected profile is not an OpenClaw workspace."), severity="warning")
            return
        path = data.path
        # opened on this workspace: the launcher's factory knows its OpenClaw config (--openclaw-config)
        factory = getattr(self.app, "start_screen", None)
        discovery = self.session.discovery
        screen = factory() if factory is not None and discovery is not None and discovery.kind == "workspace" else None
        if not isinstance(screen, WorkspaceScreen) or screen.path != path.absolute():
            screen = WorkspaceScreen(path, today=self.session.today, app_session=self.session)
        self.session.own_operation("the workspace view")  # its writes are the app's own, not another program's

        def closed(_result: object) -> None:
            self.end_own_operation()
            self.reload_profile(path)  # the view may have written its files

        self.app.push_screen(screen, closed)

    def action_repair_finding(self) -> None:
        """Repair the reference finding highlighted in the audit list, writing through the session."""
        from ....core.check.codes import REPAIRABLE
        from ..edit.repair_screen import RepairScreen

        hit = self.audit.highlighted_finding() if self.audit.display else None
        if hit is None:
            self.notify(_("Highlight a reference finding in the audit list first (a shows it)."), severity="warning")
            return
        key, finding = hit
        data = self.session.data.get(Path(key))
        if data is None or finding.code not in REPAIRABLE:
            self.notify(_("%(code)s has no repair here: f repairs %(codes)s.") % {"code": finding.code,
                                                                                  "codes": ", ".join(sorted(REPAIRABLE))},
                        severity="warning", markup=False)
            return
        self.app.push_screen(RepairScreen(data.profile, finding, session=self.session, today=self.session.today,
                                          on_written=self.reload_for_plan))

    # --- the registry's actions that other pieces carry out ------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "ops":
            return self.ops.available(str(parameters[0]))
        if action == "git":
            return self.git.available(str(parameters[0]))
        if action == "open_workspace":
            return self.session.current is not None and self.session.current.profile.layout == "openclaw"
        return super().check_action(action, parameters)

    def action_ops(self, name: str) -> None:
        """An entry action of the registry (``ops('archive_entry')``): :class:`EntryOperations` carries it out."""
        getattr(self.ops, name)()

    def action_git(self, name: str) -> None:
        """A git action of the registry (``git('history')``): :class:`GitPanel` carries it out."""
        getattr(self.git, name)()

    def action_distil_context(self) -> None:
        from .context_distil import distil_selected_context

        distil_selected_context(self, self.session, self.shown_file())

    def shown_file(self) -> str:
        """The file shown in the centre: the file view's, else the entry table's."""
        shown = getattr(self.file_view, "rel", None) if self._center() == "file-view" else None
        return shown if isinstance(shown, str) else self.session.current_file

    # --- for the command palette and help ---------------------------------------------

    def palette_commands(self) -> Sequence[tuple[str, str, Any]]:
        """(name, help, callback) for commands that make sense on this screen right now."""
        cmds: list[tuple[str, str, Any]] = []
        data = self.session.current
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
        for key, name in SORT_LABEL.items():
            label = _(name)
            cmds.append((_("Sort by %(key)s") % {"key": label}, _("Sort the entries by %(key)s") % {"key": label},
                         lambda k=key: self.sort_by(k)))
            if key != "order":
                cmds.append((_("Sort by %(key)s (descending)") % {"key": label},
                             _("Sort the entries by %(key)s, reversed") % {"key": label},
                             lambda k=key: self.sort_by(k, True)))
        if data is not None and data.indexed:
            from ...rows import all_tags

            for tag, n in all_tags(data.files.get(self.session.current_file, []))[:300]:
                cmds.append((_("Filter: tag %(tag)s") % {"tag": tag},
                             ngettext("%(n)s entry tagged %(tag)s", "%(n)s entries tagged %(tag)s", n) % {"n": n, "tag": tag},
                             lambda t=tag: self.add_filter_token(f"tag:{t}" if " " not in t else f'"tag:{t}"')))
        for p in self.session.order:
            d = self.session.data[p]
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
