"""The commands of the README and of docs/ run as written against the bundled samples.

The command table of ``docs/cli.md`` and every ``sh`` block of README.md and
``docs/*.md`` are read from the files themselves and run through a shell
(quoting and redirections as printed) with an ``openclaw-tui`` on PATH, from a
folder laid out like the repository's root (a copy of ``sample_profiles/`` and
``examples/`` in a git repository), in the order printed, so the writing
commands act on what the ones before them left.
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

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CLI_DOC = ROOT / "docs" / "cli.md"
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
    """The rows of docs/cli.md's command table, one example per command of a row."""
    text = CLI_DOC.read_text(encoding="utf-8")
    section = text[text.index("\n| command | example |\n"):]
    section = section[: section.index("\n\n", 1)]
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
    # merge-driver is run by git, never typed: docs/merging.md shows it as the git config line
    assert names - {"merge_driver", "merge-driver"} <= used, sorted(names - used)


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


def _env(tmp_path: Path, lang: str) -> dict[str, str]:
    """The environment of the commands: openclaw-tui on PATH, ``lang`` the language (LANG, nothing over it)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    return dict(env, LANG=lang, PATH=f"{_shim(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}")


# the README's commands run as written in English and in Chinese (their machine output does not change)
LANGS = pytest.mark.parametrize("lang", ["C.UTF-8", "zh_CN.UTF-8"])


@LANGS
def test_every_command_of_the_table_runs_as_written(work: Path, tmp_path: Path, lang: str) -> None:
    env = _env(tmp_path, lang)
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


DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
# installing into the running environment, or the test command itself (which runs this test): listed, not run
INSTALL_REASON = "installs the package or runs the whole suite"


def shell_blocks() -> list[tuple[str, str]]:
    """Every command of a ```sh block of README.md and docs/*.md: (file, command), backslash lines joined."""
    out: list[tuple[str, str]] = []
    for doc in DOCS:
        for block in re.findall(r"^```sh\n(.*?)^```", doc.read_text(encoding="utf-8"), re.S | re.M):
            for command in block.replace("\\\n", " ").splitlines():
                if command.strip() and not command.lstrip().startswith("#"):
                    out.append((doc.name, " ".join(command.split())))
    return out


@LANGS
def test_every_shell_block_of_the_readme_and_docs_runs_as_written(work: Path, tmp_path: Path, lang: str) -> None:
    found = shell_blocks()
    assert {name for name, _ in found} >= {"README.md", "agents.md"}
    env = _env(tmp_path, lang)
    skipped: list[str] = []
    failures: list[str] = []
    for name, command in found:
        if command.startswith("pip install"):
            skipped.append(command)
            continue
        proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
            failures.append(f"{name}: {command}\n  exit {proc.returncode}\n  {proc.stderr.strip()[-800:]}")
    assert not failures, "\n".join(failures)
    assert skipped == ["pip install -e . && openclaw-tui --demo",
                       'pip install -e ".[dev]" && python -m pytest -n 4 -m "not slow"'], (
        INSTALL_REASON, skipped)
