"""Saving an entry that another program changed meanwhile: yours and the disk's side by side.

Dismissed with ``"mine"`` (write yours over it), ``"disk"`` (drop yours), ``"merge"`` (edit yours
against the disk's version) or None (back to editing).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ....core.i18n import _
from ...actions import bindings
from ...widgets.diff_view import word_diff_texts
from ...widgets.footer import KeysFooter


class SaveConflictScreen(ModalScreen[str | None]):
    """``yours / on disk`` for one entry, with the three ways out."""

    CSS_PATH = "save_conflict_screen.tcss"

    BINDINGS = bindings("save-conflict")

    def __init__(self, label: str, mine: str, disk: str) -> None:
        super().__init__()
        self.label, self.mine, self.disk = label, mine, disk

    def compose(self) -> ComposeResult:
        left, right = word_diff_texts(self.mine, self.disk)
        with Vertical(id="save-conflict-box"):
            yield Label(_("%(entry)s changed on disk while you edited it.") % {"entry": self.label}, id="save-conflict-title",
                        markup=False)
            with Horizontal(id="save-conflict-sides"):
                for title, text, name in ((_("yours"), left, "mine"), (_("on disk"), right, "disk")):
                    with VerticalScroll(classes="save-conflict-side") as side:
                        side.border_title = title
                        yield Static(text, id=f"save-conflict-{name}")
            yield Label(_("m keep mine (write it over the disk's version) · d take disk (yours goes to the "
                          "clipboard) · e edit merged · esc back"), id="save-conflict-keys", markup=False)
        yield KeysFooter()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
