"""The demo in Chinese, as pictures (pytest-textual-snapshot; update with --snapshot-update): the main, edit,
merge, workspace and inbox screens at 80x24 and 160x48, on the bundled samples (``build_demo``; the workspace
is the Chinese one, ``workspace-zh``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from openclaw_tui.core import i18n
from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.ui.test_ui_snapshots import _steady_cursors as steady_cursors
from tests.ui_support import TODAY, settle

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}
KEYS = {"main": (), "edit": ("e",), "merge": ("m",), "inbox": ("I",)}


@pytest.fixture(autouse=True)
def chinese() -> Iterator[None]:
    i18n.set_language("zh_CN")
    try:
        yield
    finally:
        i18n.set_language("en")
        i18n.catalog()


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("screen", sorted(KEYS))
def test_demo_screen_in_chinese(snap_compare, tmp_path: Path, screen: str, size: str) -> None:  # type: ignore[no-untyped-def]
    demo = build_demo(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, 5)
        pilot.app.clear_notifications()  # the demo's merge-conflict notice: not what these pictures are about
        # the audit list keeps the row it highlighted while the profiles' checks come in, in whichever order
        # they end: its first row, for the same picture each time
        pilot.app.main_screen.audit.action_first()
        for key in KEYS[screen]:
            await pilot.press(key)
            await settle(pilot)
        steady_cursors(pilot.app)
        await pilot.pause(0.2)

    assert snap_compare(OpenClawApp(demo, today=TODAY, watch=False), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_workspace_in_chinese(snap_compare, tmp_path: Path, size: str) -> None:  # type: ignore[no-untyped-def]
    demo = build_demo(tmp_path / "demo")
    ws = demo / "workspace-zh"
    app = OpenClawApp(ws, today=TODAY, watch=False)
    app.start_screen = lambda: WorkspaceScreen(ws, today=TODAY)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, 5)
        pilot.app.clear_notifications()
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
