"""The key bar, rebuilt only when the keys it shows change.

Textual's Footer recomposes (every key widget unmounted and mounted again, then a layout) each time the
screen announces that its bindings may have changed: focusing the filter with ``/`` announced it two or
three times for one change, ~50 ms each under load, and the first filter keys waited behind them.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class SteadyFooter(Footer):
    """A Footer that skips a recompose when the bindings it would show are the ones on screen."""

    _shown: tuple[Any, ...] | None = None

    def _signature(self) -> tuple[Any, ...]:
        keys = tuple(
            (b.key, b.action, b.description, b.key_display, id(b.group), enabled, tooltip)
            for (_node, b, enabled, tooltip) in self.screen.active_bindings.values() if b.show
        )
        return (keys, self.compact, self.show_command_palette)

    async def recompose(self) -> None:
        if not self.is_attached or not self._bindings_ready:
            await super().recompose()
            return
        shown = self._signature()
        if shown == self._shown and self.children:
            return
        self._shown = shown
        await super().recompose()
