"""A thread worker's result reaches a screen only while the screen is there (issue 25's review: a search or a
load can outlive the screen that started it; its widgets are gone by then)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.search.search_screen import SearchScreen
from openclaw_tui.ui.workers import call_if_attached
from tests.support import until
from tests.ui_support import copy_samples, settle


async def from_a_thread(*args: object) -> None:
    await asyncio.to_thread(call_if_attached, *args)  # (call_from_thread waits for the UI thread: not a join)


async def test_a_result_for_a_closed_screen_is_dropped_and_one_for_an_open_screen_is_shown(tmp_path: Path) -> None:
    app = OpenClawApp(copy_samples(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+k")
        await settle(pilot)
        search = app.screen
        assert isinstance(search, SearchScreen)
        await from_a_thread(search, search._failed, "still open")
        await until(lambda: search.error == "still open", "the result on the open screen", pilot=pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not search.is_attached
        await from_a_thread(search, search._failed, "too late")  # before: NoMatches on the removed widgets, the app gone
        await pilot.pause(0.2)
        assert search.error == "still open" and app.is_running
    assert app._exception is None
