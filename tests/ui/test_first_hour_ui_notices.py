"""Issue 24 point 7: one notice per event, never posted again for the same state; a pending merge is a
lasting state, shown first on the status line, not a notice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from tests.ui_support import TODAY, notices, settle


async def test_a_pending_merge_is_on_the_status_line_not_a_notice(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 5)
        main = app.main_screen
        assert str(main.status.render()).startswith(" 2 conflicted files")
        for _ in range(3):  # re-reads of the same state: the repository's and the files'
            main.git.refresh()
            await pilot.press("ctrl+r")
            await settle(pilot, 4)
        shown = notices(app)
        assert not any("conflict" in m.lower() for m in shown), shown
        assert all(n == 1 for n in Counter(shown).values()), shown
        assert str(main.status.render()).startswith(" 2 conflicted files")


async def test_the_same_notice_is_not_posted_again_while_it_shows(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 3)
        before = len(notices(app))
        for _ in range(4):
            app.notify("Nothing to undo in this session.", timeout=30)
        app.notify("Something else.", timeout=30)
        await pilot.pause()
        assert notices(app)[before:] == ["Nothing to undo in this session.", "Something else."]



async def test_a_focus_change_while_the_app_closes_places_no_notice(samples: Path, tmp_path: Path) -> None:
    import shutil

    shutil.copytree(samples / "profiles" / "atlas", tmp_path / "atlas")
    app = OpenClawApp(tmp_path / "atlas", today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
    assert not app.screen_stack  # closed: a late DescendantFocus finds no screen
    app.place_notifications()  # raised ScreenStackError (the full run of 15:31 crashed at exit on it)
