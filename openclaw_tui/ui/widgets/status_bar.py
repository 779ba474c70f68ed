"""One line under the panes: where you are, counts per status, filter, background work."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.timer import Timer
from textual.widget import Widget

from ...core.i18n import N_, _, ngettext
from .safe_text import clean_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
STATUS_WORDS = (N_("active"), N_("superseded"), N_("cold"), N_("archived"), N_("malformed"))  # (for the catalog)
STATUS_STYLE = {
    "active": "green", "superseded": "dim strike", "cold": "cyan", "archived": "dim", "malformed": "bold red",
}
BUSY_DELAY = 0.3  # seconds of work before the indicator shows
SEGMENTS = frozenset({"repo_info", "alert", "hint", "watch_note", "inbox"})  # what show() may set


class StatusBar(Widget):
    """Counts per status and a busy indicator that appears only when work takes a while."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.where = ""
        self.counts: dict[str, int] = {}
        self.shown = 0
        self.total = 0
        self.problems: int | None = None
        self.extra = ""
        self._busy: dict[str, float] = {}  # task label -> start (monotonic)
        self._frame = 0
        self._timer: Timer | None = None
        self._text = Text()
        self.repo_info: Text | None = None  # the repository segment (branch, uncommitted, merge)
        self.watch_note = ""  # e.g. "watching: polling" when file events are not available
        self.inbox: int | None = None  # changes since the user's review (None: not counted)
        self.hint = ""  # what is wrong with the filter typed ("is:foo matches nothing: is: takes ...")
        self.alert: Text | None = None  # a lasting state that needs the reviewer (a pending merge), shown first

    def render(self) -> Text:
        return self._text

    def set_state(
        self,
        where: str,
        counts: dict[str, int],
        shown: int,
        total: int,
        problems: int | None,
        extra: str = "",
    ) -> None:
        self.where, self.counts, self.shown, self.total = where, counts, shown, total
        self.problems, self.extra = problems, extra
        self._paint()

    def show(self, **segments: Any) -> None:
        """Set segments by attribute name (``repo_info``, ``alert``, ``hint``, ``watch_note``, ``inbox``;
        None or empty hides one); the bar is painted again when one changed."""
        if unknown := segments.keys() - SEGMENTS:
            raise TypeError(f"not a status bar segment: {', '.join(sorted(unknown))}")
        if any(getattr(self, name) != value for name, value in segments.items()):
            for name, value in segments.items():
                setattr(self, name, value)
            self._paint()

    def set_busy(self, label: str, on: bool) -> None:
        """Mark background work as running (``on``) or done."""
        if on:
            self._busy[label] = time.monotonic()
            if self._timer is None:
                self._timer = self.set_interval(0.1, self._tick)
        else:
            self._busy.pop(label, None)
            if not self._busy and self._timer is not None:
                self._timer.stop()
                self._timer = None
        self._paint()

    def _tick(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self._paint()

    def _paint(self) -> None:
        t = Text(no_wrap=True, overflow="ellipsis")
        if self.alert is not None and self.alert.plain:
            t.append(" ")
            t.append_text(self.alert)
            t.append(" │", style="dim")
        if self.hint:
            t.append(f" {clean_line(self.hint)} ", style="bold yellow")
        if self.where:
            t.append(f" {clean_line(self.where)} ", style="bold")
        if self.counts:
            t.append("│ ", style="dim")
            for i, (status, n) in enumerate(self.counts.items()):
                if i:
                    t.append(" · ", style="dim")
                t.append(f"{n} ")
                t.append(clean_line(_(status)), style=STATUS_STYLE.get(status, "yellow"))
            if self.shown != self.total:
                t.append("  │ " + _("showing %(shown)s of %(total)s") % {"shown": self.shown, "total": self.total},
                         style="bold")
        if self.problems is not None:
            t.append("  │ ", style="dim")
            t.append(_("%(count)s with problems") % {"count": self.problems}, style="bold yellow" if self.problems else "green")
        if self.extra:
            t.append("  │ ", style="dim")
            t.append(clean_line(self.extra), style="dim")
        if self.inbox is not None:
            t.append("  │ ", style="dim")
            t.append(ngettext("%(count)d change since your review", "%(count)d changes since your review",
                              self.inbox) % {"count": self.inbox}, style="bold yellow" if self.inbox else "green")
        if self.repo_info is not None and self.repo_info.plain:
            t.append("  │ ", style="dim")
            t.append_text(self.repo_info)
        if self.watch_note:
            t.append("  │ ", style="dim")
            t.append(clean_line(self.watch_note), style="yellow")
        now = time.monotonic()
        waiting = [label for label, start in self._busy.items() if now - start >= BUSY_DELAY]
        if waiting:
            t.append("  │ ", style="dim")
            t.append(f"{SPINNER[self._frame]} {', '.join(waiting)}…", style="bold")
        if t != self._text:
            self._text = t
            self.refresh()  # one line, fixed height: no layout needed
