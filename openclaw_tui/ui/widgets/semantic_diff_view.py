"""Views of a difference, as ``rich.text.Text`` of cleaned memory text: by entry (semantic:
``~ mem-0012 changed (importance, body)`` with the values and changed words) and as text (a patch)."""

from __future__ import annotations

import difflib
from collections import Counter
from itertools import groupby, zip_longest
from operator import attrgetter
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.diff.lines import Segment, word_diff
from ...core.format.entries import parse
from ...core.format.yamlio import render_scalar
from ...core.git.patch import Patch, PatchLine, side_by_side
from ...core.git.semantic_diff import EntryChange, EntryEvent, FieldChange, ProfileDiff
from ...core.i18n import N_, _
from .safe_text import clean_line

ADDED = "green"
REMOVED = "red"
CHANGED_WORD_NEW = "bold black on green3"
CHANGED_WORD_OLD = "bold black on indian_red1"
KIND_STYLE = {
    "added": ("+", "bold green"), "changed": ("~", "bold yellow"), "superseded": ("→", "bold magenta"),
    "archived": ("⤓", "bold cyan"), "restored": ("⤒", "bold cyan"), "removed": ("−", "bold red"),
}


def segments_text(segments: list[Segment] | tuple[Segment, ...], changed_style: str, base_style: str = "") -> Text:
    t = Text(no_wrap=False)
    for text, changed in segments:
        t.append(clean_line(text), style=changed_style if changed else base_style)
    return t


def _value(v: Any) -> str:
    return clean_line(v if isinstance(v, str) else render_scalar(v))


def _field_line(fc: FieldChange) -> Text:
    t = Text("    ")
    t.append(clean_line(fc.name), style="bold")
    t.append(": ")
    if fc.old is None:
        t.append(_value(fc.new), style=ADDED)
        t.append("  " + _("(added)"), style="dim")
    elif fc.new is None:
        t.append(_value(fc.old), style=f"{REMOVED} strike")
        t.append("  " + _("(removed)"), style="dim")
    else:
        old, new = _value(fc.old), _value(fc.new)
        a, b = word_diff(old, new)
        t.append_text(segments_text(a, CHANGED_WORD_OLD, REMOVED))
        t.append(" → ", style="dim")
        t.append_text(segments_text(b, CHANGED_WORD_NEW, ADDED))
    return t


def _body(raw: str | None) -> str:
    if raw is None:
        return ""
    mf = parse(raw)
    return mf.entries[0].body if mf.entries else raw


def body_diff_lines(old: str, new: str, indent: str = "    ") -> list[Text]:
    """The body's changed lines: ``-`` old and ``+`` new, changed words highlighted."""
    a, b = old.rstrip("\n").split("\n") if old.strip() else [], new.rstrip("\n").split("\n") if new.strip() else []
    out: list[Text] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        for o, n in zip_longest(a[i1:i2], b[j1:j2]):
            if o is not None and n is not None:
                so, sn = word_diff(o, n)
            else:
                so = [(o or "", True)]
                sn = [(n or "", True)]
            if o is not None:
                line = Text(f"{indent}- ", style=REMOVED)
                line.append_text(segments_text(so, CHANGED_WORD_OLD, REMOVED))
                out.append(line)
            if n is not None:
                line = Text(f"{indent}+ ", style=ADDED)
                line.append_text(segments_text(sn, CHANGED_WORD_NEW, ADDED))
                out.append(line)
    return out


def change_details(change: EntryChange | None) -> list[Text]:
    if change is None:
        return []
    out = [_field_line(fc) for fc in change.fields]
    if change.body_changed:
        out.append(Text(_("    body:"), style="bold"))
        out.extend(body_diff_lines(_body(change.old_raw), _body(change.new_raw), "      "))
    if change.format_changed and not change.fields:
        out.append(Text(_("    formatting of the frontmatter changed (no value did)"), style="dim"))
    return out


def _first_line(raw: str | None) -> str:
    body = _body(raw).strip()
    return clean_line(body.split("\n", 1)[0])[:100] if body else ""


# an entry event's kinds and a change's words (core/git/semantic_diff.py: EntryEvent.describe)
EVENT_KIND = {"added": N_("added"), "changed": N_("changed"), "superseded": N_("superseded"), "archived": N_("archived"),
              "restored": N_("restored"), "removed": N_("removed")}
FILE_STATUS = {"added": N_("added"), "changed": N_("changed"), "deleted": N_("deleted"), "renamed": N_("renamed")}


def _parts(change: Any, skip: tuple[str, ...] = ()) -> list[str]:
    parts = [f for f in (change.field_names if change is not None else ()) if f not in skip]
    if change is not None and change.body_changed:
        parts.append(_("body"))
    return parts


