"""A virtualised table of memory entries (Line API): source rows -> sorted (cached) -> filtered; only the
lines on screen are rendered (LRU cache of Strips), column widths from the visible rows."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input

from ...core import i18n
from ...core.i18n import N_
from ..actions import bindings
from ..rows import (
    MARK_LABEL,
    MARK_ORDER,
    EntryRow,
    Query,
    RawText,
    filter_rows,
    narrows,
    short_timestamp,
    sort_rows,
)
from .safe_text import clean_line


class FilterInput(Input):
    """An ``Input`` whose virtual size changing repaints it instead of laying out the screen."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


# (key, header, min width, max width)
COLUMNS: tuple[tuple[str, str, int, int], ...] = (
    ("flag", "", 1, 1),
    ("id", N_("ID"), 2, 18),
    ("status", N_("Status"), 6, 24),
    ("importance", N_("Imp"), 3, 8),
    ("marks", N_("Problems"), 8, 34),
    ("tags", N_("Tags"), 4, 24),
    ("timestamp", N_("Time"), 4, 16),
    ("summary", N_("Summary"), 10, 10_000),
)
SUMMARY_MIN = 30  # cells the summary keeps while a less useful column can give way
SORTABLE = {"id", "status", "importance", "marks", "tags", "timestamp", "summary"}
SORT_CYCLE = ("order", "id", "status", "importance", "marks", "tags", "timestamp", "summary")
ERROR_MARKS = {"malformed", "merge-conflict", "duplicate", "dangling"}
# a filter typed before the rows are indexed: seconds of checking rows per step, and between steps
PARTIAL_BUDGET = 0.02
PARTIAL_STEP = 0.01
PARTIAL_CHUNK = 32  # candidates checked between two looks at the clock
PARTIAL_TYPING_PAUSE = 0.25  # after a filter change, before the rest of its answer is looked for
PARTIAL_SHOW_EVERY = 0.3  # between scrollbar and count updates while the answer grows
PARTIAL_SLOW_BUDGET = 0.005  # ... once the rows found fill the screen twice over
PARTIAL_SLOW_STEP = 0.03


def badge_text(mark: str, detail: str) -> str:
    """Short label of a problem mark, as shown in the Problems column."""
    if mark == "conflict":
        return "⇄ " + (detail.replace(",", " ") if detail else "CONFLICT")
    label = i18n._(MARK_LABEL[mark]) if mark in MARK_LABEL else mark.upper()
    if detail and mark in ("invalid", "dangling", "inactive-ref"):
        return f"{label} {detail.replace(',', ' ')}"
    return label


def status_text(row: EntryRow) -> str:
    if row.status == "superseded" and row.superseded_by:
        return f"superseded → {row.superseded_by}"
    return row.status


