"""Helpers for the git tests: real repositories in tmp_path, real git, the real CLI.

Imported by the other ``test_git_*``, ``test_merge*``, ``test_conflicts*``,
``test_history*`` and ``test_demo*`` modules.  Every repository gets a local
identity; conftest points GIT_CONFIG_GLOBAL at a throwaway file, so the
machine's git config never leaks in.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def git(repo: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> str:
    full_env = dict(os.environ)
    full_env.update({"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_MERGE_AUTOEDIT": "no"})
    full_env.update(env or {})
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, env=full_env)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode()}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def git_rc(repo: Path, *args: str) -> int:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True).returncode


def make_repo(path: Path, branch: str = "main") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", branch)
    git(path, "config", "user.name", "Test Person")
    git(path, "config", "user.email", "test@example.invalid")
    git(path, "config", "commit.gpgsign", "false")
    return path


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def commit_all(repo: Path, message: str, date: str | None = None, paths: tuple[str, ...] = ()) -> str:
    """Commit everything (or only ``paths``: an untracked .gitattributes must stay out)."""
    git(repo, "add", "-A", "--", *(paths or (".",)))
    env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date} if date else None
    git(repo, "commit", "-q", "-m", message, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


def entry(ident: str, body: str, **fields: str) -> str:
    """One entry's text: ``---``, id, the fields (``importance="high"``), ``---``, body."""
    lines = ["---", f"id: {ident}"] + [f"{k}: {v}" for k, v in fields.items()] + ["---", body]
    return "\n".join(lines) + "\n"


def memfile(*entries: str, preamble: str = "# memory\n\n") -> str:
    return preamble + "\n".join(entries)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", *args], cwd=cwd, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )


def markers(text: str) -> list[str]:
    """The conflict-marker lines of a text (any size)."""
    return [ln for ln in text.splitlines() if ln[:1] in "<|=>" and len(ln) >= 7 and ln[:7] == ln[0] * 7]


def test_helper_repos_use_a_local_identity(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    assert git(repo, "config", "--local", "user.email").strip() == "test@example.invalid"
    write(repo / "a.md", memfile(entry("mem-0001", "hello", importance="high")))
    sha = commit_all(repo, "one", "2025-01-02T03:04:05+00:00")
    assert git(repo, "log", "-1", "--format=%aI", sha).strip() == "2025-01-02T03:04:05+00:00"
    assert "id: mem-0001\nimportance: high\n---\nhello\n" in (repo / "a.md").read_text()
