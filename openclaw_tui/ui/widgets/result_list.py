"""The search screen's list of results, each a fixed number of lines made when first drawn (Line API);
keys and messages as an ``OptionList``'s, plus ``Drawn``."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..actions import bindings

PAD = 1  # blank cells left and right of each line (as an option list's padding)

Line = tuple[list[Segment], int]  # a line of a result's text: its segments (unstyled by the list) and cells
Row = tuple[Line, ...]


def render_row(text: Text, width: int, height: int, console: Console) -> Row:
    """The text's first ``height`` lines as segments of at most ``width`` cells (cut with an ellipsis)."""
    lines = text.split("\n", allow_blank=True)[:height]
    row: list[Line] = []
    for line in lines:
        line.truncate(max(1, width), overflow="ellipsis")
        segments = [s for s in line.render(console) if s.text]
        row.append((segments, Segment.get_line_length(segments)))
    return (*row, *[([], 0)] * (height - len(lines)))


def line_strip(line: Line, width: int, style: Style) -> Strip:
    """``PAD`` blank cells, the line's segments over ``style``, blank cells to ``width`` (cut there)."""
    segments, cells = line
    drawn = [Segment(" " * PAD, style), *Segment.apply_style(segments, style)]
    used = PAD + cells
    if used < width:
        drawn.append(Segment(" " * (width - used), style))
    strip = Strip(drawn, max(used, width))
    return strip if used <= width else strip.crop(0, width)


