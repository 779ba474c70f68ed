"""The workspace view: what an OpenClaw agent loads every turn, what it remembers, what dreaming
promoted, and what looks wrong, with the fixes in place.

Tabs: 1 Bootstrap (sizes against limits, the injected copy), 2 MEMORY.md, 3 USER.md directives,
4 daily logs, 5 Review (what dreaming promoted), 6 Dreaming (its machine files, read-only); the
check's findings sit on their rows and ``/`` filters them.  Every change is a plan written through
the app's session, so ``u`` here and on the main screen undo the same writes; ``C`` commits the
files this view changed.  ``WorkspaceScreen(path, today=...)`` can be pushed on its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, overload

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Input, Static

from ....core.check.findings import Finding
from ....core.check.messages import localize
from ....core.check.rules import check_profile
from ....core.config import ConfigError, Limits, load_config
from ....core.files.profile import load_profile
from ....core.files.safe_write import ConcurrentModification
from ....core.format.edit import EditError
from ....core.i18n import N_, _, catalog, ngettext, recognise
from ....core.lifecycle.plan import Plan
from ....core.workspace import dreaming
from ....core.workspace.bootstrap import InjectedPart, inject_preview
from ....core.workspace.directive_hints import look_alikes
from ....core.workspace.distil import commit_files, distil_plan, removable_logs, remove_logs
from ....core.workspace.edits import add_directive, edit_row, move_item, remove_row, supersede_directive
from ....core.workspace.file_kinds import classify_file
from ....core.workspace.machine import MachineFile, machine_files
from ....core.workspace.machine import preview as machine_preview
from ....core.workspace.model import (
    DailyLog,
    Directive,
    MemoryModel,
    MemRow,
    UserModel,
    load_daily_logs,
    load_memory,
    load_user,
)
from ....core.workspace.openclaw_config import OpenClawConfig, OpenClawConfigError, load_openclaw_config
from ...actions import bindings
from ...session import Session
from ...widgets.bootstrap_bars import BootstrapBars, preview_text
from ...widgets.safe_text import clean, clean_line
from ...widgets.ws_rows import Cell, RowsView
from ...workers import call_if_attached
from ..review.entry_ops import undo_step
from .workspace_dialogs import DistilPicker, PickOne, TextPrompt

# what each of dreaming's files is (core/workspace/machine.py: MACHINE_DIRS, DIARY_MEANING)
MEANINGS = (
    N_("dreaming's machine state (recall store, phase signals, ingestion checkpoints, locks)"),
    N_("a dreaming phase report (light, REM or deep sweep), machine-written"),
    N_("imported material, machine-written; not a daily log"),
    N_("the dream diary: what each dreaming sweep looked at and promoted, for you to review"),
)


# what a file under memory/ is (core/workspace/file_kinds.py: classify's labels)
KIND_LABELS = (
    N_("a bootstrap file"), N_("not injected by the current release"), N_("the dream diary (dreaming's review notes)"),
    N_("a workspace file"), N_("dreaming's machine state"), N_("a dreaming report (%(phase)s phase)"),
    N_("material imported from %(tool)s"), N_("an archived log, dated by its name"), N_("an archived log, undated"),
    N_("the daily log"), N_("a session transcript"), N_("a session note (%(slug)s)"), N_("a session note on %(slug)s"),
    N_("a note under memory/"),
)


# why dreaming promoted an item (core/workspace/dreaming.py: QueueItem.why): "; "-joined bits, then where from
WHY_BITS = (
    N_("recalled %(n)sx"), N_("avg score %(score)s"), N_("max %(score)s"), N_("%(n)s distinct queries"),
    N_("on %(n)s days"), N_("%(daily)s daily, %(grounded)s grounded signals"), N_("concepts %(tags)s"),
)
WHY_FROM = (N_("%(why)s (memory/.dreams/short-term-recall.json)"), N_("%(why)s (its [score=…] bracket)"))


def promoted_why(why: str) -> str:
    """``QueueItem.why`` in the language in use (the bracket's own keys, score and recalls, stay)."""
    if catalog() is None:
        return why

    def bits(text: str) -> str:
        return _("; ").join(recognise(WHY_BITS, bit) or bit for bit in text.split("; "))

    return recognise(WHY_FROM, why, bits) or why


def kind_label(label: str) -> str:
    """A file kind's label in the language in use."""
    return recognise(KIND_LABELS, label) or label if catalog() is not None else label


def machine_what(mf: MachineFile) -> str:
    """``MachineFile.what`` in the language in use."""
    what = (_("%(meaning)s; not loaded into the prompt, searched; read-only here") if mf.searched
            else _("%(meaning)s; not loaded into the prompt, not searched; read-only here"))
    return what % {"meaning": _(mf.meaning)}


RECEPTION = (N_("received"), N_("partly"), N_("not received"), N_("not loaded"))  # _reception's answers, shown
SEV_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
TABS = ("boot", "mem", "user", "logs", "review", "dreams")
TAB_LABELS = {"boot": N_("Bootstrap"), "mem": "MEMORY.md", "user": "USER.md", "logs": N_("Daily logs"),
              "review": N_("Review"), "dreams": N_("Dreams")}
# the key line at the bottom, per tab (a plain line: Textual's Footer costs more than the rows)
KEYS = {
    "boot": N_("1-6 tabs  n next file  s session  / filter  u undo  C commit  esc back  f1 help"),
    "mem": N_("e edit  m move  x remove  / filter  u undo  C commit  1-6 tabs  esc back"),
    "user": N_("S supersede (with a new directive)  + add  / filter  u undo  C commit  esc back"),
    "logs": N_("D distil the log  R remove old distilled logs  / filter  u undo  C commit  esc back"),
    "review": N_("a accept  A accept, strip metadata  x reject  e edit  u undo  C commit  esc back"),
    "dreams": N_("read-only: shown, never written  / filter  1-6 tabs  esc back"),
}


class LazyCells(Sequence[tuple[Cell, ...]]):
    """The cells of rows, made on first access (and kept): what RowsView draws, row by row."""

    def __init__(self, keys: list[Any], make: Callable[[Any], tuple[Cell, ...]]) -> None:
        self.keys = keys
        self.make = make
        self.made: dict[int, tuple[Cell, ...]] = {}

    def __len__(self) -> int:
        return len(self.keys)

    @overload
    def __getitem__(self, index: int) -> tuple[Cell, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Cell, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[Cell, ...] | list[tuple[Cell, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.keys)))]
        if index < 0:
            index += len(self.keys)
        got = self.made.get(index)
        if got is None:
            got = self.made[index] = self.make(self.keys[index])
        return got


