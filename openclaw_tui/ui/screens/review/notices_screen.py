"""The notice log (``@``): the last 100 notifications, newest first, after their toasts faded."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ....core.i18n import _
from ...actions import bindings
from ...widgets.footer import KeysFooter

STYLE = {"error": "bold red", "warning": "yellow", "information": ""}


class NoticesScreen(ModalScreen[None]):
    """Every notice of this session (up to 100), newest first; memory text stays literal."""

    CSS_PATH = Path(__file__).with_name("notices_screen.tcss")  # absolute: subclasses live elsewhere
    BINDINGS = bindings("notices")

    def __init__(self, notices: Sequence[Any]) -> None:
        super().__init__()
        self.notices = list(notices)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="notices-body") as body:
            body.border_title = _("Notices · %(n)s · Esc closes") % {"n": len(self.notices)}
            yield Static(self.render_notices(), id="notices-text")
        yield KeysFooter()

    def render_notices(self) -> Text:
        if not self.notices:
            return Text(_("No notice yet."), style="italic dim")
        t = Text()
        for n in self.notices:
            stamp = dt.datetime.fromtimestamp(n.at).strftime("%H:%M:%S")
            t.append(f"{stamp} ", style="dim")
            if n.title:
                t.append(f"{n.title}: ", style="bold " + STYLE.get(n.severity, ""))
            t.append(n.message, style=STYLE.get(n.severity, ""))
            t.append("\n")
        return t

    def on_mount(self) -> None:
        self.query_one("#notices-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
