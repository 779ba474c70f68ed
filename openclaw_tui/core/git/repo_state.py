"""What the status bar says about the repository holding the memory folder (None: no git, no repository)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .gitrepo import RepoStatus, status


@dataclass(frozen=True)
class RepoState(RepoStatus):
    """The whole repository's status; ``dirty`` counts only the uncommitted files under the folder."""

    dirty: int = 0  # changed, staged or untracked


def read_state(folder: Path | str, scope: Path | str | None = None) -> RepoState | None:
    """The state of the repository holding ``folder``; ``dirty`` counts files under ``scope`` (default: folder)."""
    whole = status(folder)
    if whole is None:
        return None
    target = Path(scope if scope is not None else folder).absolute()
    try:
        rel = whole.repo.rel(target)
    except ValueError:
        rel = ""
    prefix = rel + "/" if rel else ""
    dirty = sum(1 for f in whole.files if not prefix or f.path.startswith(prefix) or f.path == rel)
    return RepoState(**vars(whole), dirty=dirty)
