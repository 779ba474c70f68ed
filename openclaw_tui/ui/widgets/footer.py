"""Textual's ``Footer`` that rebuilds its key widgets only when the keys shown change, once for any number
of announcements, after a pause in filter typing; Quit and Help first, whatever the width."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from ...core.i18n import _

ALWAYS_SHOWN = ("quit", "help", "app.quit", "app.help")  # the footer's first keys, whatever the width

TYPING_WAIT = 0.3  # seconds without a filter key before the key bar is rebuilt


@runtime_checkable
class _Labelled(Protocol):
    """Textual's FooterKey (its module is private): its label is ``description``."""

    description: str


class KeysFooter(Footer):
    """A footer that waits for :meth:`release` (when ``held``) and skips rebuilds that change nothing."""

    def __init__(self, *, held: bool = False, since_typed: Callable[[], float] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.held = held
        self.since_typed = since_typed
        self._pending: Screen[Any] | None = None
        self._built: tuple[Any, ...] | None = None
        self._rebuild_due = False  # a rebuild is scheduled (Textual schedules one per announcement)
        self._keys_ready = False  # the screen's bindings were announced to Footer (it shows none before)

    def _keys(self, screen: Screen[Any]) -> tuple[Any, ...]:
        """What :meth:`compose` would show for ``screen``'s bindings now."""
        app = self.app
        return (
            self.show_command_palette,
            app.ENABLE_COMMAND_PALETTE,
            tuple(
                (binding, enabled, tooltip, app.get_key_display(binding))
                for (_node, binding, enabled, tooltip) in screen.active_bindings.values()
            ),
        )

    def compose(self) -> ComposeResult:
        if self._keys_ready:
            self._built = self._keys(self.screen)
        # Quit and Help first: the app's keys come last from Textual, and a narrow terminal cut them off
        keys = list(super().compose())
        for key in keys:  # the registry's English labels (actions.bindings) in the language in use
            if isinstance(key, _Labelled) and key.description:
                key.description = _(key.description)
        first = [k for k in keys if getattr(k, "action", None) in ALWAYS_SHOWN]  # FooterKey's
        yield from first + [k for k in keys if k not in first]

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit_keys)

    def on_resize(self, _event: events.Resize) -> None:
        for key in self.query("FooterKey"):
            key.display = True
        self.call_after_refresh(self._fit_keys)

    def _fit_keys(self) -> None:
        """Hide the keys under the palette key when labels hold wide (CJK) characters (a split two-cell
        character would blank the palette key's label)."""
        keys = list(self.query("FooterKey"))
        if all(cell_len(getattr(k, "description", "")) == len(getattr(k, "description", "")) for k in keys):
            return
        palette = [k for k in keys if k.has_class("-command-palette")]
        limit = palette[0].region.x if palette else self.region.right
        for key in keys:
            if key not in palette and key.display and key.region.right > limit:
                key.display = False

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.held:
            self._pending = screen
            return
        if self._rebuild_due:
            return  # one rebuild after the next refresh answers every announcement until then
        if self._built is not None and self._keys(screen) == self._built:
            return  # the same keys: Textual would rebuild every key widget for nothing
        # Textual schedules the rebuild only for the focused app's own screen (it announces again on focus)
        self._rebuild_due = bool(screen.app.app_focus and self.is_attached and screen is self.screen)
        self._keys_ready = True
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        wait = TYPING_WAIT - self.since_typed() if self.since_typed is not None and self.is_attached else 0.0
        if wait > 0.005:  # the person is typing: the keys go first, the bar once they pause
            self._rebuild_due = True
            self.set_timer(wait, self.recompose)
            return
        self._rebuild_due = False
        if self._built is not None and self.is_attached and self._keys(self.screen) == self._built:
            return  # changed back meanwhile
        await super().recompose()
        self.call_after_refresh(self._fit_keys)

    def release(self) -> None:
        """Show the keys (once; later calls do nothing)."""
        if not self.held:
            return
        self.held = False
        pending, self._pending = self._pending, None
        if pending is not None and self.is_attached:
            # on this footer's own message loop: the rebuild binds its keys' data to the footer that runs it
            self.call_next(self.bindings_changed, pending)
