"""`context` on an OpenClaw workspace by the release's rules: which release, sessions, the moment
(session start or a later turn), BOOTSTRAP.md, retired files, per-agent settings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

TODAY = "2026-11-20"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def ctx(ws: Path, *args: str, home: Path) -> dict:
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(ws), "--today", TODAY, "--json",
                        *args], capture_output=True, text=True, env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                                                                       "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0, r.stderr
    doc: dict = json.loads(r.stdout)
    return doc


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "state" / "workspace"
    write(root / "AGENTS.md", "# Agents\n- must test\n")
    write(root / "SOUL.md", "calm\n")
    write(root / "IDENTITY.md", "- name: Claw\n")
    write(root / "TOOLS.md", "tools\n")
    write(root / "HEARTBEAT.md", "beat\n")
    write(root / "memory.md", "# lowercase\n")
    write(root / "BOOTSTRAP.md", "# set me up\n")
    write(root / "memory" / "2026-11-20.md", "- today 😀\n")
    return root


def test_current_release_by_default(ws: Path, tmp_path: Path) -> None:
    doc = ctx(ws, home=tmp_path)
    assert doc["rules"]["release"] == "2026.9.6" and doc["rules"]["moment"] == "session start"
    assert [p["file"] for p in doc["parts"]] == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "memory/2026-11-20.md"]
    left = {x["file"]: x["reason"] for x in doc["left_out"]}
    assert "folds TOOLS.md into AGENTS.md" in left["TOOLS.md"] and "not injected" in left["HEARTBEAT.md"]
    assert "lowercase memory.md is never loaded" in left["memory.md"]
    assert "BOOTSTRAP.md" not in [p["file"] for p in doc["parts"]]  # memory/ exists: a configured workspace
    daily = doc["parts"][-1]
    assert 0 < daily["chars"] < doc["session_start"]["chars"]  # the block, without the runtime's header
    assert doc["session_start"]["files"] == ["memory/2026-11-20.md"]


def test_a_later_turn_has_no_block_and_a_pending_bootstrap_blocks_it(ws: Path, tmp_path: Path) -> None:
    doc = ctx(ws, "--turn", home=tmp_path)
    assert doc["session_start"] is None and all(p["layer"] == "bootstrap" for p in doc["parts"])
    fresh = tmp_path / "fresh"
    write(fresh / "AGENTS.md", "a\n")
    write(fresh / "BOOTSTRAP.md", "# set me up\n")
    doc = ctx(fresh, home=tmp_path)
    files = [p["file"] for p in doc["parts"]]
    assert files == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "BOOTSTRAP.md"]  # SOUL/IDENTITY marked missing
    assert doc["parts"][1]["reason"].startswith("missing") and doc["session_start"] is None


@pytest.mark.parametrize(("session", "files"), [
    ("subagent", ["AGENTS.md"]),
    ("cron", ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"]),
    ("shared", ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"]),
])
def test_sessions(ws: Path, tmp_path: Path, session: str, files: list[str]) -> None:
    write(ws / "USER.md", "user\n")
    write(ws / "MEMORY.md", "# M\n")
    doc = ctx(ws, "--session", session, "--turn", home=tmp_path)
    assert [p["file"] for p in doc["parts"]] == files


def test_an_older_config_selects_the_older_rules(ws: Path, tmp_path: Path) -> None:
    write(ws.parent / "openclaw.json", '{agents: {defaults: {memorySearch: {enabled: true}}}}')
    doc = ctx(ws, home=tmp_path)
    assert doc["rules"]["release"] == "older" and "older OpenClaw release" in doc["rules"]["label"]
    assert "TOOLS.md" in [p["file"] for p in doc["parts"]]


def test_an_agents_own_workspace_and_limits(tmp_path: Path) -> None:
    home = tmp_path / "home"
    work = tmp_path / "elsewhere" / "work-ws"
    write(work / "AGENTS.md", "# A\n" + "x" * 3000 + "\n")
    write(home / ".openclaw" / "openclaw.json", json.dumps({"agents": {
        "defaults": {"bootstrapMaxChars": 10000},
        "entries": {"work": {"workspace": str(work), "bootstrapMaxChars": 500}}}}))
    doc = ctx(work, "--turn", home=home)
    assert doc["rules"]["agent"] == "work" and doc["limits"]["bootstrap_max_chars"] == 500
    assert 400 < doc["parts"][0]["chars"] <= 500 and doc["parts"][0]["truncated"]  # its own 500, not 10,000


def test_text_output_names_the_rules(ws: Path, tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(ws), "--today", TODAY],
                       capture_output=True, text=True,
                       env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0, r.stderr
    assert "rules: OpenClaw 2026.9.6 (current release); sizes in UTF-16 units" in r.stdout


def test_each_agents_workspace_by_its_id(tmp_path: Path) -> None:
    state = tmp_path / "state"
    work = tmp_path / "far" / "work"
    write(work / "AGENTS.md", "# Work agent\n")
    write(state / "workspace" / "AGENTS.md", "# Main agent\n")
    write(state / "openclaw.json", json.dumps({"agents": {
        "defaults": {"workspace": str(state / "workspace")},
        "entries": {"work": {"workspace": str(work), "bootstrapTotalMaxChars": 7000}}}}))
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(state), "--agent", "work", "--turn",
                        "--json"], capture_output=True, text=True,
                       env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["profile"] == "work" and doc["rules"]["agent"] == "work"
    assert doc["limits"]["bootstrap_total_max_chars"] == 7000
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(state), "--agent", "nobody"],
                       capture_output=True, text=True,
                       env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 2 and "agents with one: main, work" in r.stderr


def test_the_days_of_the_block_follow_the_users_time_zone_and_utc() -> None:
    import datetime as dt

    from openclaw_tui.core.workspace.injection import now_dates, startup_stamps

    day = dt.date(2026, 11, 20)
    assert startup_stamps(day, 2) == ["2026-11-20", "2026-11-19"]
    assert startup_stamps(day, 2, dt.date(2026, 11, 21)) == ["2026-11-21", "2026-11-20", "2026-11-19"]
    assert startup_stamps(day, 2, dt.date(2026, 11, 19)) == ["2026-11-20", "2026-11-19"]
    assert startup_stamps(day, 1, dt.date(2026, 11, 19)) == ["2026-11-20", "2026-11-19"]
    ahead, utc = now_dates("Pacific/Kiritimati")  # UTC+14: its day is UTC's or the next
    assert (ahead - utc).days in (0, 1)
    assert now_dates("Not/A_Zone")[0] == now_dates(None)[0]  # an unknown zone: the machine's, as OpenClaw falls back


def test_without_a_date_context_counts_from_now(ws: Path, tmp_path: Path) -> None:
    import datetime as dt

    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(ws), "--json"], capture_output=True,
                       text=True, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TZ": "UTC",
                                       "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rules"]["today"] == dt.datetime.now(dt.UTC).date().isoformat()
