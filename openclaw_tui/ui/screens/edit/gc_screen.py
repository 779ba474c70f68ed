"""GC preview: what the TTL, cold and cap rules would do today, each action ticked to start with.

``ctrl+s`` writes the ticked ones: expired and over-capacity entries are archived, cold ones marked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from ....core.format.edit import EditError
from ....core.i18n import N_, _
from ....core.lifecycle.archive import GcAction, plan_gc
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from .edit_screen import TickScreen, WriteHost

KIND_LABEL = {"ttl": N_("archive · TTL"), "cap": N_("archive · cap"), "cold": N_("cold")}
KIND_STYLE = {"ttl": "bold red", "cap": "bold magenta", "cold": "bold cyan"}


def action_prompt(action: GcAction, summary: str = "") -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    label = _(KIND_LABEL.get(action.kind, action.kind))
    text.append(label + " " * max(1, 15 - cell_len(label)), style=KIND_STYLE.get(action.kind, "bold"))
    text.append(clean_line(action.id), style="bold")
    text.append(f"  {clean_line(action.reason)}")
    if summary:
        text.append(f"  {clean_line(summary)[:60]}", style="dim")
    return text


class GcScreen(TickScreen):
    """Tick the gc actions to carry out."""

    BINDINGS = bindings("gc")
    LIST = "gc-list"

    def __init__(self, host: WriteHost, actions: Sequence[GcAction], today: dt.date) -> None:
        super().__init__()
        self.host = host
        self.actions = self.items = list(actions)
        self.today = today

    def compose(self) -> ComposeResult:
        files = self.host.load_files()
        firsts = {e.id: e.first_line() for e in files.memories.mf.well_formed()}
        moves = sum(1 for a in self.actions if a.moves)
        with Vertical(id="gc-box", classes="dialog wide"):
            yield Static(Text(_("GC preview for %(date)s") % {"date": self.today.isoformat()}, style="bold"),
                         classes="dialog-title")
            yield Static(Text(_("%(moves)s to the archive, %(cold)s to mark cold. Untick what should stay (space), then ctrl+s.")
                              % {"moves": moves, "cold": len(self.actions) - moves}, style="dim"), classes="dialog-message")
            yield SelectionList[int](
                *(Selection(action_prompt(a, firsts.get(a.id, "")), i, True) for i, a in enumerate(self.actions)),
                id="gc-list",
            )
        yield KeysFooter()

    @on(SelectionList.SelectedChanged)
    def _changed(self, event: SelectionList.SelectedChanged[int]) -> None:
        self.query_one("#gc-box").border_subtitle = _("%(n)s of %(total)s ticked") % {"n": len(self.chosen),
                                                                                      "total": len(self.actions)}

    def action_apply(self) -> None:
        chosen = self.chosen
        if not chosen:
            self.notify(_("Nothing is ticked."), severity="warning")
            return
        try:
            plan = plan_gc(self.host.load_files(), chosen, self.host.edit_now())
        except (EditError, OSError) as exc:
            self.notify(_("Cannot apply: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        moved = sum(1 for a in chosen if a.moves)
        cold = len(chosen) - moved
        self.host.confirm_write(plan, done=_("GC: %(moved)s archived, %(cold)s marked cold.") % {"moved": moved, "cold": cold},
                                on_written=lambda _p: self.dismiss(True))
