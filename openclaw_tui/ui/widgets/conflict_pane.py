"""One conflict side by side: ours | base | theirs (changed lines marked ▍ and words highlighted, against
the base when known, else the other side), the side ``space`` would pick framed, the choice's result."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ...core.diff.lines import entry_summary, mark_lines
from ...core.i18n import N_, _
from ...core.merge.conflicts import ConflictItem, Region
from ...core.merge.merge_session import FileResolution, choice_label
from .safe_text import clean_line

OURS_WORD = "bold black on green3"
THEIRS_WORD = "bold black on deep_sky_blue1"
BASE_WORD = "bold black on grey62"
CONTEXT_LINES = 3
SHORT = 34  # terminal rows under which each side shows only its changed lines (the app's -short breakpoint)


# the words of a choice and of a side's summary (core/merge, core/diff/worddiff.py: entry_summary)
CHOICE_WORD = {"ours": N_("ours"), "theirs": N_("theirs"), "both": N_("both"), "edited": N_("edited")}
SUMMARY_WORDS = {w: w for w in (N_("deleted"), N_("new"), N_("text changed"), N_("unchanged"), N_("formatting only"),
                                N_("body"), N_("added"), N_("changed"), N_("absent"), N_("only here"))}


def choice_word(label: str) -> str:
    return _(CHOICE_WORD.get(label, label))


def summary_text(summary: str) -> str:
    """``importance, last_hit (added), body`` in the language in use (field names stay)."""
    parts = []
    for part in summary.split(", ") if summary else []:
        name, _sep, mark = part.partition(" (")
        if part in SUMMARY_WORDS:
            parts.append(_(part))
        elif mark in ("added)", "removed)"):
            parts.append((_("%(field)s (added)") if mark == "added)" else _("%(field)s (removed)")) % {"field": name})
        else:
            parts.append(part)
    return _(", ").join(parts)


def render_side(
    text: str | None,
    reference: str | None,
    word_style: str,
    *,
    absent: str | None = None,
    before: list[str] | None = None,
    after: list[str] | None = None,
    changed_only: bool = False,
) -> Text:
    """A side's text, lines that differ from ``reference`` marked, changed words highlighted;
    ``changed_only`` (a short terminal): only the changed and removed lines."""
    out = Text()
    if changed_only:
        before = after = None
    for ln in before or []:
        out.append("  " + clean_line(ln) + "\n", style="dim")
    if text is None:
        out.append((absent or _("(not on this side)")) + "\n", style="italic dim")
    elif text == "":
        out.append(_("(empty)") + "\n", style="italic dim")
    else:
        for mark in mark_lines(text, reference):
            if mark.removed:
                out.append("✗ ", style="bold red")
                out.append(clean_line(mark.text), style="dim strike")
                out.append("\n")
                continue
            if not mark.changed:
                if changed_only:
                    continue
                out.append("  " + clean_line(mark.text) + "\n")
                continue
            out.append("▍ ", style="bold yellow")
            for seg, changed in mark.segments:
                out.append(clean_line(seg), style=word_style if changed or mark.whole else "")
            if mark.whole and not mark.text:
                out.append(" ", style=word_style)
            out.append("\n")
    for ln in after or []:
        out.append("  " + clean_line(ln) + "\n", style="dim")
    out.rstrip()
    return out


def _context(file: FileResolution, region_index: int) -> tuple[list[str], list[str]]:
    """A few plain lines before and after a region, for hunks."""
    parts = file.conflicts.conflict.parts
    pos = next((i for i, p in enumerate(parts) if isinstance(p, Region) and p.index == region_index), None)
    if pos is None:
        return [], []
    before: list[str] = []
    after: list[str] = []
    if pos > 0 and isinstance(parts[pos - 1], str):
        before = str(parts[pos - 1]).rstrip("\n").split("\n")[-CONTEXT_LINES:]
    if pos + 1 < len(parts) and isinstance(parts[pos + 1], str):
        after = str(parts[pos + 1]).split("\n")[:CONTEXT_LINES]
        while after and after[-1] == "":
            after.pop()
    return before, after


# core.merge.conflicts.ConflictItem.description's words, for the catalog (shown through _())
SITUATIONS = (
    N_("changed on both sides"), N_("deleted by ours, changed by theirs"), N_("deleted by theirs, changed by ours"),
    N_("two different entries added on both sides under this id: both kept, theirs under the next free id"),
    N_("only in ours"), N_("only in theirs"),
)


def side_summary(item: ConflictItem, side: str) -> str:
    """What that side did, in a few words (``importance, body`` or ``deleted``)."""
    text = item.ours if side == "ours" else item.theirs
    other = item.theirs if side == "ours" else item.ours
    if item.base_known:
        if item.base is None and text is not None:
            return _("added")
        what = entry_summary(text, item.base) if item.kind == "entry" else ("changed" if text != item.base else "unchanged")
        return summary_text(what)
    if text is None:
        return _("absent")
    if item.kind == "entry":
        return (_("differs in: %(what)s") % {"what": summary_text(entry_summary(text, other))} if other is not None
                else _("only here"))
    return ""


class SideColumn(VerticalScroll):
    """One version in the side-by-side view."""

    def __init__(self, side: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes=f"conflict-side side-{side}")
        self.side = side
        self.can_focus = False

    def compose(self) -> ComposeResult:
        yield Static(Text(""), classes="side-summary")
        yield Static(Text(""), classes="side-body")

    def show(self, title: str, summary: str, body: Text, *, compact: bool = False) -> None:
        """``compact`` (a short terminal): the summary goes in the frame, every row is for the body."""
        self.border_title = Text(clean_line(title))  # labels come from the file: never markup
        self.border_subtitle = Text(clean_line(summary)) if compact and summary else None
        box = self.query_one(".side-summary", Static)
        box.display = not compact
        box.update(Text(summary, style="italic") if summary else Text(""))
        self.query_one(".side-body", Static).update(body)

    @property
    def body_text(self) -> str:
        body = self.query_one(".side-body", Static).render()
        return body.plain if isinstance(body, Text) else str(body)


class ConflictPane(Vertical):
    """The conflict under the cursor: both (or all three) versions and the chosen result."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.file: FileResolution | None = None
        self.item: ConflictItem | None = None
        self.side = "ours"
        self.show_base = True

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="conflict-title")
        with Horizontal(id="conflict-sides"):
            yield SideColumn("ours", id="side-ours")
            yield SideColumn("base", id="side-base")
            yield SideColumn("theirs", id="side-theirs")
        with VerticalScroll(id="conflict-result") as result:
            result.can_focus = False
            yield Static(Text(""), id="conflict-result-body")

    def column(self, side: str) -> SideColumn:
        return self.query_one(f"#side-{side}", SideColumn)

    def show(self, file: FileResolution | None, item: ConflictItem | None, side: str | None = None) -> None:
        self.file, self.item = file, item
        if side is not None:
            self.side = side
        self.refresh_view()

    def set_side(self, side: str) -> None:
        self.side = side
        self._mark_side()

    def _mark_side(self) -> None:
        for s in ("ours", "theirs"):
            self.column(s).set_class(s == self.side, "-picked-side")

    def refresh_view(self) -> None:
        file, item = self.file, self.item
        title = self.query_one("#conflict-title", Static)
        result = self.query_one("#conflict-result-body", Static)
        base_col = self.column("base")
        if file is None or item is None:
            msg = _("No conflict here.") if file is None or file.data is not None else _("This file was deleted on one side.")
            title.update(Text(msg, style="dim italic"))
            for s in ("ours", "base", "theirs"):
                self.column(s).show(s, "", Text(""))
            base_col.display = False
            result.update(Text(""))
            return
        labels = file.labels
        n = file.items.index(item) + 1 if item in file.items else 0
        head = Text()
        head.append(clean_line(item.key), style="bold")
        head.append(f" · {clean_line(_(item.description.split(': ', 1)[-1]))}")
        head.append(" · " + _("%(n)s of %(total)s in %(file)s") % {"n": n, "total": len(file.items),
                                                                   "file": clean_line(file.display)}, style="dim")
        title.update(head)
        known = item.base_known
        before, after = _context(file, item.region) if item.kind == "text" else ([], [])
        short = self.app.size.height < SHORT  # a few lines per side: only what each side changed
        ref_ours = item.base if known else item.theirs
        ref_theirs = item.base if known else item.ours
        absent = _("(deleted on this side)") if known and item.base is not None else _("(not on this side)")
        for side, text, ref, label, word in (("ours", item.ours, ref_ours, labels[0], OURS_WORD),
                                             ("theirs", item.theirs, ref_theirs, labels[2], THEIRS_WORD)):
            self.column(side).show(
                _(CHOICE_WORD[side]) + f" · {label}", side_summary(item, side),
                render_side(text, ref, word, absent=absent, before=before, after=after, changed_only=short), compact=short,
            )
        base_col.display = known and self.show_base
        if known:
            base_col.show(
                _("base") + " · " + (labels[1] or _("common ancestor")), "",
                render_side(item.base, None, BASE_WORD, absent=_("(not in the base: added on both sides)"),
                            before=before, after=after),
            )
        self._mark_side()
        choice = file.choices.get(item.key)
        res = Text()
        res.append(_("Result: "), style="bold")
        if choice is None:
            res.append(_("undecided"), style="bold yellow")
            res.append("  " + _("— space picks the framed side (←/→ to switch), b both, o ours, t theirs, i edit"),
                       style="dim")
        else:
            res.append(choice_word(choice_label(choice)), style="bold green")
            res.append("   " + _("(z undoes)") + "\n", style="dim")
            try:
                text = file.preview(item.key)
            except Exception as exc:  # noqa: BLE001 - shown to the reviewer, never lost
                res.append(_("cannot show the result: %(why)s") % {"why": exc}, style="bold red")
            else:
                if text:
                    for ln in text.rstrip("\n").split("\n"):
                        res.append("  " + clean_line(ln) + "\n")
                else:
                    res.append(_("(removed: nothing is kept here)"), style="italic dim")
        res.rstrip()
        result.update(res)