class EntryTable(ScrollView, can_focus=True):
    """The entries of one memory file; cursor, sorting and filtering."""

    BINDINGS = bindings("entries")

    COMPONENT_CLASSES = {f"entry-table--{name}" for name in (
        "header", "header-sorted", "cursor", "cursor-blurred", "id", "muted", "superseded", "cold", "archived",
        "malformed", "conflict", "badge-error", "badge-warning", "badge-conflict", "flag-error", "flag-warning",
        "high", "low", "tag", "empty", "picked",
    )}

    class _Message(Message):
        """A message of ``table`` (never posted itself: ``@on`` also matches a message's subclasses)."""

        def __init__(self, table: EntryTable) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> EntryTable:
            return self.table

    class ViewChanged(_Message):
        """The visible rows changed (filter, sort or new source)."""

    class Highlighted(_Message):
        """The cursor moved to ``row`` (None when the view is empty)."""

        def __init__(self, table: EntryTable, row: EntryRow | None) -> None:
            super().__init__(table)
            self.row = row

    class Selected(Highlighted):
        """Enter or double click on ``row``."""

    class PicksChanged(_Message):
        """Entries were picked or unpicked (``count``: how many are picked now)."""

        def __init__(self, table: EntryTable, count: int) -> None:
            super().__init__(table)
            self.count = count

    def __init__(self, *, hide: tuple[str, ...] = (), id: str | None = None) -> None:
        super().__init__(id=id)
        self.hidden_columns = frozenset(hide)
        self.source: list[EntryRow] = []  # the file's rows, file order
        self._sorted: list[EntryRow] | None = None
        self.view: list[EntryRow] = []  # the rows shown: sorted and filtered
        self.query_obj = Query()
        self.sort_key = "order"
        self.sort_reverse = False
        self.cursor = 0
        self.indexed = True  # all source rows filled: filtering and sorting may run
        self.complete = True  # the source is every row of the file (False: its first rows only)
        self.placeholder = i18n._("Loading…")
        self._version = 0
        self._marks_version = 0
        self._data_version = 0  # rows or their marks changed: cached strips are stale
        self._view_is_filtered_by: Query | None = None  # the query _view was computed with
        self._announced: EntryRow | None = None
        self._announced_version = -1
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        self._layout_key: tuple[object, ...] | None = None
        self._widths: tuple[int, ...] = ()
        self._picked: dict[tuple[str, str], None] = {}  # (file, id) in the order they were picked
        # a filter typed before the rows are indexed: (query, the candidates not checked yet, file order)
        self._partial: tuple[Query, Iterator[EntryRow]] | None = None
        self._raw: RawText | None = None  # the source's text (until indexed)
        self._raw_provider: Callable[[], RawText | None] | None = None  # its lowered text, once made
        self._queried_at = 0.0  # time.monotonic() of the last filter change (the answer's rest waits)
        self._grown_at = 0.0  # ... of the last scrollbar and count update while the answer grows

    # --- data -------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.view)

    @property
    def cursor_row(self) -> EntryRow | None:
        if 0 <= self.cursor < len(self.view):
            return self.view[self.cursor]
        return None

    def load(self, rows: Sequence[EntryRow], *, indexed: bool, keep: EntryRow | str | None = None,
             placeholder: str = N_("This file holds no entries."),
             raw: Callable[[], RawText | None] | None = None, complete: bool = True) -> None:
        """Show ``rows`` (file order), the cursor kept on ``keep`` if present; ``raw`` gives their
        :class:`RawText` once made (a filter before indexing finds rows by it); ``complete=False``: the
        first rows of a file still being read."""
        self._raw_provider = raw
        self.complete = complete
        keep = keep if keep is not None else self.cursor_row
        self.source = list(rows)
        if self._picked:  # picks follow the entries by id; those no longer listed are dropped
            present = {(r.file, r.id) for r in self.source if r.id and not r.malformed}
            kept = {k: None for k in self._picked if k in present}
            if len(kept) != len(self._picked):
                self._picked = kept
                self.post_message(self.PicksChanged(self, len(kept)))
        self._data_version += 1
        self._sorted = None
        self.indexed = indexed
        self._raw = None
        self.placeholder = placeholder
        self._recompute(keep)

    # --- picks ---------------------------------------------------------------------------

    @property
    def picked_ids(self) -> list[str]:
        """Ids of the picked entries, in the order they were picked."""
        return [ident for _file, ident in self._picked]

    def set_picked(self, rows: Sequence[EntryRow], picked: bool = True) -> None:
        for r in rows:
            if not r.id or r.malformed:
                continue  # a malformed block has no id to act on
            if picked:
                self._picked[(r.file, r.id)] = None
            else:
                self._picked.pop((r.file, r.id), None)
        self.refresh()
        self.post_message(self.PicksChanged(self, len(self._picked)))

    def clear_picks(self) -> None:
        if self._picked:
            self._picked = {}
            self.refresh()
            self.post_message(self.PicksChanged(self, 0))

    def action_pick(self) -> None:
        row = self.cursor_row
        if row is None:
            return
        self.set_picked([row], (row.file, row.id) not in self._picked)
        if self.cursor < len(self.view) - 1:
            self.move_cursor(self.cursor + 1)

    def action_pick_all(self) -> None:
        self.set_picked(self.view)

    def action_clear_picks(self) -> None:
        self.clear_picks()

    def set_indexed(self) -> None:
        """All rows are filled: apply the pending filter and sort."""
        self.indexed = True
        self._sorted = None
        self._raw = None
        self._recompute(self.cursor_row)

    @property
    def partial(self) -> bool:
        """The view is the start of the filter's answer: rows are still being checked or read."""
        return self._partial is not None or not self.complete

    def _partial_view(self, query: Query) -> list[EntryRow]:
        """The filter's answer over rows not yet indexed, as far as one step gets (file order); the
        candidates (from :class:`RawText`, else every row) left are checked in later steps."""
        made = self._raw_provider() if self._raw_provider is not None else None
        if made is not None and made is not self._raw and (made.rows == self.source or self._extended_by(made)):
            if self._raw is not None and made.rows is not self._raw.rows:
                self._data_version += 1  # rows made anew: strips cached by id() of the old ones are stale
            self._raw = made
        elif self._raw is None:
            self._raw = RawText(self.source, lower=False)  # instant: answers words without case
        cands = self._raw.candidates(query)
        self._partial = (query, iter(self.source) if cands is None else cands)
        return self._partial_step([])

    def _extended_by(self, raw: RawText) -> bool:
        """``raw`` is over every block of the file whose first rows are the source (not complete)."""
        extends = getattr(raw.rows, "extends", None)
        return not self.complete and extends is not None and bool(extends(self.source))

    def shows_enough(self) -> bool:
        """The rows on screen and a screenful more are the filter's answer already."""
        return self.query_obj.empty or len(self.view) >= self.scroll_offset.y + 2 * max(self.size.height, 1)

    def refilter(self) -> None:
        """Run the filter again (the rows it can look through grew)."""
        if not self.query_obj.empty:
            self._recompute(self.cursor_row)

    def _partial_step(self, view: list[EntryRow]) -> list[EntryRow]:
        """Check the next candidates for ``PARTIAL_BUDGET`` seconds (``PARTIAL_SLOW_BUDGET`` once the
        screen is full twice over) and schedule the next step."""
        assert self._partial is not None
        query, cands = self._partial
        need = self.scroll_offset.y + 2 * max(self.size.height, 1)
        full = len(view) >= need
        now = time.perf_counter()
        end = now + (PARTIAL_SLOW_BUDGET if full else PARTIAL_BUDGET) if self.is_mounted else float("inf")
        while time.perf_counter() < end:
            chunk = list(islice(cands, PARTIAL_CHUNK))
            for r in chunk:
                if not r.filled:
                    r.fill()
            view += filter_rows(chunk, query)
            if len(chunk) < PARTIAL_CHUNK:
                self._partial = None
                return view
            if not full and len(view) >= need and self.is_mounted:
                break  # the screen is full: this key's answer is on it
        self.set_timer(PARTIAL_SLOW_STEP if len(view) >= need else PARTIAL_STEP, self._continue_partial)
        return view

    def _continue_partial(self) -> None:
        """The next step of a filter's answer: not while the person types; repaint only when it reached
        the rows on screen, the scrollbar and counts a few times a second and at the end."""
        if self._partial is None or self.indexed or self._partial[0] is not self.query_obj:
            return
        now = time.monotonic()
        shown = len(self.view) < self.scroll_offset.y + max(self.size.height, 1)  # rows on screen may come
        if not shown and now - self._queried_at < PARTIAL_TYPING_PAUSE:
            self.set_timer(PARTIAL_TYPING_PAUSE, self._continue_partial)
            return
        grown = self._partial_step(self.view)  # appends to the view in place: it only grows
        if shown or self._partial is None:
            self._version += 1
            self._layout_key = None
            self.refresh()
        if shown or self._partial is None or now - self._grown_at >= PARTIAL_SHOW_EVERY:
            self._grown_at = now
            self.virtual_size = Size(0, len(grown) + 1)  # the header and the rows
            self.post_message(self.ViewChanged(self))

    def apply_query(self, query: Query) -> None:
        previous, self.query_obj = self.query_obj, query
        self._queried_at = time.monotonic()
        narrowing = self.indexed and self._sorted is not None and self._view_is_filtered_by is previous
        self._recompute(self.cursor_row, narrow=narrowing and narrows(query, previous), by_id=False)

    def sort_by(self, key: str, reverse: bool | None = None) -> None:
        if reverse is None:
            reverse = (not self.sort_reverse) if key == self.sort_key and key != "order" else False
        self.sort_key, self.sort_reverse = key, reverse
        self._sorted = None
        self._recompute(self.cursor_row)

    def marks_changed(self) -> None:
        """Findings were re-applied: re-filter when the view depends on marks, repaint."""
        if self.sort_key == "marks":
            self._sorted = None
        self._marks_version += 1
        self._data_version += 1
        self._recompute(self.cursor_row)

    def _recompute(self, keep: EntryRow | str | None, narrow: bool = False, by_id: bool = True) -> None:
        """Rebuild the view; ``narrow``: the new query only removes rows from the current view."""
        self._partial = None
        if not self.indexed:
            view = self.source if self.query_obj.empty else self._partial_view(self.query_obj)
            self._view_is_filtered_by = None
        else:
            if self._sorted is None:
                self._sorted = (
                    self.source if self.sort_key == "order" and not self.sort_reverse
                    else sort_rows(self.source, self.sort_key, self.sort_reverse)
                )
            if self.query_obj.empty:
                view = self._sorted
            else:
                view = filter_rows(self.view if narrow else self._sorted, self.query_obj)
            self._view_is_filtered_by = self.query_obj
        self.view = view
        self.virtual_size = Size(0, len(view) + 1)
        index = self._index_of(keep, by_id) if keep is not None else None
        self._version += 1
        self._layout_key = None
        self.cursor = min(index if index is not None else self.cursor, max(0, len(view) - 1))
        if index is None and self.cursor >= len(view):
            self.cursor = 0
        self._ensure_visible()
        self.refresh()
        self.post_message(self.ViewChanged(self))
        self._announce()

    def _announce(self) -> None:
        """Tell the screen about the row under the cursor, when it changed."""
        row = self.cursor_row
        if row is not self._announced or self._announced_version != self._marks_version:
            self._announced, self._announced_version = row, self._marks_version
            self.post_message(self.Highlighted(self, row))

    def _index_of(self, keep: EntryRow | str, by_id: bool = True) -> int | None:
        """Where ``keep`` is in the view (an id, or a row: itself, else with ``by_id`` its id)."""
        view = self.view
        if isinstance(keep, EntryRow):
            try:
                return view.index(keep)  # rows compare by identity: a C loop
            except ValueError:
                if not by_id:
                    return None
            keep = keep.id
        if not keep:
            return None
        return next((i for i, r in enumerate(view) if r.id == keep), None)

    def select_row(self, row: EntryRow | str) -> bool:
        """Move the cursor to ``row`` (or the first row with that id) if it is in view."""
        index = self._index_of(row)
        if index is None:
            return False
        self.move_cursor(index, center=True)
        return True

    # --- cursor -----------------------------------------------------------------------

    @property
    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def move_cursor(self, index: int, center: bool = False) -> None:
        if not self.view:
            return
        index = max(0, min(index, len(self.view) - 1))
        old = self.cursor
        self.cursor = index
        if center:
            self.scroll_to(y=max(0, index - self._page // 2), animate=False, immediate=True)
        else:
            self._ensure_visible()
        if old != index:
            self.refresh()
        self._announce()

    def _ensure_visible(self) -> None:
        # the cursor's row is drawn a line lower (under the header): two virtual lines must be in view
        self.scroll_to_region(Region(0, self.cursor, 1, 2), animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor - self._page)

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor + self._page)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self.view) - 1)

    def action_select(self) -> None:
        if self.cursor_row is not None:
            self.post_message(self.Selected(self, self.cursor_row))

    def action_sort_next(self) -> None:
        i = SORT_CYCLE.index(self.sort_key) if self.sort_key in SORT_CYCLE else 0
        self.sort_by(SORT_CYCLE[(i + 1) % len(SORT_CYCLE)], False)

    def action_sort_reverse(self) -> None:
        self.sort_by(self.sort_key, not self.sort_reverse)

    # --- mouse ------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        event.stop()
        if offset.y == 0:
            key = self._column_at(offset.x)
            if key in SORTABLE:
                self.sort_by(key)
            return
        index = self.scroll_offset.y + offset.y - 1
        if 0 <= index < len(self.view):
            self.move_cursor(index)
            if event.chain >= 2:
                self.action_select()

    def _column_at(self, x: int) -> str | None:
        pos = 0
        for (key, *_), w in zip(COLUMNS, self._layout(), strict=False):
            if w and pos <= x < pos + w + 1:
                return key
            pos += w + 1 if w else 0
        return None

    # --- rendering --------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._layout_key = None

    @on(events.Focus)
    @on(events.Blur)
    def _focus_changed(self) -> None:
        self._cache.clear()
        self.refresh()

    def _visible(self) -> list[EntryRow]:
        top = self.scroll_offset.y
        return self.view[top : top + max(0, self.size.height - 1)]

    def _layout(self) -> tuple[int, ...]:
        """Column widths for the rows now on screen (0 = column hidden)."""
        width = self.size.width
        key = (self.scroll_offset.y, self.size.height, width, self._version)
        if key == self._layout_key:
            return self._widths
        rows = self._visible()
        for r in rows:
            r.fill()
        want: dict[str, int] = {}
        for name, header, lo, hi in COLUMNS:
            if name == "summary":
                continue
            if name in self.hidden_columns:
                want[name] = 0
                continue
            w = max(lo, cell_len(i18n._(header)))
            for r in rows:
                w = max(w, sum(cell_len(text) for text, _style in self._cell_parts(name, r, hi, "error")))
            want[name] = min(w, hi)
        fixed = sum(want.values()) + len(want)  # one space after each column
        for name, room, short in (("timestamp", 48, 10), ("tags", 40, 14)):  # the date only, fewer tags
            if width - fixed < room and want[name] > short:
                fixed -= want[name] - short
                want[name] = short
        # Columns give way (time, tags, importance) before the summary goes under SUMMARY_MIN cells.
        for drop in ("timestamp", "tags", "importance"):
            if width - fixed >= SUMMARY_MIN or not want[drop]:
                continue
            fixed -= want[drop] + 1
            want[drop] = 0
        want["summary"] = max(0, width - fixed)
        widths = tuple(want[name] for name, *_ in COLUMNS)
        self._layout_key, self._widths = key, widths
        return widths

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        widths = self._layout()
        if y == 0:
            key: tuple[object, ...] = ("header", widths, self.sort_key, self.sort_reverse, width)
            strip = self._cache.get(key)
            if strip is None:
                strip = self._render_header(widths, width)
                self._cache[key] = strip
            return strip
        index = self.scroll_offset.y + y - 1
        if index >= len(self.view):
            if index == 0 and not self.view:
                return self._render_message(width)
            return Strip.blank(width, self.rich_style)
        row = self.view[index]
        is_cursor = index == self.cursor
        picked = (row.file, row.id) in self._picked
        key = (id(row), widths, is_cursor, is_cursor and self.has_focus, self._data_version, width, picked)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(row, widths, width, is_cursor, picked)
            self._cache[key] = strip
        return strip

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"entry-table--{name}", partial=True)

    def _render_message(self, width: int) -> Strip:
        if self.partial:
            msg = i18n._("Looking… (the entries are still being read)")
        elif self.source and not self.view:
            msg = i18n._("No entry matches the filter. Press Esc to clear it.")
        else:
            msg = i18n._(self.placeholder)
        text = Text("  " + msg, style=self.rich_style + self._style("empty"), no_wrap=True, end="")
        text.truncate(width, pad=True)
        return Strip(text.render(self.app.console), width)

    def _render_header(self, widths: tuple[int, ...], width: int) -> Strip:
        base = self.rich_style + self.get_component_rich_style("entry-table--header", partial=True)
        sorted_style = self._style("header-sorted")
        text = Text(style=base, no_wrap=True, end="")
        for (name, header, *_), w in zip(COLUMNS, widths, strict=False):
            if not w:
                continue
            label = i18n._(header) if header else ""
            style = Style()
            if name == self.sort_key:
                label = f"{label} {'▼' if self.sort_reverse else '▲'}"
                style = sorted_style
            cell = Text(label, style=style, no_wrap=True, end="")
            cell.truncate(w, pad=True)
            text.append_text(cell)
            text.append(" ")
        text.truncate(width, pad=True)
        return Strip(text.render(self.app.console), width)

    def _render_row(self, row: EntryRow, widths: tuple[int, ...], width: int, is_cursor: bool,
                    picked: bool = False) -> Strip:
        """One row as segments (no Text objects: this runs for every line on screen)."""
        row.fill()
        style = self._style
        row_style = self.rich_style
        if row.malformed:
            row_style += style("malformed")
        elif row.status in ("superseded", "cold", "archived"):
            row_style += style(row.status)
        if picked:
            row_style += style("picked")
        if is_cursor:
            row_style += style("cursor") if self.has_focus else style("cursor-blurred")
        worst = None if not row.marks else "error" if not ERROR_MARKS.isdisjoint(row.marks) else "warning"
        segments: list[Segment] = []
        append = segments.append
        used = 0
        for (name, *_), w in zip(COLUMNS, widths, strict=False):
            if not w:
                continue
            room = w
            parts = [("●", style("picked"))] if picked and name == "flag" else self._cell_parts(name, row, w, worst)
            for i, (text, cell_style) in enumerate(parts):
                if room <= 0:
                    break
                n = cell_len(text)
                if n > room or (n == room and i < len(parts) - 1):
                    text = set_cell_size(text, room - 1) + "…"
                    n = room
                seg_style = row_style + cell_style if cell_style is not None else row_style
                if is_cursor and cell_style is not None:
                    seg_style += style("cursor") if self.has_focus else style("cursor-blurred")
                append(Segment(text, seg_style))
                room -= n
            append(Segment(" " * (room + 1), row_style))
            used += w + 1
        if used < width:
            append(Segment(" " * (width - used), row_style))
        return Strip(segments, max(used, width)).crop(0, width)

    def _cell_parts(self, name: str, r: EntryRow, w: int, worst: str | None) -> list[tuple[str, Style | None]]:
        """The text pieces of one cell and their styles (None: the row's style)."""
        style = self._style
        if name == "flag":
            return [("▌", style(f"flag-{worst}"))] if worst is not None else []
        if name == "id":
            s = style("malformed") if r.malformed else style("id")
            if "conflict" in r.marks and not r.malformed:
                s += style("conflict")
            return [(clean_line(r.id or "(no id)"), s)]
        if name == "status":
            return [(clean_line(status_text(r)), None)]
        if name == "importance":
            if "invalid" in r.marks and "importance" in r.marks["invalid"].split(","):
                return [(clean_line(r.importance), style("badge-warning"))]
            imp_style = style(r.importance) if r.importance in ("high", "low") else None
            return [(clean_line(r.importance), imp_style)]
        if name == "marks":
            parts: list[tuple[str, Style | None]] = []
            for m, d in sorted(r.marks.items(), key=lambda kv: MARK_ORDER.get(kv[0], 99)):
                if parts:
                    parts.append((" ", None))
                kind = "conflict" if m == "conflict" else "error" if m in ERROR_MARKS else "warning"
                parts.append((clean_line(badge_text(m, d)), style(f"badge-{kind}")))
            return parts
        if name == "tags":
            return [(clean_line(", ".join(r.tags)), style("tag"))]
        if name == "timestamp":
            ts = short_timestamp(r.timestamp)
            if w < len(ts) and len(ts) == 16:
                ts = ts[:10]
            return [(clean_line(ts), style("muted"))]
        return [(clean_line(r.summary), style("superseded") if r.status == "superseded" else None)]
