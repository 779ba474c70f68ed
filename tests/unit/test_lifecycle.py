"""Lifecycle on real profile folders: archive, restore, gc (TTL, cold, cap), compaction."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.edit import EditError
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle import archive as lc
from openclaw_tui.core.lifecycle.operations import set_entry

TZ = dt.timezone(dt.timedelta(hours=8))
NOW = dt.datetime(2025, 7, 1, 12, 0, 0, tzinfo=TZ)
STAMP = "2025-07-01T12:00:00+08:00"


def entry(n: int, *, importance: str = "medium", extra: str = "", status: str | None = "active",
          ts: str = "2025-01-01T10:00:00+08:00", body: str | None = None) -> str:
    lines = ["---", f"id: mem-{n:04d}", f"timestamp: {ts}", f"importance: {importance}"]
    if status is not None:
        lines.append(f"status: {status}")
    if extra:
        lines.extend(extra.splitlines())
    lines.append("---")
    return "\n".join(lines) + "\n" + (body if body is not None else f"Entry {n}.\n")


def make(tmp_path: Path, text: str, archive: str | None = None) -> Path:
    p = tmp_path / "assistant"
    p.mkdir()
    (p / "memories.md").write_text(text, encoding="utf-8")
    if archive is not None:
        (p / "contexts" / "archive").mkdir(parents=True)
        (p / "contexts" / "archive" / "memories.md").write_text(archive, encoding="utf-8")
    return p


def files(p: Path) -> tuple[str, str | None]:
    a = p / "contexts" / "archive" / "memories.md"
    return (p / "memories.md").read_text(), a.read_text() if a.exists() else None


# --- archive / restore ---------------------------------------------------------------


def test_archive_moves_the_block_and_creates_the_archive(tmp_path: Path) -> None:
    text = "# pre\n" + entry(1) + entry(2, body="Two.\n\n") + entry(3)
    p = make(tmp_path, text)
    plan = lc.archive(load_profile(p), "mem-0002", now=NOW)
    mem, arc = files(p)
    assert mem == "# pre\n" + entry(1) + entry(3)
    assert arc == entry(2, status="archived", extra=f"archived_at: {STAMP}", body="Two.\n\n")
    assert plan.archived == ["mem-0002"]
    assert plan.commit_lines() == ["- mem-0002: archived"]
    # the archive is written first: a crash in between leaves a duplicate, never a loss
    assert [c.path.name for c in plan.changes] == ["memories.md", "memories.md"]
    assert plan.changes[0].path.parent.name == "archive"


def test_archive_appends_after_existing_archive_without_final_newline(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1) + entry(2), archive=entry(7, status="archived").rstrip("\n"))
    lc.archive(load_profile(p), "mem-0001", now=NOW)
    _, arc = files(p)
    assert arc == entry(7, status="archived") + entry(1, status="archived", extra=f"archived_at: {STAMP}")
    assert parse_bytes(arc.encode()).ids() == ["mem-0007", "mem-0001"]


def test_archived_at_uses_the_local_offset_by_default(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1))
    lc.archive(load_profile(p), "mem-0001")
    _, arc = files(p)
    e = parse_bytes((arc or "").encode()).get("mem-0001")
    assert e is not None
    stamp = dt.datetime.fromisoformat(e.meta["archived_at"])
    assert stamp.utcoffset() == dt.datetime.now().astimezone().utcoffset()
    assert stamp.microsecond == 0


def test_archive_refusals(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1) + entry(5), archive=entry(5, status="archived"))
    before = files(p)
    with pytest.raises(EditError, match="no entry"):
        lc.archive(load_profile(p), "mem-0404")
    with pytest.raises(EditError, match="duplicate"):
        lc.archive(load_profile(p), "mem-0005")
    assert files(p) == before


def test_restore_puts_the_entry_back_where_it_was(tmp_path: Path) -> None:
    text = "# pre\n\n" + entry(1) + entry(2) + entry(3, body="three, no final newline")
    p = make(tmp_path, text)
    for n in (1, 2, 3):
        lc.archive(load_profile(p), f"mem-{n:04d}", now=NOW)
        assert f"mem-{n:04d}" not in files(p)[0]
        plan = lc.restore(load_profile(p), f"mem-{n:04d}")
        assert plan.restored == [f"mem-{n:04d}"]
        assert files(p) == (text, "")  # byte for byte, even the missing final newline


def test_restore_without_status_line_gets_status_active(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1, status=None) + entry(3))
    lc.archive(load_profile(p), "mem-0001", now=NOW)
    lc.restore(load_profile(p), "mem-0001")
    mem, _ = files(p)
    assert mem == entry(1, status=None, extra="status: active") + entry(3)


def test_restore_with_the_id_alone_from_any_archive(tmp_path: Path) -> None:
    arc = entry(4, status="archived", extra="archived_at: 2025-01-01T00:00:00Z  # when") + entry(9, status="superseded")
    p = make(tmp_path, entry(1) + entry(7), archive=arc)
    lc.restore(load_profile(p), "mem-0004")
    mem, new_arc = files(p)
    assert mem == entry(1) + entry(4) + entry(7)
    assert new_arc == entry(9, status="superseded")
    with pytest.raises(EditError, match="already in memories.md"):
        lc.restore(load_profile(p), "mem-0004")
    with pytest.raises(EditError):
        lc.restore(load_profile(p), "mem-0404")


def test_restore_of_a_non_numbered_id_goes_to_the_end(tmp_path: Path) -> None:
    arc = "---\nid: note-kyoto\nstatus: archived\n---\nKyoto.\n"
    p = make(tmp_path, entry(1), archive=arc)
    lc.restore(load_profile(p), "note-kyoto")
    assert files(p) == (entry(1) + "---\nid: note-kyoto\nstatus: active\n---\nKyoto.\n", "")


# --- gc ---------------------------------------------------------------------------------


def test_gc_plan_ttl_cold_and_boundaries(tmp_path: Path) -> None:
    text = (
        entry(1, extra="ttl: 2025-06-30")  # passed
        + entry(2, extra="ttl: 2025-07-01")  # today: not passed yet
        + entry(3, importance="low", ts="2025-04-02T00:00:00+08:00")  # 90 days before 07-01: cold
        + entry(4, importance="low", ts="2025-04-03T00:00:00+08:00")  # 89 days: not cold
        + entry(5, importance="low", ts="2024-01-01T00:00:00+08:00", extra="last_hit: 2025-06-01")  # hit lately
        + entry(6, importance="high", ts="2020-01-01T00:00:00+08:00")  # only low entries go cold
        + entry(7, importance="low", ts="2020-01-01T00:00:00+08:00", status="superseded")  # not active
        + entry(8, importance="low", ts="2020-01-01T00:00:00+08:00", extra="ttl: 2021-01-01")  # ttl wins
    )
    p = make(tmp_path, text)
    today = dt.date(2025, 7, 1)
    actions = lc.gc_plan(load_profile(p), today)
    assert [(a.kind, a.id) for a in actions] == [("ttl", "mem-0001"), ("ttl", "mem-0008"), ("cold", "mem-0003")]
    assert lc.gc_plan(load_profile(p), today) == actions  # deterministic
    assert [(a.kind, a.id) for a in lc.gc_plan(load_profile(p), today, cold_days=30)] == [
        ("ttl", "mem-0001"), ("ttl", "mem-0008"), ("cold", "mem-0003"), ("cold", "mem-0004"), ("cold", "mem-0005")
    ]
    assert files(p)[0] == text  # planning writes nothing


def test_gc_apply(tmp_path: Path) -> None:
    text = entry(1, extra="ttl: 2025-06-30") + entry(2) + entry(3, importance="low", ts="2025-01-01T00:00:00+08:00")
    p = make(tmp_path, text)
    actions = lc.gc_plan(load_profile(p), dt.date(2025, 7, 1))
    plan = lc.gc_apply(load_profile(p), actions, now=NOW)
    mem, arc = files(p)
    assert mem == entry(2) + entry(3, importance="low", ts="2025-01-01T00:00:00+08:00", status="cold")
    assert arc == entry(1, status="archived", extra=f"ttl: 2025-06-30\narchived_at: {STAMP}")
    assert plan.archived == ["mem-0001"] and plan.cold == ["mem-0003"]
    assert [a.describe() for a in actions] == [
        "mem-0001: archived (ttl 2025-06-30 has passed)",
        "mem-0003: cold (not hit since 2025-01-01 (timestamp), 90+ days)",
    ]
    assert lc.gc_plan(load_profile(p), dt.date(2025, 7, 1)) == []  # nothing left to do


def test_gc_cap_moves_oldest_low_first(tmp_path: Path) -> None:
    text = (
        entry(1, importance="low", ts="2025-03-01T00:00:00+08:00")
        + entry(2, importance="high", ts="2020-01-01T00:00:00+08:00")
        + entry(3, importance="low", ts="2025-01-01T00:00:00Z")
        + entry(4, importance="low", ts="2025-02-01T00:00:00+08:00")
        + entry(5, importance="medium")
    )
    p = make(tmp_path, text)
    today = dt.date(2025, 3, 2)
    actions = lc.gc_plan(load_profile(p), today, cap=3)
    assert [(a.kind, a.id) for a in actions] == [("cap", "mem-0003"), ("cap", "mem-0004")]
    assert lc.remaining_over_cap(load_profile(p), actions, cap=3) == 0
    lc.gc_apply(load_profile(p), actions, now=NOW)
    mem, arc = files(p)
    assert parse_bytes(mem.encode()).ids() == ["mem-0001", "mem-0002", "mem-0005"]
    assert parse_bytes((arc or "").encode()).ids() == ["mem-0003", "mem-0004"]
    # not enough low entries: what is left over the cap is reported
    actions = lc.gc_plan(load_profile(p), today, cap=1)
    assert [(a.kind, a.id) for a in actions] == [("cap", "mem-0001")]
    assert lc.remaining_over_cap(load_profile(p), actions, cap=1) == 1


def test_gc_cap_replaces_cold(tmp_path: Path) -> None:
    text = entry(1, importance="low", ts="2020-01-01T00:00:00+08:00") + entry(2) + entry(3)
    p = make(tmp_path, text)
    actions = lc.gc_plan(load_profile(p), dt.date(2025, 7, 1), cap=2)
    assert [(a.kind, a.id) for a in actions] == [("cap", "mem-0001")]


# --- compaction --------------------------------------------------------------------------


def test_compact(tmp_path: Path) -> None:
    text = (
        entry(1, importance="low", extra="tags: [coffee]")
        + entry(2, importance="high", extra="tags: [coffee, health]")
        + entry(3, extra="tags: [other]")
    )
    p = make(tmp_path, text, archive=entry(8, status="archived"))
    plan = lc.compact(load_profile(p), ["mem-0001", "mem-0002"], "Coffee: none at all.\n", now=NOW)
    assert plan.new_id == "mem-0009"
    mem, arc = files(p)
    assert mem == entry(3, extra="tags: [other]") + (
        f"---\nid: mem-0009\ntimestamp: {STAMP}\nsource: manual\nimportance: high\nstatus: active\n"
        "tags: [coffee, health]\nmerged_from: [mem-0001, mem-0002]\n---\nCoffee: none at all.\n"
    )
    assert arc == entry(8, status="archived") + "".join(
        entry(n, importance=imp, status="superseded",
              extra=f"tags: {tags}\nsuperseded_by: mem-0009\narchived_at: {STAMP}")
        for n, imp, tags in ((1, "low", "[coffee]"), (2, "high", "[coffee, health]"))
    )
    assert plan.superseded == {"mem-0001": "mem-0009", "mem-0002": "mem-0009"}
    assert plan.commit_lines() == [
        "- mem-0009: added", "- mem-0001: superseded by mem-0009", "- mem-0002: superseded by mem-0009"
    ]


def test_compact_refusals(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1) + entry(2), archive=entry(8, status="archived"))
    before = files(p)
    for ids in (["mem-0001"], ["mem-0001", "mem-0001"], ["mem-0001", "mem-0404"], ["mem-0001", "mem-0008"]):
        with pytest.raises(EditError):
            lc.compact(load_profile(p), ids, "x")
    assert files(p) == before


def test_gc_leaves_a_duplicated_id_in_place(tmp_path: Path) -> None:
    p = make(tmp_path, entry(1, extra="ttl: 2020-01-01") + entry(2, extra="ttl: 2020-01-01"),
             archive=entry(1, status="archived"))
    actions = lc.gc_plan(load_profile(p), dt.date(2025, 7, 1))
    assert [(a.kind, a.id) for a in actions] == [("ttl", "mem-0002")]
    with pytest.raises(EditError, match="twice"):
        lc.plan_gc(load_profile(p), actions + actions)


def test_an_archive_link_leaving_the_profile_is_never_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(entry(9, status="archived"))
    p = make(tmp_path, entry(1) + entry(2))
    (p / "contexts" / "archive").mkdir(parents=True)
    (p / "contexts" / "archive" / "memories.md").symlink_to(outside)
    before = files(p)[0]
    with pytest.raises(EditError, match="leaves the profile"):
        lc.archive(load_profile(p), "mem-0001", now=NOW)
    assert files(p)[0] == before and outside.read_text() == entry(9, status="archived")
    set_entry(load_profile(p), "mem-0002", {"importance": "high"})  # memories.md alone is still editable
    assert "importance: high" in files(p)[0]
