"""One lifecycle policy (TTL, cold, cap): the check reports exactly what gc acts on, on boundary dates,
and both take their limits from the config file, options overriding."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.config import Limits
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.lifecycle import archive as lc
from openclaw_tui.core.lifecycle import policy

TODAY = dt.date(2025, 7, 1)


def entry(n: int, *, importance: str = "medium", status: str | None = "active", extra: str = "",
          ts: str = "2025-01-01T10:00:00+08:00") -> str:
    lines = ["---", f"id: mem-{n:04d}", f"timestamp: {ts}", f"importance: {importance}"]
    if status is not None:
        lines.append(f"status: {status}")
    lines += extra.splitlines()
    return "\n".join(lines) + f"\n---\nEntry {n}.\n"


# every ttl that sits on a boundary: the day before today, today, tomorrow, as a date and a date-time,
# with every status, an unreadable ttl, and no status at all (which means active)
TTL_CASES = [
    ("ttl: 2025-06-30", "active", True),
    ("ttl: 2025-07-01", "active", False),
    ("ttl: 2025-07-02", "active", False),
    ("ttl: 2025-06-30T23:59:59+08:00", "active", True),
    ("ttl: 2025-07-01T00:00:00+08:00", "active", False),
    ("ttl: '2025-06-30'", "active", True),
    ("ttl: 2025-06-30", None, True),
    ("ttl: 2025-06-30", "cold", False),
    ("ttl: 2025-06-30", "superseded", False),
    ("ttl: 2025-06-30", "archived", False),
    ("ttl: next week", "active", False),
    ("ttl: 1999-01-01", "active", True),
]


def make(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "assistant"
    p.mkdir(exist_ok=True)
    (p / "memories.md").write_text(text, encoding="utf-8")
    return p


def test_the_ttl_rule_is_one_rule_for_check_and_gc(tmp_path: Path) -> None:
    text = "".join(entry(n, status=status, extra=ttl) for n, (ttl, status, _) in enumerate(TTL_CASES, 1))
    p = make(tmp_path, text)
    expected = {f"mem-{n:04d}" for n, (_, _, passed) in enumerate(TTL_CASES, 1) if passed}
    entries = {e.id: e for e in parse(text).entries}
    assert {i for i, e in entries.items() if policy.ttl_passed(e, TODAY) is not None} == expected
    reported = {f.id for f in check_profile(load_profile(p), today=TODAY) if f.code == "expired-ttl"}
    moved = {a.id for a in lc.gc_plan(load_profile(p), TODAY) if a.kind == "ttl"}
    assert reported == moved == expected
    # the day after each boundary both move on together
    later = TODAY + dt.timedelta(days=1)
    reported = {f.id for f in check_profile(load_profile(p), today=later) if f.code == "expired-ttl"}
    moved = {a.id for a in lc.gc_plan(load_profile(p), later) if a.kind == "ttl"}
    assert reported == moved == expected | {"mem-0002", "mem-0005"}
    # after gc there is nothing left for the check to report
    lc.gc_apply(load_profile(p), lc.gc_plan(load_profile(p), TODAY))
    assert not [f for f in check_profile(load_profile(p), today=TODAY) if f.code == "expired-ttl"]


@pytest.mark.parametrize("count,cap", [(3, 3), (4, 3), (3, 0), (0, 0), (201, 200), (200, 200)])
def test_the_cap_rule_is_one_rule_for_check_and_gc(tmp_path: Path, count: int, cap: int) -> None:
    text = "".join(entry(n, importance="low", ts=f"2025-0{1 + n % 6}-01T00:00:00+08:00") for n in range(1, count + 1))
    p = make(tmp_path, text)
    reported = [f for f in check_profile(load_profile(p), today=TODAY, cap=cap) if f.code == "over-capacity"]
    capped = [a for a in lc.gc_plan(load_profile(p), TODAY, cold_days=10_000, cap=cap) if a.kind == "cap"]
    assert policy.over_cap(count, cap) == max(0, count - cap)
    assert len(reported) == (1 if count > cap else 0)
    assert len(capped) == policy.over_cap(count, cap)


def test_cold_boundary(tmp_path: Path) -> None:
    text = (
        entry(1, importance="low", ts="2025-04-02T00:00:00+08:00")  # 90 days before today
        + entry(2, importance="low", ts="2025-04-03T00:00:00+08:00")  # 89 days
        + entry(3, importance="low", ts="2020-01-01T00:00:00+08:00", extra="last_hit: 2025-04-02")
        + entry(4, importance="low", ts="2020-01-01T00:00:00+08:00", extra="last_hit: 2025-04-03")
        + entry(5, importance="medium", ts="2020-01-01T00:00:00+08:00")
        + entry(6, importance="low", status="cold", ts="2020-01-01T00:00:00+08:00")
    )
    entries = parse(text).entries
    since = [policy.cold_since(e, TODAY) for e in entries]
    assert [s is not None for s in since] == [True, False, True, False, False, False]
    assert since[2] == policy.ColdSince(dt.date(2025, 4, 2), "last_hit")
    p = make(tmp_path, text)
    assert [a.id for a in lc.gc_plan(load_profile(p), TODAY)] == ["mem-0001", "mem-0003"]
    assert [policy.cold_since(e, TODAY, 89) is not None for e in entries] == [True, True, True, True, False, False]


def test_the_defaults_are_the_configs() -> None:
    import inspect

    from openclaw_tui.core.check import rules

    d = Limits()
    assert policy.DEFAULTS == d
    params = inspect.signature(rules.check_profile).parameters
    names = ("cap", "cold_days", "bootstrap_max_chars", "bootstrap_total_max_chars", "user_max_chars", "stale_log_days")
    assert {n: params[n].default for n in names} == {n: getattr(d, n) for n in names}


# --- the limits from the config file, through the command line -----------------------------------------


def cli(*args: str | Path, config: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OPENCLAW_TUI_CONFIG=str(config))
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120, env=env)


def test_check_and_gc_take_the_limits_from_the_config_file(tmp_path: Path) -> None:
    text = "".join(entry(n, importance="low", ts=f"2025-0{n}-01T00:00:00+08:00") for n in range(1, 5))
    p = make(tmp_path, text)
    config = tmp_path / "config.toml"
    config.write_text("[limits]\ncap = 3\ncold_days = 100000\n", encoding="utf-8")
    r = cli("check", p, "--today", "2025-07-01", "--format", "json", config=config)
    assert '"over-capacity"' in r.stdout, r.stderr
    r = cli("check", p, "--today", "2025-07-01", "--format", "json", "--cap", "4", config=config)
    assert '"over-capacity"' not in r.stdout, r.stderr  # the option wins over the file
    r = cli("gc", p, "--today", "2025-07-01", "--dry-run", config=config)
    assert r.returncode == 0 and r.stdout.splitlines() == [
        "mem-0001: would be archived (over capacity: 4 entries, cap 3)"
    ], r.stderr
    r = cli("gc", p, "--today", "2025-07-01", "--dry-run", "--cap", "2", "--cold-days", "1", config=config)
    assert r.stdout.splitlines() == [
        "mem-0003: would become cold (not hit since 2025-03-01 (timestamp), 1+ days)",
        "mem-0004: would become cold (not hit since 2025-04-01 (timestamp), 1+ days)",
        "mem-0001: would be archived (over capacity: 4 entries, cap 2)",
        "mem-0002: would be archived (over capacity: 4 entries, cap 2)",
    ], r.stderr
    config.write_text("[limits]\ncap = 4\ncold_days = 92\n", encoding="utf-8")  # 04-01 is 91 days back
    r = cli("gc", p, "--today", "2025-07-01", "--dry-run", config=config)
    assert r.returncode == 0 and [ln.split(":")[0] for ln in r.stdout.splitlines()] == [
        "mem-0001", "mem-0002", "mem-0003"], r.stderr
    config.write_text("[limits]\ncap = 4\ncold_days = 91\n", encoding="utf-8")
    r = cli("gc", p, "--today", "2025-07-01", "--dry-run", config=config)
    assert r.stdout.splitlines()[-1] == "mem-0004: would become cold (not hit since 2025-04-01 (timestamp), 91+ days)"


@pytest.mark.parametrize("command", ["check", "gc"])
def test_a_bad_config_file_stops_check_and_gc_with_one_line(tmp_path: Path, command: str) -> None:
    p = make(tmp_path, entry(1))
    before = (p / "memories.md").read_bytes()
    config = tmp_path / "config.toml"
    config.write_text("[limits]\ncap = -3\n", encoding="utf-8")
    r = cli(command, p, config=config)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("openclaw-tui: ") and "cap" in r.stderr
    assert (p / "memories.md").read_bytes() == before and sorted(x.name for x in p.iterdir()) == ["memories.md"]


def test_the_workspace_limits_come_from_the_config_file_too(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    (ws / "USER.md").write_text("# User\n" + "x" * 500 + "\n", encoding="utf-8")
    (ws / "memory" / "2026-10-01.md").write_text("# log\n", encoding="utf-8")  # 60 days before today
    config = tmp_path / "config.toml"

    def codes(*extra: str) -> list[str]:
        r = cli("check", ws, "--today", "2026-11-30", "--format", "json", *extra, config=config)
        assert r.returncode in (0, 1), r.stderr
        return sorted(f["code"] for f in json.loads(r.stdout)["findings"])

    assert codes() == ["stale-daily-log"]  # no file: the defaults (30 days, 4,000 characters)
    config.write_text("[limits]\nstale_log_days = 60\nbootstrap_max_chars = 100\n", encoding="utf-8")
    assert codes() == ["oversized-bootstrap"]
    assert codes("--stale-log-days", "59", "--bootstrap-max-chars", "1000") == ["stale-daily-log"]
