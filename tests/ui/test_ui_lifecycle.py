"""Lifecycle operations from the app: conflicts, supersede, archive/restore, cold, gc, compaction, redaction, undo.

Every operation runs on a copy of the xiaoyu sample, is confirmed after its
preview diff, and the files' bytes are compared with the exact intended
result.  The scenario tests follow the issue's "done when": each problem is
fixed in a few keystrokes and the consistency check no longer reports it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Input, SelectionList, Static, TextArea

from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.edit.compact_screen import CompactScreen
from openclaw_tui.ui.screens.edit.conflict_screen import ConflictScreen
from openclaw_tui.ui.screens.edit.gc_screen import GcScreen
from openclaw_tui.ui.screens.edit.redact_screen import RedactScreen
from openclaw_tui.ui.widgets.dialogs import AskId, ConfirmWrite
from tests.ui.test_ui_edit_support import (
    ARC,
    MEM,
    REFS,
    STAMP,
    changes,
    codes_for,
    copy_xiaoyu,
    current,
    notifications,
    opened,
    original,
    press,
    raw_block,
    select,
    text,
    type_text,
    unchanged,
)
from tests.ui_support import settle, widget_text


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    return copy_xiaoyu(tmp_path)


def with_fields(raw: str, replace: dict[str, str] | None = None, add: list[str] | None = None,
                drop: list[str] | None = None) -> str:
    """``raw`` with field lines replaced (by key), removed, and lines added before the closing ``---``."""
    close = raw.index("\n---\n", 3) + 1
    lines = raw[4:close].splitlines(keepends=True)
    out = []
    for line in lines:
        key = line.split(":", 1)[0]
        if drop and key in drop:
            continue
        out.append(replace[key] + "\n" if replace and key in replace else line)
    out += [a + "\n" for a in add or []]
    return raw[:4] + "".join(out) + raw[close:]


def statics_text(node: Widget) -> str:
    """What the Static widgets under ``node`` show."""
    return "\n".join(str(s.render()) for s in node.query(Static))


def mem_text() -> str:
    return text(original(MEM))


# --- conflicts --------------------------------------------------------------------------------


async def open_conflict(pilot, app, main, ident: str = "mem-0012") -> ConflictScreen:  # type: ignore[no-untyped-def]
    await select(pilot, main, ident)
    await press(pilot, "r")
    screen = app.screen
    assert isinstance(screen, ConflictScreen)
    return screen


async def test_scenario_two_contradicting_preferences_keep_right(prof: Path) -> None:
    assert "unresolved-conflict" in codes_for(prof, "mem-0012")
    async with opened(prof) as (pilot, app, main):
        screen = await open_conflict(pilot, app, main)
        assert (screen.left.id, screen.right.id) == ("mem-0007", "mem-0012")  # older on the left
        left = statics_text(screen.query_one("#conflict-left"))
        right = statics_text(screen.query_one("#conflict-right"))
        assert "mem-0007" in left and "少冰" in left and "mem-0012" in right and "心悸" in right
        meta = screen.query_one("#conflict-left .side-meta", Static).render()
        styled = {str(meta)[s.start:s.end] for s in getattr(meta, "spans", []) if "yellow" in str(s.style)}
        assert any("importance" in s for s in styled) and not any(s.startswith("status") for s in styled)
        await press(pilot, "l")  # keep right
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert "mem-0007: superseded by mem-0012" in widget_text(confirm.query_one("#confirm-summary"))
        await press(pilot, "y")
        assert app.screen is main
    old = raw_block(original(MEM), "mem-0007")
    new = with_fields(old, {"status": "status: superseded"}, ["superseded_by: mem-0012"])
    assert text(current(prof, MEM)) == mem_text().replace(old, new, 1)
    assert codes_for(prof, code="unresolved-conflict") == []
    unchanged(prof, ARC, "state.yaml")


async def test_conflict_keep_left_and_keep_both(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await open_conflict(pilot, app, main, "mem-0007")  # either side opens the pair
        await press(pilot, "h")
        await press(pilot, "y")
        old = raw_block(original(MEM), "mem-0012")
        new = with_fields(old, {"status": "status: superseded"}, ["superseded_by: mem-0007"])
        assert text(current(prof, MEM)) == mem_text().replace(old, new, 1)
        await press(pilot, "u")  # undo, then keep both instead
        assert current(prof, MEM) == original(MEM)
        await open_conflict(pilot, app, main)
        await press(pilot, "b")
        await press(pilot, "y")
    old = raw_block(original(MEM), "mem-0012")
    assert text(current(prof, MEM)) == mem_text().replace(old, with_fields(old, drop=["conflict"]), 1)
    assert codes_for(prof, code="unresolved-conflict") == []


async def test_conflict_merge_writes_one_entry_that_supersedes_both(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        screen = await open_conflict(pilot, app, main)
        await press(pilot, "m")
        body = screen.query_one("#merge-body", TextArea)
        assert body.has_focus and "少冰" in body.text and "心悸" in body.text
        body.text = "用户现在不喝咖啡（心悸），早上改喝热豆浆。"
        assert screen.query_one("#merge-tags", Input).value == "饮食, 咖啡, 习惯, preference, health"
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
    a, b = raw_block(original(MEM), "mem-0007"), raw_block(original(MEM), "mem-0012")
    expected = mem_text().replace(a, with_fields(a, {"status": "status: superseded"}, ["superseded_by: mem-0054"]))
    expected = expected.replace(b, with_fields(b, {"status": "status: superseded"}, ["superseded_by: mem-0054"]))
    expected += (f"---\nid: mem-0054\ntimestamp: {STAMP}\nsource: manual\nimportance: high\nstatus: active\n"
                 "tags: [饮食, 咖啡, 习惯, preference, health]\nmerged_from: [mem-0007, mem-0012]\n---\n"
                 "用户现在不喝咖啡（心悸），早上改喝热豆浆。\n")
    assert text(current(prof, MEM)) == expected


async def test_resolve_on_an_entry_without_conflict_says_so(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0003")
        await press(pilot, "r")
        assert app.screen is main
        assert any("has no conflict" in n for n in notifications(app))


# --- supersede, archive, restore, cold ---------------------------------------------------------


async def test_supersede_asks_for_the_replacement(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0038")
        await press(pilot, "x")
        ask = app.screen
        assert isinstance(ask, AskId)
        await type_text(pilot, "mem-9999")
        await press(pilot, "enter")
        assert app.screen is ask  # not an active entry: refused inline
        ask.query_one(Input).value = "mem-0050"
        await press(pilot, "enter")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
    old = raw_block(original(MEM), "mem-0038")
    new = with_fields(old, {"status": "status: superseded"}, ["superseded_by: mem-0050"])
    assert text(current(prof, MEM)) == mem_text().replace(old, new, 1)


async def test_archive_then_restore_from_the_archive_node(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0043")
        await press(pilot, "A")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        summary = widget_text(confirm.query_one("#confirm-summary"))
        assert "mem-0043: moves memories.md → contexts/archive/memories.md" in summary
        await press(pilot, "y")
        raw = raw_block(original(MEM), "mem-0043")
        archived = with_fields(raw, {"status": "status: archived"}, [f"archived_at: {STAMP}"])
        assert text(current(prof, MEM)) == mem_text().replace(raw, "", 1)
        assert text(current(prof, ARC)) == text(original(ARC)) + archived
        assert main.jump(Location(ARC, None, "mem-0043"))  # browse the archive (the tree's archive node)
        await settle(pilot)
        assert main.session.current_file == ARC and main.selected_entry().id == "mem-0043"
        await press(pilot, "R")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert "mem-0043: moves contexts/archive/memories.md → memories.md" in widget_text(
            confirm.query_one("#confirm-summary"))
        await press(pilot, "y")
    assert current(prof, MEM) == original(MEM)
    assert current(prof, ARC) == original(ARC)


async def test_restore_by_id_from_the_entry_list(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0003")
        await press(pilot, "R")
        ask = app.screen
        assert isinstance(ask, AskId)
        assert "mem-0009" in ask.message
        await type_text(pilot, "mem-0009")
        await press(pilot, "enter")
        await press(pilot, "y")
    raw = raw_block(original(ARC), "mem-0009")
    restored = with_fields(raw, {"status": "status: active"}, drop=["archived_at"])
    mem = mem_text()
    at = mem.index("---\nid: mem-0010\n")
    assert text(current(prof, MEM)) == mem[:at] + restored + mem[at:]
    assert text(current(prof, ARC)) == text(original(ARC)).replace(raw, "", 1)


async def test_cold_and_active_switch_in_place(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0022")
        await press(pilot, "c")
        assert "status cold → active" in widget_text(app.screen.query_one("#confirm-summary"))
        await press(pilot, "y")
        await select(pilot, main, "mem-0015")
        await press(pilot, "c")
        await press(pilot, "y")
        await select(pilot, main, "mem-0011")
        await press(pilot, "c")  # superseded: refused
        assert app.screen is main and any("only active and cold" in n for n in notifications(app))
    a, b = raw_block(original(MEM), "mem-0022"), raw_block(original(MEM), "mem-0015")
    expected = mem_text().replace(a, with_fields(a, {"status": "status: active"}))
    expected = expected.replace(b, with_fields(b, {"status": "status: cold"}))
    assert text(current(prof, MEM)) == expected
    assert changes(original(MEM), current(prof, MEM)) == (["status: active", "status: cold"],
                                                           ["status: cold", "status: active"])


async def test_cancelling_a_confirmation_writes_nothing(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0043")
        await press(pilot, "A")
        await press(pilot, "escape")
        assert app.screen is main
        assert "Nothing was written." in notifications(app)
    unchanged(prof, MEM, ARC)


# --- gc --------------------------------------------------------------------------------------


async def test_scenario_expired_temporary_memory_gc_archive(prof: Path) -> None:
    assert "expired-ttl" in codes_for(prof, "mem-0043")
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "ctrl+g")
        screen = app.screen
        assert isinstance(screen, GcScreen)
        kinds = [(a.kind, a.id) for a in screen.actions]
        assert kinds[0] == ("ttl", "mem-0043") and ("cold", "mem-0017") in kinds
        listed = widget_text(screen.query_one("#gc-list"))
        assert "mem-0043" in listed and "ttl 2025-12-31 has passed" in listed
        await press(pilot, "n")  # untick everything, then tick the expired one
        await press(pilot, "space")
        assert [a.id for a in screen.chosen] == ["mem-0043"]
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
        assert app.screen is main
    raw = raw_block(original(MEM), "mem-0043")
    assert text(current(prof, MEM)) == mem_text().replace(raw, "", 1)
    archived = with_fields(raw, {"status": "status: archived"}, [f"archived_at: {STAMP}"])
    assert text(current(prof, ARC)) == text(original(ARC)) + archived
    assert codes_for(prof, code="expired-ttl") == []


async def test_gc_untick_keeps_entries(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "ctrl+g")
        screen = app.screen
        assert isinstance(screen, GcScreen)
        await press(pilot, "space")  # untick the first (mem-0043, ttl); the cold ones stay ticked
        chosen = screen.chosen
        assert "mem-0043" not in [a.id for a in chosen] and all(a.kind == "cold" for a in chosen)
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    unchanged(prof, ARC)
    removed, added = changes(original(MEM), current(prof, MEM))
    assert removed == ["status: active"] * len(chosen) and added == ["status: cold"] * len(chosen)


# --- compaction ----------------------------------------------------------------------------


async def test_scenario_topic_split_over_many_entries_compacted(prof: Path) -> None:
    assert "compaction-candidate" in codes_for(prof)
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0019")
        await press(pilot, "M")
        screen = app.screen
        assert isinstance(screen, CompactScreen)
        assert screen.group.tag == "饮食"
        box = screen.query_one("#compact-list", SelectionList)
        assert box.has_focus
        ids = [e.id for e in screen.chosen()]
        assert "mem-0016" not in ids and len(ids) == 10  # its id is also in the archive: not offered
        body = screen.query_one("#compact-body", TextArea).text
        assert body.splitlines()[0].startswith("用户每天早上一杯美式") and len(body.splitlines()) == 12  # mem-0017 has two paragraphs
        tags = screen.query_one("#compact-tags", Input).value
        await press(pilot, "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert "mem-0007: superseded by mem-0054, moves memories.md → contexts/archive/memories.md" in widget_text(
            confirm.query_one("#confirm-summary"))
        await press(pilot, "y")
        assert app.screen is main
    mem, arc = mem_text(), text(original(ARC))
    for ident in ids:
        raw = raw_block(original(MEM), ident)
        mem = mem.replace(raw, "", 1)
        arc += with_fields(raw, {"status": "status: superseded"},
                           ["superseded_by: mem-0054", f"archived_at: {STAMP}"])
    mem += (f"---\nid: mem-0054\ntimestamp: {STAMP}\nsource: manual\nimportance: high\nstatus: active\n"
            f"tags: [{tags}]\nmerged_from: [{', '.join(ids)}]\n---\n{body}\n")
    assert text(current(prof, MEM)) == mem
    assert text(current(prof, ARC)) == arc
    assert codes_for(prof, code="compaction-candidate") == []
    assert "dangling-ref" not in codes_for(prof, "mem-0054")


async def test_compaction_of_a_picked_few_with_an_edited_text(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0033")
        await press(pilot, "M")
        screen = app.screen
        assert isinstance(screen, CompactScreen)
        screen.query_one("#compact-tag", expect_type=None).value = next(  # type: ignore[attr-defined]
            i for i, g in enumerate(screen.groups) if g.tag == "跑步")
        await settle(pilot)
        assert [e.id for e in screen.chosen()] == ["mem-0033", "mem-0049"]
        screen.query_one("#compact-body", TextArea).text = "用户半马 2:05，在练全马（上海马拉松，11 月底）。"
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    mem, arc = mem_text(), text(original(ARC))
    for ident in ("mem-0033", "mem-0049"):
        raw = raw_block(original(MEM), ident)
        mem = mem.replace(raw, "", 1)
        arc += with_fields(raw, {"status": "status: superseded"}, ["superseded_by: mem-0054", f"archived_at: {STAMP}"])
    mem += (f"---\nid: mem-0054\ntimestamp: {STAMP}\nsource: manual\nimportance: medium\nstatus: active\n"
            "tags: [运动, 跑步]\nmerged_from: [mem-0033, mem-0049]\n---\n用户半马 2:05，在练全马（上海马拉松，11 月底）。\n")
    assert text(current(prof, MEM)) == mem
    assert text(current(prof, ARC)) == arc


# --- redaction ---------------------------------------------------------------------------------


async def test_scenario_leaked_phone_number_redacted(prof: Path) -> None:
    assert "sensitive-data" in codes_for(prof, "mem-0041")
    secret = "13812345678"
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "X")
        screen = app.screen
        assert isinstance(screen, RedactScreen)
        listed = widget_text(screen.query_one("#redact-list"))
        assert "138****5678" in listed and "{{secret:phone-2}}" in listed and secret not in listed
        await press(pilot, "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert secret not in confirm.diff and "-用户换了新手机号 138****5678" in confirm.diff
        assert secret not in widget_text(confirm)
        await press(pilot, "y")
        assert app.screen is main
        assert secret not in " ".join(notifications(app))
    assert text(current(prof, MEM)) == mem_text().replace(secret, "{{secret:phone-2}}", 1)
    digest = hashlib.sha256(secret.encode()).hexdigest()
    record = (f'- placeholder: "{{{{secret:phone-2}}}}"\n  kind: phone\n  entry: mem-0041\n  file: "memories.md"\n'
              f"  sha256: {digest}\n  redacted_at: {STAMP}\n")
    assert text(current(prof, REFS)) == text(original(REFS)) + record
    assert secret not in text(current(prof, REFS))
    assert codes_for(prof, code="sensitive-data") == []


async def test_redaction_untick_writes_nothing(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await press(pilot, "X")
        await press(pilot, "n")
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, RedactScreen)
        assert "Nothing is ticked." in notifications(app)
    unchanged(prof, MEM, REFS)


# --- undo ----------------------------------------------------------------------------------------


async def test_undo_and_redo_every_write_of_the_session(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0043")
        await press(pilot, "A")
        await press(pilot, "y")
        await select(pilot, main, "mem-0022")
        await press(pilot, "c")
        await press(pilot, "y")
        after_both = current(prof, MEM), current(prof, ARC)
        await press(pilot, "u")
        await press(pilot, "ctrl+z")
        assert (current(prof, MEM), current(prof, ARC)) == (original(MEM), original(ARC))
        assert any("Undone: archive mem-0043" in n for n in notifications(app))
        await press(pilot, "u")
        assert "Nothing to undo in this session." in notifications(app)
        await press(pilot, "U")
        await press(pilot, "ctrl+y")
        assert (current(prof, MEM), current(prof, ARC)) == after_both


async def test_undo_refuses_when_the_file_changed_on_disk(prof: Path) -> None:
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0043")
        await press(pilot, "A")
        await press(pilot, "y")
        mem = prof / MEM
        agent = mem.read_bytes() + b"---\nid: mem-0060\nstatus: active\n---\nWritten by the agent.\n"
        mem.write_bytes(agent)
        archive = current(prof, ARC)
        await press(pilot, "u")
        assert any("Cannot undo" in n and "changed on disk" in n for n in notifications(app))
        assert mem.read_bytes() == agent and current(prof, ARC) == archive


async def test_entry_actions_need_a_profile_not_a_workspace(tmp_path: Path) -> None:
    import shutil

    from tests.ui_support import SAMPLES

    ws = tmp_path / "workspace"
    shutil.copytree(SAMPLES / "workspace", ws)
    async with opened(ws) as (pilot, app, main):
        assert main.check_action("ops", ("edit_entry",)) is False
        assert main.check_action("ops", ("gc_preview",)) is False
        await press(pilot, "e")
        assert app.screen is main
    assert parse_bytes(b"").entries == []
