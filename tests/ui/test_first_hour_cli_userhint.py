"""Issue 24, point 18, in the workspace view: USER.md's two tea-house directives carry a hint in the USER.md
tab's detail, no finding (the spec has no such rule).  Textual Pilot on a copy of workspace-zh."""

from __future__ import annotations

import shutil
from pathlib import Path

from openclaw_tui.ui.app import OpenClawApp
from tests.ui.test_ui_workspace import open_ws
from tests.ui_support import SAMPLES, TODAY, settle, widget_text


async def test_the_user_tab_hints_at_look_alike_directives_without_a_finding(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        assert not [f for f in screen.findings if f.file == "USER.md"]
        await pilot.press("3")
        await settle(pilot)
        index = next(i for i, d in enumerate(screen.row_keys["user"]) if d.line == 51)
        for _ in range(index):
            await pilot.press("down")
        await settle(pilot)
        detail = widget_text(screen.query_one("#ws-detail"))
        assert "hint: shares its topic with the active directive at line 47" in detail, detail
        assert "unresolved-conflict" not in detail
