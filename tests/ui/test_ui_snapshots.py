"""Snapshots of the review screens (pytest-textual-snapshot; update with --snapshot-update).

The app is deterministic here: a fixed ``today``, a fixed terminal size, no
clock, and only the last folder name of the temporary copy is shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from tests.ui_support import TODAY, copy_samples, settle

SNAP_SIZE = (140, 40)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)


def _xiaoyu(app: OpenClawApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    path = next(p for p in screen.session.order if screen.session.data[p].profile.name == "xiaoyu")
    screen.jump(Location("memories.md"), path)
    return screen


def test_main_screen(snap_compare, root: Path) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        _xiaoyu(pilot.app)
        await settle(pilot)

    assert snap_compare(OpenClawApp(root, today=TODAY), terminal_size=SNAP_SIZE, run_before=run_before)


def test_detail_pane_with_a_conflict(snap_compare, root: Path) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        screen = _xiaoyu(pilot.app)
        await settle(pilot)
        screen.show_entry(screen.session.current.by_id["mem-0012"])
        await settle(pilot)

    assert snap_compare(OpenClawApp(root / "xiaoyu", today=TODAY), terminal_size=SNAP_SIZE, run_before=run_before)


def test_audit_list(snap_compare, root: Path) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("a", "j", "j")
        await settle(pilot)

    assert snap_compare(OpenClawApp(root / "xiaoyu", today=TODAY), terminal_size=SNAP_SIZE, run_before=run_before)


def test_help(snap_compare, root: Path) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(OpenClawApp(root / "xiaoyu", today=TODAY), terminal_size=SNAP_SIZE, run_before=run_before)


def test_state_yaml_with_a_dangling_reference(snap_compare, root: Path) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.screen.open_file("state.yaml", 23)
        await settle(pilot)

    assert snap_compare(OpenClawApp(root / "xiaoyu", today=TODAY), terminal_size=SNAP_SIZE, run_before=run_before)


# --- the layout at a small and a large terminal: main, edit and merge screens ----------------

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


def _steady_cursors(app: OpenClawApp) -> None:
    """A blinking cursor is drawn or not depending on the moment: hold it still."""
    from textual.widgets import Input, TextArea

    for widget in app.screen.query(TextArea):
        widget.cursor_blink = False
    for field in app.screen.query(Input):
        field.cursor_blink = False


@pytest.mark.parametrize("size", list(SIZES))
def test_main_screen_at(snap_compare, root: Path, size: str) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        _xiaoyu(pilot.app)
        await settle(pilot)

    assert snap_compare(OpenClawApp(root, today=TODAY), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_edit_screen_at(snap_compare, root: Path, size: str) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        screen = pilot.app.screen
        screen.show_entry(screen.session.current.by_id["mem-0012"])
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        _steady_cursors(pilot.app)
        await pilot.pause()

    assert snap_compare(OpenClawApp(root / "xiaoyu", today=TODAY), terminal_size=SIZES[size],
                        run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_merge_screen_at(snap_compare, tmp_path: Path, size: str) -> None:
    from openclaw_tui.core.git.demo import build_demo

    demo = build_demo(tmp_path / "demo")

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.press("m")
        await settle(pilot)
        await pilot.pause(0.2)

    assert snap_compare(OpenClawApp(demo, today=TODAY), terminal_size=SIZES[size], run_before=run_before)
