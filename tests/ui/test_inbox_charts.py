"""Memory over time: the series drawn from git history (core.inbox.trends) and the charts screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual_plotext import PlotextPlot

from openclaw_tui.core.config import Limits
from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.core.inbox.trends import trends
from openclaw_tui.core.workspace.bootstrap import inject_preview
from openclaw_tui.core.workspace.injection import CURRENT_RELEASE
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.git.history_screen import HistoryScreen
from openclaw_tui.ui.screens.inbox.trends_screen import TrendsScreen
from tests.ui_support import TODAY, settle


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "demo")


def test_profile_entries_by_status_per_commit(demo: Path) -> None:
    tr = trends(demo / "profiles/xiaoyu", today=TODAY)
    assert tr.layout == "profile" and len(tr.commits) == len(tr.findings) == 5
    assert tr.series["active"] == [41, 42, 43, 43, 43] and tr.series["superseded"] == [4, 4, 4, 4, 5]
    assert tr.series["archived"] == [5] * 5 and tr.commits[-1][2] == "feat(mem): review: mem-0007 superseded by mem-0012"
    assert all(n > 0 for n in tr.findings)


def test_workspace_bootstrap_sizes_against_limits(demo: Path) -> None:
    tr = trends(demo / "workspace-zh", findings=False)
    assert tr.limits == {"per file": 20_000, "total": 60_000} and not tr.findings
    # the last commit's sizes are what `context` (inject_preview) counts on the folder: UTF-16 units, the
    # current release's files (no TOOLS.md), the total as injected (MEMORY.md cut to 19,999): issue 27
    now = [p for p in inject_preview(demo / "workspace-zh", Limits(), include_daily=False, release=CURRENT_RELEASE)
           if p.kind == "bootstrap"]
    assert {k: v[-1] for k, v in tr.series.items()} == {
        **{p.name: p.chars_raw for p in now if not p.missing}, "total": sum(p.chars_injected for p in now)}
    assert "TOOLS.md" not in tr.series and tr.series["total"][-1] < sum(p.chars_raw for p in now)
    assert tr.series["MEMORY.md"][-1] > tr.series["MEMORY.md"][0]  # dreaming promoted an item


async def test_c_on_the_history_screen_draws_the_charts(demo: Path) -> None:
    app = OpenClawApp(demo / "profiles/atlas", today=TODAY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+e", "H")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("c")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TrendsScreen) and screen.trends is not None
        assert screen.trends.series == {"active": [12, 13, 14], "superseded": [1, 1, 1], "cold": [1, 1, 1], "archived": [2, 2, 2]}
        assert len(screen.query(PlotextPlot)) == 2
        await pilot.press("escape")
        assert isinstance(app.screen, HistoryScreen)


def test_charts_snapshot(snap_compare, demo: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        pilot.app.push_screen(TrendsScreen(demo / "profiles/xiaoyu", TODAY))
        await settle(pilot)
        pilot.app.clear_notifications()  # the demo's merge-conflict notice: not what this picture is about
        await pilot.pause()

    assert snap_compare(OpenClawApp(demo / "profiles/xiaoyu", today=TODAY), terminal_size=(120, 40),
                        run_before=run_before)
