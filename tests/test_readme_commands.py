"""The README's command table ("Command line") runs as written against the bundled samples.

Every example is read from README.md itself, run through a shell (quoting and
redirections as printed) with an ``openclaw-tui`` on PATH, from a folder laid
out like the repository's root (a copy of ``sample_profiles/`` and
``examples/`` in a git repository), in the table's order, so the writing
commands act on what the rows before them left.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from openclaw_tui.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# commands that open the terminal UI cannot run to an end without a person: they are listed, not run
UI_REASON = "opens the terminal UI, which runs until a person quits it (covered by test_ui_launch)"
SERVE_REASON = "serves until it is stopped (covered by test_serve, which drives it from a browser)"
WRITERS = {"set", "supersede", "archive", "restore", "commit", "git-setup"}


@dataclass(frozen=True)
class Example:
    what: str
    command: str

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.command.split(">", 1)[0])


def examples() -> list[Example]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Command line\n"):]
    section = section[: section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows[0].replace(" ", "") == "|command|example|", rows[0]
    out: list[Example] = []
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert len(cells) == 2, row
        spans = re.findall(r"`([^`]+)`", cells[1])
        assert spans, row
        for span in spans:
            assert span.startswith("openclaw-tui"), f"not a whole command, cannot run as written: {span!r}"
            out.append(Example(cells[0], span))
    return out


def test_the_table_is_there_and_names_every_sub_command() -> None:
    found = examples()
    assert len(found) >= 20
    _, names = build_parser()
    used = {e.argv[1] for e in found if len(e.argv) > 1}
    assert names - {"merge_driver"} <= used | {"merge-driver"}, sorted(names - used)


def test_every_example_path_exists_in_the_repository() -> None:
    for e in examples():
        for token in e.argv[1:]:
            if ("/" in token and not token.startswith("%")) or (token.endswith(".md") and token != "memories.md"):
                # a file inside the memory folder may be named relative to the command's PATH (distil --log ...)
                base = ROOT / e.argv[2] if len(e.argv) > 2 else ROOT
                assert (ROOT / token).exists() or (base / token).exists(), (
                    f"{e.what}: {token} does not exist (run from the repository's root)")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder laid out like the repository's root, in a git repository of its own."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(ROOT / "sample_profiles", work / "sample_profiles")
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "the samples"]):
        subprocess.run(["git", *args], cwd=work, check=True, capture_output=True)
    return work


def _shim(folder: Path) -> Path:
    folder.mkdir()
    exe = folder / "openclaw-tui"
    exe.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m openclaw_tui.cli "$@"\n', encoding="utf-8")
    exe.chmod(0o755)
    return folder


def _driver_files(work: Path) -> dict[str, str]:
    """Real files for git's %O %A %B %P: the xiaoyu memories as committed, and two edits of them."""
    rel = "sample_profiles/profiles/xiaoyu/memories.md"
    base = subprocess.run(["git", "show", f"HEAD:{rel}"], cwd=work, check=True, capture_output=True).stdout
    ours = base.replace(b"importance: medium", b"importance: high", 1)
    theirs = base + "\n---\nid: mem-0100\nimportance: low\nstatus: active\n---\n另一个分支记下的。\n".encode()
    files = {"%O": "base.md", "%A": "ours.md", "%B": "theirs.md"}
    for name, data in zip(files.values(), (base, ours, theirs), strict=True):
        (work / name).write_bytes(data)
    return {**files, "%P": rel}


def test_every_command_of_the_table_runs_as_written(work: Path, tmp_path: Path) -> None:
    env = dict(os.environ, PATH=f"{_shim(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}")
    _, names = build_parser()
    ran: list[tuple[str, int]] = []
    skipped: list[str] = []
    failures: list[str] = []
    for e in examples():
        command = e.command
        head = e.argv[1] if len(e.argv) > 1 else ""
        if head not in names and head not in ("--version", "--help"):
            skipped.append(f"{command}: {UI_REASON}")
            continue
        if head == "serve":
            skipped.append(f"{command}: {SERVE_REASON}")
            continue
        if head == "merge-driver":
            for placeholder, real in _driver_files(work).items():
                command = command.replace(placeholder, shlex.quote(real))
        proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        ran.append((command, proc.returncode))
        ok = proc.returncode == 0 if head in WRITERS else proc.returncode in (0, 1)
        if not ok or "Traceback" in proc.stderr:
            failures.append(f"{command}\n  exit {proc.returncode}\n  {proc.stderr.strip()[-800:]}")
    assert not failures, "\n".join(failures)
    assert sorted(s.split(":")[0] for s in skipped) == [
        "openclaw-tui --demo", "openclaw-tui sample_profiles/profiles",
        "openclaw-tui serve sample_profiles/profiles --port 8000",
    ]
    # the writing rows did write, and in order
    log = subprocess.run(["git", "log", "-1", "--format=%B"], cwd=work, capture_output=True, text=True).stdout
    assert log.startswith("feat(mem): correct coffee preference\n"), log
    assert "- mem-0007: superseded by mem-0012" in log
    mem = (work / "sample_profiles/profiles/xiaoyu/memories.md").read_text(encoding="utf-8")
    assert "用户现在完全不摄入咖啡因，早上改喝大麦茶。" in mem and "id: mem-0015" in mem  # archived and restored
    assert (work / "check.sarif").stat().st_size > 0
    assert (work / "sample_profiles/profiles/xiaoyu/audit.log").is_file()
    assert "merge=openclaw-memory" in (work / ".gitattributes").read_text(encoding="utf-8")
    assert dict(ran).get("openclaw-tui check sample_profiles/profiles/xiaoyu --today 2026-11-30") == 1  # findings
