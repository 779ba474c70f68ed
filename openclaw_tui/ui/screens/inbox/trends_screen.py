"""Memory over time (``c`` on the history screen): charts drawn from the folder's git history.

A profile: entries by status per commit; a workspace: each bootstrap file's size and the total per
commit, with the per-file and total limits as lines; both: the findings of ``check`` per commit.
Computed in a thread worker by ``core.inbox.trends``; drawn with textual-plotext.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static
from textual_plotext import PlotextPlot

from ....core.i18n import _, ngettext
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...workers import call_if_attached


class TrendsScreen(Screen[None]):
    CSS_PATH = "inbox.tcss"
    BINDINGS = bindings("trends")

    def __init__(self, folder: Path, today: dt.date | None = None, limit: int = 30) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.today = today
        self.limit = limit
        self.trends: Any = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Memory over time · %(folder)s · reading the history…") % {"folder": self.folder.name}), id="trends-title")
        with Vertical(id="trends-charts"):
            yield Static(id="chart-main-caption", classes="chart-caption")
            yield PlotextPlot(id="chart-main")
            yield Static(id="chart-findings-caption", classes="chart-caption")
            yield PlotextPlot(id="chart-findings")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.compute()

    @work(thread=True, exclusive=True, group="trends", description="Reading the history for the charts")
    def compute(self) -> None:
        from ....core.git.gitrepo import GitError
        from ....core.inbox.trends import trends

        try:
            result = trends(self.folder, self.limit, today=self.today)
        except (GitError, OSError, ValueError) as exc:
            note = Text(_("No charts: %(error)s") % {"error": exc}, style="yellow")
            call_if_attached(self, lambda: self.query_one("#trends-title", Static).update(note))
            return
        call_if_attached(self, self.draw, result)

    def draw(self, tr: Any) -> None:
        from ....core.inbox.trends import label

        self.trends = tr
        n = len(tr.commits)
        span = f"{tr.commits[0][1][:10]} → {tr.commits[-1][1][:10]}" if n else _("no commits")
        self.query_one("#trends-title", Static).update(
            Text(ngettext("Memory over time · %(folder)s · %(count)d commit · %(span)s",
                          "Memory over time · %(folder)s · %(count)d commits · %(span)s", n)
                 % {"folder": self.folder.name, "count": n, "span": span}))
        x = list(range(1, n + 1))
        main = self.query_one("#chart-main", PlotextPlot)
        plt = main.plt
        plt.clear_data()
        plt.clear_figure()
        xlabel = _("commit (oldest → newest)")
        limits = [_("limit %(name)s %(value)s") % {"name": label(name), "value": f"{value:,}"}
                  for name, value in tr.limits.items()]
        for name, ys in tr.series.items():
            if n:
                plt.plot(x, ys, label=label(name), marker="braille")
        for value in tr.limits.values():
            plt.hline(value)
        self._label(main, _("Entries by status per commit") if tr.layout == "profile"
                    else _("Bootstrap characters per file and in total, against the limits"), xlabel, limits,
                    list(tr.limits.values()))
        main.refresh()
        found = self.query_one("#chart-findings", PlotextPlot)
        fp = found.plt
        fp.clear_data()
        fp.clear_figure()
        if n and tr.findings:
            fp.bar(x, tr.findings)
        self._label(found, _("Findings of check per commit"), xlabel)
        found.refresh()

    def _label(self, plot: PlotextPlot, title: str, xlabel: str, notes: list[str] | None = None,
               at: list[int] | None = None) -> None:
        """The chart's title, axis label and notes: drawn by plotext when every character is one cell wide, else
        (Chinese) in a caption line above the chart (plotext gives each character one cell: a wide one would
        push the rest of its row over the edge)."""
        notes = notes or []
        caption = self.query_one(f"#{plot.id}-caption", Static)
        if all(cell_len(s) == len(s) for s in (title, xlabel, *notes)):
            plot.plt.title(title)
            plot.plt.xlabel(xlabel)
            for note, y in zip(notes, at or [], strict=False):
                plot.plt.text(note, x=1, y=y)
            caption.display = False
            return
        caption.update(Text(" · ".join([title, *notes, _("x: %(axis)s") % {"axis": xlabel}]), style="bold"))
        caption.display = True

    def action_close(self) -> None:
        self.dismiss(None)
