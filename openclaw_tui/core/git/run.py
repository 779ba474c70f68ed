"""Running git (``run_git``: no pager, no prompt, English output) and ``GitError``.

Apart from ``gitrepo`` (which re-exports them) so that a command needing one git process loads little.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


class GitError(RuntimeError):
    """A git command failed; the message is git's first line of complaint."""

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        self.returncode = returncode
        self.stderr = stderr
        lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
        reason = next((ln for ln in lines if ln.startswith(("fatal:", "error:"))), lines[0] if lines else "")
        for prefix in ("fatal: ", "error: "):
            reason = reason.removeprefix(prefix)
        super().__init__(reason or f"git {' '.join(args[:2])} failed (exit {returncode})")


@functools.lru_cache(maxsize=1)
def git_executable() -> str | None:
    return shutil.which("git")


def git_available() -> bool:
    return git_executable() is not None


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    return {
        **os.environ, "LC_ALL": "C", "LANGUAGE": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat",
        "GIT_EDITOR": "true", "GIT_MERGE_AUTOEDIT": "no", **(extra or {}),
    }


def run_git(
    args: Sequence[str],
    cwd: Path | str,
    *,
    input: bytes | None = None,
    check: bool = True,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git ARGS`` in ``cwd``; raise GitError on failure when ``check``."""
    exe = git_executable()
    if exe is None:
        raise GitError(list(args), 127, "git is not installed")
    cmd = [exe, "-c", "core.quotepath=false", *args]
    try:
        proc = subprocess.run(
            cmd, cwd=str(cwd), input=input, capture_output=True, env=git_env(env),
            stdin=None if input is not None else subprocess.DEVNULL,
        )
    except OSError as exc:
        raise GitError(list(args), 127, str(exc)) from exc
    if check and proc.returncode != 0:
        raise GitError(list(args), proc.returncode, proc.stderr.decode("utf-8", "replace"))
    return proc


def git_text(args: Sequence[str], cwd: Path | str) -> str:
    """stdout of ``git ARGS`` as text with the final newline removed."""
    return run_git(args, cwd).stdout.decode("utf-8", "surrogateescape").rstrip("\n")
