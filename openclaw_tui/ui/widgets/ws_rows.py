"""A read-only list of rows with fixed-width columns for the workspace view (Line API: only the
visible lines are rendered, no cell is measured); ``Highlighted`` is posted when the cursor moves."""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..actions import bindings
from .safe_text import clean_line

Cell = Text | str | tuple[str, str]  # a str is shown with its controls made visible


class RowsView(ScrollView, can_focus=True):
    """Rows of cells under a one-line header, the last column taking the rest of the width; cells
    become ``Text`` (controls made visible) only when their row is drawn."""

    DEFAULT_CSS = """
    RowsView { height: 1fr; background: $surface; scrollbar-size-vertical: 1; overflow-x: hidden; }
    """
    BINDINGS = bindings("ws-rows")

    cursor_row: reactive[int] = reactive(0, always_update=True, repaint=True)

    class Highlighted(Message):
        def __init__(self, view: RowsView, index: int) -> None:
            super().__init__()
            self.view = view
            self.index = index

        @property
        def control(self) -> RowsView:
            return self.view

    def __init__(self, headers: Sequence[str], widths: Sequence[int], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.headers = list(headers)
        self.widths = list(widths)  # all but the last column
        self.rows: Sequence[Sequence[Cell]] = []
        self.painted = False  # a row has been drawn (benchmarks wait for it)

    # --- content ------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def set_rows(self, rows: Sequence[Sequence[Cell]]) -> None:
        """The rows to show: any sequence (a lazy one makes a row's cells only when it is drawn)."""
        self.rows = rows
        self.virtual_size = Size(self.size.width, len(rows) + 1)
        self.cursor_row = max(0, min(self.cursor_row, len(rows) - 1))
        self.refresh()

    def move_cursor(self, row: int) -> None:
        self.cursor_row = max(0, min(row, len(self.rows) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        # the row is drawn a line lower (under the header): two virtual lines must be in view
        self.scroll_to_region(Region(0, new, 1, 2), animate=False)
        self.post_message(self.Highlighted(self, new))

    # --- input --------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self.move_cursor(self.cursor_row + direction * max(1, self.scrollable_content_region.height - 2))

    def action_jump(self, where: int) -> None:
        self.move_cursor(len(self.rows) - 1 if where < 0 else where)

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.move_cursor(int(self.scroll_offset.y) + event.y - 1)

    # --- rendering ----------------------------------------------------------------------

    def _line(self, cells: Sequence[Cell], width: int, style: Style | None) -> Strip:
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        used = 0
        for i, cell in enumerate(cells):
            if isinstance(cell, Text):
                part = cell.copy()
            else:
                text, cell_style = cell if isinstance(cell, tuple) else (str(cell), "")
                part = Text(clean_line(text), style=cell_style)
            if i < len(self.widths):
                part.truncate(self.widths[i], overflow="ellipsis", pad=True)
                line.append_text(part)
                line.append(" ")
                used += self.widths[i] + 1
            else:
                part.truncate(max(0, width - used), overflow="ellipsis")
                line.append_text(part)
        line.truncate(width, overflow="ellipsis", pad=True)
        segments = list(line.render(self.app.console))
        if style is not None:
            segments = list(Segment.apply_style(segments, post_style=style))
        return Strip(segments, width)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            header = [Text(h, style="bold") for h in self.headers]
            return self._line(header, width, base + Style(dim=True)).apply_style(base)
        index = int(self.scroll_offset.y) + y - 1
        if index >= len(self.rows):
            return Strip.blank(width, base)
        self.painted = True
        cursor = None
        if index == self.cursor_row:
            cursor = Style(reverse=True) if self.has_focus else Style(bgcolor="grey23")
        return self._line(self.rows[index], width, cursor).apply_style(base)

    @on(events.Focus)
    @on(events.Blur)
    def _focus_changed(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.rows) + 1)
