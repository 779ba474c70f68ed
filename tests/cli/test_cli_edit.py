"""The editing sub-commands as users run them: set, supersede, archive, restore, gc."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse_bytes

MEM = (
    "# Memory\r\n"
    "\r\n"
    "---\r\n"
    "id: mem-0001\r\n"
    "timestamp: 2025-06-01T14:32:00+08:00\r\n"
    "importance: low   # rarely needed\r\n"
    "status: active\r\n"
    "tags: [coffee]\r\n"
    "---\r\n"
    "用户不喝咖啡。\r\n"
    "---\r\n"
    "id: mem-0002\r\n"
    "timestamp: 2025-01-01T00:00:00+08:00\r\n"
    "importance: high\r\n"
    "ttl: 2025-03-01\r\n"
    "---\r\n"
    "Expired.\r\n"
    "---\r\n"
    "id: mem-0003\r\n"
    "timestamp: 2025-02-01T00:00:00+08:00\r\n"
    "importance: low\r\n"
    "---\r\n"
    "Old and low, no final newline"
).encode()

STAMP_RE = re.compile(rb"archived_at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")


def cli(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *map(str, args)],
                          capture_output=True, timeout=120, input=stdin)


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder (lock files too): 'nothing written' means this is unchanged."""
    return {f.relative_to(folder).as_posix(): (f.read_bytes() if f.is_file() else None)
            for f in sorted(folder.rglob("*"))}


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    p = tmp_path / "profiles" / "assistant"
    p.mkdir(parents=True)
    (p / "memories.md").write_bytes(MEM)
    (p / "identity.md").write_text("# Assistant\n")
    return p


def mem(p: Path) -> bytes:
    return (p / "memories.md").read_bytes()


# --- set ---------------------------------------------------------------------------------


def test_set_changes_only_the_field_lines(prof: Path) -> None:
    r = cli("set", prof, "mem-0001", "importance=high", "tags=[coffee, health]")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"mem-0001: changed importance, tags\n"
    assert mem(prof) == MEM.replace(b"importance: low   # rarely", b"importance: high   # rarely").replace(
        b"tags: [coffee]\r\n", b"tags: [coffee, health]\r\n")


def test_set_values_are_yaml(prof: Path) -> None:
    r = cli("set", prof, "mem-0003", "ttl=2026-01-31", "note='010'", "score=3", "source=chat#12")
    assert r.returncode == 0, r.stderr
    assert mem(prof) == MEM.replace(
        b"importance: low\r\n---\r\nOld",
        b"importance: low\r\nttl: 2026-01-31\r\nnote: \"010\"\r\nscore: 3\r\nsource: chat#12\r\n---\r\nOld")
    e = parse_bytes(mem(prof)).get("mem-0003")
    assert e is not None and e.meta["note"] == "010" and e.meta["score"] == 3


def test_set_body_file_and_unset(prof: Path, tmp_path: Path) -> None:
    body = tmp_path / "body.md"
    body.write_text("New body.\nSecond line.\n", encoding="utf-8")
    r = cli("set", prof, "mem-0002", "--unset", "ttl", "--body-file", body)
    assert r.returncode == 0, r.stderr
    assert mem(prof) == MEM.replace(b"ttl: 2025-03-01\r\n", b"").replace(
        b"Expired.\r\n", b"New body.\r\nSecond line.\r\n")
    r = cli("set", prof, "mem-0001", "--body-file", "-", stdin="从标准输入。\n".encode())
    assert r.returncode == 0, r.stderr
    assert "从标准输入。\r\n---\r\nid: mem-0002".encode() in mem(prof)


def test_set_current_value_writes_nothing(prof: Path) -> None:
    before = tree(prof)
    r = cli("set", prof, "mem-0001", "importance=low", "tags=[coffee]")
    assert r.returncode == 0 and r.stdout == b"mem-0001: unchanged\n"
    assert tree(prof) == before


@pytest.mark.parametrize(
    "args",
    [
        ["mem-0001", "importance=urgent"],
        ["mem-0001", "status=gone"],
        ["mem-0001", "timestamp=2025-06-01T10:00:00"],
        ["mem-0001", "ttl=soon"],
        ["mem-0001", "tags=[a"],
        ["mem-0001", "importance="],
        ["mem-0001", "noequals"],
        ["mem-0001", "id=mem-0002"],
        ["mem-0001", "bad key=1"],
        ["mem-0404", "importance=high"],
        ["mem-0001"],
        ["mem-0001", "--body-file", "/nonexistent/body.md"],
        ["mem-0001", "importance=high", "--unset", "importance"],
    ],
)
def test_set_bad_input_exits_2_and_writes_nothing(prof: Path, args: list[str]) -> None:
    before = tree(prof)
    r = cli("set", prof, *args)
    assert r.returncode == 2
    assert r.stdout == b""
    assert r.stderr.count(b"\n") == 1 and r.stderr.strip()
    assert tree(prof) == before


def test_set_needs_a_profile(prof: Path, tmp_path: Path) -> None:
    root = prof.parent
    (root / "other").mkdir()
    (root / "other" / "memories.md").write_bytes(MEM)
    before = tree(root)
    r = cli("set", root, "mem-0001", "importance=high")
    assert r.returncode == 2 and b"--profile" in r.stderr
    r = cli("set", tmp_path / "missing", "mem-0001", "importance=high")
    assert r.returncode == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli("set", empty, "mem-0001", "importance=high").returncode == 2
    assert tree(root) == before
    r = cli("set", root, "mem-0001", "importance=high", "--profile", "other")
    assert r.returncode == 0, r.stderr
    assert mem(root / "other") != MEM and mem(prof) == MEM


