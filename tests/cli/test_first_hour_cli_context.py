"""Issue 24, point 19: ``context`` loads a context file that ``state.yaml`` names by its path, under any
key (spec, "What the agent sees", Layout A).  The real CLI on a profile in a tmp folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ENTRY = "---\nid: mem-0001\ntimestamp: 2024-06-01T09:00:00+08:00\nimportance: high\nstatus: active\n---\nPlan the trip.\n"


def _profile(tmp_path: Path, state: str) -> Path:
    prof = tmp_path / "assistant"
    (prof / "contexts" / "archive").mkdir(parents=True)
    (prof / "identity.md").write_text("# Assistant\n", encoding="utf-8")
    (prof / "memories.md").write_text(ENTRY, encoding="utf-8")
    (prof / "state.yaml").write_text(state, encoding="utf-8")
    (prof / "contexts" / "2024-06-01_planning.md").write_text("# planning\n- book the train\n", encoding="utf-8")
    (prof / "contexts" / "2024-06-02_todo.md").write_text("# todo\n- water the plants\n", encoding="utf-8")
    (prof / "contexts" / "archive" / "2024-05-01_retro.md").write_text("# retro\n", encoding="utf-8")
    return prof


def _context(prof: Path) -> dict:
    res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(prof), "--json",
                          "--today", "2024-06-03"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _contexts(doc: dict) -> list[str]:
    return [p["file"] for p in doc["parts"] if p["layer"] == "contexts"]


def test_a_path_under_any_key_names_the_context_file(tmp_path: Path) -> None:
    doc = _context(_profile(tmp_path, "current_focus:\n  plan: contexts/2024-06-01_planning.md\n"))
    assert _contexts(doc) == ["contexts/2024-06-01_planning.md"]  # and not the todo file nobody named
    part = next(p for p in doc["parts"] if p["file"] == "contexts/2024-06-01_planning.md")
    assert "state.yaml" in part["reason"] and "current_focus.plan" in part["reason"]


def test_paths_in_lists_and_with_dot_slash_count_too(tmp_path: Path) -> None:
    state = "notes:\n  - ./contexts/2024-06-02_todo.md\n  - see contexts/2024-06-01_planning.md for the plan\n"
    assert sorted(_contexts(_context(_profile(tmp_path, state)))) == [
        "contexts/2024-06-01_planning.md", "contexts/2024-06-02_todo.md"]


def test_a_path_to_an_archived_context_file_is_left_out_with_its_reason(tmp_path: Path) -> None:
    doc = _context(_profile(tmp_path, "last: contexts/archive/2024-05-01_retro.md\n"))
    assert _contexts(doc) == []
    assert [(o["file"], o["reason"]) for o in doc["left_out"]] == [("contexts/archive/2024-05-01_retro.md", "archived")]
    assert "state.yaml" in doc["left_out"][0]["detail"]


def test_a_path_in_a_comment_or_a_key_names_nothing(tmp_path: Path) -> None:
    state = "# was: contexts/2024-06-01_planning.md\ncontexts/2024-06-02_todo.md: done\n"
    assert _contexts(_context(_profile(tmp_path, state))) == []
