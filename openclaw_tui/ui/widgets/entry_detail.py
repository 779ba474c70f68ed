"""The selected entry: its problems, every field, the body as (inert) Markdown, and its references
both ways (what it points to, what points to it), each a line to jump to with Enter or a click."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...core.check.findings import Finding
from ...core.format.fields import ID_RE, field_error, is_reference_field
from ...core.format.scalars import render_scalar  # not yamlio: the pane needs no YAML module
from ...core.i18n import N_, _
from ..actions import bindings
from ..rows import EntryRow, Location
from .entry_table import ERROR_MARKS, badge_text, status_text
from .messages import Jump
from .safe_text import SafeMarkdown, clean, clean_line

Lookup = Callable[[str], EntryRow | None]

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


class LocationOption(Option):
    """An option that jumps somewhere."""

    def __init__(self, prompt: Text, location: Location | None, disabled: bool = False) -> None:
        super().__init__(prompt, disabled=disabled or location is None)
        self.location = location


class RefList(OptionList):
    """References of the selected entry; Enter or click jumps."""

    BINDINGS = bindings("refs")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option = event.option
        if isinstance(option, LocationOption) and option.location is not None:
            self.post_message(Jump(option.location))


# where a reference is written (core/check/refs.py: Ref.kind); a field's name (conflict, superseded_by...) stays
REF_KIND = {"identity": N_("identity"), "skill": N_("skill"), "state": N_("state"), "context": N_("context"),
            "link": N_("link"), "state-path": N_("state path")}


def ref_kind(kind: object) -> str:
    return _(REF_KIND[kind]) if isinstance(kind, str) and kind in REF_KIND else clean_line(str(kind))


def _target_state(lookup: Lookup, ident: str) -> tuple[str, str]:
    """(label, style) of the entry ``ident`` as a reference target."""
    row = lookup(ident)
    if row is None:
        return _("missing"), "bold red"
    row.fill()
    if row.status == "active":
        return "active", "green"
    return row.status, "dim"


class EntryDetail(Horizontal):
    """Metadata, problems, body and references of one entry."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="detail-main"):
            yield Static(id="detail-title")
            yield Static(id="detail-problems")
            yield Static(id="detail-body")
            yield Static(id="detail-meta")
        with Vertical(id="detail-refs"):
            yield Static(Text(_("References")), id="detail-refs-title")
            yield RefList(id="detail-reflist")

    def on_mount(self) -> None:
        self.show(None)

    @property
    def ref_list(self) -> RefList:
        return self.query_one("#detail-reflist", RefList)

    def show(
        self,
        row: EntryRow | None,
        refs: Any = None,
        lookup: Lookup | None = None,
        empty: str = N_("No entry selected."),
        messages: list[Finding] | None = None,
    ) -> None:
        """Show ``row``; ``refs`` has ``outgoing(id)``/``incoming(id)`` (None: still indexing)."""
        title = self.query_one("#detail-title", Static)
        problems = self.query_one("#detail-problems", Static)
        meta = self.query_one("#detail-meta", Static)
        body = self.query_one("#detail-body", Static)
        self.query_one("#detail-main", VerticalScroll).scroll_home(animate=False)
        if row is not None:
            row.fill()
            messages = row.messages
        problems.update(self._problems(messages or []))
        problems.display = bool(messages)
        if row is None:
            title.update(Text(_(empty), style="dim"))
            meta.update(Text())
            body.update(Text())
            self.ref_list.clear_options()
            return
        lookup = lookup or (lambda _i: None)
        title.update(self._title(row))
        meta.update(self._meta(row))
        body.update(self._body(row))
        self._refs(row, refs, lookup)

    def show_file_refs(self, rel: str, refs: dict[int, list[Any]], lookup: Lookup) -> None:
        """List every reference found in file ``rel`` (line -> spans), each one jumpable."""
        options: list[Option] = [LocationOption(Text(_("In %(file)s") % {"file": clean_line(rel)}, style="bold"), None)]
        if not refs:
            options.append(LocationOption(Text("  " + _("no references"), style="dim"), None))
        for n in sorted(refs):
            for span in refs[n]:
                t = Text(f"  {n + 1:>4}  ", style="dim")
                if span.kind == "id":
                    t.append(clean_line(span.label), style="bold underline" if span.ok else "bold red")
                    state, style = _target_state(lookup, span.label)
                    t.append(f"  {state}", style=style)
                else:
                    t.append(clean_line(span.label), style="underline" if span.ok else "bold red")
                    if not span.ok:
                        t.append("  " + _("missing or outside the profile"), style="red")
                options.append(LocationOption(t, span.target if span.ok else None))
        self._set_refs(options)

    # --- parts ------------------------------------------------------------------------

    def _title(self, row: EntryRow) -> Text:
        t = Text()
        t.append(clean_line(row.id or "(no id)"), style="bold")
        t.append("  ")
        st = status_text(row)
        style = {"active": "bold green", "superseded": "dim strike", "cold": "italic cyan",
                 "archived": "dim", "malformed": "bold red"}.get(row.status, "bold yellow")
        t.append(f" {clean_line(st)} ", style=f"{style} reverse" if row.status in ("active", "malformed") else style)
        if row.importance:
            t.append(f"  {clean_line(row.importance)}", style="bold" if row.importance == "high" else "")
        for mark, detail in row.sorted_marks():
            kind = "red" if mark in ERROR_MARKS else "yellow"
            t.append("  ")
            t.append(f" {clean_line(badge_text(mark, detail))} ", style=f"bold black on {kind}")
        t.append(f"\n{row.file}:{row.line}", style="dim")
        return t

    def _problems(self, messages: Iterable[Finding]) -> Text:
        t = Text()
        for i, f in enumerate(messages):
            if i:
                t.append("\n")
            t.append(f"{f.severity:<7} ", style=SEVERITY_STYLE.get(f.severity, ""))
            t.append(f"{f.code}  ", style="bold")
            t.append(clean_line(f.message))
            if f.line is not None:
                t.append(f"  ({f.file}:{f.line})", style="dim")
        return t

    def _meta(self, row: EntryRow) -> RenderableType:
        if row.malformed:
            if row.messages:
                return Text()
            return Text(_("Malformed: %(why)s") % {"why": row.error or _("unreadable frontmatter")}, style="bold red")
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        invalid = set(row.marks.get("invalid", "").split(","))
        for name, value in row.entry.meta.items():
            if name == "id" and value == row.id:
                continue  # already in the title
            shown = render_scalar(value) if not isinstance(value, str) else value
            value_text = Text(clean_line(shown))
            key_style = ""
            err = field_error(name, value)
            if err or name in invalid:
                key_style = "bold yellow"
                value_text.stylize("yellow")
                value_text.append(f"  ✗ {clean_line(err or _('invalid'))}", style="italic yellow")
            elif is_reference_field(name):
                value_text.stylize("underline")
            grid.add_row(Text(clean_line(name), style=key_style or "bold"), value_text)
        return grid

    def _body(self, row: EntryRow) -> RenderableType:
        if row.malformed:
            raw = row.entry.raw
            head = Text(_("Raw text of the block (kept byte for byte, not interpreted):"), style="bold red")
            return Group(head, Text(clean(raw).rstrip("\n"), style="red"))
        body = row.entry.body.strip("\n")
        if not body.strip():
            return Text(_("(empty body)"), style="dim")
        return SafeMarkdown(body)

    def _refs(self, row: EntryRow, refs: Any, lookup: Lookup) -> None:
        options: list[Option] = []
        out = self._outgoing(row, refs)
        options.append(LocationOption(Text(_("Points to"), style="bold"), None))
        if not out:
            options.append(LocationOption(Text("  " + _("nothing"), style="dim"), None))
        for kind, target_id, target_file, note in out:
            t = Text("  → ")
            t.append(f"{ref_kind(kind)} ", style="dim")
            if target_id:
                state, style = _target_state(lookup, target_id)
                t.append(clean_line(target_id), style="bold underline")
                t.append(f"  {state}", style=style)
                other = lookup(target_id)
                if other is not None:
                    other.fill()
                    t.append(f"  {clean_line(other.summary)}", style="dim")
                loc = Location(other.file if other else None, None, target_id) if other else None
                options.append(LocationOption(t, loc))
            elif target_file and not note:
                t.append(clean_line(target_file), style="underline")
                options.append(LocationOption(t, Location(target_file, None, None)))
            else:
                t.append(clean_line(target_file or ""), style="bold red")
                t.append(f"  {clean_line(note)}", style="red")
                options.append(LocationOption(t, None))
        options.append(LocationOption(Text(""), None))
        options.append(LocationOption(Text(_("Pointed to by"), style="bold"), None))
        if refs is None:
            options.append(LocationOption(Text("  " + _("indexing…"), style="dim italic"), None))
        else:
            incoming = [r for r in refs.incoming(row.id) if getattr(r, "source_id", None) != row.id] if row.id else []
            if not incoming:
                options.append(LocationOption(Text("  " + _("nothing"), style="dim"), None))
            for r in incoming:
                src = getattr(r, "source_id", None)
                file, line = getattr(r, "file", None) or "", getattr(r, "line", None)
                kind = getattr(r, "kind", None) or ""
                t = Text("  ← ")
                if src:
                    t.append(clean_line(str(src)), style="bold underline")
                    t.append(f" {ref_kind(kind)}", style="dim")
                    other = lookup(str(src))
                    if other is not None:
                        t.append(f"  {other.status}", style="green" if other.status == "active" else "dim")
                    loc = Location(file or None, line, str(src))
                else:
                    where = f"{file}:{line}" if line else file
                    t.append(clean_line(where), style="underline")
                    if kind:
                        t.append(f"  {ref_kind(kind)}", style="dim")
                    loc = Location(file, line, None)
                options.append(LocationOption(t, loc))
        self._set_refs(options)

    def _set_refs(self, options: list[Option]) -> None:
        self.ref_list.set_options(options)
        self.ref_list.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    @staticmethod
    def _outgoing(row: EntryRow, refs: Any) -> list[tuple[str, str | None, str | None, str]]:
        """(kind, target id, target file, problem) for what the entry points to, fields first."""
        if row.malformed:
            return []
        out: list[tuple[str, str | None, str | None, str]] = []
        seen: set[tuple[str, Any, Any]] = set()
        e = row.entry
        for name, value in e.meta.items():
            if not is_reference_field(name):
                continue
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, (str, int)) and str(v).strip():
                    key: tuple[str, Any, Any] = (name, str(v).strip(), None)
                    if key not in seen:
                        seen.add(key)
                        out.append((name, str(v).strip(), None, ""))
        extra: list[Any] = refs.outgoing(row.id) if refs is not None and row.id else []
        if refs is None:
            body = e.body
            for m in ID_RE.finditer(body):
                key = ("body", m.group(0), None)
                if key not in seen and m.group(0) != row.id:
                    seen.add(key)
                    out.append(("body", m.group(0), None, ""))
        for r in extra:
            kind = str(getattr(r, "kind", None) or "ref")
            tid, tfile = getattr(r, "target_id", None), getattr(r, "target_file", None)
            key = (kind, tid, tfile or getattr(r, "text", None))
            if (tid is not None and any(tid == o[1] for o in out)) or key in seen or tid == row.id:
                continue  # an id already listed (fields come first), the same link twice, itself
            seen.add(key)
            note = ""
            if getattr(r, "escapes", None):
                tfile, note = str(getattr(r, "text", None) or ""), _("leaves the profile folder")
            elif getattr(r, "missing", None):
                note = _("does not exist")
            elif tid is None and tfile is None:
                continue
            out.append((kind, tid, tfile, note))
        return out
