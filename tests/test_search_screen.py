"""The search screen fills what it shows first, then the rest: every result ends up in the list, in rank order,
the first one explained, and a query typed before the rest was added never gets the old results."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from openclaw_tui.screens import search_screen
from openclaw_tui.screens.search_screen import LIMIT, SearchScreen
from tests.search_corpus import TODAY, entry, write
from tests.ui_support import SIZE, widget_text

DAY = dt.date.fromisoformat(TODAY)


class Host(App[None]):
    def __init__(self, screen: SearchScreen) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


async def until(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        await pilot.pause(0.02)


def corpus(tmp_path: Path) -> Path:
    p = tmp_path / "prof"
    write(p / "memories.md", "".join(
        entry(f"mem-{i:04d}", f"coffee note {i} " + "filler " * (i % 9),
              timestamp=(DAY - dt.timedelta(days=i % 40)).isoformat()) for i in range(LIMIT + 20)))
    return p


async def test_the_first_screenful_is_painted_then_every_result_is_listed_in_rank_order(
        tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    screen = SearchScreen(corpus(tmp_path), today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.ready)
        options = screen.query_one("#search-results", OptionList)
        painted: list[tuple[int, str, str]] = []  # what was on screen when the results were painted
        on_painted = screen._painted

        def observe(hits: list[Any], value: str, first: int) -> None:
            painted.append((options.option_count, widget_text(options),
                            str(screen.query_one("#search-explain", Static).render())))
            on_painted(hits, value, first)
        monkeypatch.setattr(screen, "_painted", observe)
        screen.query_one("#search-input", Input).value = "coffee"
        await until(pilot, lambda: screen.listed_query == "coffee")
        assert len(screen.hits) == LIMIT
        (first, shown, explain), = painted
        assert 0 < first < LIMIT  # only what the list can show, two lines a result
        assert first >= options.scrollable_content_region.height // 2
        assert f"{screen.hits[0].id} " in shown
        assert screen.hits[0].id is not None and screen.hits[0].id in explain  # in the same frame as the list
        assert options.option_count == LIMIT
        assert [options.get_option_at_index(i).id for i in range(LIMIT)] == [str(i) for i in range(LIMIT)]
        assert options.highlighted == 0
        await pilot.press("enter", "end")  # (enter: to the list) the last result is there and reachable
        await pilot.pause()
        assert options.highlighted == LIMIT - 1
        assert f"{screen.hits[-1].id} " in widget_text(options)


async def test_a_new_query_before_the_rest_was_added_shows_only_its_own_results(tmp_path: Path,
                                                                                  monkeypatch: Any) -> None:
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.01)
    p = corpus(tmp_path)
    write(p / "identity.md", "# 抹茶 only here\n")
    screen = SearchScreen(p, today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.ready)
        options = screen.query_one("#search-results", OptionList)
        box = screen.query_one("#search-input", Input)
        box.value = "coffee"
        await until(pilot, lambda: screen.last_query == "coffee")
        hits = screen.hits
        screen._show([], None, "", "")  # another query's (empty) results arrive before coffee's were painted
        await until(pilot, lambda: screen.shown_query == "")
        screen._painted(hits, "coffee", 1)  # coffee's late callback: it must add nothing
        assert options.option_count == 0 and screen.listed_query == ""
        box.value = "抹茶"
        await until(pilot, lambda: screen.listed_query == "抹茶")
        assert options.option_count == 1 and [h.file for h in screen.hits] == ["identity.md"]