def describe_event(ev: EntryEvent) -> str:
    """``EntryEvent.describe()`` in the language in use (field names stay)."""
    parts = _parts(ev.change)
    if not parts and ev.change is not None and ev.change.format_changed:
        parts = [_("formatting")]
    if ev.kind == "changed":
        return _("changed (%(what)s)") % {"what": ", ".join(parts)} if parts else _("changed")
    if ev.kind == "superseded":
        text = _("superseded by %(id)s") % {"id": ev.superseded_by} if ev.superseded_by else _("superseded")
        rest = _parts(ev.change, ("status", "superseded_by"))
        return text + (_(", changed (%(what)s)") % {"what": ", ".join(rest)} if rest else "")
    if ev.kind == "archived":
        return (_("superseded by %(id)s, archived") % {"id": ev.superseded_by} if ev.superseded_by
                else _("archived"))
    if ev.kind == "added" and ev.file != "memories.md" and ev.describe() == "added to the archive":
        return _("added to the archive")
    return _(EVENT_KIND.get(ev.kind, ev.kind))


def event_lines(ev: EntryEvent) -> list[Text]:
    mark, style = KIND_STYLE.get(ev.kind, ("•", "bold"))
    head = Text(f"{mark} ", style=style)
    head.append(clean_line(ev.id), style="bold")
    head.append(f"  {clean_line(describe_event(ev))}", style=style.replace("bold ", ""))
    if ev.file not in ("memories.md",) and ev.kind not in ("archived",):
        head.append(f"  [{clean_line(ev.file)}]", style="dim")
    lines = [head]
    if ev.kind in ("added", "removed") and ev.change is not None:
        raw = ev.change.new_raw if ev.kind == "added" else ev.change.old_raw
        first = _first_line(raw)
        if first:
            lines.append(Text(f"    {first}", style="dim"))
        return lines
    lines.extend(change_details(ev.change))
    return lines


def render_profile_diff(diff: ProfileDiff | None, empty: str | None = None) -> Text:
    """The semantic diff as text: one block per entry event, then the files."""
    empty = empty or _("No entry or file changed.")
    if diff is None:
        return Text(empty, style="dim italic")
    out = Text()
    counts = Counter(ev.kind for ev in diff.events)
    if counts:
        out.append(_("Entries: "), style="bold")
        out.append(", ".join(f"{n} {_(EVENT_KIND.get(k, k))}" for k, n in counts.items()))
        out.append("\n\n")
    for ev in diff.events:
        for line in event_lines(ev):
            out.append_text(line)
            out.append("\n")
    others = list(diff.files)
    if others:
        if diff.events:
            out.append("\n")
        out.append(_("Files:") + "\n", style="bold")
        for f in others:
            style = {"added": ADDED, "deleted": REMOVED}.get(f.status, "yellow")
            row = f"  {clean_line(f.path)}: {_(FILE_STATUS.get(f.status, f.status))}"
            if f.old_path:
                row += " " + _("(from %(path)s)") % {"path": clean_line(f.old_path)}
            out.append(row + "\n", style=style)
    for name, d in (("memories.md", diff.memories), ("archive", diff.archive)):
        if d.preamble_changed:
            out.append("\n" + _("%(file)s: the text before the first entry changed") % {"file": name} + "\n", style="yellow")
        if d.malformed_changed:
            out.append("\n" + _("%(file)s: malformed blocks changed (see the text diff)") % {"file": name} + "\n",
                       style="bold red")
    if not out.plain:
        return Text(empty, style="dim italic")
    out.rstrip()
    return out


# --- text diffs ----------------------------------------------------------------------------


def _no(n: int | None, width: int) -> str:
    return str(n).rjust(width) if n is not None else " " * width


def render_unified(patch: Patch) -> Text:
    out = Text(no_wrap=True, overflow="ellipsis")
    for f in patch.files:
        plus, minus = f.counts
        out.append(f"{clean_line(f.path)}", style="bold underline")
        out.append(f"  +{plus} −{minus}\n", style="dim")
        for note in f.notes:
            if not note.startswith("index "):
                out.append(f"  {clean_line(note)}\n", style="dim")
        for h in f.hunks:
            out.append(clean_line(h.header) + "\n", style="cyan")
            # a run of - lines pairs with the run of + after it, for word highlights
            runs = [(k, list(g)) for k, g in groupby(h.lines, key=attrgetter("kind"))]
            for (before, _lines), (kind, run), (after, next_run) in zip(
                [("", []), *runs[:-1]], runs, [*runs[1:], ("", [])], strict=True
            ):
                if kind == "-":
                    _changed(out, run, next_run if after == "+" else [])
                elif kind == "+":
                    if before != "-":  # else shown with the run before
                        _changed(out, [], run)
                elif kind == " ":
                    for ln in run:
                        _line(out, " ", ln, [(ln.text, False)], "", "")
                else:
                    for ln in run:
                        out.append(f"  \\{clean_line(ln.text)}\n", style="dim")
        out.append("\n")
    if patch.truncated:
        out.append(_("… the diff is longer; the rest is not shown") + "\n", style="bold yellow")
    if not patch.files:
        out.append(_("No text change in this folder."), style="dim italic")
    out.rstrip()
    return out


