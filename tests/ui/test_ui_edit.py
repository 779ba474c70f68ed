"""Editing one entry from the app: form, YAML, inline validation, unsaved changes, new entries.

Each test runs the real app on a copy of the xiaoyu sample and checks the
exact bytes written: only the intended lines differ from the original.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Select, Static, TextArea

from openclaw_tui.ui.app import ConfirmQuit, OpenClawApp
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.edit.edit_screen import EditScreen
from openclaw_tui.ui.screens.edit.new_entry_screen import NewEntryScreen
from openclaw_tui.ui.widgets.dialogs import Ask, ConfirmWrite
from tests.ui.test_ui_edit_support import (
    MEM,
    STAMP,
    changes,
    codes_for,
    copy_xiaoyu,
    current,
    notifications,
    opened,
    original,
    press,
    select,
    text,
    type_text,
    unchanged,
)
from tests.ui_support import settle


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    return copy_xiaoyu(tmp_path)


def edit_screen(app: OpenClawApp) -> EditScreen:
    screen = app.screen
    assert isinstance(screen, EditScreen), f"expected the edit screen, got {type(screen).__name__}"
    return screen


async def test_correcting_a_fact_in_the_body_writes_only_that_line(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "e")
        screen = edit_screen(app)
        assert screen.focused is screen.query_one("#edit-body", TextArea)
        assert "Edit mem-0007" in str(screen.query_one(".screen-title", Static).render())
        await pilot.press("end")
        await type_text(pilot, "不加糖")
        assert app.has_unsaved_changes()
        await press(pilot, "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert "+用户每天早上一杯美式，公司楼下那家 Manner，少冰。不加糖" in confirm.diff
        assert current(prof, MEM) == original(MEM)  # nothing written before "y"
        await press(pilot, "y")
        assert app.screen is main
        assert not app.has_unsaved_changes()
    expected = text(original(MEM)).replace("少冰。\n", "少冰。不加糖\n", 1)
    assert text(current(prof, MEM)) == expected
    assert changes(original(MEM), current(prof, MEM)) == (
        ["用户每天早上一杯美式，公司楼下那家 Manner，少冰。"], ["用户每天早上一杯美式，公司楼下那家 Manner，少冰。不加糖"])
    unchanged(prof, "contexts/archive/memories.md", "state.yaml")


async def test_form_fixes_an_invalid_importance_and_adds_a_tag(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0037")
        await press(pilot, "e")
        screen = edit_screen(app)
        err = screen.query_one("#err-importance", Static)
        assert err.display and "urgent" in str(err.render())  # flagged, not blocking
        screen.query_one("#f-importance", Select).value = "high"
        await settle(pilot)
        assert not screen.query_one("#err-importance", Static).display
        tags = screen.query_one("#f-tags", Input)
        tags.focus()
        await pilot.press("end")
        await type_text(pilot, ", 复盘")
        await settle(pilot)
        assert "复盘" in str(screen.query_one("#tag-chips", Static).render())
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
    assert changes(original(MEM), current(prof, MEM)) == (
        ["importance: urgent", "tags: [工作, OKR]"], ["importance: high", "tags: [工作, OKR, 复盘]"])
    assert "invalid-field" not in codes_for(prof, "mem-0037")


async def test_invalid_date_is_shown_inline_and_cannot_be_saved(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0032")
        await press(pilot, "e")
        screen = edit_screen(app)
        ttl = screen.query_one("#f-ttl", Input)
        ttl.focus()
        await type_text(pilot, "2026-13-45")
        await settle(pilot)
        err = screen.query_one("#err-ttl", Static)
        assert err.display and "is not a date" in str(err.render())
        await press(pilot, "ctrl+s")
        assert app.screen is screen  # refused: no preview, nothing written
        assert "ttl" in str(screen.query_one("#edit-problems", Static).render())
        assert current(prof, MEM) == original(MEM)
        ttl.value = "2026-12-31"
        await settle(pilot)
        assert not screen.query_one("#err-ttl", Static).display
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    old = "tags: [日程]\n---\n每周一上午十点是部门周会"
    assert text(current(prof, MEM)) == text(original(MEM)).replace(
        old, "tags: [日程]\nttl: 2026-12-31\n---\n每周一上午十点是部门周会", 1)


async def test_yaml_mode_edits_unknown_fields_and_keeps_comments(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0010")
        await press(pilot, "e")
        screen = edit_screen(app)
        await press(pilot, "ctrl+t")
        area = screen.query_one("#edit-yaml-text", TextArea)
        assert area.has_focus
        assert "importance: high  # 过敏相关一律 high" in area.text
        area.text = area.text.replace("last_hit: 2026-11-16", "last_hit: 2026-11-29\nseverity: mild")
        await settle(pilot)
        await press(pilot, "ctrl+t")  # back to the form: it shows what the YAML says
        assert screen.query_one("#f-last_hit", Input).value == "2026-11-29"
        assert "severity" in str(screen.query_one("#edit-others", Static).render())
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    assert changes(original(MEM), current(prof, MEM)) == (
        ["last_hit: 2026-11-16"], ["last_hit: 2026-11-29", "severity: mild"])


async def test_yaml_mode_rejects_a_broken_frontmatter(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0010")
        await press(pilot, "e")
        screen = edit_screen(app)
        await press(pilot, "ctrl+t")
        area = screen.query_one("#edit-yaml-text", TextArea)
        area.text = area.text.replace("tags: [饮食, health, 过敏]", "tags: [饮食, health")
        await settle(pilot)
        assert str(screen.query_one("#edit-yaml-error", Static).render()).strip()
        await press(pilot, "ctrl+s")
        assert app.screen is screen
        await press(pilot, "ctrl+t")
        assert screen.mode == "yaml"  # cannot switch to the form while it does not read
    assert current(prof, MEM) == original(MEM)


async def test_unsaved_edit_is_never_lost_silently(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "e")
        screen = edit_screen(app)
        await type_text(pilot, "旧")
        await press(pilot, "escape")
        assert isinstance(app.screen, Ask)
        await press(pilot, "k")
        assert app.screen is screen and screen.query_one("#edit-body", TextArea).text.startswith("旧")
        await app.run_action("quit")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmQuit)
        await press(pilot, "n")
        assert app.screen is screen
        await press(pilot, "escape")
        await press(pilot, "d")
        assert app.screen is main
        assert "Discard" not in " ".join(notifications(app))
    assert current(prof, MEM) == original(MEM)


async def test_escape_without_changes_just_closes(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0003")
        await press(pilot, "e")
        assert not app.has_unsaved_changes()
        await press(pilot, "escape")
        assert app.screen is main


async def test_a_malformed_block_is_fixed_as_yaml(prof: Path) -> None:
    assert "malformed-entry" in codes_for(prof)
    async with opened(prof) as (pilot, app, main):
        assert main.jump(Location(MEM, 293))
        await settle(pilot)
        row = main.selected_entry()
        assert row is not None and row.malformed
        await press(pilot, "e")
        screen = edit_screen(app)
        assert screen.mode == "yaml"
        area = screen.query_one("#edit-yaml-text", TextArea)
        assert area.has_focus
        area.text = area.text.replace("tags: [health, sleep", "tags: [health, sleep]")
        await settle(pilot)
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
    assert changes(original(MEM), current(prof, MEM)) == (["tags: [health, sleep"], ["tags: [health, sleep]"])
    assert "malformed-entry" not in codes_for(prof)


# --- new entries ----------------------------------------------------------------------------


async def test_new_entry_gets_the_next_id_now_and_source_manual(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "plus")
        screen = app.screen
        assert isinstance(screen, NewEntryScreen)
        assert screen.new_id == "mem-0054"
        assert screen.focused is screen.query_one("#edit-body", TextArea)
        await type_text(pilot, "用户开始学游泳的蝶泳。")
        screen.query_one("#n-tags", Input).value = "运动, 游泳"
        screen.query_one("#n-importance", Select).value = "low"
        await settle(pilot)
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
        assert app.screen is main
        await settle(pilot)
        assert main.selected_entry() is not None and main.selected_entry().id == "mem-0054"  # shown at once
    entry = (f"---\nid: mem-0054\ntimestamp: {STAMP}\nsource: manual\nimportance: low\nstatus: active\n"
             "tags: [运动, 游泳]\n---\n用户开始学游泳的蝶泳。\n")
    assert current(prof, MEM) == original(MEM) + entry.encode()


async def test_new_entry_shows_likely_duplicates_and_updates_the_existing_one(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "plus")
        screen = app.screen
        assert isinstance(screen, NewEntryScreen)
        draft = "用户每天早上一杯美式，公司楼下那家 Manner，不加冰。"
        screen.query_one("#edit-body", TextArea).text = draft
        await press(pilot, "ctrl+s")
        assert app.screen is screen  # not written: duplicates first
        similar = screen.query_one("#similar", OptionList)
        assert similar.display and similar.has_focus
        assert [s.id for s in screen.similar][0] == "mem-0007"
        await press(pilot, "enter")  # update mem-0007 instead
        edit = edit_screen(app)
        assert edit.original.id == "mem-0007"
        assert edit.query_one("#edit-body", TextArea).text == draft
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    assert changes(original(MEM), current(prof, MEM)) == (
        ["用户每天早上一杯美式，公司楼下那家 Manner，少冰。"], [draft])


async def test_new_entry_can_be_added_despite_a_duplicate_and_needs_a_body(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "plus")
        screen = app.screen
        assert isinstance(screen, NewEntryScreen)
        await press(pilot, "ctrl+s")
        assert "body" in str(screen.query_one("#edit-problems", Static).render())
        screen.query_one("#edit-body", TextArea).text = "用户喜欢乌龙茶，尤其是冻顶乌龙。"
        screen.query_one("#n-tags", Input).value = "饮食, 茶"
        screen.query_one("#n-ttl", Input).value = "2026-02-30"
        await settle(pilot)
        assert screen.query_one("#err-ttl", Static).display
        await press(pilot, "ctrl+s")
        assert app.screen is screen
        screen.query_one("#n-ttl", Input).value = ""
        await press(pilot, "ctrl+s")
        assert [s.id for s in screen.similar] == ["mem-0019"]
        await press(pilot, "ctrl+s")  # again: add anyway
        await press(pilot, "y")
    entry = (f"---\nid: mem-0054\ntimestamp: {STAMP}\nsource: manual\nimportance: medium\nstatus: active\n"
             "tags: [饮食, 茶]\n---\n用户喜欢乌龙茶，尤其是冻顶乌龙。\n")
    assert current(prof, MEM) == original(MEM) + entry.encode()


# --- other writers ---------------------------------------------------------------------------


async def test_saving_keeps_an_agents_change_to_another_entry(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "e")
        await pilot.press("end")
        await type_text(pilot, "不加糖")
        mem = prof / MEM
        agent = text(mem.read_bytes()).replace("喜欢人少的最边上那条泳道。", "喜欢人少的最边上那条泳道。周五也去。")
        mem.write_bytes(agent.encode())
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
        assert app.screen is main
    assert text(current(prof, MEM)) == agent.replace("少冰。\n", "少冰。不加糖\n", 1)


async def test_saving_refuses_when_the_agent_changed_the_same_entry(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "e")
        screen = edit_screen(app)
        await pilot.press("end")
        await type_text(pilot, "不加糖")
        mem = prof / MEM
        agent = text(mem.read_bytes()).replace("last_hit: 2025-05-30", "last_hit: 2026-11-29")
        mem.write_bytes(agent.encode())
        await press(pilot, "ctrl+s")
        assert app.screen is screen  # still open: the edit is not lost
        assert "changed on disk" in str(screen.query_one("#edit-problems", Static).render())
        assert screen.query_one("#edit-body", TextArea).text.endswith("不加糖")
    assert text(current(prof, MEM)) == agent
