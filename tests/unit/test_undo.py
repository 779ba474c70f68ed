"""Undo: any sequence of operations followed by as many undos restores every byte."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.files.safe_write import ConcurrentModification
from openclaw_tui.core.format.edit import DELETE, EditError
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle import archive as lc
from openclaw_tui.core.lifecycle import operations as ops
from openclaw_tui.core.lifecycle.plan import Plan
from openclaw_tui.core.lifecycle.undo import UndoStack
from tests.helpers_memgen import GenFile, memory_files

NOW = dt.datetime(2025, 7, 1, 12, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
SIMPLE = (
    "---\nid: mem-0001\nimportance: low\nstatus: active\ntags: [a]\n---\nOne.\n"
    "---\nid: mem-0002\nimportance: high\nconflict: mem-0001\nttl: 2025-01-01\n---\nTwo.\n"
    "---\nid: mem-0003\ntimestamp: 2020-01-01T00:00:00Z\nimportance: low\n---\nThree."
)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        f.relative_to(folder).as_posix(): f.read_bytes()
        for f in sorted(folder.rglob("*"))
        if f.is_file() and not f.name.endswith(".lock")
    }


def _ids(p: Path, archive: bool = False) -> list[str]:
    f = p / ("contexts/archive/memories.md" if archive else "memories.md")
    return parse_bytes(f.read_bytes()).ids() if f.exists() else []


def random_plan(p: Path, data: st.DataObject) -> Plan:
    """One random operation on the profile at ``p`` (raises EditError when it does not apply)."""
    prof = load_profile(p)
    live, archived = _ids(p), _ids(p, archive=True)
    pick = lambda ids: data.draw(st.sampled_from(ids)) if ids else "mem-0404"  # noqa: E731
    kind = data.draw(st.sampled_from(["set", "body", "supersede", "archive", "restore", "add", "compact",
                                      "resolve", "gc"]))
    if kind == "set":
        field = data.draw(st.sampled_from(["importance", "status", "tags", "note", "conflict"]))
        value = {
            "importance": st.sampled_from(["high", "medium", "low"]),
            "status": st.sampled_from(["active", "cold"]),
            "tags": st.lists(st.sampled_from(["x", "y z", "咖啡", "a,b"]), min_size=1, max_size=3),
            "note": st.one_of(st.text(max_size=8), st.just(DELETE)),
            "conflict": st.just(DELETE),
        }[field]
        return ops.plan_set(prof, pick(live + archived), {field: data.draw(value)})
    if kind == "body":
        return ops.plan_set(prof, pick(live), {}, body=data.draw(st.sampled_from(["new\n", "", "a\r\nb", "x\n\n"])))
    if kind == "supersede":
        return ops.plan_supersede(prof, pick(live), pick(live))
    if kind == "archive":
        return lc.plan_archive(prof, pick(live), now=NOW)
    if kind == "restore":
        return lc.plan_restore(prof, pick(archived))
    if kind == "add":
        return ops.plan_add(prof, {"tags": ["t"]}, data.draw(st.sampled_from(["added\n", "two\nlines"])), now=NOW)
    if kind == "compact":
        return lc.plan_compact(prof, [pick(live), pick(live)], "compacted\n", now=NOW)
    if kind == "resolve":
        choice = data.draw(st.sampled_from(ops.CHOICES))
        return ops.plan_resolve_conflict(prof, pick(live), pick(live), choice, "merged\n", now=NOW)
    today = data.draw(st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2027, 1, 1)))
    actions = lc.gc_plan(prof, today, cap=data.draw(st.integers(0, 4)))
    return lc.plan_gc(prof, actions, now=NOW)


def _run_sequence(data: st.DataObject, memories: bytes, archive: bytes | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "assistant"
        p.mkdir()
        (p / "memories.md").write_bytes(memories)
        if archive is not None:
            (p / "contexts" / "archive").mkdir(parents=True)
            (p / "contexts" / "archive" / "memories.md").write_bytes(archive)
        original = snapshot(p)
        stack = UndoStack()
        states = [original]
        for _ in range(data.draw(st.integers(1, 8))):
            try:
                plan = random_plan(p, data)
            except EditError:
                continue
            stack.apply(plan)
            if not plan.empty:
                states.append(snapshot(p))
            for name, content in snapshot(p).items():
                assert parse_bytes(content).to_bytes() == content, name
        assert len(stack) == len(states) - 1
        # undo step by step: every intermediate state comes back exactly
        while len(stack):
            stack.undo()
            states.pop()
            assert snapshot(p) == states[-1]
        assert snapshot(p) == original
        # and redo replays them
        while stack.can_redo:
            stack.redo()
        if len(stack):
            assert stack.peek() is not None


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_operations_then_undo_restore_the_bytes(data: st.DataObject) -> None:
    _run_sequence(data, SIMPLE.encode(), None)


@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(memory_files(max_blocks=6), st.one_of(st.none(), memory_files(max_blocks=3)), st.data())
def test_random_operations_on_ugly_files_then_undo(gen: GenFile, arc: GenFile | None, data: st.DataObject) -> None:
    _run_sequence(data, gen.data, arc.data if arc else None)


def test_undo_refuses_when_the_file_changed_meanwhile(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    (p / "memories.md").write_text(SIMPLE)
    stack = UndoStack()
    stack.apply(ops.plan_set(load_profile(p), "mem-0001", {"importance": "high"}))
    changed = (p / "memories.md").read_bytes() + b"\n<!-- an agent wrote this -->\n"
    (p / "memories.md").write_bytes(changed)
    with pytest.raises(ConcurrentModification):
        stack.undo()
    assert (p / "memories.md").read_bytes() == changed
    assert len(stack)  # still there, nothing lost


def test_undo_of_an_archive_removes_the_created_archive_file(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    (p / "memories.md").write_text(SIMPLE)
    stack = UndoStack()
    stack.apply(lc.plan_archive(load_profile(p), "mem-0002", now=NOW))
    assert (p / "contexts/archive/memories.md").exists()
    undone = stack.undo()
    assert undone.archived == ["mem-0002"]
    assert (p / "memories.md").read_text() == SIMPLE
    assert not (p / "contexts/archive/memories.md").exists()
    stack.redo()
    assert _ids(p, archive=True) == ["mem-0002"]
    assert not stack.can_redo


def test_applying_a_new_plan_clears_redo(tmp_path: Path) -> None:
    p = tmp_path / "p"
    p.mkdir()
    (p / "memories.md").write_text(SIMPLE)
    stack = UndoStack()
    stack.apply(ops.plan_set(load_profile(p), "mem-0001", {"importance": "high"}))
    stack.undo()
    assert stack.can_redo
    stack.apply(ops.plan_set(load_profile(p), "mem-0001", {"importance": "medium"}))
    assert not stack.can_redo
    stack.apply(ops.plan_set(load_profile(p), "mem-0001", {"importance": "medium"}))  # empty: not recorded
    assert len(stack) == 1