def _size_text(size: int) -> str:
    return f"{size:,} B" if size < 10_240 else f"{size / 1024:,.0f} KB"


class WorkspaceScreen(Screen[None]):
    """One OpenClaw workspace, first-class."""

    CSS_PATH = "workspace_screen.tcss"

    AUTO_FOCUS = ""

    BINDINGS: ClassVar[list[BindingType]] = bindings("ws")

    def __init__(
        self, path: Path | str, *, today: dt.date | None = None, openclaw_config: Path | None = None,
        session: str = "main", tab: str = "boot", app_session: Session | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path).absolute()
        self.today = today or dt.date.today()
        self.openclaw_config_path = openclaw_config
        self.session = session
        self.initial_tab = tab if tab in TABS else "boot"
        self._app_session = app_session  # the app's Session (its undo stack, its watcher)
        self.changed_paths: set[Path] = set()
        self.applied_titles: list[str] = []
        self.filter_text = ""
        self.preview_index = 0
        self.config: OpenClawConfig = OpenClawConfig(None, Limits())
        self.parts: list[InjectedPart] = []
        self._parts_generation = -1
        self.memory: MemoryModel | None = None
        self.user: UserModel | None = None
        self.logs: list[DailyLog] = []
        self.queue: list[dreaming.QueueItem] = []
        self.machine: list[MachineFile] = []
        self.machine_more = 0
        self.findings: list[Finding] = []
        self.row_keys: dict[str, list[Any]] = {t: [] for t in TABS}
        self.by_file: dict[str, list[Finding]] = {}
        self.generation = 0

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="ws-title")
        yield Static(id="ws-tabline")
        with ContentSwitcher(id="ws-tabs", initial=self.initial_tab):
            yield self._tab_body(self.initial_tab)  # the other tabs are built when first shown
        yield Static(id="ws-detail")
        yield Static(id="ws-keys")

    @staticmethod
    def _tab_body(tab: str) -> Vertical:
        """One tab's widgets (built on first show: a hidden tab costs styling and layout)."""
        if tab == "boot":
            return Vertical(BootstrapBars(id="ws-bars"), VerticalScroll(Static(id="ws-preview"), id="ws-preview-scroll"),
                            id="boot")
        headers, widths = {
            "mem": (["!", _("line"), _("section"), _("meta"), _("item")], [2, 5, 24, 18]),
            "user": (["!", _("line"), _("observed"), _("status"), _("directive")], [2, 5, 10, 10]),
            "logs": (["!", _("log"), _("lines"), _("distilled"), _("chars"), _("note")], [2, 20, 5, 9, 8]),
            "review": (["!", _("line"), _("score"), _("flag"), _("source"), _("item")], [2, 5, 6, 8, 24]),
            "dreams": ([_("file"), _("size"), _("what it is")], [40, 10]),
        }[tab]
        return Vertical(RowsView(headers, widths, id=f"ws-{tab}"), id=tab)

    def _built(self, tab: str) -> bool:
        return bool(self.query_one("#ws-tabs", ContentSwitcher).query_children(f"#{tab}"))

    def on_mount(self) -> None:
        self.query_one("#ws-detail", Static).display = self.initial_tab != "boot"
        self._show_tabs()
        if self.initial_tab != "boot":
            self.query_one(f"#ws-{self.initial_tab}", RowsView).focus()
        self.reload()

    # --- data --------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the workspace: the rows first, then logs, the review queue and the check in a worker."""
        try:
            base = load_config().limits
        except ConfigError:
            base = Limits()
        try:
            self.config = load_openclaw_config(self.path, self.openclaw_config_path, base)
        except OpenClawConfigError as exc:
            self.notify(str(exc), severity="error", markup=False)
            self.config = OpenClawConfig(None, base)
        self.memory = load_memory(self.path)
        self.user = load_user(self.path)
        self.generation += 1
        self.refresh_view()
        self._after_paint(self.generation, 20)

    def _after_paint(self, generation: int, tries: int) -> None:
        """Start the worker once the shown rows are on screen (its thread would slow the first paint)."""
        view = self.query(f"#ws-{self.tab}").first() if self.tab != "boot" else None
        if tries > 0 and isinstance(view, RowsView) and view.row_count and not view.painted:
            self.call_after_refresh(self._after_paint, generation, tries - 1)
            return
        if generation == self.generation:
            self._load_rest(generation)

    @work(thread=True, exclusive=True, group="workspace-load")
    def _load_rest(self, generation: int) -> None:
        limits = self.config.limits
        logs = load_daily_logs(self.path, self.today)
        queue = dreaming.review_queue(self.path, self.memory)
        machine = machine_files(self.path)
        prof = load_profile(self.path, ".", "openclaw")
        findings = check_profile(
            prof, today=self.today, bootstrap_max_chars=limits.bootstrap_max_chars,
            bootstrap_total_max_chars=limits.bootstrap_total_max_chars, user_max_chars=limits.user_max_chars,
            release=self.config.release,
        )
        call_if_attached(self, self._rest_loaded, generation, logs, queue, findings, machine)

    def _rest_loaded(
        self, generation: int, logs: list[DailyLog], queue: list[dreaming.QueueItem], findings: list[Finding],
        machine: tuple[list[MachineFile], int] = ([], 0),
    ) -> None:
        if generation != self.generation or not self.is_attached:
            return
        self.logs, self.queue, self.findings = logs, queue, findings
        self.machine, self.machine_more = machine
        self.by_file = {}
        for f in findings:
            self.by_file.setdefault(f.file, []).append(f)
        self.refresh_view()

    def _findings_for(self, rel: str, first: int | None, last: int | None) -> list[Finding]:
        return [f for f in self.by_file.get(rel, ())
                if first is None or (f.line is not None and first <= f.line <= (last or first))]

    def _mem_findings(self, r: MemRow) -> list[Finding]:
        """The findings on a MEMORY.md row, its markers' lines included."""
        return self._findings_for(self.memory.rel if self.memory is not None else "MEMORY.md",
                                  r.line - len(r.markers), r.end_line)

    @staticmethod
    def _append_findings(t: Text, found: list[Finding]) -> None:
        for f in found:
            t.append(f"{f.code}: {clean_line(localize(f.code, f.message))}\n", style=SEV_STYLE[f.severity])

    def _badge(self, found: list[Finding]) -> Text:
        if not found:
            return Text("")
        worst = min(found, key=lambda f: ("error", "warning", "info").index(f.severity))
        return Text("●" if len(found) == 1 else f"{len(found)}", style=SEV_STYLE[worst.severity])

    def _match(self, *texts: str, marks: frozenset[str] = frozenset()) -> bool:
        """The filter: words (all must occur, any case) and ``is:MARK`` tokens (the row has the mark:
        problem, promoted, residue, section, active, superseded, stale, start, distilled)."""
        if not self.filter_text:
            return True
        hay = " ".join(texts).casefold()
        for token in self.filter_text.casefold().split():
            if token.startswith("is:"):
                if token[3:] not in marks:
                    return False
            elif token not in hay:
                return False
        return True

    def refresh_view(self) -> None:
        cfg = self.config
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(_("OpenClaw workspace") + " ", style="bold")
        title.append(clean_line(self.path.name))
        title.append("  " + _("limits: %(where)s") % {"where": "openclaw.json" if cfg.found else _("defaults")},
                     style="dim")
        if cfg.found and cfg.generation != "unknown":
            title.append(" " + _("(%(generation)s memory settings)") % {"generation": cfg.generation}, style="dim")
        title.append("  " + (_("rules: OpenClaw %(release)s") % {"release": cfg.release} if cfg.release != "older"
                             else _("rules: older release")), style="dim")
        if self.queue:
            title.append("  " + ngettext("%(n)s promotion to review", "%(n)s promotions to review", len(self.queue))
                         % {"n": len(self.queue)}, style="bold yellow")
        if self.filter_text:
            title.append("  " + _("filter: %(text)s") % {"text": clean_line(self.filter_text)}, style="bold cyan")
        self.query_one("#ws-title", Static).update(title)
        for tab in TABS:
            if self._built(tab):
                self._fill_tab(tab)
        self._show_detail()

    def _fill_tab(self, tab: str) -> None:
        if tab == "boot":  # what the agent gets: worked out only where it is shown
            self._injected()
            self.query_one("#ws-bars", BootstrapBars).show(self.parts, self.config.limits, self.config.source,
                                                           self.session, self.config.release)
            self._show_preview()
        else:
            {"mem": self._fill_memory, "user": self._fill_user, "logs": self._fill_logs,
             "review": self._fill_review, "dreams": self._fill_dreams}[tab]()

    def _injected(self) -> list[InjectedPart]:
        """What the agent gets (``context``'s parts), worked out once per reload and session."""
        if self._parts_generation != self.generation:
            self.parts = inject_preview(self.path, self.config.limits, self.session, today=self.today,
                                        release=self.config.release, startup=self.config.startup_settings())
            self._parts_generation = self.generation
        return self.parts

    def _reception(self, r: MemRow) -> str:
        """Whether the agent receives a MEMORY.md row: "received", "partly", "not received" or "not loaded"."""
        mem = self.memory
        part = next((p for p in self._injected() if p.kind == "bootstrap" and p.file == "MEMORY.md"), None)
        if mem is None or part is None or mem.rel != "MEMORY.md":
            return "received"
        bom = 1 if mem.bom else 0
        return part.received(("\ufeff" if bom else "") + mem.text, r.start + bom, r.end + bom)

    def _show_preview(self) -> None:
        shown = [p for p in self.parts if p.kind == "bootstrap"]
        if not shown:
            self.query_one("#ws-preview", Static).update(Text(_("No bootstrap files."), style="dim"))
            return
        if self.preview_index == 0:  # start on the first cut file: that is the news
            self.preview_index = next((i for i, p in enumerate(shown) if p.truncated), 0)
        part = shown[self.preview_index % len(shown)]
        self.query_one("#ws-preview", Static).update(preview_text(part))

    def _fill(self, table_id: str, tab: str, rows: list[tuple[Any, tuple[Cell, ...]]]) -> None:
        self.row_keys[tab] = [key for key, _cells in rows]
        self.query_one(table_id, RowsView).set_rows([cells for _key, cells in rows])

    def _fill_memory(self) -> None:
        """MEMORY.md's rows: the filter decides which, their cells are made when drawn."""
        mem = self.memory
        keys: list[MemRow] = []
        if mem is not None:
            flagged = self.by_file.get(mem.rel)
            if not self.filter_text:
                keys = list(mem.rows)
            else:
                for r in mem.rows:
                    found = self._mem_findings(r) if flagged else []
                    marks = {"section"} if r.kind == "section" else set()
                    marks |= {"promoted"} if r.promoted else set()
                    marks |= {"residue"} if r.kind == "item" and r.has_residue else set()
                    marks |= {"problem"} if found else set()
                    marks |= {"unreceived"} if self._reception(r) in ("partly", "not received") else set()
                    if self._match(r.text, " ".join(r.heading_path), *r.metadata, marks=frozenset(marks)):
                        keys.append(r)
        self.row_keys["mem"] = list(keys)
        self.query_one("#ws-mem", RowsView).set_rows(LazyCells(keys, self._memory_cells))

    def _memory_cells(self, r: MemRow) -> tuple[Cell, ...]:
        found = self._mem_findings(r)
        badge: Cell = self._badge(found) if found else ""
        got = self._reception(r)
        cut: tuple[str, str] = (_(got) if got != "partly" else _("partly received"), "bold red" if got == "not received" else "yellow")
        if r.kind == "section":
            return (badge, str(r.line), "", cut if got in ("partly", "not received") else "",
                    (("#" * r.level) + " " + r.text, "bold"))
        meta = [] if got not in ("partly", "not received") else [cut[0]]
        if r.promotions:
            meta.append(_("promoted"))
        if r.score:
            meta.append(_("score %(score)s") % {"score": r.score.get("score", "?")})
        if r.importance is not None:
            meta.append(_("imp %(importance)s") % {"importance": f"{r.importance:g}"})
        if r.source:
            meta.append(_("from %(source)s") % {"source": r.source})
        section = " › ".join(r.heading_path[1:] or r.heading_path)
        meta_style = cut[1] if got in ("partly", "not received") else "dim"
        return (badge, str(r.line), (section, "dim"), (", ".join(meta), meta_style),
                (r.text, "dim italic" if got == "not received" else "italic" if r.kind == "text" else ""))

    def _fill_user(self) -> None:
        rows: list[tuple[Any, tuple[Cell, ...]]] = []
        if self.user is not None:
            for d in self.user.directives:
                found = self._findings_for("USER.md", d.line, d.end_line)
                marks = {d.status} | ({"problem"} if found else set())
                if not self._match(d.text, d.status, d.observed, marks=frozenset(marks)):
                    continue
                style = "" if d.active else "dim strike"
                rows.append((d, (self._badge(found), str(d.line), clean_line(d.observed),
                                 Text(clean_line(d.status), style="green" if d.active else "dim"),
                                 Text(clean_line(d.text), style=style))))
            if not self.user.directives:  # no <!-- observed --> markers: its lines as they are, and why
                rows.append((None, ("", "", "", Text(_("no markers"), style="yellow"),
                                    Text(_("USER.md has no <!-- observed: DATE | status: ... --> markers, so no "
                                           "directive has a status; its lines as written (injected as they are):"),
                                         style="italic"))))
                for r in self.user.rows:
                    if not self._match(r.text, " ".join(r.heading_path)):
                        continue
                    text = ("#" * r.level + " " + r.text) if r.kind == "section" else r.text
                    rows.append((None, ("", str(r.line), "", "", Text(clean_line(text),
                                                                      style="bold" if r.kind == "section" else ""))))
        self._fill("#ws-user", "user", rows)

    def _fill_logs(self) -> None:
        rows: list[tuple[Any, tuple[Cell, ...]]] = []
        daily = [p for p in self._injected() if p.kind == "daily"]
        block = {p.file: (_("%(n)s chars, cut") if p.truncated else _("%(n)s chars")) % {"n": f"{p.chars_injected:,}"}
                 for p in daily if p.loaded}
        skipped = {p.file: p.reason for p in daily if not p.loaded}
        for lg in reversed(self.logs):
            found = self._findings_for(lg.rel, None, None)
            marks = {"problem"} if found else set()
            marks |= {"start"} if lg.at_session_start else set()
            marks |= {"stale"} if lg.age_days > 30 else set()
            marks |= {"distilled"} if lg.fully_distilled else set()
            if not self._match(lg.rel, *(ln.text for ln in lg.lines), marks=frozenset(marks)):
                continue
            note = Text()
            if lg.slug is not None:  # a session note, a transcript or a topic note: said as what it is
                note.append(kind_label(classify_file(self.path, lg.rel).label) + "  ", style="dim")
            if lg.rel in block:
                note.append(_("in the session-start block (%(part)s)") % {"part": block[lg.rel]}, style="cyan")
            elif lg.at_session_start:
                note.append(_("not in the session-start block: %(why)s")
                            % {"why": skipped.get(lg.rel, _("over its four newest notes"))}, style="dim italic")
            elif lg.age_days > 30:
                note.append(_("%(n)s days old") % {"n": lg.age_days}, style="dim")
            if found:
                note.append(("  " if note else "") + ", ".join(sorted({f.code for f in found})), style="yellow")
            done = sum(1 for ln in lg.lines if ln.distilled or ln.dropped)
            rows.append((lg, (self._badge(found), lg.rel.removeprefix("memory/"), str(len(lg.lines)),
                              f"{done}/{len(lg.lines)}" + (" ✓" if lg.fully_distilled else ""), f"{lg.chars:,}", note)))
        self._fill("#ws-logs", "logs", rows)

    def _fill_review(self) -> None:
        rows: list[tuple[Any, tuple[Cell, ...]]] = []
        for q in self.queue:
            if not self._match(q.row.text, marks=frozenset({"promoted"} | ({"residue"} if q.row.has_residue else set()))):
                continue
            src = ", ".join(f"{p.path}:{p.start_line or ''}" for p in q.row.promotions) or ("git" if q.new_in_git else "")
            badge = self._badge(self._mem_findings(q.row))
            flag = Text(", ".join(q.row.junk), style="yellow")
            rows.append((q, (badge, str(q.row.line), q.score or "", flag,
                             Text(clean_line(src), style="red" if q.source_missing else "dim"), clean_line(q.row.text))))
        self._fill("#ws-review", "review", rows)

    def _fill_dreams(self) -> None:
        rows: list[tuple[Any, tuple[Cell, ...]]] = []
        for mf in self.machine:
            if not self._match(mf.rel, mf.meaning, marks=frozenset({mf.kind})):
                continue
            rows.append((mf, (Text(clean_line(mf.rel), style="bold" if mf.kind == "diary" else ""),
                              _size_text(mf.size), Text(clean_line(machine_what(mf)), style="dim"))))
        if self.machine_more:
            rows.append((None, (Text(_("… %(n)s more files not listed") % {"n": f"{self.machine_more:,}"}, style="dim"),
                                "", "")))
        self._fill("#ws-dreams", "dreams", rows)

    # --- selection and detail -------------------------------------------------------------

    @property
    def tab(self) -> str:
        return self.query_one("#ws-tabs", ContentSwitcher).current or "boot"

    def selected(self) -> Any:
        tab = self.tab
        if tab == "boot":
            return None
        table = self.query_one(f"#ws-{tab}", RowsView)
        keys = self.row_keys.get(tab, [])
        if not keys or table.cursor_row < 0 or table.cursor_row >= len(keys):
            return None
        return keys[table.cursor_row]

    @on(RowsView.Highlighted)
    def _highlighted(self, _event: RowsView.Highlighted) -> None:
        self._show_detail()

    def _tab_changed(self) -> None:
        self.query_one("#ws-detail", Static).display = self.tab != "boot"
        self._show_tabs()
        self._show_detail()
        if self.tab != "boot":
            self.query_one(f"#ws-{self.tab}", RowsView).focus()

    def _show_tabs(self) -> None:
        line = Text(no_wrap=True, overflow="ellipsis")
        for i, (tab, label) in enumerate(TAB_LABELS.items(), 1):
            line.append(f" {i} {_(label)} ", style="reverse bold" if tab == self.tab else "dim")
            line.append(" ")
        self.query_one("#ws-tabline", Static).update(line)

    def _show_keys(self) -> None:
        line = Text(no_wrap=True, overflow="ellipsis")
        for part in _(KEYS.get(self.tab, "")).split("  "):
            key, _sep, what = part.partition(" ")
            line.append(key, style="bold")
            line.append(f" {what}  ")
        self.query_one("#ws-keys", Static).update(line)

    def _show_detail(self) -> None:
        self._show_keys()
        item = self.selected()
        t = Text()
        if isinstance(item, MemRow):
            t.append(" › ".join(clean_line(h) for h in item.heading_path), style="bold")
            t.append("  " + _("line %(n)s") % {"n": item.line} + "\n", style="dim")
            t.append(clean(item.text) + "\n")
            for m in [*item.markers, *item.metadata]:
                t.append(clean_line(m) + "\n", style="dim")
            self._append_findings(t, self._mem_findings(item))
        elif isinstance(item, Directive):
            t.append(_("observed %(date)s · %(status)s  line %(line)s") % {"date": clean_line(item.observed),
                     "status": clean_line(item.status), "line": item.line} + "\n", style="bold")
            t.append(clean(item.text) + "\n")
            self._append_findings(t, self._findings_for("USER.md", item.line, item.end_line))
            for other in look_alikes(self.user.directives if self.user else [], item):  # a hint, not a finding
                t.append(_("hint: shares its topic with the active directive at line %(line)s; "
                           "if they disagree, supersede one") % {"line": other.line} + "\n", style="dim")
        elif isinstance(item, DailyLog):
            self._append_findings(t, self._findings_for(item.rel, None, None))
            for ln in item.lines:
                mark = "✓ " if ln.distilled else "– " if ln.dropped else "  "
                t.append(f"{mark}{ln.number:>3} {clean_line(ln.text)}\n", style="dim" if (ln.distilled or ln.dropped) else "")
        elif isinstance(item, MachineFile):
            t.append(f"{clean_line(item.rel)}  {_size_text(item.size)}\n", style="bold")
            t.append(machine_what(item) + "\n", style="dim")
            text, cut = machine_preview(self.path, item.rel)
            lines = text.split("\n")
            t.append(clean("\n".join(lines[:40])))
            if cut or len(lines) > 40:
                t.append("\n" + _("… (more in the file)"), style="dim")
        elif self.tab == "review" and not self.queue:  # an empty queue says why
            reason = dreaming.empty_reason(self.path, self.memory, self.config.dreaming_enabled)
            t.append(_("Nothing to review: %(why)s.") % {"why": _(reason)}, style="dim italic")
        elif isinstance(item, dreaming.QueueItem):
            t.append(clean(item.row.text) + "\n", style="bold")
            if item.source_missing:
                t.append(_("review flag: source-missing (the log its marker names is gone)") + "\n", style="red")
            for flag in item.row.junk:
                t.append(_("review flag: %(flag)s (a reviewer would delete it from the prose: e edits)") % {"flag": flag}
                         + "\n", style="yellow")
            if item.why:
                t.append(_("why promoted: %(why)s") % {"why": clean_line(promoted_why(item.why))} + "\n", style="cyan")
            for log, n, text in item.source_lines:
                t.append(f"{log}:{n}  {clean_line(text)}\n", style="dim")
            self._append_findings(t, self._mem_findings(item.row))
            t.append(_("a accept · A accept and strip metadata · x reject · e edit"), style="dim italic")
        self.query_one("#ws-detail", Static).update(t)

    # --- writing ---------------------------------------------------------------------------

    @property
    def store(self) -> Session:
        """The session this view writes through: the app's (one undo for the whole app)."""
        if self._app_session is None:
            found = getattr(self.app, "session", None)
            self._app_session = found if isinstance(found, Session) else Session(self.path, watch=False)
        return self._app_session

    def write(self, make: Callable[[], Plan | None], done: str) -> bool:
        try:
            plan = make()
        except (EditError, ConcurrentModification, OSError) as exc:
            self.notify(_("Not written: %(why)s") % {"why": exc}, severity="error", markup=False)
            self.reload()
            return False
        if plan is not None and not plan.empty:
            outcome = self.store.write(plan)
            if outcome.plan is None:
                self.notify(outcome.error or _("Not written."), severity="error", markup=False, timeout=10)
                self.reload()
                return False
            # the files to commit: the workspace's (an accept's review record lives in the cache)
            self.changed_paths.update(p for p in outcome.plan.files if not dreaming.is_review_record(p))
            self.applied_titles.append(outcome.plan.title)
        self.notify(done, markup=False)
        self.reload()
        return True

    def _mem_path(self) -> Path:
        return self.memory.path if self.memory is not None else self.path / "MEMORY.md"

    # --- actions ---------------------------------------------------------------------------

    async def action_tab(self, tab: str) -> None:
        switcher = self.query_one("#ws-tabs", ContentSwitcher)
        if not self._built(tab):
            await switcher.mount(self._tab_body(tab))
            self._fill_tab(tab)
        switcher.current = tab
        self._tab_changed()

    async def action_filter(self) -> None:
        box = next(iter(self.query("#ws-filter").results(Input)), None)
        if box is None:  # built on first use: an Input costs the first paint for nothing
            box = Input(placeholder=_("filter rows (enter keeps it, escape clears)"), id="ws-filter")
            await self.mount(box, after=self.query_one("#ws-title"))
        box.display = True
        box.focus()

    @on(Input.Changed, "#ws-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self.refresh_view()

    @on(Input.Submitted, "#ws-filter")
    def _filter_done(self, _event: Input.Submitted) -> None:
        self.query_one("#ws-filter", Input).display = False
        if self.tab != "boot":
            self.query_one(f"#ws-{self.tab}", RowsView).focus()

    def action_next_preview(self) -> None:
        self.preview_index += 1
        shown = [p for p in self.parts if p.kind == "bootstrap"]
        if shown and self._built("boot"):
            self.query_one("#ws-preview", Static).update(preview_text(shown[self.preview_index % len(shown)]))

    def action_session(self) -> None:
        order = ("main", "shared", "subagent", "cron")
        self.session = order[(order.index(self.session) + 1) % len(order)]
        self.reload()

    def action_edit(self) -> None:
        item = self.selected()
        if isinstance(item, dreaming.QueueItem):
            row = item.row
        elif isinstance(item, MemRow):
            row = item
        elif isinstance(item, Directive):
            self.action_supersede(ask=True)
            return
        else:
            self.notify(_("Pick a MEMORY.md row or a promotion first."), severity="warning")
            return

        def done(text: str | None) -> None:
            if text is not None and text.strip() and text != row.text:
                self.write(lambda: edit_row(self._mem_path(), row.key, text, row.line), _("Saved."))

        self.app.push_screen(TextPrompt(_("Edit the text (metadata stays)"), row.text), done)

    def action_remove(self) -> None:
        item = self.selected()
        if isinstance(item, dreaming.QueueItem):
            self.write(lambda: dreaming.reject(self.path, item), _("Rejected: removed from MEMORY.md (u puts it back)."))
        elif isinstance(item, MemRow):
            done = (_("Removed the section and everything under it (u puts it back).") if item.kind == "section"
                    else _("Removed the item (u puts it back)."))
            self.write(lambda: remove_row(self._mem_path(), item.key, item.line), done)
        else:
            self.notify(_("Pick a MEMORY.md row or a promotion first."), severity="warning")

    def action_item_history(self) -> None:
        """The versions of the highlighted item or directive across commits (rewording followed)."""
        from ..inbox.item_history_screen import ItemHistoryScreen

        item = self.selected()
        row = item.row if isinstance(item, dreaming.QueueItem) else item
        if not isinstance(row, (MemRow, Directive)) or not row.text:
            self.notify(_("Pick a MEMORY.md item or a USER.md directive first."), severity="warning")
            return
        self.app.push_screen(ItemHistoryScreen(self.path, row.text))

    def action_move(self) -> None:
        item = self.selected()
        if not isinstance(item, MemRow) or item.kind != "item" or self.memory is None:
            self.notify(_("Pick a MEMORY.md list item to move."), severity="warning")
            return
        sections = self.memory.sections

        def done(index: int | None) -> None:
            if index is not None:
                target = sections[index]
                self.write(lambda: move_item(self._mem_path(), item.key, target.key, item.line),
                           _("Moved to %(section)s.") % {"section": target.text})

        self.app.push_screen(PickOne(_("Move to the end of which section?"),
                                     [" › ".join(s.heading_path) for s in sections]), done)

    def action_supersede(self, ask: bool = False) -> None:
        item = self.selected()
        if not isinstance(item, Directive) or self.user is None:
            self.notify(_("Pick a USER.md directive."), severity="warning")
            return
        path = self.user.path

        def done(text: str | None) -> None:
            if text is None:
                return
            new = text.strip() or None
            self.write(lambda: supersede_directive(path, item.line, item.text, new, self.today),
                       _("Superseded, with the new directive after it.") if new else _("Superseded."))

        self.app.push_screen(TextPrompt(_("Supersede: the new directive (empty: only mark this one superseded)"), ""), done)

    def action_add_directive(self) -> None:
        path = self.path / "USER.md"

        def done(text: str | None) -> None:
            if text and text.strip():
                self.write(lambda: add_directive(path, text, self.today), _("Directive added."))

        self.app.push_screen(TextPrompt(_("New USER.md directive"), ""), done)

    async def action_distil(self) -> None:
        item = self.selected()
        if not isinstance(item, DailyLog):
            await self.action_tab("logs")
            self.notify(_("Pick a daily log, then D."), severity="warning")
            return
        sections = self.memory.sections if self.memory is not None else []

        def done(res: tuple[list[int], list[int], int] | None) -> None:
            if res is None:
                return
            lines, dropped, index = res
            key = sections[index].key if 0 <= index < len(sections) else None
            self.write(lambda: distil_plan(self.path, item.rel, lines, key, dropped=dropped).plan,
                       ngettext("Distilled %(n)s line of %(file)s.", "Distilled %(n)s lines of %(file)s.", len(lines))
                       % {"n": len(lines), "file": item.rel})

        self.app.push_screen(DistilPicker(item, [" › ".join(s.heading_path) for s in sections]), done)

    def action_remove_old(self) -> None:
        old = removable_logs(self.path, self.today)
        if not old:
            self.notify(_("No fully distilled log is older than 30 days."))
            return

        def done(index: int | None) -> None:
            if index != 0:
                return
            try:
                sha = remove_logs(self.path, old)
            except (EditError, ConcurrentModification, OSError) as exc:
                self.notify(_("Not removed: %(why)s") % {"why": exc}, severity="error", markup=False)
            else:
                where = _("commit %(sha)s") % {"sha": sha[:10]} if sha else _("not in git: removed for good")
                self.notify(ngettext("Removed %(n)s distilled log (%(where)s).", "Removed %(n)s distilled logs (%(where)s).",
                                     len(old)) % {"n": len(old), "where": where}, markup=False)
            self.reload()

        question = ngettext("Remove %(n)s fully distilled log older than 30 days? Git keeps it.",
                            "Remove %(n)s fully distilled logs older than 30 days? Git keeps them.", len(old))
        self.app.push_screen(PickOne(question % {"n": len(old)},
                                     [_("Remove and commit: %(files)s") % {"files": ", ".join(old)}, _("Cancel")]), done)

    def action_accept(self, strip: bool) -> None:
        item = self.selected()
        if not isinstance(item, dreaming.QueueItem):
            self.notify(_("Pick a promotion on the Review tab."), severity="warning")
            return
        self.write(lambda: dreaming.accept(self.path, item, strip=strip),
                   _("Accepted, machine metadata stripped.") if strip else _("Accepted."))

    def action_undo(self, redo: bool = False) -> None:
        if undo_step(self, self.store, redo) is not None:
            self.reload()

    def action_redo(self) -> None:
        self.action_undo(redo=True)

    def action_commit(self) -> None:
        paths = sorted(self.changed_paths)
        if not paths:
            self.notify(_("Nothing changed here to commit."))
            return
        summary = "workspace: " + "; ".join(self.applied_titles[-3:])
        message = summary[:72] + "\n\n" + "\n".join(f"- {t}" for t in self.applied_titles) + "\n"
        try:
            sha = commit_files(self.path, paths, message)
        except Exception as exc:  # a git failure is shown, never raised into the UI
            self.notify(_("Commit failed: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        if sha is None:
            self.notify(_("The workspace is not in a git repository."), severity="warning")
            return
        self.changed_paths.clear()
        self.applied_titles.clear()
        self.notify(_("Committed %(sha)s.") % {"sha": sha[:10]}, markup=False)

    def action_close(self) -> None:
        box = next(iter(self.query("#ws-filter").results(Input)), None)
        if box is not None and (box.has_focus or self.filter_text):
            box.value = ""
            box.display = False
            self.filter_text = ""
            self.refresh_view()
            return
        if len(self.app.screen_stack) > 1:
            self.dismiss(None)  # the opener's callback runs (the main screen reloads what this view wrote)
