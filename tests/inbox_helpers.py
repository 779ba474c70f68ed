"""Real git repositories for the inbox tests: a sample copied, committed, then changed by "the agent"."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_profiles"
AGENT = {"GIT_AUTHOR_NAME": "the agent", "GIT_AUTHOR_EMAIL": "agent@example.invalid"}


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    import os

    full = {**os.environ, **(env or {})}
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=full).stdout


def repo_with(tmp: Path, sample: str) -> Path:
    """A git repository holding a copy of ``sample_profiles/<sample>``, committed; returns the copy."""
    dest = tmp / Path(sample).name
    shutil.copytree(SAMPLES / sample, dest)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "start")
    return dest


def agent_commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, env=AGENT)
    return git(repo, "rev-parse", "HEAD").strip()


def replace(path: Path, old: str, new: str) -> None:
    data = path.read_bytes()
    assert old.encode() in data, old
    path.write_bytes(data.replace(old.encode(), new.encode(), 1))
