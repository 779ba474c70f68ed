"""A 100k-entry memories.md opens, lists every entry and scrolls to the end."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from tests.support import until
from tests.ui_support import SIZE, TODAY, widget_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import write_profile  # noqa: E402

N = 100_000


@pytest.mark.slow
async def test_100k_entries_open_and_scroll_to_the_end(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, N, "big")
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await until(lambda: screen.table.row_count == N, "every row")
        table = screen.table
        table.focus()
        await pilot.pause()
        first = widget_text(table)
        assert "mem-000001" in first
        # scrolling works before the rows are indexed: only the visible ones are read
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor == N - 1
        assert table.cursor_row.id == f"mem-{N:06d}"
        assert f"mem-{N:06d}" in widget_text(table)
        assert table.scroll_offset.y == N + 1 - table.scrollable_content_region.height
        await pilot.press("pageup", "k")
        await pilot.pause()
        assert table.cursor < N - 10
        # the detail pane follows the cursor
        assert screen.detail.query_one("#detail-title").render().plain.startswith(table.cursor_row.id)
        # the cache of rendered lines stays bounded
        assert len(table._cache) <= 1024
        # once indexed, a filter runs over all 100k rows
        await until(lambda: screen.session.current is not None and screen.session.current.indexed, "the rows indexed")
        await pilot.pause()
        screen.set_filter(f"mem-{N - 1:06d}")
        await pilot.pause()
        assert [r.id for r in table.view][:1] == [f"mem-{N - 1:06d}"]