class ResultList(ScrollView, can_focus=True):
    """A list of results of ``row_height`` lines each."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"result-list--highlighted", "result-list--hover"}
    DEFAULT_CSS = """
    ResultList {
        height: 1fr;
        color: $foreground;
        background: $surface;
        border: tall $border-blurred;
        overflow-x: hidden;
        & > .result-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        & > .result-list--hover {
            background: $block-hover-background;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .result-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = bindings("results")  # an option list's keys
    # the scroll range repaints, never lays out the screen (the list's size is the stylesheet's)
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    class _AtIndex(Message):
        """Something happened at result ``index`` of ``result_list``."""

        def __init__(self, result_list: ResultList, index: int) -> None:
            super().__init__()
            self.result_list = result_list
            self.index = index

        @property
        def control(self) -> ResultList:
            return self.result_list

    class Highlighted(_AtIndex):
        """The highlight moved to result ``index``."""

    class Selected(_AtIndex):
        """Enter (or a click) on result ``index``."""

    class Drawn(_AtIndex):
        """The results of ``set_results`` call ``generation`` (the index) were drawn whole in a frame."""

        @property
        def generation(self) -> int:
            return self.index

    def __init__(self, *, row_height: int = 2, id: str | None = None) -> None:
        super().__init__(id=id)
        self.row_height = row_height
        self._count = 0
        self._prompt: Callable[[int], Text] = lambda i: Text()
        self.rows: list[Row | None] = []  # each result's lines, once rendered (None: not yet)
        self._rows_width = 0
        self._highlighted: int | None = None
        self._hover: int | None = None  # the result under the mouse
        # the width and the styles of the lines: plain, highlighted, under the mouse
        self._look: tuple[int, Style, Style, Style] = (0, Style.null(), Style.null(), Style.null())
        self._lines: dict[tuple[int, int, bool, bool], Strip] = {}  # (result, line, highlighted, hover): drawn
        self.generation = 0  # set_results calls so far
        self._drawn = 0  # the last generation drawn whole (``Drawn`` posted)

    @property
    def text_width(self) -> int:
        """The cells a result's line may take."""
        return max(1, self.scrollable_content_region.width - 2 * PAD)

    def text(self, index: int) -> Text:
        """Result ``index``'s text (as made by the function given to ``set_results``)."""
        return self._prompt(index)

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    def set_results(self, count: int, prompt: Callable[[int], Text], highlighted: int | None = 0) -> None:
        """Show ``count`` results from the top, ``prompt(i)`` making result i's text when first drawn;
        ``highlighted`` highlighted without posting a message."""
        self._count, self._prompt = count, prompt
        self.generation += 1
        self._hover = None
        self.rows = [None] * count
        self._rows_width = self.text_width
        self._lines.clear()
        self._highlighted = None if not count or highlighted is None else min(highlighted, count - 1)
        self._fit()
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def _fit(self) -> None:
        """The scrollable size: the results' lines, as wide as the list."""
        size = Size(self.scrollable_content_region.width, self._count * self.row_height)
        if self.virtual_size != size:
            self.virtual_size = size
            self.vertical_scrollbar.window_virtual_size = size.height

    def on_resize(self, event: events.Resize) -> None:
        if self._rows_width != self.text_width:
            self.rows = [None] * len(self.rows)
            self._rows_width = self.text_width
            self._lines.clear()
        self._fit()
        self.refresh()

    # -- drawing --

    def render_lines(self, crop: Region) -> list[Strip]:
        # the styles once a repaint, not once a line
        base = self.rich_style
        look = (self.scrollable_content_region.width, base,
                base + self.get_component_rich_style("result-list--highlighted", partial=True),
                base + self.get_component_rich_style("result-list--hover", partial=True))
        if look != self._look:
            self._look = look
            self._lines.clear()
        lines = super().render_lines(crop)
        if self._drawn != self.generation and crop.contains_region(self.outer_size.region):
            # the frame is written before any message is handled: once ``Drawn`` is, the results are on screen
            self._drawn = self.generation
            self.post_message(self.Drawn(self, self.generation))
        return lines

    def render_line(self, y: int) -> Strip:
        width, base, highlighted, hover = self._look
        index, part = divmod(self.scroll_offset.y + y, self.row_height)
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, base)
        lit, under = index == self._highlighted, index == self._hover
        key = (index, part, lit, under)
        strip = self._lines.get(key)
        if strip is None:
            style = highlighted if lit else hover if under else base
            row = self.rows[index]
            if row is None:
                row = self.rows[index] = render_row(self._prompt(index), self._rows_width, self.row_height,
                                                    self.app.console)
            strip = self._lines[key] = line_strip(row[part], width, style)
        return strip

    # -- moving --

    def highlight(self, index: int | None, *, post: bool = True) -> None:
        if index is not None:
            if not self._count:
                index = None
            else:
                index = max(0, min(index, self._count - 1))
        old, self._highlighted = self._highlighted, index
        if old == index:
            return
        self._refresh_results(old, index)
        if index is not None:
            self.scroll_to_region(Region(0, index * self.row_height, 1, self.row_height), animate=False,
                                  immediate=True)
            if post:
                self.post_message(self.Highlighted(self, index))

    def _step(self, delta: int) -> None:
        if self._count:
            self.highlight(0 if self._highlighted is None else self._highlighted + delta)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_first(self) -> None:
        self.highlight(0)

    def action_last(self) -> None:
        self.highlight(self._count - 1)

    def action_page_down(self) -> None:
        self._step(max(1, self.scrollable_content_region.height // self.row_height))

    def action_page_up(self) -> None:
        self._step(-max(1, self.scrollable_content_region.height // self.row_height))

    def action_select(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Selected(self, self._highlighted))

    def _set_hover(self, index: int | None) -> None:
        if index != self._hover:
            self._refresh_results(self._hover, index)
            self._hover = index

    def _refresh_results(self, *indices: int | None) -> None:
        for i in indices:
            if i is not None:
                self.refresh_lines(i * self.row_height, self.row_height)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        index = None if offset is None else (self.scroll_offset.y + offset.y) // self.row_height
        self._set_hover(index if index is not None and 0 <= index < self._count else None)

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (self.scroll_offset.y + offset.y) // self.row_height
        if 0 <= index < self._count:
            self.highlight(index)
            self.action_select()
