"""Differences as colored rich Text (memory text through ``safe_text``, never markup): unified diffs
of file bytes, word-level body differences."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.diff.words import DELETE, EQUAL, INSERT, MISSING, FieldPair, word_diff
from ...core.format.yamlio import render_scalar
from ...core.i18n import _
from .safe_text import clean, clean_line

ADDED = "green"
REMOVED = "red"
HUNK = "cyan"
HEADER = "bold"
WORD_REMOVED = "bold white on dark_red"
WORD_ADDED = "bold black on green3"
FIELD_DIFF = "bold yellow"

LINE_STYLES = (("+++", HEADER), ("---", HEADER), ("@@", HUNK), ("+", ADDED), ("-", REMOVED))  # first match
MAX_LINES = 3000  # a diff longer than this is cut on screen (the write is not)


def diff_text(diff: str, max_lines: int = MAX_LINES) -> Text:
    """A unified diff, one colored line per diff line (``+`` green, ``-`` red, ``@@`` cyan)."""
    out = Text(no_wrap=False)
    if not diff:
        out.append(_("(no change)"), style="dim italic")
        return out
    lines = diff.splitlines()
    if len(lines) > max_lines:
        out.append(_("(showing the first %(shown)s of %(total)s diff lines)") % {"shown": max_lines, "total": len(lines)}
                   + "\n", style="bold yellow")
        lines = lines[:max_lines]
    for line in lines:
        style = next((style for start, style in LINE_STYLES if line.startswith(start)), "")
        out.append(clean_line(line), style=style)
        out.append("\n")
    out.rstrip()
    return out


def word_diff_texts(a: str, b: str) -> tuple[Text, Text]:
    """Left and right text with the words that differ highlighted (CJK compared per character)."""
    left, right = Text(), Text()
    for run in word_diff(a, b):
        if run.op == EQUAL:
            left.append(clean(run.a))
            right.append(clean(run.b))
            continue
        if run.op in (DELETE, "replace"):
            left.append(clean(run.a), style=WORD_REMOVED)
        if run.op in (INSERT, "replace"):
            right.append(clean(run.b), style=WORD_ADDED)
    return left, right


def meta_texts(pairs: Iterable[FieldPair]) -> tuple[Text, Text]:
    """Both entries' fields, one per line, the ones that differ highlighted on both sides."""
    left, right = Text(), Text()
    for p in pairs:
        style = FIELD_DIFF if p.differs else ""
        for side, value in ((left, p.a), (right, p.b)):
            if value is MISSING:
                side.append(f"{p.name}: —", style="dim" if not p.differs else FIELD_DIFF)
            else:
                side.append(f"{p.name}: ", style="bold" if not p.differs else FIELD_DIFF)
                side.append(clean_line(render_scalar(value)), style=style)
            side.append("\n")
    left.rstrip()
    right.rstrip()
    return left, right


class DiffView(VerticalScroll):
    """A scrollable, colored unified diff."""

    DEFAULT_CSS = """
    DiffView { height: 1fr; background: $surface; }
    DiffView > Static { width: 100%; padding: 0 1; }
    """

    def __init__(self, diff: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.diff = diff

    def compose(self) -> ComposeResult:
        yield Static(diff_text(self.diff), classes="diff-body")

    def show(self, diff: str) -> None:
        self.diff = diff
        self.query_one(".diff-body", Static).update(diff_text(diff))
