"""Editing operations on real profile folders: set, supersede, add, similar, conflicts, plans."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.files.safe_write import ConcurrentModification
from openclaw_tui.core.format.edit import DELETE, EditError
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle import operations as ops
from openclaw_tui.core.lifecycle.plan import Files, apply_changes

MEMORIES = """\
# Memory of the assistant

---
id: mem-0001
timestamp: 2025-06-01T14:32:00+08:00
source: chat#3412
importance: low   # rarely needed
status: active
tags: [preference, coffee]
---
The user drinks decaf only.

---
id: mem-0002
timestamp: 2025-06-02T09:00:00+08:00
importance: high
status: active
tags:
  - health
  - coffee
conflict: mem-0001
---
The user cannot have caffeine at all.
---
id: mem-0003
timestamp: 2025-06-03T09:00:00+08:00
importance: medium
conflict: [mem-0001, mem-0002]
---
Third.
"""

ARCHIVE = """\
---
id: mem-0009
timestamp: 2025-01-01T00:00:00+00:00
status: archived
archived_at: 2025-05-01T00:00:00+00:00
---
Old.
"""

NOW = dt.datetime(2025, 7, 1, 12, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    p = tmp_path / "assistant"
    (p / "contexts" / "archive").mkdir(parents=True)
    (p / "memories.md").write_bytes(MEMORIES.encode())
    (p / "contexts" / "archive" / "memories.md").write_bytes(ARCHIVE.encode())
    return p


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        f.relative_to(folder).as_posix(): f.read_bytes()
        for f in sorted(folder.rglob("*"))
        if f.is_file() and not f.name.endswith(".lock")
    }


def mem(p: Path) -> str:
    return (p / "memories.md").read_text(encoding="utf-8")


# --- set -----------------------------------------------------------------------------


def test_set_changes_only_the_field_line_and_keeps_the_comment(prof: Path) -> None:
    plan = ops.set_entry(load_profile(prof), "mem-0001", {"importance": "high"})
    assert mem(prof) == MEMORIES.replace("importance: low   # rarely", "importance: high   # rarely")
    assert plan.changed == {"mem-0001": ["importance"]}
    assert plan.files == [prof / "memories.md"]
    assert plan.commit_lines() == ["- mem-0001: changed (importance)"]


def test_set_several_fields_and_body(prof: Path) -> None:
    ops.set_entry(load_profile(prof), "mem-0002", {"tags": ["health"], "ttl": "2026-01-01"}, body="New body.\n")
    want = MEMORIES.replace("tags:\n  - health\n  - coffee\nconflict: mem-0001\n---\nThe user cannot have caffeine at all.\n",
                            "tags:\n  - health\nconflict: mem-0001\nttl: 2026-01-01\n---\nNew body.\n")
    assert mem(prof) == want


def test_set_current_value_writes_nothing(prof: Path) -> None:
    before = snapshot(prof)
    plan = ops.set_entry(load_profile(prof), "mem-0001", {"importance": "low", "tags": ["preference", "coffee"]})
    assert plan.empty and plan.changed == {}
    assert snapshot(prof) == before
    assert not (prof / "memories.md.lock").exists()  # nothing written, not even a lock


@pytest.mark.parametrize(
    "changes",
    [
        {"importance": "urgent"},
        {"status": "deleted"},
        {"ttl": "next week"},
        {"timestamp": "2025-06-01T10:00:00"},  # no offset
        {"tags": "not a list"},
        {"conflict": ["mem-1", 3]},
        {"id": "mem-0002"},  # already used
        {"id": DELETE},
        {"bad key": 1},
        {"timestamp": None},
    ],
)
def test_set_invalid_value_raises_and_writes_nothing(prof: Path, changes: dict[str, object]) -> None:
    before = snapshot(prof)
    with pytest.raises(ops.InvalidValue):
        ops.set_entry(load_profile(prof), "mem-0001", changes)
    assert snapshot(prof) == before


def test_set_unknown_id(prof: Path) -> None:
    with pytest.raises(ops.NotFound):
        ops.plan_set(load_profile(prof), "mem-0404", {"importance": "low"})


def test_set_unknown_field_and_delete(prof: Path) -> None:
    ops.set_entry(load_profile(prof), "mem-0003", {"reviewed_by": "alice", "conflict": DELETE})
    assert "conflict: [mem-0001, mem-0002]\n" not in mem(prof)
    assert "importance: medium\nreviewed_by: alice\n---\nThird.\n" in mem(prof)


def test_set_edits_an_archived_entry_in_place(prof: Path) -> None:
    ops.set_entry(load_profile(prof), "mem-0009", {"source": "import"})
    assert (prof / "contexts/archive/memories.md").read_text() == ARCHIVE.replace(
        "archived_at: 2025-05-01T00:00:00+00:00\n", "archived_at: 2025-05-01T00:00:00+00:00\nsource: import\n"
    )
    assert mem(prof) == MEMORIES


def test_set_refuses_a_body_that_would_start_an_entry(prof: Path) -> None:
    before = snapshot(prof)
    with pytest.raises(EditError):
        ops.set_entry(load_profile(prof), "mem-0001", {}, body="text\n---\nid: mem-0100\n---\nsmuggled\n")
    with pytest.raises(EditError):
        ops.set_entry(load_profile(prof), "mem-0001", {}, body="text\n---\nstatus: active\n")  # pairs with the next ---
    assert snapshot(prof) == before


def test_set_refuses_an_open_fence_that_would_swallow_later_entries(prof: Path) -> None:
    (prof / "memories.md").write_text(MEMORIES.replace("Third.\n", "Third.\n```\nclosing fence\n```\n"))
    before = snapshot(prof)
    with pytest.raises(EditError, match="fence"):
        ops.set_entry(load_profile(prof), "mem-0001", {}, body="```python\nunclosed\n")
    assert snapshot(prof) == before
    # a body that closes its own fence is fine, and hides its fake entry
    ops.set_entry(load_profile(prof), "mem-0001", {}, body="```\n---\nid: mem-7777\n---\n```\n")
    assert parse_bytes((prof / "memories.md").read_bytes()).ids() == ["mem-0001", "mem-0002", "mem-0003"]


def test_plan_writes_nothing_and_shows_a_diff(prof: Path) -> None:
    before = snapshot(prof)
    plan = ops.plan_set(load_profile(prof), "mem-0001", {"importance": "high"})
    assert snapshot(prof) == before
    diff = plan.diff(prof)
    assert "--- a/memories.md\n+++ b/memories.md\n" in diff
    assert "-importance: low   # rarely needed\n+importance: high   # rarely needed\n" in diff
    apply_changes(plan)
    assert mem(prof) != MEMORIES


def test_plan_is_rebuilt_when_another_entry_changed_meanwhile(prof: Path) -> None:
    plan = ops.plan_set(load_profile(prof), "mem-0001", {"importance": "high"})
    ops.set_entry(load_profile(prof), "mem-0003", {"importance": "low"})  # another program
    apply_changes(plan)
    text = mem(prof)
    assert "importance: high   # rarely needed" in text
    assert "id: mem-0003\ntimestamp: 2025-06-03T09:00:00+08:00\nimportance: low\n" in text


def test_plan_is_refused_when_its_entry_changed_meanwhile(prof: Path) -> None:
    plan = ops.plan_set(load_profile(prof), "mem-0001", {"importance": "high"})
    ops.set_entry(load_profile(prof), "mem-0001", {"status": "cold"})
    after_other = snapshot(prof)
    with pytest.raises(ConcurrentModification):
        apply_changes(plan)
    assert snapshot(prof) == after_other


def test_non_utf8_and_crlf_file_edited_losslessly(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    raw = (b"\xef\xbb\xbf# pre\r\n---\r\nid: mem-0001\r\nimportance: low\r\n---\r\nbad \xff byte\r\n"
           b"---\r\nid: mem-0002\r\n---\r\nlast")
    (p / "memories.md").write_bytes(raw)
    ops.set_entry(load_profile(p), "mem-0002", {"importance": "high"})
    assert (p / "memories.md").read_bytes() == raw.replace(b"id: mem-0002\r\n", b"id: mem-0002\r\nimportance: high\r\n")


# --- supersede -------------------------------------------------------------------------


def test_supersede(prof: Path) -> None:
    plan = ops.supersede(load_profile(prof), "mem-0001", "mem-0002")
    assert mem(prof) == MEMORIES.replace(
        "status: active\ntags: [preference, coffee]\n", "status: superseded\ntags: [preference, coffee]\nsuperseded_by: mem-0002\n"
    )
    assert plan.commit_lines() == ["- mem-0001: superseded by mem-0002"]
    again = ops.supersede(load_profile(prof), "mem-0001", "mem-0002")
    assert again.empty


@pytest.mark.parametrize("old,new", [("mem-0001", "mem-0001"), ("mem-0001", "mem-0404"), ("mem-0404", "mem-0001"),
                                     ("mem-0001", "mem-0009")])
def test_supersede_refuses(prof: Path, old: str, new: str) -> None:
    before = snapshot(prof)
    with pytest.raises(EditError):
        ops.supersede(load_profile(prof), old, new)
    assert snapshot(prof) == before


def test_supersede_refuses_a_superseded_target(prof: Path) -> None:
    ops.supersede(load_profile(prof), "mem-0001", "mem-0002")
    with pytest.raises(EditError, match="superseded"):
        ops.supersede(load_profile(prof), "mem-0003", "mem-0001")


# --- add -------------------------------------------------------------------------------


def test_add_entry_takes_the_next_id_over_memories_and_archive(prof: Path) -> None:
    plan = ops.add_entry(load_profile(prof), {"importance": "medium", "tags": ["tea"]}, "Likes green tea.", now=NOW)
    assert plan.new_id == "mem-0010"  # the archive holds mem-0009
    assert mem(prof) == MEMORIES + (
        "---\nid: mem-0010\ntimestamp: 2025-07-01T12:00:00+08:00\nsource: manual\nimportance: medium\n"
        "status: active\ntags: [tea]\n---\nLikes green tea.\n"
    )
    assert plan.commit_lines() == ["- mem-0010: added"]


def test_add_entry_default_timestamp_has_an_offset(prof: Path) -> None:
    plan = ops.add_entry(load_profile(prof), {}, "x")
    entry = parse_bytes((prof / "memories.md").read_bytes()).get(plan.new_id or "")
    assert entry is not None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", entry.meta["timestamp"])
    assert entry.meta["source"] == "manual"


def test_add_entry_creates_memories_md(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    (p / "identity.md").write_text("# me\n")
    plan = ops.add_entry(load_profile(p), {"source": "chat#1"}, "first", now=NOW)
    assert plan.new_id == "mem-0001"
    assert (p / "memories.md").read_text() == (
        "---\nid: mem-0001\ntimestamp: 2025-07-01T12:00:00+08:00\nsource: chat#1\nstatus: active\n---\nfirst\n"
    )


def test_add_entry_after_a_file_without_final_newline(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    (p / "memories.md").write_bytes(b"---\r\nid: mem-0005\r\n---\r\nlast")
    ops.add_entry(load_profile(p), {}, "new\n", now=NOW)
    data = (p / "memories.md").read_bytes()
    assert data.startswith(b"---\r\nid: mem-0005\r\n---\r\nlast\r\n---\r\nid: mem-0006\r\n")
    assert parse_bytes(data).ids() == ["mem-0005", "mem-0006"]


def test_add_entry_rejects_invalid_meta(prof: Path) -> None:
    before = snapshot(prof)
    with pytest.raises(ops.InvalidValue):
        ops.add_entry(load_profile(prof), {"importance": "huge"}, "x")
    with pytest.raises(ops.InvalidValue):
        ops.add_entry(load_profile(prof), {"id": "mem-0009"}, "x")
    assert snapshot(prof) == before


def test_similar_entries(prof: Path) -> None:
    target = load_profile(prof)
    same = ops.similar_entries(target, "the user DRINKS decaf only!!")
    assert [(s.id, s.score, s.reason) for s in same] == [("mem-0001", 1.0, "same text")]
    near = ops.similar_entries(target, "The user drinks decaf coffee only.")
    assert near and near[0].id == "mem-0001" and 0.8 <= near[0].score < 1
    assert ops.similar_entries(target, "Something else entirely about trains.") == []
    archived = ops.similar_entries(target, "Old.")
    assert archived[0].id == "mem-0009" and archived[0].archived


# --- conflicts -------------------------------------------------------------------------


def test_keep_left_supersedes_the_right(prof: Path) -> None:
    plan = ops.resolve_conflict(load_profile(prof), "mem-0002", "mem-0001", ops.KEEP_LEFT)
    assert plan.superseded == {"mem-0001": "mem-0002"}
    mf = parse_bytes((prof / "memories.md").read_bytes())
    one = mf.get("mem-0001")
    assert one is not None and one.meta["status"] == "superseded" and one.meta["superseded_by"] == "mem-0002"
    assert mf.get("mem-0002").raw == parse_bytes(MEMORIES.encode()).get("mem-0002").raw  # type: ignore[union-attr]


def test_keep_right_supersedes_the_left(prof: Path) -> None:
    ops.resolve_conflict(load_profile(prof), "mem-0002", "mem-0001", ops.KEEP_RIGHT)
    two = parse_bytes((prof / "memories.md").read_bytes()).get("mem-0002")
    assert two is not None and two.meta["status"] == "superseded" and two.meta["superseded_by"] == "mem-0001"


def test_keep_both_drops_only_that_conflict(prof: Path) -> None:
    ops.resolve_conflict(load_profile(prof), "mem-0002", "mem-0001", ops.KEEP_BOTH)
    assert mem(prof) == MEMORIES.replace("  - coffee\nconflict: mem-0001\n", "  - coffee\n")
    ops.resolve_conflict(load_profile(prof), "mem-0001", "mem-0003", ops.KEEP_BOTH)
    assert "conflict: [mem-0002]\n" in mem(prof)
    with pytest.raises(EditError):
        ops.resolve_conflict(load_profile(prof), "mem-0001", "mem-0002", ops.KEEP_BOTH)


def test_merge_writes_one_entry_that_supersedes_both(prof: Path) -> None:
    plan = ops.resolve_conflict(load_profile(prof), "mem-0001", "mem-0002", ops.MERGE, "No caffeine; decaf is fine.", now=NOW)
    assert plan.new_id == "mem-0010"
    mf = parse_bytes((prof / "memories.md").read_bytes())
    new = mf.get("mem-0010")
    assert new is not None
    assert new.meta["merged_from"] == ["mem-0001", "mem-0002"]
    assert new.meta["tags"] == ["preference", "coffee", "health"]
    assert new.meta["importance"] == "high"
    assert new.body == "No caffeine; decaf is fine.\n"
    for old in ("mem-0001", "mem-0002"):
        e = mf.get(old)
        assert e is not None and e.meta["status"] == "superseded" and e.meta["superseded_by"] == "mem-0010"
    assert plan.commit_lines() == [
        "- mem-0010: added", "- mem-0001: superseded by mem-0010", "- mem-0002: superseded by mem-0010"
    ]


def test_merge_needs_a_body_and_choice_must_be_known(prof: Path) -> None:
    with pytest.raises(EditError):
        ops.plan_resolve_conflict(load_profile(prof), "mem-0001", "mem-0002", ops.MERGE)
    with pytest.raises(EditError):
        ops.plan_resolve_conflict(load_profile(prof), "mem-0001", "mem-0002", "keep-all")


def test_files_target_and_workspace_refused(prof: Path, tmp_path: Path) -> None:
    files = Files.of(load_profile(prof))
    assert not ops.plan_set(files, "mem-0001", {"importance": "high"}).empty
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("# agents\n")
    with pytest.raises(EditError):
        ops.plan_set(load_profile(ws), "mem-0001", {"importance": "high"})
