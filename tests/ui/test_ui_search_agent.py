"""Pilot tests of the search screen and the agent view, pushed standalone on an app."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.search import search_screen
from openclaw_tui.ui.screens.search.search_screen import SearchScreen
from openclaw_tui.ui.screens.workspace.agent_screen import AgentScreen
from openclaw_tui.ui.widgets.result_list import ResultList
from tests.search_corpus import TODAY, entry, make_profile, write
from tests.support import until
from tests.ui_support import SIZE, widget_text

DAY = dt.date.fromisoformat(TODAY)
UNSET = object()


class Host(App[None]):
    """A bare app: the screens need nothing from the main screen."""

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.first = screen
        self.result: object = UNSET

    def on_mount(self) -> None:
        self.push_screen(self.first, self.done)

    def done(self, result: object) -> None:
        self.result = result


def text_of(screen: Screen[Any], selector: str) -> str:
    w = screen.query_one(selector, Static)
    return str(w.render())


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    p = make_profile(tmp_path)
    mem = p / "memories.md"
    mem.write_text(mem.read_text(encoding="utf-8") + entry("mem-0020", "美式 [@click=app.quit]quit[/] [b]not bold[/b]"),
                   encoding="utf-8")
    return p


async def test_search_as_you_type_explains_and_opens(profile: Path) -> None:
    screen = SearchScreen(profile.parent, today=DAY)  # a profiles root: every profile is searched
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        assert "chunks indexed" in text_of(screen, "#search-status")
        await pilot.press(*"美式")
        await until(lambda: screen.last_query == "美式", pilot=pilot)
        assert [h.id for h in screen.hits][:2] == ["mem-0020", "mem-0003"]
        assert "full text only: no embedding provider configured" in text_of(screen, "#search-status")
        await until(lambda: text_of(screen, "#search-explain") != "", pilot=pilot)
        explain = text_of(screen, "#search-explain")
        assert "text 1.000" in explain and "vector -" in explain and "decay 1.000" in explain
        results = widget_text(screen.query_one("#search-results", ResultList))
        assert "[@click=app.quit]quit[/] [b]not bold[/b]" in results  # memory text shown literally
        await pilot.press("down", "enter")
        await pilot.pause()
    assert app.result == (Location("memories.md", screen.hits[0].match_line, "mem-0020", str(profile)), profile)


async def test_search_is_debounced_and_sees_outside_edits(profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_screen, "REFRESH_SECONDS", 0.0)
    monkeypatch.setattr(search_screen, "DEBOUNCE", 0.6)  # wide enough for a loaded machine
    screen = SearchScreen(profile, today=DAY)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.ready, pilot=pilot)
        await pilot.press(*"tea")
        await until(lambda: screen.last_query == "tea", pilot=pilot)
        assert screen.searches == 1  # three keys, one search
        write(profile / "skills" / "cats.md", "# Cats\n\nThe cat drinks no tea, only 牛奶.\n")
        inp = screen.query_one("#search-input", Input)
        inp.value = "牛奶"
        await until(lambda: screen.last_query == "牛奶", pilot=pilot)
        assert [(h.file, h.start_line) for h in screen.hits] == [("skills/cats.md", 3)]
        inp.value = "!!!"
        await until(lambda: screen.last_query == "!!!", pilot=pilot)
        assert screen.hits == [] and "no letters" in text_of(screen, "#search-status")
        await pilot.press("escape")
        await pilot.pause()
    assert app.result is None


async def test_search_screen_on_a_folder_that_is_no_memory(tmp_path: Path) -> None:
    screen = SearchScreen(tmp_path)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.error is not None, pilot=pilot)
        assert "cannot search" in text_of(screen, "#search-status")


async def test_agent_view_layers_tokens_and_left_out(profile: Path) -> None:
    screen = AgentScreen(profile, query="咖啡", today=DAY)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.computed >= 1, pilot=pilot)
        summary = text_of(screen, "#agent-summary")
        assert "layout A (profile) mia" in summary and "tokens (estimate)" in summary and "4 left out" in summary
        listing = widget_text(screen.query_one("#agent-parts", OptionList))
        for heading in ("1 · fixed payload", "2 · memories", "left out (4)"):
            assert heading in listing
        assert "identity.md:1-3" in listing and "superseded" in listing and "low without a match" in listing
        await until(lambda: text_of(screen, "#agent-detail") != "", pilot=pilot)
        detail = text_of(screen, "#agent-detail")
        assert detail.startswith("identity.md lines 1-3: always loaded") and "A calm assistant." in detail
        # typing another topic recomputes (debounced)
        screen.query_one("#agent-query", Input).value = "trip"
        await until(lambda: screen.context is not None and screen.context.query == "trip", pilot=pilot)
        assert [p.file for p in screen.context.parts if p.layer == "contexts"][0] == "contexts/2026-05-01_trip.md"
        screen.query_one("#agent-query", Input).value = "咖啡"
        await until(lambda: screen.context is not None and screen.context.query == "咖啡", pilot=pilot)
        # the cold entry, one key away from fixing it
        options = screen.query_one("#agent-parts", OptionList)
        options.focus()
        k = next(i for i, o in enumerate(options.options) if o.id is not None
                 and getattr(screen.rows[int(o.id)], "id", None) == "mem-0008" and not hasattr(screen.rows[int(o.id)], "layer"))
        options.highlighted = k
        await until(lambda: "mem-0008: left out (cold)" in text_of(screen, "#agent-detail"), pilot=pilot)
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, tuple)
    where, folder = app.result
    assert (where.id, where.file, folder) == ("mem-0008", "memories.md", profile) and where.line


async def test_agent_view_of_a_workspace_switches_session(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "AGENTS.md", "# Agents\n\n" + "Be brief. " * 2500 + "\n")
    write(ws / "MEMORY.md", "# Memory\n\n- likes oolong tea\n")
    write(ws / "memory" / f"{TODAY}.md", "# today\n\n- oolong\n")
    screen = AgentScreen(ws, query="oolong", today=DAY)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.computed >= 1, pilot=pilot)
        listing = widget_text(screen.query_one("#agent-parts", OptionList))
        assert "bootstrap files, as injected" in listing and "TRUNCATED" in listing
        assert "daily logs at session start" in listing and "search results" in listing
        assert "main session" in text_of(screen, "#agent-summary")
        screen.query_one("#agent-parts", OptionList).focus()
        await pilot.press("s")
        await until(lambda: screen.computed >= 2, pilot=pilot)
        assert "shared session" in text_of(screen, "#agent-summary")
        assert "MEMORY.md is loaded only in the main" in widget_text(screen.query_one("#agent-parts", OptionList))


async def test_agent_view_shows_memory_text_literally(tmp_path: Path) -> None:
    p = write(tmp_path / "p" / "memories.md",
              entry("mem-0001", "[@click=app.quit]quit[/] [b]not bold[/b]", importance="high")).parent
    screen = AgentScreen(p, today=DAY)
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: screen.computed >= 1, pilot=pilot)
        options = screen.query_one("#agent-parts", OptionList)
        k = next(i for i, o in enumerate(options.options)
                 if o.id is not None and getattr(screen.rows[int(o.id)], "id", None) == "mem-0001")
        options.highlighted = k
        await until(lambda: "mem-0001" in text_of(screen, "#agent-detail"), pilot=pilot)
        assert "[@click=app.quit]quit[/] [b]not bold[/b]" in text_of(screen, "#agent-detail")
        assert "importance: high (always carried)" in widget_text(options)
        await pilot.press("escape")
        await pilot.pause()
    assert app.result is None
