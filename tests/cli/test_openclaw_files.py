"""Every file OpenClaw writes is named as what it is, with one answer to "is it searched?", archived
logs are dated by their names (so they decay), and search scores read as a person reads them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openclaw_tui.core.search.api import search_path
from openclaw_tui.core.search.text import indexed_rel
from openclaw_tui.core.workspace.file_kinds import classify, classify_file
from openclaw_tui.core.workspace.machine import machine_files

TODAY = dt.date(2026, 11, 20)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_each_file_kind(tmp_path: Path) -> None:
    write(tmp_path / "memory" / "2026-11-20-1530.md", "# Session: 2026-11-20 15:30\n\nuser: hi\n")
    kinds = {
        "MEMORY.md": "bootstrap", "TOOLS.md": "retired", "memory.md": "retired", "DREAMS.md": "diary",
        "memory/2026-11-20.md": "daily", "memory/2026-11-20-0930.md": "session-note",
        "memory/2026-11-20-trip-to-lyon.md": "topic-note", "memory/archive/2026-01-02.md": "archived-log",
        "memory/dreaming/rem/2026-11-19.md": "dreaming-report", "memory/imports/chatgpt/export.md": "import",
        "memory/.dreams/short-term-recall.json": "dreaming-state", "memory/notes/x.md": "memory-note",
    }
    for rel, kind in kinds.items():
        k = classify(rel)
        assert k.kind == kind, rel
        assert k.searched == indexed_rel("openclaw", rel), rel  # the index's own rule, nothing else
    assert classify_file(tmp_path, "memory/2026-11-20-1530.md").kind == "transcript"
    assert classify("memory/archive/2026-01-02.md").day == dt.date(2026, 1, 2)
    assert classify("memory/dreaming/deep/2026-11-19.md").label == "a dreaming report (deep phase)"
    assert classify("memory/imports/chatgpt/export.md").label == "material imported from chatgpt"


def test_the_dreams_tab_and_search_agree_about_each_file(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# M\n- oolong\n")
    write(ws / "memory" / "dreaming" / "rem" / "2026-11-19.md", "# REM\n- oolong pattern seen\n")
    write(ws / "memory" / ".dreams" / "short-term-recall.json", '{"oolong": 1}')
    files, _more = machine_files(ws)
    by_rel = {f.rel: f for f in files}
    found, _stats = search_path(ws, "oolong", 20, today=TODAY)
    hit_files = {h.file for h in found.hits}
    for rel, f in by_rel.items():
        assert (rel in hit_files) == f.searched, rel
        assert ("not searched" in f.what) == (not f.searched)
    assert by_rel["memory/dreaming/rem/2026-11-19.md"].searched


def test_archived_logs_decay_and_scores_read_plainly(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# M\n- something else\n")
    old = (TODAY - dt.timedelta(days=243)).isoformat()
    write(ws / "memory" / "archive" / f"{old}.md", "- oolong tea in the archive\n")
    write(ws / "memory" / f"{(TODAY - dt.timedelta(days=1)).isoformat()}.md", "- oolong tea yesterday\n")
    found, _stats = search_path(ws, "oolong", 10, today=TODAY)
    hits = {h.file: h for h in found.hits}
    archived = hits[f"memory/archive/{old}.md"]
    assert archived.date == old and archived.decay < 0.01  # dated by its name: it decays
    assert archived.readable(TODAY).endswith("(×0.004, 8 months old)")
    assert not archived.readable(TODAY).startswith("0.00 ")
    scores = [h.score for h in found.hits]
    assert scores == sorted(scores, reverse=True)  # shown in score order
    assert found.hits[0].file.endswith(f"{(TODAY - dt.timedelta(days=1)).isoformat()}.md")


def test_a_roots_workspaces_are_checked_and_searched(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    write(tmp_path / "p1" / "memories.md", "")
    write(tmp_path / "ws" / "MEMORY.md", "# M\n- oolong beside the profiles\n")
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "check", str(tmp_path), "--format", "json",
                        "--today", TODAY.isoformat()], capture_output=True, text=True, check=False)
    doc = json.loads(r.stdout)
    assert [(p["name"], p["layout"]) for p in doc["profiles"]] == [("p1", "profile"), ("ws", "openclaw")]
    found, _stats = search_path(tmp_path, "oolong", 5, today=TODAY)
    assert [(h.profile, h.file) for h in found.hits] == [("ws", "MEMORY.md")]


def test_a_claude_code_memory_folder_is_named_and_not_read_as_a_workspace(tmp_path: Path) -> None:
    import subprocess
    import sys

    from openclaw_tui.ui.launch import memory_problem

    mem = tmp_path / ".claude" / "projects" / "-home-me-proj" / "memory"
    write(mem / "MEMORY.md", "- [Testing](testing.md): how we test\n" + "x" * 30_000 + "\n")
    write(mem / "testing.md", "---\nname: testing\ndescription: how we test\ntype: feedback\n---\n"
                              "Run pytest first. See [[deploy]].\n")
    project = tmp_path / "proj"
    write(project / "CLAUDE.md", "# Project\n" + "y" * 25_000 + "\n")
    write(project / "memory" / "2026-11-20.md", "- looks like a log\n")
    for folder, what in ((mem, "Claude Code memory folder"), (project, "Claude Code project memory")):
        for cmd in (["check", str(folder), "--format", "json"], ["context", str(folder)]):
            r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *cmd], capture_output=True, text=True,
                               check=False)
            assert r.returncode == 2, (cmd, r.stdout)
            assert what in r.stderr and "not supported yet" in r.stderr
            assert "bootstrap" not in r.stdout  # no OpenClaw limit applied (no oversized-bootstrap)
        problem = memory_problem(folder)
        assert problem is not None and what in problem
    # beside a profile under a root it is skipped, like any folder that is not memory
    write(tmp_path / "root" / "p1" / "memories.md", "")
    (tmp_path / "root" / "proj").mkdir()
    write(tmp_path / "root" / "proj" / "CLAUDE.md", "# P\n")
    write(tmp_path / "root" / "proj" / "MEMORY.md", "# M\n")
    from openclaw_tui.core.files.profile import locate

    assert [p.rel for p in locate(tmp_path / "root")[1]] == ["p1"]
    # an OpenClaw workspace that also has a CLAUDE.md stays a workspace
    write(tmp_path / "both" / "AGENTS.md", "# A\n")
    write(tmp_path / "both" / "CLAUDE.md", "# C\n")
    assert locate(tmp_path / "both")[0] == "workspace"
