"""Issue 24, the command line: a mistyped sub-command, git's placeholders run by hand, dry runs that say
what they would do.  Real subprocesses on copies of the samples."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.lifecycle.plan import apply_changes
from openclaw_tui.core.workspace.distil import distil_plan
from tests.conftest import SAMPLES


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_a_mistyped_sub_command_suggests_the_closest(tmp_path: Path) -> None:
    res = cli("chek", str(SAMPLES), cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "did you mean check?" in res.stderr, res.stderr
    res = cli("comit", cwd=tmp_path)
    assert res.returncode == 2 and "did you mean commit?" in res.stderr
    res = cli("frobnicate", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "neither a sub-command nor a file or folder" in res.stderr and "--help" in res.stderr, res.stderr


def test_a_word_that_names_a_folder_is_still_a_path(tmp_path: Path) -> None:
    """A folder named like a near-miss of a sub-command opens as a PATH (here: not memory, its own message)."""
    (tmp_path / "chek").mkdir()
    res = cli("chek", cwd=tmp_path)
    assert res.returncode == 2 and "did you mean" not in res.stderr, res.stderr


def test_merge_driver_refuses_gits_literal_placeholders(tmp_path: Path) -> None:
    res = cli("merge-driver", "%O", "%A", "%B", "%P", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "placeholder" in res.stderr and "BASE OURS THEIRS" in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []  # no file named %A
    # the module git-setup installs refuses it the same way
    res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli.commands.merge_driver", "base", "%A", "theirs"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 2 and "%A is a placeholder" in res.stderr and list(tmp_path.iterdir()) == []


def test_context_distil_dry_run_shows_the_entries_and_the_move_to_come(tmp_path: Path) -> None:
    prof = tmp_path / "atlas"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    before = {p: p.read_bytes() for p in prof.rglob("*") if p.is_file()}
    ctx = "contexts/2026-11-24_oncall-handoff.md"
    res = cli("distil", str(prof), "--context", ctx, "--lines", "3,7", "--dry-run")
    assert res.returncode == 0, res.stderr
    assert "--- a/memories.md" in res.stdout
    assert "+source: contexts/2026-11-24_oncall-handoff.md:3" in res.stdout
    assert "+Two noisy disk alerts on the CI runners; added to the list in mem-0012." in res.stdout
    assert f"would move {ctx} to contexts/archive/2026-11-24_oncall-handoff.md" in res.stdout
    assert "moved to" not in res.stdout  # nothing moved
    assert {p: p.read_bytes() for p in prof.rglob("*") if p.is_file()} == before


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def test_remove_old_dry_run_lists_what_it_would_remove(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    _git(ws, "init", "-q")
    _git(ws, "add", "-A")
    _git(ws, "commit", "-qm", "start")
    res = cli("distil", str(ws), "--remove-old", "--today", "2026-11-30", "--dry-run")
    assert res.returncode == 0 and res.stdout.startswith("nothing to remove"), res.stdout
    apply_changes(distil_plan(ws, "memory/2026-10-12.md", [3, 4, 5, 6], None).plan)
    _git(ws, "commit", "-qam", "distilled")
    head = _git(ws, "rev-parse", "HEAD")
    res = cli("distil", str(ws), "--remove-old", "--today", "2026-11-30", "--dry-run")
    assert res.returncode == 0, res.stderr
    assert res.stdout == "would remove: memory/2026-10-12.md\n"
    assert (ws / "memory/2026-10-12.md").exists() and _git(ws, "rev-parse", "HEAD") == head
