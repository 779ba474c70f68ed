"""Issue 24 point 4: q quits from every screen where no text field has focus; j/k move in every list."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, TextArea

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.ui_support import SAMPLES, TODAY, settle


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", dest)
    return dest


async def test_q_quits_after_escape_from_the_start_workspace_view(ws: Path) -> None:
    app = OpenClawApp(ws, today=TODAY, watch=False)
    app.start_screen = lambda: WorkspaceScreen(ws, today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WorkspaceScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert not isinstance(app.focused, Input)  # an empty filter does not hold the keys
        await pilot.press("q")
        await settle(pilot)
        assert not app.is_running and app.return_code == 0


async def test_j_and_k_move_in_the_review_queue(ws: Path) -> None:
    app = OpenClawApp(ws, today=TODAY, watch=False)
    app.start_screen = lambda: WorkspaceScreen(ws, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("5")
        await settle(pilot)
        rows = app.focused
        assert len(screen.row_keys["review"]) == 2
        assert rows.cursor_row == 0  # type: ignore[union-attr]
        await pilot.press("j")
        assert rows.cursor_row == 1  # type: ignore[union-attr]
        await pilot.press("k")
        assert rows.cursor_row == 0  # type: ignore[union-attr]


async def test_j_and_k_move_in_an_option_list_without_keys_of_its_own(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("i")  # the agent view: its parts are a plain OptionList
        await settle(pilot)
        parts = app.screen.query_one("#agent-parts", OptionList)
        parts.focus()
        await pilot.pause()
        parts.highlighted = start = 3
        await pilot.press("j")
        after_j = parts.highlighted
        assert after_j is not None and after_j > start
        await pilot.press("k")
        assert parts.highlighted is not None and parts.highlighted < after_j


# keys that open a screen from the demo's main screen, and what q must do there
SCREENS = ["f1", "at", "H", "m", "B"]


@pytest.mark.parametrize("key", SCREENS)
async def test_q_quits_from_every_screen_without_a_text_field_focused(tmp_path: Path, key: str) -> None:
    root = build_demo(tmp_path / "demo")
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert app.screen is not app.main_screen, key
        assert not isinstance(app.focused, (Input, TextArea)), (key, app.focused)
        await pilot.press("q")
        await settle(pilot)
        if app.is_running and type(app.screen).__name__ == "ConfirmQuit":  # a screen holding an unsaved choice
            await pilot.press("y")
            await settle(pilot)
        assert not app.is_running, (key, app.screen)
