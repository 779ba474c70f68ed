"""The terminal UI application: ``OpenClawApp(path)`` opens on the review screen, ``app.session``
is the state the screens share, and the app-wide actions (quit, help, notices, maximise, theme) live here.

Keys come from the action registry (``actions.py``), rebound by the config's ``[keys]`` (or ``keymap=``).
Notifications are kept (``@`` shows the last 100) and placed off the focused pane.  A screen holding
an unsaved edit defines ``has_unsaved_changes() -> True`` so ``q`` asks first.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import BindingType
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget

from ..core.files.profile import Discovery
from ..core.i18n import _
from .actions import bindings
from .actions import keymap as registry_keymap
from .screens.review.main_screen import MainScreen
from .session import Session

if TYPE_CHECKING:
    from textual.command import Provider

# The help screen, the palette's provider and the dialogs are imported when first used, not at start-up.

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


NOTICES_KEPT = 100


@dataclass(frozen=True)
class Notice:
    """One notification as it was shown (for the notice log)."""

    at: float
    message: str
    title: str
    severity: str


def _confirm_quit_class() -> type[Screen[str | None]]:
    from .widgets.dialogs import Ask

    class ConfirmQuit(Ask):
        """Asked before quitting with an unsaved edit (answers "quit" or "stay")."""

        def __init__(self) -> None:
            super().__init__(_("An edit is not saved. Quit anyway and lose it?"), "",
                             [("y", _("Quit"), "quit", "error"), ("n", _("Stay"), "stay", "primary")])

    return ConfirmQuit


def __getattr__(name: str) -> Any:
    """``ConfirmQuit``, the dialog asked before quitting with an unsaved edit, made on first use."""
    if name == "ConfirmQuit":
        return globals().get(name) or globals().setdefault(name, _confirm_quit_class())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _screen_commands() -> type[Provider]:
    """The command palette's provider of the current screen's actions (imported when the palette opens)."""
    from .palette import ScreenCommands

    return ScreenCommands


class OpenClawApp(App[int]):
    """Review, correct and audit an AI agent's file-based long-term memory."""

    CSS_PATH: ClassVar = ["app.tcss", "screens/review/main_screen.tcss"]
    TITLE = "openclaw-tui"
    COMMANDS: ClassVar = {_screen_commands}  # the registry's actions only, not Textual's system commands
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")
    # every screen gets -narrow/-wide and -short/-tall: the .tcss files lay out for small terminals with them
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]

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
        # the typed state every screen works on (profiles, selection, undo, writes, watcher)
        self.session = Session(self.source_path, discovery, today, watch=watch)
        self.cleanup = cleanup  # a throwaway folder (--demo); launch removes it after exit
        self._user_keymap = keymap  # None: the config file's [keys]
        self.notices: deque[Notice] = deque(maxlen=NOTICES_KEPT)
        self.user_active = False
        # the app is its process's own (launch sets it): start-up's objects leave the cycle collector's walk
        # once the first rows are on screen (ProfileLoading._first_rows_shown)
        self.freeze_heap = False
        self.theme = DARK_THEME
        self.start_screen: Callable[[], Screen[Any]] | None = None  # pushed over the main one at start
        self._in_key = False  # a key event is being handled (its bindings run inside)
        self._showing: dict[tuple[str, str, str], float] = {}  # notices on screen -> until (monotonic)
        from .widgets.contrast import MinimumContrast

        self._contrast = MinimumContrast()

    def on_mount(self) -> None:
        keys = self._user_keymap
        if keys is None:
            from ..core.config import ConfigError, load_config

            try:
                keys = load_config().keys
            except ConfigError as exc:
                self.notify(_("Key bindings: %(problem)s") % {"problem": exc}, severity="warning", timeout=10, markup=False)
                keys = {}
        remap, problems = registry_keymap(keys)
        for problem in problems:
            self.notify(_("Key bindings: %(problem)s") % {"problem": problem}, severity="warning", timeout=10, markup=False)
        if remap:
            self.set_keymap(remap)
        if self.start_screen is not None:
            main = self.main_screen
            self.session.own_operation("the start view")  # its writes are the app's own, not another program's
            self.push_screen(self.start_screen(), lambda _result: main.end_own_operation())

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then every text raised to WCAG AA contrast in either theme (widgets/contrast.py)."""
        return [*super().get_line_filters(), self._contrast]

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.place_notifications()

    def focused_pane(self) -> Widget | None:
        """The bordered pane holding the focus (the focused widget itself when none is bordered)."""
        focused = self.screen.focused
        if focused is None:
            return None
        for node in focused.ancestors_with_self:
            if getattr(node, "border_title", None) and isinstance(node, Widget):
                return node
        return focused

    def place_notifications(self) -> None:
        """Toasts at the bottom right, unless the focused pane is there: then at the top right."""
        if not self.screen_stack:  # a focus change that arrives while the app closes
            return
        screen = self.screen
        pane = self.focused_pane()
        if pane is None:
            return
        region = pane.region
        width, height = self.size
        box_w, box_h = min(60, width), min(9, height // 2)
        bottom = (width - box_w, height - 2 - box_h, width, height - 2)  # above the status line and footer
        top = (width - box_w, 1, width, 1 + box_h)

        def overlap(box: tuple[int, int, int, int]) -> int:
            x0, y0, x1, y1 = box
            w = max(0, min(x1, region.right) - max(x0, region.x))
            h = max(0, min(y1, region.bottom) - max(y0, region.y))
            return w * h

        screen.set_class(overlap(top) < overlap(bottom), "-toasts-top")

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.user_active = True  # the reviewer has started: screens stop choosing for them
        if not isinstance(event, events.Key):
            await super().on_event(event)
            return
        self._in_key = True  # the priority q binding runs inside: see action_quit
        try:
            await super().on_event(event)
        finally:
            self._in_key = False

    def get_default_screen(self) -> MainScreen:
        return MainScreen(session=self.session)

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
        """Every notification is plain text (messages name ids and files from the memory); the same
        notice still on screen is not posted again."""
        now = time.monotonic()
        key = (message, title, severity)
        if self._showing.get(key, 0.0) > now:
            return
        shown_for = timeout if timeout is not None else self.NOTIFICATION_TIMEOUT
        self._showing = {k: until for k, until in self._showing.items() if until > now}
        self._showing[key] = now + shown_for
        self.notices.appendleft(Notice(time.time(), message, title, severity))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def has_unsaved_changes(self) -> bool:
        """True when any open screen holds an edit that is not written yet."""
        return any(getattr(screen, "has_unsaved_changes", lambda: False)() for screen in self.screen_stack)

    # --- actions ----------------------------------------------------------------------

    async def action_quit(self) -> None:
        from textual.actions import SkipAction
        from textual.widgets import Input, TextArea

        confirm = globals().get("ConfirmQuit")
        typed = getattr(self, "_in_key", False)  # the q key, not the palette or a script
        if typed and (isinstance(self.focused, (Input, TextArea)) or (confirm is not None and isinstance(self.screen, confirm))):
            raise SkipAction()  # q is text there (or the question is already asked): the key goes on
        if not self.has_unsaved_changes():
            self.exit(0)
            return

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.exit(0)

        await self.push_screen(__getattr__("ConfirmQuit")(), done)

    def action_help(self) -> None:
        from .screens.review.help_screen import HelpScreen, collect_bindings

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(collect_bindings(self.screen, self)))

    def action_open_screen(self, target: str) -> None:
        """Open a screen named ``"package.module:Class"``, constructed with the session (see actions.py)."""
        import importlib

        module, _, name = target.partition(":")
        cls = getattr(importlib.import_module(module), name)
        self.push_screen(cls(self.session))

    def action_command_palette(self) -> None:
        """Textual's command palette, its prompt in the language in use."""
        from textual.command import CommandPalette

        # Textual types is_open's argument App[object], and App is invariant in its result (ours: int)
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(id="--command-palette", placeholder=_("Search for commands…")))

    def action_notices(self) -> None:
        from .screens.review.notices_screen import NoticesScreen

        if isinstance(self.screen, NoticesScreen):
            self.pop_screen()
            return
        self.push_screen(NoticesScreen(list(self.notices)))

    def action_maximize(self) -> None:
        """Maximise the focused pane (lazygit-style), or restore the layout."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pane = self.focused_pane()
        if pane is not None:
            screen.maximized = pane

    def action_list_move(self, step: int) -> None:
        """j/k where the focused list has no binding of its own (a text field never gets here: it takes the key)."""
        move = getattr(self.focused, "action_cursor_down" if step > 0 else "action_cursor_up", None)
        if callable(move):
            move()

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DARK_THEME