# --- supersede -----------------------------------------------------------------------------


def test_supersede(prof: Path) -> None:
    r = cli("supersede", prof, "mem-0003", "mem-0001")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"mem-0003: superseded by mem-0001\n"
    assert mem(prof) == MEM.replace(
        b"importance: low\r\n---\r\nOld", b"importance: low\r\nstatus: superseded\r\nsuperseded_by: mem-0001\r\n---\r\nOld")


@pytest.mark.parametrize("old,new", [("mem-0003", "mem-0404"), ("mem-0404", "mem-0001"), ("mem-0001", "mem-0001")])
def test_supersede_bad_input(prof: Path, old: str, new: str) -> None:
    before = tree(prof)
    r = cli("supersede", prof, old, new)
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1
    assert tree(prof) == before


# --- archive / restore -----------------------------------------------------------------------


def test_archive_then_restore_round_trips(prof: Path) -> None:
    r = cli("archive", prof, "mem-0001")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"mem-0001: archived\n"
    block = MEM[MEM.index(b"---\r\nid: mem-0001"):MEM.index(b"---\r\nid: mem-0002")]
    assert mem(prof) == MEM.replace(block, b"")
    archived = (prof / "contexts" / "archive" / "memories.md").read_bytes()
    assert STAMP_RE.sub(b"archived_at: X", archived) == block.replace(
        b"status: active\r\n", b"status: archived\r\n").replace(b"tags: [coffee]\r\n", b"tags: [coffee]\r\narchived_at: X\r\n")

    r = cli("restore", prof, "mem-0001")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"mem-0001: restored\n"
    assert mem(prof) == MEM  # back in place, byte for byte
    assert (prof / "contexts" / "archive" / "memories.md").read_bytes() == b""


def test_archive_several_at_once_all_or_nothing(prof: Path) -> None:
    before = tree(prof)
    r = cli("archive", prof, "mem-0001", "mem-0404")
    assert r.returncode == 2 and b"mem-0404" in r.stderr and tree(prof) == before  # one bad id: nothing moves
    r = cli("archive", prof, "mem-0002", "mem-0001", "mem-0002")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"mem-0002: archived\nmem-0001: archived\n"
    archived = (prof / "contexts" / "archive" / "memories.md").read_bytes()
    assert archived.index(b"id: mem-0002") < archived.index(b"id: mem-0001")  # in the order given
    assert b"id: mem-0001" not in mem(prof) and b"id: mem-0002" not in mem(prof)


@pytest.mark.parametrize("cmd,ident,why", [("archive", "mem-0404", b"no entry with id mem-0404"),
                                           ("restore", "mem-0001", b"mem-0001 is already in memories.md"),
                                           ("restore", "mem-0404", b"no entry with id mem-0404")])
def test_archive_restore_bad_input(prof: Path, cmd: str, ident: str, why: bytes) -> None:
    before = tree(prof)
    r = cli(cmd, prof, ident)
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1, r.stderr
    assert r.stderr.startswith(b"openclaw-tui: ") and why in r.stderr
    assert tree(prof) == before


# --- gc -------------------------------------------------------------------------------------


def test_gc_dry_run_prints_and_writes_nothing(prof: Path) -> None:
    before = tree(prof)
    r = cli("gc", prof, "--dry-run", "--today", "2025-06-10")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == [
        "mem-0002: would be archived (ttl 2025-03-01 has passed)",
        "mem-0003: would become cold (not hit since 2025-02-01 (timestamp), 90+ days)",
    ]
    assert tree(prof) == before


def test_gc_applies_ttl_and_cold(prof: Path) -> None:
    r = cli("gc", prof, "--today", "2025-06-10")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == [
        "mem-0002: archived (ttl 2025-03-01 has passed)",
        "mem-0003: cold (not hit since 2025-02-01 (timestamp), 90+ days)",
    ]
    block = MEM[MEM.index(b"---\r\nid: mem-0002"):MEM.index(b"---\r\nid: mem-0003")]
    assert mem(prof) == MEM.replace(block, b"").replace(
        b"importance: low\r\n---\r\nOld", b"importance: low\r\nstatus: cold\r\n---\r\nOld")
    archived = (prof / "contexts" / "archive" / "memories.md").read_bytes()
    assert STAMP_RE.sub(b"archived_at: X", archived) == block.replace(
        b"ttl: 2025-03-01\r\n", b"ttl: 2025-03-01\r\nstatus: archived\r\narchived_at: X\r\n")
    again = cli("gc", prof, "--today", "2025-06-10")
    assert again.returncode == 0 and again.stdout == b""


def test_gc_cap_and_cold_days(prof: Path) -> None:
    r = cli("gc", prof, "--today", "2025-03-01", "--cold-days", "10", "--cap", "2", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == [
        "mem-0003: would be archived (over capacity: 3 entries, cap 2)",  # the oldest low one; cap beats cold
    ]
    r = cli("gc", prof, "--today", "2025-03-01", "--cap", "0")
    assert r.returncode == 1  # left over capacity: no more low entries
    assert b"over the cap" in r.stderr
    assert parse_bytes(mem(prof)).ids() == ["mem-0002"]


@pytest.mark.parametrize("args", [["--today", "2025-13-01"], ["--cap", "-1"], ["--cold-days", "x"]])
def test_gc_bad_usage(prof: Path, args: list[str]) -> None:
    before = tree(prof)
    r = cli("gc", prof, *args)
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1
    assert tree(prof) == before