def _changed(out: Text, minus: list[PatchLine], plus: list[PatchLine]) -> None:
    pairs = [word_diff(m.text, p.text) for m, p in zip(minus, plus, strict=False)]
    for n, m in enumerate(minus):
        _line(out, "-", m, pairs[n][0] if n < len(pairs) else [(m.text, False)], REMOVED, CHANGED_WORD_OLD)
    for n, p in enumerate(plus):
        _line(out, "+", p, pairs[n][1] if n < len(pairs) else [(p.text, False)], ADDED, CHANGED_WORD_NEW)


def _line(out: Text, sign: str, ln: PatchLine, segs: list[Segment], style: str, word_style: str) -> None:
    out.append(f"{_no(ln.old_no, 5)} {_no(ln.new_no, 5)} ", style="dim")
    out.append(sign + " ", style=style)
    out.append_text(segments_text(segs, word_style, style))
    out.append("\n")


def render_side_by_side(patch: Patch) -> RenderableType:
    table = Table.grid(expand=True, padding=(0, 1))
    table.add_column(width=5, justify="right", style="dim", no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    table.add_column(width=5, justify="right", style="dim", no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for row in side_by_side(patch.files):
        if row.kind == "file":
            table.add_row("", Text(clean_line(row.label), style="bold underline"), "", "")
        elif row.kind in ("note", "hunk"):
            table.add_row("", Text(clean_line(row.label), style="dim" if row.kind == "note" else "cyan"), "", "")
        elif row.kind == "context":
            assert row.left is not None and row.right is not None
            table.add_row(_no(row.left.old_no, 5), Text(clean_line(row.left.text)),
                          _no(row.right.new_no, 5), Text(clean_line(row.right.text)))
        else:
            left, right = row.left, row.right
            if left is not None and right is not None:
                a, b = word_diff(left.text, right.text)
            else:
                a = [(left.text, False)] if left else []
                b = [(right.text, False)] if right else []
            table.add_row(
                _no(left.old_no if left else None, 5),
                segments_text(a, CHANGED_WORD_OLD, REMOVED) if left else Text(""),
                _no(right.new_no if right else None, 5),
                segments_text(b, CHANGED_WORD_NEW, ADDED) if right else Text(""),
            )
    parts: list[RenderableType] = [table]
    if patch.truncated:
        parts.append(Text(_("… the diff is longer; the rest is not shown"), style="bold yellow"))
    if not patch.files:
        parts = [Text(_("No text change in this folder."), style="dim italic")]
    return Group(*parts)


# --- widgets -------------------------------------------------------------------------------


class SemanticDiffView(VerticalScroll):
    """A scrollable semantic diff (entries added, changed — which fields, body —, moved, removed; files)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = Text()  # what is shown

    def compose(self) -> ComposeResult:
        yield Static(Text(""), classes="diff-body")

    def show(self, diff: ProfileDiff | None, header: Text | None = None, empty: str | None = None) -> None:
        text = Text()
        if header is not None:
            text.append_text(header)
            text.append("\n\n")
        self._show(text.append_text(render_profile_diff(diff, empty)))
        self.scroll_home(animate=False)

    def show_message(self, message: str) -> None:
        self._show(Text(message, style="dim italic"))

    def _show(self, text: Text) -> None:
        self.text = text
        self.query_one(".diff-body", Static).update(text)


class PatchView(VerticalScroll):
    """A scrollable text diff, unified or side by side."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.patch: Patch | None = None
        self.side_by_side = False

    def compose(self) -> ComposeResult:
        yield Static(Text(""), classes="diff-body")

    def show(self, patch: Patch | None, side_by_side: bool | None = None) -> None:
        self.patch = patch
        if side_by_side is not None:
            self.side_by_side = side_by_side
        self._paint_patch()
        self.scroll_home(animate=False)

    def toggle_layout(self) -> None:
        self.side_by_side = not self.side_by_side
        self._paint_patch()

    def show_message(self, message: str) -> None:
        self.patch = None
        self.query_one(".diff-body", Static).update(Text(message, style="dim italic"))

    def _paint_patch(self) -> None:
        body = self.query_one(".diff-body", Static)
        if self.patch is None:
            body.update(Text(_("Loading…"), style="dim italic"))
        elif self.side_by_side:
            body.update(render_side_by_side(self.patch))
        else:
            body.update(render_unified(self.patch))
