"""Several entries at once: pick with v (or * for all shown), then archive (A) or switch cold (c).

One confirmation, one plan, one undo step; the bytes are compared with the
intended result.  A copy of the xiaoyu sample under Pilot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle.archive import plan_archive
from openclaw_tui.core.lifecycle.operations import plan_set_many
from openclaw_tui.core.lifecycle.plan import apply_changes
from openclaw_tui.ui.screens.edit.compact_screen import CompactScreen
from openclaw_tui.ui.widgets.dialogs import ConfirmWrite
from openclaw_tui.ui.widgets.entry_table import EntryTable
from tests.ui.test_ui_edit_support import (
    ARC,
    MEM,
    STAMP,
    copy_xiaoyu,
    current,
    opened,
    original,
    press,
    raw_block,
    select,
    text,
)
from tests.ui.test_ui_lifecycle import mem_text, with_fields
from tests.ui_support import widget_text


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    return copy_xiaoyu(tmp_path)


async def test_pick_three_archive_them_at_once_and_undo_in_one_step(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        for ident in ("mem-0043", "mem-0005", "mem-0017"):
            await select(pilot, main, ident)
            await press(pilot, "v")
        table = main.query_one(EntryTable)
        assert table.picked_ids == ["mem-0043", "mem-0005", "mem-0017"]
        assert "3 picked" in widget_text(main.status)
        shown = {ln.split()[1]: ln.startswith("●") for ln in widget_text(table).splitlines()[1:] if ln.strip()}
        assert shown and all(mark == (ident in table.picked_ids) for ident, mark in shown.items())
        assert shown.get("mem-0005") and shown.get("mem-0017")  # the rows on screen show their pick
        await press(pilot, "A")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        summary = widget_text(confirm.query_one("#confirm-summary"))
        assert "3 entries move to contexts/archive/memories.md: mem-0043, mem-0005, mem-0017" in summary
        await press(pilot, "y")
        assert table.picked_ids == [] and "picked" not in widget_text(main.status)
        expected_mem, expected_arc = mem_text(), text(original(ARC))
        for ident in ("mem-0043", "mem-0005", "mem-0017"):
            raw = raw_block(original(MEM), ident)
            expected_mem = expected_mem.replace(raw, "", 1)
            expected_arc += with_fields(raw, {"status": "status: archived"}, [f"archived_at: {STAMP}"])
        assert text(current(prof, MEM)) == expected_mem
        assert text(current(prof, ARC)) == expected_arc
        await press(pilot, "u")  # one write, one undo
    assert current(prof, MEM) == original(MEM) and current(prof, ARC) == original(ARC)


async def test_picked_entries_go_cold_then_back_to_active(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        for ident in ("mem-0015", "mem-0016", "mem-0011"):  # mem-0011 is superseded: left alone
            await select(pilot, main, ident)
            await press(pilot, "v")
        await press(pilot, "c")
        summary = widget_text(app.screen.query_one("#confirm-summary"))
        assert "2 entries: status → cold" in summary and "left alone: mem-0011" in summary
        await press(pilot, "y")
        for ident in ("mem-0015", "mem-0016"):
            a = raw_block(original(MEM), ident)
            assert with_fields(a, {"status": "status: cold"}) in text(current(prof, MEM))
        for ident in ("mem-0015", "mem-0016"):  # all picked are cold now: c makes them active again
            await select(pilot, main, ident)
            await press(pilot, "v")
        await press(pilot, "c")
        assert "2 entries: status → active" in widget_text(app.screen.query_one("#confirm-summary"))
        await press(pilot, "y")
    assert current(prof, MEM) == original(MEM)


async def test_star_picks_what_the_filter_shows_and_V_clears(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        main.table.focus()
        await press(pilot, "asterisk")
        table = main.query_one(EntryTable)
        well_formed = [r.id for r in table.view if r.id and not r.malformed]
        assert table.picked_ids == well_formed and len(well_formed) > 40
        await press(pilot, "V")
        assert table.picked_ids == []
        await select(pilot, main, "mem-0022")
        await press(pilot, "v", "v")  # picks mem-0022, then the next entry
        assert len(table.picked_ids) == 2 and table.picked_ids[0] == "mem-0022"
        await select(pilot, main, "mem-0022")
        await press(pilot, "v")  # again: unpicks
        assert len(table.picked_ids) == 1 and "mem-0022" not in table.picked_ids


async def test_picked_entries_open_the_compaction_wizard_ticked(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        for ident in ("mem-0049", "mem-0033", "mem-0011"):  # mem-0011 is superseded: not offered
            await select(pilot, main, ident)
            await press(pilot, "v")
        await press(pilot, "M")
        screen = app.screen
        assert isinstance(screen, CompactScreen)
        assert screen.group.tag == "picked entries" and screen.group.ids == ("mem-0049", "mem-0033")
        assert [e.id for e in screen.chosen()] == ["mem-0049", "mem-0033"]
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
        assert app.screen is main
        assert main.query_one(EntryTable).picked_ids == ["mem-0011"]  # the compacted ones left the list
    mem = parse_bytes(current(prof, MEM))
    new = mem.get("mem-0054")
    assert new is not None and new.meta["merged_from"] == ["mem-0049", "mem-0033"]
    assert mem.get("mem-0033") is None and mem.get("mem-0049") is None
    archived = parse_bytes(current(prof, ARC))
    assert archived.get("mem-0033").meta["superseded_by"] == "mem-0054"  # type: ignore[union-attr]


def test_plans_for_several_entries_are_one_write_each(prof: Path) -> None:
    apply_changes(plan_archive(load_profile(prof), ["mem-0043", "mem-0005"]))
    assert b"id: mem-0043" not in current(prof, MEM) and b"id: mem-0005" not in current(prof, MEM)
    assert text(current(prof, ARC)).count("status: archived") == text(original(ARC)).count("status: archived") + 2
    plan = plan_set_many(load_profile(prof), ["mem-0015", "mem-0022", "mem-0015"], {"status": "cold"})
    assert plan.changed == {"mem-0015": ["status"]}  # mem-0022 is cold already; duplicates once
    with pytest.raises(Exception, match="mem-0043 is already in the archive"):
        plan_archive(load_profile(prof), ["mem-0001", "mem-0043"])
