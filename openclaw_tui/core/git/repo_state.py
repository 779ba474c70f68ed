"""What the status bar says about the repository holding the memory folder (None: no git, no repository)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .gitrepo import Repo, find_repo, status


@dataclass(frozen=True)
class RepoState:
    repo: Repo
    branch: str | None  # None: HEAD detached
    head: str | None  # None: no commit yet
    dirty: int  # uncommitted files (changed, staged, untracked) under the folder
    operation: str | None  # merge, rebase, cherry-pick, revert, am, bisect
    conflicted: tuple[str, ...]  # unmerged paths of the whole repository (repository-relative)
    ahead: int = 0
    behind: int = 0
    upstream: str | None = None


def read_state(folder: Path | str, scope: Path | str | None = None) -> RepoState | None:
    """The state of the repository holding ``folder``; ``dirty`` counts files under ``scope`` (default: folder)."""
    repo = find_repo(folder)
    if repo is None:
        return None
    whole = status(repo.root)
    if whole is None:
        return None
    target = Path(scope if scope is not None else folder).absolute()
    try:
        rel = repo.rel(target)
    except ValueError:
        rel = ""
    prefix = rel + "/" if rel else ""
    dirty = sum(1 for f in whole.files if not prefix or f.path.startswith(prefix) or f.path == rel)
    return RepoState(repo, whole.branch, whole.head, dirty, whole.operation, whole.conflicted,
                     whole.ahead, whole.behind, whole.upstream)
