"""The terminal UI application.

``OpenClawApp(path)`` (or ``OpenClawApp(discovery=...)``) opens on the review
screen.  App-wide actions live here (quit, help, theme); screens register
theirs as bindings with ids (remappable with ``keymap={id: key}``) and the
command palette offers every binding of the current screen.

Other screens (editing, conflict resolution, gc, history, merges) are pushed
with ``app.push_screen``; when they change files they call
``app.main_screen.refresh_after_write()``; when they hold an unsaved edit
they define ``has_unsaved_changes() -> True`` so ``q`` asks first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from .commands_palette import ScreenCommands
from .core.format.profile import Discovery
from .core.format.rows import Location
from .screens.help_screen import HelpScreen, collect_bindings
from .screens.main_screen import MainScreen

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


class ConfirmQuit(ModalScreen[bool]):
    """Asked before quitting with an unsaved edit."""

    BINDINGS = [
        Binding("y", "answer(True)", "Quit", id="confirm-quit.yes"),
        Binding("n,escape", "answer(False)", "Stay", id="confirm-quit.no"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text("An edit is not saved. Quit anyway and lose it?", style="bold"))
            with Horizontal(id="confirm-buttons"):
                yield Button("Quit (y)", variant="error", id="confirm-yes")
                yield Button("Stay (n)", variant="primary", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")


class OpenClawApp(App[int]):
    """Review, correct and audit an AI agent's file-based long-term memory."""

    CSS_PATH: ClassVar = ["app.tcss", "screens/main_screen.tcss"]
    TITLE = "openclaw-tui"
    COMMANDS: ClassVar = App.COMMANDS | {ScreenCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("f2", "toggle_theme", "Light/dark", show=False, id="app.toggle-theme"),
    ]

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        discovery: Discovery | None = None,
        today: dt.date | None = None,
        keymap: dict[str, str] | None = None,
        cleanup: Path | None = None,
        watch: bool = True,
    ) -> None:
        super().__init__()
        self.source_path = Path(path) if path is not None else None
        self.discovery = discovery
        self.today = today
        self.cleanup = cleanup  # a throwaway folder (--demo); launch removes it after exit
        self._keymap = keymap or {}
        self.user_active = False
        self.watch_files = watch  # reload profiles changed by other programs
        self.theme = DARK_THEME
        self.start_screen: Callable[[], Screen[Any]] | None = None  # pushed over the main one at start

    def on_mount(self) -> None:
        if self._keymap:
            self.set_keymap(self._keymap)
        if self.start_screen is not None:
            self.push_screen(self.start_screen())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.user_active = True  # the reviewer has started: screens stop choosing for them
        await super().on_event(event)

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.source_path, self.discovery, self.today)

    @property
    def main_screen(self) -> MainScreen:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                return screen
        raise LookupError("the main screen is not running")

    # --- hooks for other screens ------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification is plain text: messages name ids, files and branches from the memory,
        and a ``[@click=…]`` in any of them must stay literal.  (Widgets' ``notify`` lands here.)"""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def has_unsaved_changes(self) -> bool:
        """True when any open screen holds an edit that is not written yet."""
        for screen in self.screen_stack:
            check = getattr(screen, "has_unsaved_changes", None)
            if check is not None and check():
                return True
        return False

    def jump_to(self, location: Location, profile: Path | None = None) -> bool:
        """Close screens above the main one and go to an entry or a file line."""
        main = self.main_screen
        while self.screen is not main and len(self.screen_stack) > 1:
            self.pop_screen()
        return main.jump(location, profile)

    # --- actions ----------------------------------------------------------------------

    async def action_quit(self) -> None:
        if not self.has_unsaved_changes():
            self.exit(0)
            return

        def done(answer: bool | None) -> None:
            if answer:
                self.exit(0)

        await self.push_screen(ConfirmQuit(), done)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(collect_bindings(self.screen, self)))

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DARK_THEME
