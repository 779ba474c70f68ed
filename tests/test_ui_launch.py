"""``openclaw-tui [PATH] [--demo]``: what opens, and the one-line refusals (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.app import OpenClawApp
from openclaw_tui.launch import default_path, memory_problem
from openclaw_tui.screens.main_screen import MainScreen

from .ui_support import SIZE, TODAY, copy_samples, settle, write_profile


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", *args],
        capture_output=True, text=True, cwd=cwd, timeout=60, stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("kind", ["missing", "empty", "file", "plain-folder"])
def test_a_path_that_is_not_memory_exits_2_with_one_line(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "x"
    if kind == "empty":
        target.mkdir()
    elif kind == "file":
        target.write_text("hello\n", encoding="utf-8")
    elif kind == "plain-folder":
        (target / "docs").mkdir(parents=True)
        (target / "docs" / "notes.md").write_text("# notes\n", encoding="utf-8")
    proc = run_cli(str(target))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("openclaw-tui: ")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert list(tmp_path.iterdir()) == ([target] if kind != "missing" else [])


def test_bad_options_exit_2(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "p", "---\nid: mem-1\n---\nx\n")
    for args in (["--today", "yesterday", str(prof)], ["--demo", str(prof)], ["--nope"]):
        proc = run_cli(*args)
        assert proc.returncode == 2, args
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("openclaw-tui: ")


def test_no_path_and_no_memory_here_exits_2(tmp_path: Path) -> None:
    proc = run_cli(cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("openclaw-tui: no memory here")


def test_what_opens(tmp_path: Path) -> None:
    root = copy_samples(tmp_path)
    assert memory_problem(root / "xiaoyu") is None  # a profile
    assert memory_problem(root) is None  # a profiles root
    assert memory_problem(root.parent) is None  # a folder holding profiles/
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    assert memory_problem(ws) is None  # a workspace
    assert default_path(root.parent) == root.parent / "profiles"
    assert default_path(root / "xiaoyu") == root / "xiaoyu"
    assert default_path(ws) == ws
    empty = tmp_path / "empty"
    empty.mkdir()
    assert default_path(empty) is None
    assert "not a profile" in (memory_problem(empty) or "")


@pytest.mark.parametrize("kind", ["missing", "file", "empty", "plain-folder", "profile", "root", "holder", "workspace"])
def test_the_launcher_and_the_commands_discover_alike(tmp_path: Path, kind: str) -> None:
    """One discovery (core.format.profile.locate): the UI opens exactly what the commands accept."""
    from openclaw_tui.core.format.profile import NotMemory, discover, locate

    root = copy_samples(tmp_path)
    target = {"profile": root / "xiaoyu", "root": root, "holder": root.parent}.get(kind, tmp_path / "x")
    if kind == "file":
        target.write_text("x\n", encoding="utf-8")
    elif kind == "empty":
        target.mkdir()
    elif kind == "plain-folder":
        (target / "docs").mkdir(parents=True)
    elif kind == "workspace":
        target.mkdir()
        (target / "AGENTS.md").write_text("# agents\n", encoding="utf-8")
    try:
        found = discover(target)
    except NotMemory as exc:
        assert memory_problem(target) == str(exc)
        with pytest.raises(NotMemory):
            locate(target)
        assert kind in ("missing", "file", "empty", "plain-folder")
    else:
        assert memory_problem(target) is None
        kind_found, places = locate(target)
        assert kind_found == found.kind == {"holder": "root"}.get(kind, kind)
        assert [(p.path.absolute(), p.rel, p.layout) for p in places] == [
            (p.path, p.rel, p.layout) for p in found.profiles]


async def test_the_demo_opens_with_its_pending_merge(tmp_path: Path) -> None:
    from openclaw_tui.ui_adapters import build_demo

    path = build_demo(tmp_path / "demo")  # git and the samples are requirements: any failure here is a failure
    assert memory_problem(path) is None
    app = OpenClawApp(path, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert m.loaded and m.table.row_count > 0
        codes = {f.code for f in m.audit.findings}
        assert "merge-conflict" in codes or "malformed-entry" in codes


def test_the_sample_helpers_fail_loudly_when_the_samples_are_missing(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import ui_support

    monkeypatch.setattr(ui_support, "SAMPLES", tmp_path / "gone")
    with pytest.raises(pytest.fail.Exception, match="samples are incomplete"):
        ui_support.copy_samples(tmp_path)
    assert not (tmp_path / "samples").exists()  # no stand-in was made
