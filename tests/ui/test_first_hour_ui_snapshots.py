"""Issue 24 at 80x24, as pictures: the demo's main screen (light theme: contrast, the pending merge first on
the status line, Quit and Help in the footer) and its merge screen (each side's changed lines)."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import LIGHT_THEME, OpenClawApp
from tests.ui_support import TODAY, settle


def test_demo_main_screen_80x24_light(snap_compare, tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.theme = LIGHT_THEME
        await settle(pilot, 5)
        pilot.app.clear_notifications()
        await pilot.pause(0.2)

    assert snap_compare(OpenClawApp(demo, today=TODAY, watch=False), terminal_size=(80, 24), run_before=run_before)


def test_demo_merge_screen_80x24(snap_compare, tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, 5)
        pilot.app.clear_notifications()
        await pilot.press("m")
        await settle(pilot)
        await pilot.pause(0.2)

    assert snap_compare(OpenClawApp(demo, today=TODAY, watch=False), terminal_size=(80, 24), run_before=run_before)
