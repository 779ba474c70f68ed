"""The search screen puts every result in its list in one frame, in rank order, the first one explained; the
list makes a result's lines when it is first drawn (cut to the list's width, again when the width changes), moves and opens like an option list (keys and mouse); typing lays
out nothing; and a query typed before an older one's results were painted never gets the old results."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Input, Static

from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.search import search_screen
from openclaw_tui.ui.screens.search.search_screen import LIMIT, ROW_HEIGHT, SearchScreen, hit_prompt
from openclaw_tui.ui.widgets.result_list import PAD, ResultList, line_strip, render_row
from tests.search_corpus import TODAY, entry, write
from tests.support import until
from tests.ui_support import SIZE, widget_text

DAY = dt.date.fromisoformat(TODAY)
LONG = "coffee " + " ".join(f"word{i:03d}" for i in range(60))  # wider than any list here


class Host(App[None]):
    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.first = screen
        self.result: object = None

    def on_mount(self) -> None:
        self.push_screen(self.first, self.done)

    def done(self, result: object) -> None:
        self.result = result


def corpus(tmp_path: Path) -> Path:
    p = tmp_path / "prof"
    write(p / "memories.md", "".join(
        entry(f"mem-{i:04d}", f"coffee note {i} " + "filler " * (i % 9),
              timestamp=(DAY - dt.timedelta(days=i % 40)).isoformat()) for i in range(LIMIT + 20)))
    return p


def explained(screen: Screen[Any]) -> str:
    return str(screen.query_one("#search-explain", Static).render())


def drawn_lines(results: ResultList) -> list[str]:
    """The text cells of each line the list shows (its border and padding cut off)."""
    return [line[1 + PAD:1 + PAD + results.text_width] for line in widget_text(results).splitlines()[1:-1]]


async def test_every_result_is_listed_in_rank_order_in_the_first_paint_and_the_keys_move_through_them(
        tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    screen = SearchScreen(corpus(tmp_path), today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        results = screen.query_one("#search-results", ResultList)
        painted: list[tuple[int, str, str]] = []  # what was on screen when the results were painted
        on_painted = screen._painted

        def observe(hits: list[Any], value: str) -> None:
            painted.append((len(results.rows), widget_text(results), explained(screen)))
            on_painted(hits, value)
        monkeypatch.setattr(screen, "_painted", observe)
        screen.query_one("#search-input", Input).value = "coffee"
        await until(lambda: screen.listed_query == "coffee", pilot=pilot)
        hits = screen.hits
        assert len(hits) == LIMIT
        (count, shown, explain), = painted
        assert count == LIMIT and screen.shown_query == "coffee" and screen.listed_at == screen.shown_at
        ids = [h.id for h in hits]
        assert all(ids) and len(set(ids)) == LIMIT
        on_screen = results.scrollable_content_region.height // ROW_HEIGHT  # results wholly in view
        positions = [shown.find(f"{i} ") for i in ids[:on_screen]]
        assert -1 not in positions and positions == sorted(positions)  # from the top, in rank order
        assert f"{ids[on_screen + 1]} " not in shown
        assert ids[0] is not None and ids[0] in explain  # in the same frame as the list
        assert results.virtual_size.height == results.vertical_scrollbar.window_virtual_size == LIMIT * ROW_HEIGHT
        # the first lines are each result's own prompt, cut to the list's width
        first = hit_prompt(hits[0], False).plain.split("\n")
        assert [line.rstrip() for line in drawn_lines(results)[:ROW_HEIGHT]] == [line.rstrip() for line in first]
        # those below the fold are rendered when first drawn
        assert results.rows[-1] is None
        assert results.highlighted == 0
        await pilot.press("enter", "end")  # (enter: to the list) the last result is there and reachable
        await pilot.pause()
        assert results.highlighted == LIMIT - 1 and results.rows[-1] is not None
        assert f"{ids[-1]} " in widget_text(results) and ids[-1] in explained(screen)
        await pilot.press("up")
        await pilot.pause()
        assert results.highlighted == LIMIT - 2 and ids[-2] in explained(screen)
        await pilot.press("pageup")
        await pilot.pause()
        assert results.highlighted == LIMIT - 2 - results.scrollable_content_region.height // ROW_HEIGHT
        await pilot.press("home")
        await pilot.pause()
        assert results.highlighted == 0 and f"{ids[0]} " in widget_text(results) and ids[0] in explained(screen)
        await pilot.press("up")  # (stays on the first)
        await pilot.pause()
        assert results.highlighted == 0


async def test_lines_are_cut_to_the_list_s_width_and_cut_again_when_it_changes(tmp_path: Path,
                                                                                monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    p = tmp_path / "prof"
    write(p / "memories.md", entry("mem-0001", LONG, timestamp=TODAY))
    screen = SearchScreen(p, today=DAY)
    async with Host(screen).run_test(size=(100, 30)) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        results = screen.query_one("#search-results", ResultList)
        screen.query_one("#search-input", Input).value = "word030"
        await until(lambda: screen.listed_query == "word030", pilot=pilot)
        assert [h.id for h in screen.hits] == ["mem-0001"]

        def snippet() -> str:
            line = drawn_lines(results)[1]
            assert "word0" in line
            return line
        narrow = snippet()
        assert narrow.endswith("…") and cell_len(narrow) == results.text_width
        full = hit_prompt(screen.hits[0], False).plain.split("\n")[1]
        assert full.startswith(narrow[:-1])
        await pilot.resize_terminal(140, 30)
        await until(lambda: cell_len(snippet().rstrip()) > cell_len(narrow), pilot=pilot)
        wide = snippet()
        assert results.vertical_scrollbar.window_size == results.scrollable_content_region.height  # (the new size)
        assert results.vertical_scrollbar.window_virtual_size == ROW_HEIGHT
        assert cell_len(wide) <= results.text_width and full.startswith(wide.rstrip().removesuffix("…"))
        assert [results.text(0).plain] == [hit_prompt(h, False).plain for h in screen.hits]


async def test_the_result_under_the_mouse_is_lit_and_a_click_opens_it(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    screen = SearchScreen(corpus(tmp_path), today=DAY)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        screen.query_one("#search-input", Input).value = "coffee"
        await until(lambda: screen.listed_query == "coffee", pilot=pilot)
        results = screen.query_one("#search-results", ResultList)

        def background(y: int) -> object:  # of the line's last cell (padding: only the line's style)
            return results.render_line(y)._segments[-1].style.bgcolor  # noqa: SLF001
        plain = background(4)
        await pilot.hover("#search-results", offset=(6, 1 + 2 * ROW_HEIGHT))  # the third result
        await pilot.pause()
        assert background(2 * ROW_HEIGHT) != plain and background(2 * ROW_HEIGHT + 1) != plain
        assert background(4 * ROW_HEIGHT) == plain
        await pilot.hover("#search-input")
        await pilot.pause()
        assert background(2 * ROW_HEIGHT) == plain
        second = screen.hits[1]
        await pilot.click("#search-results", offset=(6, 1 + ROW_HEIGHT + 1))  # (below the border) its snippet
        await pilot.pause()
    assert app.result == (Location("memories.md", second.match_line, second.id, str(tmp_path / "prof")),
                          tmp_path / "prof")


async def test_typing_a_query_lays_out_nothing_even_when_the_number_of_results_changes(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Each key typed in a plain ``Input`` re-arranges the whole screen; the query box keeps its size, and the
    list's scroll range (public ``virtual_size``), which changes with the number of results, repaints the list
    and its scrollbar only."""
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    screen = SearchScreen(corpus(tmp_path), today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        await pilot.pause(0.1)
        layouts: list[object] = []
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
        counts = [len(screen.hits)]  # the number of results of each list shown
        show = screen._show

        def observe(hits: list[Any], *rest: Any) -> None:
            counts.append(len(hits))
            show(hits, *rest)

        monkeypatch.setattr(screen, "_show", observe)
        results = screen.query_one("#search-results", ResultList)
        for word in ("coffee", "note 7"):
            for key in word:
                await pilot.press("space" if key == " " else key)
                await pilot.pause(0.03)  # (a search for each key, most of them)
            await until(lambda word=word: screen.listed_query == word and bool(screen.hits), pilot=pilot)
            assert results.vertical_scrollbar.window_virtual_size == len(screen.hits) * ROW_HEIGHT
            for _ in word:
                await pilot.press("backspace")
            await until(lambda: screen.listed_query == "", pilot=pilot)
        changes = sum(1 for before, after in zip(counts, counts[1:], strict=False) if before != after)
        keys = 2 * len("coffee") + 2 * len("note 7")
        assert layouts == [] and 0 < changes < keys
        assert results.vertical_scrollbar.window_virtual_size == results.virtual_size.height == 0
        assert screen.searches >= 2


async def test_a_long_query_still_scrolls_in_its_box(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    screen = SearchScreen(corpus(tmp_path), today=DAY)
    async with Host(screen).run_test(size=(60, 30)) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        box = screen.query_one("#search-input", Input)
        query = "coffee " + "x" * 70 + " end"
        await pilot.press(*[("space" if k == " " else k) for k in query])
        await until(lambda: screen.listed_query == query, pilot=pilot)
        assert box.scroll_offset.x > 0 and "x end" in "".join(seg.text for seg in box.render_line(0))


async def test_a_new_query_before_the_old_one_was_painted_shows_only_its_own_results(tmp_path: Path,
                                                                                      monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    p = corpus(tmp_path)
    write(p / "identity.md", "# 抹茶 only here\n")
    screen = SearchScreen(p, today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        results = screen.query_one("#search-results", ResultList)
        box = screen.query_one("#search-input", Input)
        box.value = "coffee"
        await until(lambda: screen.last_query == "coffee", pilot=pilot)
        hits = screen.hits
        screen._show([], None, "", "")  # another query's (empty) results arrive before coffee's were painted
        await until(lambda: screen.shown_query == "", pilot=pilot)
        screen._painted(hits, "coffee")  # coffee's late callback: it must change nothing
        assert len(results.rows) == 0 and screen.shown_query == screen.listed_query == ""
        assert "mem-" not in widget_text(results)
        box.value = "抹茶"
        await until(lambda: screen.listed_query == "抹茶", pilot=pilot)
        assert len(results.rows) == 1 and [h.file for h in screen.hits] == ["identity.md"]
        assert "identity.md" in widget_text(results)


async def test_an_older_query_answered_late_never_replaces_the_newer_one_s_results(tmp_path: Path,
                                                                                   monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    p = tmp_path / "prof"
    write(p / "memories.md", entry("mem-0001", "slow tea", timestamp=TODAY) + entry("mem-0002", "fast coffee",
                                                                                     timestamp=TODAY))
    entered, release = threading.Event(), threading.Event()
    real_rank = search_screen.rank

    def rank(index: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        if query == "slow":  # answered only once the test says so
            entered.set()
            release.wait(20)
        return real_rank(index, query, *args, **kwargs)
    monkeypatch.setattr(search_screen, "rank", rank)
    screen = SearchScreen(p, today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        results = screen.query_one("#search-results", ResultList)
        box = screen.query_one("#search-input", Input)
        for newer, ids in (("fast", ["mem-0002"]), ("", [])):  # another query, then the box cleared
            entered.clear()
            release.clear()
            box.value = "slow"
            await until(entered.is_set, pilot=pilot)
            box.value = newer
            await until(lambda newer=newer: screen.listed_query == newer, pilot=pilot)
            release.set()  # slow's answer comes now
            await until(lambda: not [w for w in screen.workers if w.group == "search-query" and w.is_running], pilot=pilot)
            await pilot.pause(0.1)
            assert screen.last_query == newer and [h.id for h in screen.hits] == ids
            assert len(results.rows) == len(ids) and "mem-0001" not in widget_text(results)


async def test_a_failure_naming_a_folder_shows_its_name_as_plain_text(tmp_path: Path) -> None:
    """The status line says why the search cannot open; a name holding markup stays literal (no action runs)."""
    folder = tmp_path / "notes [@click=app.quit] [bold]x"
    folder.mkdir()
    (folder / "readme.txt").write_text("not memory\n", encoding="utf-8")
    screen = SearchScreen(folder, today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.error is not None, pilot=pilot)
        await pilot.pause(0.05)
        shown = str(screen.query_one("#search-status", Static).render())
        assert shown.startswith("cannot search: ") and "[@click=app.quit] [bold]x" in shown
        assert pilot.app.is_running



def test_a_drawn_line_is_the_text_over_the_line_style_padded_and_cut_to_the_width() -> None:
    """As Textual's strip operations make it: a blank cell, the text with the line's style under its own, blank
    cells to the width; cut at the width when the list is narrower than that."""
    text = Text("memories.md", style="cyan") + Text(":3 ") + Text("mem-0001 ", style="bold yellow")
    text += Text("\n    用户不能摄入咖啡因 coffee", style="italic")
    text.stylize("bold reverse", len(text.plain) - 6, len(text.plain))
    base = Style(color="white", bgcolor="black")
    lit = base + Style(color="black", bgcolor="blue", bold=True)

    def cells(strip: Strip) -> list[tuple[str, Style | None]]:
        return [(ch, seg.style) for seg in strip for ch in seg.text]
    for width in (1, 2, 3, 9, 30, 80):
        row = render_row(text, max(1, width - 2 * PAD), 3, Console(width=200))
        for line in row:
            for style in (base, lit):
                want = Strip.join([Strip.blank(PAD), Strip(*line)]).apply_style(style).crop_extend(0, width, style)
                got = line_strip(line, width, style)
                assert cells(got) == cells(want) and got.cell_length == want.cell_length == width


class ListScreen(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[int] = []

    def compose(self) -> ComposeResult:
        yield ResultList(row_height=ROW_HEIGHT)

    @on(ResultList.Drawn)
    def note(self, event: ResultList.Drawn) -> None:
        self.drawn.append(event.generation)


async def test_the_list_says_once_when_each_set_of_results_was_first_drawn_whole() -> None:
    """``Drawn`` follows the frame that drew the whole list with those results: once per ``set_results`` (not
    for a line repainted under the mouse or the highlight moving)."""
    screen = ListScreen()
    async with Host(screen).run_test(size=(60, 20)) as pilot:
        results = screen.query_one(ResultList)
        await pilot.pause()
        assert screen.drawn == [] and results.generation == 0
        results.set_results(5, lambda i: Text(f"result {i}\n    snippet {i}"))
        await until(lambda: screen.drawn, pilot=pilot)
        assert screen.drawn == [1] and "result 4" in widget_text(results)
        await pilot.hover(ResultList, offset=(4, 1 + ROW_HEIGHT))
        results.highlight(2)
        await pilot.pause(0.1)
        assert results.highlighted == 2 and screen.drawn == [1]
        results.set_results(0, lambda i: Text())
        await until(lambda: len(screen.drawn) == 2, pilot=pilot)
        assert screen.drawn == [1, 2] and "result" not in widget_text(results)
