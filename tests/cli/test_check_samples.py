"""The bundled samples give exactly the findings sample_profiles/EXPECTED_FINDINGS.md lists."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

from openclaw_tui.core.check.rules import check_discovery
from openclaw_tui.core.files.profile import discover
from tests.conftest import SAMPLES

TODAY = dt.date(2026, 11, 30)

XIAOYU = [
    ("malformed-entry", "memories.md", 291, "mem-0031"),
    ("duplicate-id", "contexts/archive/memories.md", 51, "mem-0016"),
    ("dangling-ref", "memories.md", 538, "mem-0098"),
    ("dangling-ref", "state.yaml", 23, "mem-0099"),
    ("path-escape", "contexts/2025-06-02_planning.md", 14, None),
    ("unreadable-file", "contexts/2025-05-20_legacy.md", None, None),
    ("dangling-file", "contexts/2025-06-02_planning.md", 15, None),
    ("dangling-file", "state.yaml", 30, None),
    ("inactive-ref", "state.yaml", 22, "mem-0048"),
    ("unresolved-conflict", "memories.md", 97, "mem-0012"),
    ("invalid-field", "memories.md", 358, "mem-0037"),
    ("expired-ttl", "memories.md", 422, "mem-0043"),
    ("sensitive-data", "memories.md", 403, "mem-0041"),
    ("suspicious-instruction", "memories.md", 414, "mem-0042"),
    ("compaction-candidate", "memories.md", None, None),
]


def key(t: tuple[str, str, int | None, str | None]) -> tuple[str, str, int, str]:
    return (t[0], t[1], t[2] or 0, t[3] or "")


def test_xiaoyu_has_every_intended_finding_and_no_other() -> None:
    found = check_discovery(discover(SAMPLES / "profiles" / "xiaoyu"), today=TODAY)
    assert sorted(((f.code, f.file, f.line, f.id) for f in found), key=key) == sorted(XIAOYU, key=key)
    compaction = next(f for f in found if f.code == "compaction-candidate")
    assert "饮食" in compaction.message and "mem-0050" in compaction.message
    assert {f.severity for f in found} == {"error", "warning", "info"}


def test_xiaoyu_over_capacity_with_a_small_cap() -> None:
    found = check_discovery(discover(SAMPLES / "profiles" / "xiaoyu"), today=TODAY, cap=40)
    over = [f for f in found if f.code == "over-capacity"]
    assert [(f.file, f.line, f.id) for f in over] == [("memories.md", None, None)]
    assert "48" in over[0].message
    assert not [f for f in check_discovery(discover(SAMPLES / "profiles" / "xiaoyu"), today=TODAY, cap=48) if f.code == "over-capacity"]


def test_atlas_is_clean() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", "check", str(SAMPLES / "profiles" / "atlas"),
         "--format", "json", "--today", "2026-11-30", "--fail-on", "info"],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 0, res.stdout
    doc = json.loads(res.stdout)
    assert doc["findings"] == [] and doc["profiles"][0]["entries"] == 15


def test_samples_folder_is_read_as_the_profiles_root() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", "check", str(SAMPLES), "--format", "json", "--today", "2026-11-30"],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 1
    doc = json.loads(res.stdout)
    assert [(p["name"], p["path"], p["entries"]) for p in doc["profiles"]] == [
        ("atlas", "profiles/atlas", 15),
        ("xiaoyu", "profiles/xiaoyu", 48),
    ]
    assert doc["summary"] == {"error": 6, "warning": 8, "info": 1}
    assert {f["profile"] for f in doc["findings"]} == {"xiaoyu"}


def test_workspace_sample() -> None:
    found = check_discovery(discover(SAMPLES / "workspace"), today=TODAY)
    assert [(f.code, f.file, f.line, f.id) for f in found] == [
        ("stale-daily-log", "memory/2026-04-27.md", None, None),
        ("stale-daily-log", "memory/2026-10-01-trip.md", None, None),
    ]
    assert "217" in found[0].message and "60" in found[1].message


def test_workspace_zh_sample_has_each_layout_b_finding() -> None:
    found = check_discovery(discover(SAMPLES / "workspace-zh"), today=TODAY)
    assert [(f.code, f.file, f.line) for f in found] == [
        ("oversized-bootstrap", "MEMORY.md", None),
        ("dangling-file", "MEMORY.md", 373),
        ("path-escape", "TOOLS.md", 9),  # (USER.md's two tea-house directives: a hint in the view, no finding)
        ("stale-daily-log", "memory/2026-09-03-hangzhou.md", None),
        ("stale-daily-log", "memory/2026-10-12.md", None),
        ("suspicious-instruction", "memory/2026-11-20.md", 4),
    ]
    assert "24,139" in found[0].message and "2026-06-02" in found[1].message
