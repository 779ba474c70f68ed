"""`history --item`: a MEMORY.md item and a USER.md directive followed across commits, rewording included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui.core.inbox.item_history import NoItem, item_history
from tests.cli.test_inbox_cli import cli
from tests.inbox_helpers import agent_commit, replace, repo_with


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = repo_with(tmp_path, "workspace-zh")
    replace(ws / "MEMORY.md", "## 偏好 (Preferences)\n\n", "## 偏好 (Preferences)\n\n- 喜欢用 Excel 做月报。\n")
    agent_commit(ws, "learned: Excel")
    replace(ws / "MEMORY.md", "- 喜欢用 Excel 做月报。\n", "- 喜欢用 Excel 和 Numbers 做月报。\n")
    agent_commit(ws, "reworded")
    replace(ws / "MEMORY.md", "- 喜欢用 Excel 和 Numbers 做月报。\n", "")
    replace(ws / "MEMORY.md", "## 决定 (Decisions)\n\n", "## 决定 (Decisions)\n\n- 喜欢用 Excel 和 Numbers 做月报。\n")
    agent_commit(ws, "moved")
    replace(ws / "MEMORY.md", "Excel 和 Numbers", "Excel、Numbers")
    replace(ws / "USER.md", "status: active", "status: superseded")
    agent_commit(ws, "directive superseded")
    return ws


def test_an_item_across_commits(ws: Path) -> None:
    replace(ws / "MEMORY.md", "Excel、Numbers", "Excel、Numbers 或 WPS")  # not committed
    versions = item_history(ws, "Excel")
    assert [(v.kind, v.subject) for v in versions] == [
        ("rewritten", None), ("rewritten", "directive superseded"), ("moved", "moved"), ("rewritten", "reworded"),
        ("added", "learned: Excel"),
    ]
    assert versions[0].diff == "喜欢用 Excel、Numbers {+或 WPS +}做月报。"
    assert versions[2].heading_path == ("MEMORY.md - 长期记忆", "决定 (Decisions)")


def test_a_directive_and_the_cli(ws: Path) -> None:
    out = cli("history", str(ws), "--item", "Prefer short answers", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["versions"][0]["kind"] == "changed" and doc["versions"][0]["subject"] == "directive superseded"
    assert doc["versions"][-1]["kind"] == "added"
    text = cli("history", str(ws), "--item", "Excel")
    assert text.returncode == 0 and "rewritten" in text.stdout and text.stdout.endswith("4 versions\n")


def test_no_such_item(ws: Path) -> None:
    with pytest.raises(NoItem):
        item_history(ws, "zzzz qqqq nothing like it")
    out = cli("history", str(ws), "--item", "zzzz qqqq nothing like it")
    assert out.returncode == 2 and "no MEMORY.md item" in out.stderr


async def test_l_on_the_workspace_screen_shows_the_items_versions(ws: Path) -> None:
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.screens.inbox.item_history_screen import ItemHistoryScreen
    from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
    from tests.ui_support import TODAY, settle

    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+t", "W")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WorkspaceScreen)
        await pilot.press("2")
        await settle(pilot)
        keys = screen.row_keys["mem"]
        index = next(i for i, r in enumerate(keys) if "Excel" in getattr(r, "text", ""))
        table = screen.query_one("#ws-mem")
        table.move_cursor(row=index)
        await pilot.press("L")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, ItemHistoryScreen) and history.versions is not None
        assert [v.kind for v in history.versions] == ["rewritten", "moved", "rewritten", "added"]
        await pilot.press("escape")
        assert app.screen is screen
