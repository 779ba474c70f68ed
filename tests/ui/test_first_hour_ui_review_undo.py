"""Issue 24 point 3: accepting a dreaming promotion and undoing it puts the item back in the review queue,
in the UI and for the `review` command (the cache's "reviewed" record is part of what undo takes back)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.ui_support import REPO, SAMPLES, TODAY, settle


def review_lines(ws: Path) -> list[int]:
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "review", str(ws), "--json"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.returncode == 0, proc.stderr
    return [q["line"] for q in json.loads(proc.stdout)["queue"]]


@pytest.mark.parametrize("key", ["a", "A"])  # accept, and accept stripping the machine metadata
async def test_undo_of_an_accept_puts_the_item_back_in_the_queue(tmp_path: Path, key: str) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    before = (ws / "MEMORY.md").read_bytes()
    app = OpenClawApp(ws, today=TODAY, watch=False)
    app.start_screen = lambda: WorkspaceScreen(ws, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("5")
        await settle(pilot)
        assert [q.row.line for q in screen.row_keys["review"]] == [374, 379]
        await pilot.press("down", key)
        await settle(pilot)
        assert [q.row.line for q in screen.row_keys["review"]] == [374]
        assert review_lines(ws) == [374]
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert (ws / "MEMORY.md").read_bytes() == before
        assert [q.row.line for q in screen.row_keys["review"]] == [374, 379]
        assert review_lines(ws) == [374, 379]
        await pilot.press("U")  # redo records it again
        await settle(pilot)
        assert [q.row.line for q in screen.row_keys["review"]] == [374]
        assert review_lines(ws) == [374]
