"""Help (``?`` / F1): the keys that work right now (from the action registry, as rebound), the legend, how to review."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from rich.columns import Columns
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from ....core.format.entries import parse
from ....core.i18n import N_, _, language
from ...actions import BY_ID, bindings
from ...rows import EntryRow, fill_all, make_rows
from ...widgets.entry_table import EntryTable

HELP_TEXT = (Path(__file__).with_name("help.zh_CN.md" if language()[0] == "zh_CN" else "help.md")).read_text(
    encoding="utf-8")  # (help.md in the language of the app: docs/i18n.md)

FRIENDLY = {
    "EntryTable": N_("Entry table"),
    "SourceView": N_("File view"),
    "FileView": N_("File view"),
    "AuditList": N_("Audit list"),
    "RefList": N_("References"),
    "ProfileTree": N_("Files"),
    "Input": N_("Filter box"),
    "MainScreen": N_("This screen"),
}

# (id, status, importance, marks, superseded_by, explanation)
_LEGEND: tuple[tuple[str, str, str, dict[str, str], str, str], ...] = (
    ("mem-0001", "active", "high", {}, "", N_("An ordinary active entry: nothing to do.")),
    ("mem-0007", "active", "medium", {"conflict": "mem-0012"}, "",
     N_("Unresolved conflict: both sides marked, ⇄ names the other")),
    ("mem-0012", "active", "high", {"conflict": "mem-0007"}, "", N_("… the other side of the same conflict")),
    ("mem-0011", "superseded", "medium", {}, "mem-0033", N_("Superseded: dimmed, struck through, → its replacement")),
    ("mem-0022", "cold", "low", {}, "", N_("Cold: low importance, unused for long; not loaded")),
    ("mem-0009", "archived", "medium", {}, "", N_("Archived: in contexts/archive/memories.md")),
    ("mem-0043", "active", "medium", {"expired": ""}, "", N_("TTL expired: still active after its ttl date")),
    ("mem-0037", "active", "urgent", {"invalid": "importance"}, "", N_("Invalid field: a value outside its type")),
    ("mem-0031", "malformed", "", {"malformed": ""}, "", N_("Malformed entry: unreadable frontmatter, raw text shown")),
    ("mem-0041", "active", "medium", {"sensitive": ""}, "", N_("Sensitive data: unredacted phone, e-mail, key…")),
    ("mem-0042", "active", "low", {"suspicious": ""}, "", N_("Suspicious instruction: text instructing the agent")),
    ("mem-0053", "active", "high", {"dangling": "mem-0098"}, "", N_("Dangling reference: names an id defined nowhere")),
    ("mem-0054", "active", "medium", {}, "", N_("Picked (v, *): A, c, M act on all picked entries")),
)
PICKED_IN_LEGEND = "mem-0054"


def legend_rows() -> list[EntryRow]:
    """Sample rows, one per mark, rendered by the real table in help."""
    parts = []
    for ident, status, imp, _marks, sup, text in _LEGEND:
        text = _(text)
        if status == "malformed":
            parts.append(f"---\nid: {ident}\ntags: [broken\n---\n{text}\n")
            continue
        extra = f"superseded_by: {sup}\n" if sup else ""
        parts.append(f"---\nid: {ident}\nimportance: {imp}\nstatus: {status}\n{extra}---\n{text}\n")
    rows = make_rows(parse("".join(parts)), "legend")
    fill_all(rows)
    for row, (_i, _s, _imp, marks, _sup, _t) in zip(rows, _LEGEND, strict=True):
        row.marks.update(marks)
        row.problem = bool(row.marks)
        if row.malformed:
            row.error = None  # show the explanation, not a parser message
    return rows


def bindings_table(groups: list[tuple[str, list[tuple[str, str]]]]) -> Columns:
    """One small table per group (focused widget, screen, everywhere), side by side."""
    tables = []
    for title, items in groups:
        table = Table.grid(padding=(0, 1))
        # the keys keep their full width (a narrow terminal cut "u,ctrl+z" to "u…"); descriptions wrap
        widest = max((cell_len(key) for key, _d in items), default=1)
        table.add_column(justify="right", style="bold", no_wrap=True, min_width=widest)
        table.add_column(overflow="fold")
        table.add_row(Text(""), Text(title, style="bold underline"))
        for key, description in items:
            table.add_row(Text(key, style="bold"), Text(description))
        tables.append(table)
    return Columns(tables, padding=(0, 4))


class HelpScreen(ModalScreen[None]):
    """Keys of the focused widget, this screen and the app; legend; how to review."""

    CSS_PATH = "help_screen.tcss"
    BINDINGS = bindings("help")

    def __init__(self, groups: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = _("Help · Esc to close")
            yield Static(Text(_("Legend: how the entry table marks entries"), style="bold"), classes="help-heading")
            yield EntryTable(id="help-legend", hide=("tags", "timestamp"))
            yield Static(Text(_("Keys that work here"), style="bold"), classes="help-heading")
            yield Static(bindings_table(self.groups), id="help-keys")
            yield Markdown(HELP_TEXT, id="help-text")

    def on_mount(self) -> None:
        legend = self.query_one("#help-legend", EntryTable)
        rows = legend_rows()
        legend.load(rows, indexed=True)
        legend.set_picked([r for r in rows if r.id == PICKED_IN_LEGEND])
        legend.cursor = -1
        self.query_one("#help-body").focus()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


_TEXTUAL_KEPT = frozenset({"command_palette", "app.command_palette"})


def collect_bindings(screen: object, app: object) -> list[tuple[str, list[tuple[str, str]]]]:
    """Active bindings grouped by where they come from: focused widget(s), screen, app."""
    from textual.app import App
    from textual.screen import Screen

    groups: dict[str, list[tuple[str, str]]] = {}
    active = getattr(screen, "active_bindings", {})
    seen: set[tuple[str, str]] = set()
    for _key, ab in active.items():
        b = ab.binding
        if not b.description or b.system or (b.id is None and b.action not in _TEXTUAL_KEPT):
            continue  # bindings without an id are Textual's own scrolling/focus plumbing
        action = BY_ID.get(b.id or "")
        description = _(b.description)
        if action is not None and action.description != action.label:
            description = f"{_(action.label)} — {_(action.description)}"
        node = ab.node
        if isinstance(node, App):
            where = _("Everywhere")
        elif isinstance(node, Screen):
            where = _(FRIENDLY.get(type(node).__name__, "This screen"))
        else:
            where = _("Focused: ") + _(FRIENDLY.get(type(node).__name__, type(node).__name__))
        key_display = app.get_key_display(b) if isinstance(app, App) else b.key
        if (where, description) in seen:
            # several keys for one action: show them together
            items = groups[where]
            for i, (k, d) in enumerate(items):
                if d == description and key_display not in k.split(" / "):
                    items[i] = (f"{k} / {key_display}", d)
            continue
        seen.add((where, description))
        groups.setdefault(where, []).append((key_display, description))
    ranked = sorted(groups, key=lambda w: (0 if w.startswith("Focused") else 1 if w != "Everywhere" else 2))
    return [(w, groups[w]) for w in ranked]
