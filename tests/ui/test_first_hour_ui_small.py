"""Issue 24 point 8: at 80x24 Help and Quit stay in the footer, help's keys are not cut, the entry
table's columns give way (Time, Tags, Imp) before the summary goes under 30 cells, and the merge screen
shows the lines each side of the conflicting entry changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Footer

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review.help_screen import bindings_table
from openclaw_tui.ui.widgets.entry_table import COLUMNS, SUMMARY_MIN
from tests.ui_support import TODAY, settle, widget_text


def footer_keys(app: OpenClawApp) -> dict[str, bool]:
    """Each footer key's display -> whether it is whole on screen."""
    footer = app.screen.query_one(Footer)
    width = app.size.width
    return {k.key_display: k.region.right <= width and k.region.width > 0  # type: ignore[attr-defined]
            for k in footer.query("FooterKey")}


@pytest.mark.parametrize("key", ["", "m", "H", "W", "I"])
async def test_help_and_quit_stay_in_the_footer_at_80x24(tmp_path: Path, key: str) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 4)
        if key:
            await pilot.press(key)
            await settle(pilot)
        keys = footer_keys(app)
        assert keys.get("q") and keys.get("?"), (app.screen, keys)


def test_help_keys_are_never_cut() -> None:
    from rich.console import Console

    console = Console(width=60, record=True)
    console.print(bindings_table([("Here", [("u,ctrl+z", "Undo the last write of this session, here or there " * 2),
                                            ("question_mark,f1", "Help")])]))
    text = console.export_text()
    assert "u,ctrl+z" in text and "question_mark,f1" in text and "…" not in text


@pytest.mark.parametrize("width", [80, 90, 100, 110, 120, 140])
async def test_columns_give_way_before_the_summary_is_squeezed(tmp_path: Path, width: int) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot, 4)
        table = app.main_screen.table
        widths = dict(zip((c[0] for c in COLUMNS), table._layout(), strict=True))  # noqa: SLF001
        gone = [c for c in ("timestamp", "tags", "importance") if widths[c] == 0]
        assert gone == ["timestamp", "tags", "importance"][: len(gone)], widths  # in this order
        if len(gone) < 3:
            assert widths["summary"] >= SUMMARY_MIN, widths


async def test_the_merge_screen_at_80x24_shows_each_side_s_changed_lines(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, 4)
        await pilot.press("m")
        await settle(pilot)
        sides = {}
        for side in ("ours", "theirs"):
            column = app.screen.query_one(f"#side-{side}")
            body = column.query_one(".side-body")
            rows = column.scrollable_content_region.height
            assert body.region.y - column.scrollable_content_region.y + 2 <= rows  # its first two rows show
            sides[side] = widget_text(body).splitlines()[:2]
        assert "conflict: mem-0007" in sides["ours"][0] and "11 月 30 日复核" in sides["ours"][1], sides
        assert "last_hit: 2026-11-29" in sides["theirs"][0] and "11 月 29 日：复查" in sides["theirs"][1], sides
