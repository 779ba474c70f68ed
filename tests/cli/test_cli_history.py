"""`openclaw-tui history`: a profile's commits entry by entry, one entry's versions, the index; real repos."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_git_helpers import cli, commit_all, entry, git, make_repo, memfile, write


def _repo(tmp_path: Path) -> Path:
    """Three commits on profile ``p``: create, supersede mem-0001 by mem-0002, archive mem-0001."""
    repo = make_repo(tmp_path / "r")
    prof = repo / "p"
    write(prof / "memories.md", memfile(entry("mem-0001", "Tea in the morning.")))
    commit_all(repo, "create", "2025-01-01T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        entry("mem-0001", "Tea in the morning.", status="superseded", superseded_by="mem-0002"),
        entry("mem-0002", "No caffeine at all.", conflict="mem-0001")))
    write(prof / "state.yaml", "focus: mem-0002\n")
    commit_all(repo, "supersede", "2025-01-02T10:00:00+00:00")
    write(prof / "memories.md", memfile(entry("mem-0002", "No caffeine at all.", conflict="mem-0001")))
    write(prof / "contexts/archive/memories.md", memfile(
        entry("mem-0001", "Tea in the morning.", status="archived", superseded_by="mem-0002"), preamble=""))
    commit_all(repo, "archive", "2025-01-03T10:00:00+00:00")
    return repo


def test_the_commit_list_says_what_each_commit_did_to_which_entry(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    proc = cli("history", str(repo / "p"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [ln.split("  ")[-1] for ln in lines if not ln.startswith(" ")][:3] == ["archive", "supersede", "create"]
    assert "    mem-0001: archived" in lines
    assert "    mem-0002: added" in lines and "    mem-0001: superseded by mem-0002" in lines
    assert "    state.yaml: added" in lines and lines[-1] == "3 commits"
    doc = json.loads(cli("history", str(repo / "p"), "-n", "1", "--skip", "1", "--json").stdout)
    assert [c["subject"] for c in doc] == ["supersede"] and "mem-0002: added" in doc[0]["changes"]


def test_one_entrys_versions_follow_it_into_the_archive(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    proc = cli("history", str(repo / "p"), "--entry", "mem-0001")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "archived (status)  [contexts/archive/memories.md]  archive" in lines[0]
    assert "changed (status, superseded_by)  supersede" in lines[1]
    assert "created  create" in lines[2] and lines[-1] == "3 versions of mem-0001"
    doc = json.loads(cli("history", str(repo / "p"), "--entry", "mem-0001", "--json").stdout)
    assert [v["kind"] for v in doc["versions"]] == ["archived", "changed", "created"]
    assert doc["versions"][1]["fields"] == ["status", "superseded_by"] and not doc["versions"][1]["body_changed"]
    assert "status: archived" in doc["versions"][0]["text"]


def test_index_then_nothing_new_and_refusals(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert json.loads(cli("history", str(repo / "p"), "--index", "--json").stdout) == {"indexed": 2}
    assert cli("history", str(repo / "p"), "--index").stdout == "0 pairs of versions indexed\n"
    assert (repo / ".git" / "openclaw-tui" / "entry-index.sqlite").is_file()
    assert git(repo, "status", "--porcelain") == ""  # the memory files are untouched
    outside = tmp_path / "plain"
    write(outside / "memories.md", memfile(entry("mem-0001", "x")))
    proc = cli("history", str(outside))
    assert proc.returncode == 2 and "not inside a git repository" in proc.stderr
    proc = cli("history", str(tmp_path / "nothing-here"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
