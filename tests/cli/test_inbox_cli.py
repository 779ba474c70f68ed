"""`openclaw-tui inbox` (a real subprocess) and the Python API agree on the same repository."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.api import open_profile
from openclaw_tui.core.inbox.actions import InboxError
from tests.inbox_helpers import agent_commit, replace, repo_with


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from openclaw_tui.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, encoding="utf-8")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = repo_with(tmp_path, "workspace")
    assert cli("inbox", str(ws), "--approve", "--all").returncode == 0
    replace(ws / "MEMORY.md", "\n## ", "\n- the agent learned this\n\n## ")
    agent_commit(ws, "agent: learned")
    (ws / "TOOLS.md").write_bytes((ws / "TOOLS.md").read_bytes() + b"- jq\n")
    return ws


def test_json_and_api_agree(ws: Path) -> None:
    out = cli("inbox", str(ws), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    api = open_profile(ws).inbox()
    assert doc["count"] == api.count == len(doc["changes"]) == 2
    assert [c["id"] for c in doc["changes"]] == [c.id for c in api.changes]
    item = next(c for c in doc["changes"] if c["what"] == "item")
    assert item["author"] == "the agent" and item["subject"] == "agent: learned"
    tools = next(c for c in doc["changes"] if c["file"] == "TOOLS.md")
    assert tools["who"].startswith("not committed, written at ")


def test_text_listing(ws: Path) -> None:
    out = cli("inbox", str(ws), "--diff")
    assert out.returncode == 0
    assert out.stdout.startswith("2 changes since your review (mark: snapshot ")
    assert "added item  MEMORY.md  the agent learned this" in out.stdout and "+- jq" in out.stdout


def test_approve_and_revert_by_id(ws: Path) -> None:
    ids = {c.file: c.id for c in open_profile(ws).inbox().changes}
    tools_before = (ws / "TOOLS.md").read_bytes()
    out = cli("inbox", str(ws), "--revert", ids["TOOLS.md"], "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"reverted": ["TOOLS.md"], "files": ["TOOLS.md"], "left": 1}
    assert (ws / "TOOLS.md").read_bytes() == tools_before.removesuffix(b"- jq\n")
    out = cli("inbox", str(ws), "--approve", ids["MEMORY.md"])
    assert out.returncode == 0 and out.stdout == "1 approved, 0 left\n"
    assert open_profile(ws).inbox().count == 0


def test_bad_usage_is_one_line_exit_2(ws: Path) -> None:
    for args in (["--revert", "nope"], ["--approve"], ["--all"]):
        out = cli("inbox", str(ws), *args)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and not out.stdout, args
    out = cli("inbox", str(ws / "nowhere"))
    assert out.returncode == 2


def test_api_approve_revert(ws: Path) -> None:
    mem = open_profile(ws)
    ids = {c.file: c.id for c in mem.inbox().changes}
    change = mem.revert(ids["TOOLS.md"], dry_run=True)
    assert not change.written and "-- jq" in change.diff and b"- jq" in (ws / "TOOLS.md").read_bytes()
    assert mem.revert(ids["TOOLS.md"]).written
    assert mem.approve(ids["MEMORY.md"]) == 0
    with pytest.raises(InboxError):
        mem.approve("nope")
