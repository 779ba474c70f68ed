"""Small dialogs of the workspace view: a text prompt, a pick list, the distil picker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from ....core.i18n import _
from ....core.workspace.model import DailyLog
from ...actions import bindings
from ...widgets.safe_text import clean_line

DIALOG_CSS = """
.ws-dialog { width: 90%; max-width: 120; height: auto; max-height: 90%; border: round $accent;
             background: $panel; padding: 0 1; align-horizontal: center; }
ModalScreen { align: center middle; }
.ws-dialog OptionList, .ws-dialog SelectionList { height: auto; max-height: 12; }
"""

R = TypeVar("R")


class Dialog(ModalScreen[R]):
    """A small dialog: escape cancels (answers None)."""

    DEFAULT_CSS = DIALOG_CSS

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextPrompt(Dialog[str | None]):
    """One line of text (enter saves, escape cancels)."""

    BINDINGS = bindings("ws-prompt")

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="ws-dialog"):
            yield Static(Text(self.title_text, style="bold"))
            yield Input(value=self.value, id="ws-prompt-input")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


class PickOne(Dialog[int | None]):
    """Pick one of a list (enter), escape cancels."""

    BINDINGS = bindings("ws-pick")

    def __init__(self, title: str, labels: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.labels = list(labels)

    def compose(self) -> ComposeResult:
        with Vertical(classes="ws-dialog"):
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*(Option(Text(clean_line(s)), id=str(i)) for i, s in enumerate(self.labels)),
                             id="ws-pick-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))


class DistilPicker(Dialog[tuple[list[int], list[int], int] | None]):
    """Tick the lines of a daily log to distil (space), pick the MEMORY.md section, ctrl+s.

    Lines left unticked can be marked dropped with ``ctrl+d`` (reviewed, not kept)."""

    BINDINGS = bindings("ws-distil")

    def __init__(self, log: DailyLog, sections: Sequence[str]) -> None:
        super().__init__()
        self.daily = log
        self.sections = list(sections)

    def compose(self) -> ComposeResult:
        with Vertical(classes="ws-dialog", id="ws-distil-box"):
            yield Static(Text(_("Distil %(file)s into MEMORY.md: tick lines (space), pick a section, ctrl+s")
                              % {"file": self.daily.rel}, style="bold"))
            todo = [ln for ln in self.daily.lines if not ln.distilled and not ln.dropped]
            yield SelectionList[int](
                *(Selection(Text(f"{ln.number:>3}  {clean_line(ln.text)}"), ln.number, False) for ln in todo),
                id="ws-distil-lines",
            )
            yield Static(Text(_("Section:"), style="bold"))
            yield OptionList(*(Option(Text(clean_line(s)), id=str(i)) for i, s in enumerate(self.sections)),
                             id="ws-distil-section")

    def on_mount(self) -> None:
        self.query_one("#ws-distil-lines", SelectionList).focus()
        if self.sections:
            self.query_one("#ws-distil-section", OptionList).highlighted = 0

    def _result(self, drop_rest: bool) -> tuple[list[int], list[int], int] | None:
        picked = sorted(self.query_one("#ws-distil-lines", SelectionList).selected)
        section = self.query_one("#ws-distil-section", OptionList).highlighted
        if not picked and not drop_rest:
            self.notify(_("Tick at least one line."), severity="warning")
            return None
        rest = [ln.number for ln in self.daily.lines if not ln.distilled and not ln.dropped and ln.number not in picked]
        return picked, rest if drop_rest else [], section if section is not None else -1

    def action_apply(self) -> None:
        res = self._result(False)
        if res is not None:
            self.dismiss(res)

    def action_apply_drop(self) -> None:
        res = self._result(True)
        if res is not None:
            self.dismiss(res)
