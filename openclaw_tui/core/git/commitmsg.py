"""Commit messages made from what changed in a profile, and committing it.

The message is ``feat(mem): <summary>`` (a summary with its own type prefix, ``fix: …``, is taken as
given), a blank line, then one ``- mem-0013: added`` / ``- state.yaml: changed`` line per entry and file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .gitrepo import GitError, Repo, RepoLike, RepoStatus, as_repo, commit_paths, head_sha, read_blob, status
from .semantic_diff import ARCHIVE, MEMORIES, FileChange, ProfileDiff, profile_diff

PREFIX = "feat(mem): "
# a Conventional Commits type, optional scope and ``!``: a summary that starts so is taken as given
TYPES = ("feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert")
TYPED_RE = re.compile(rf"(?:{'|'.join(TYPES)})(?:\([^()\r\n]*\))?!?:[ \t]+\S")


class NothingToCommit(GitError):
    """The profile has no change to commit."""

    def __init__(self, rel: str) -> None:
        super().__init__(["commit"], 1, f"nothing to commit in {rel or 'the repository'}")


def _profile_path(profile: Any) -> Path:
    return Path(getattr(profile, "path", profile)).absolute()


def read_file(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def is_memory_file(rel: str, workspace: bool = False) -> bool:
    """A memory file by its path in the memory folder (spec, Layouts A and B): an untracked one is
    committed with the folder's changes; any other untracked file waits until it is named."""
    if workspace:  # bootstrap files, DREAMS.md and everything the agent writes under memory/
        return rel.endswith(".md") and ("/" not in rel or rel.startswith("memory/"))
    if rel in ("identity.md", "memories.md", "state.yaml", "secrets_refs.yaml"):
        return True
    return rel.startswith(("contexts/", "skills/")) and rel.endswith(".md")


def left_out(repo: RepoLike, profile: Any, include: Sequence[str] = ()) -> list[str]:
    """Untracked files of the profile folder that a commit leaves out (profile-relative): not memory
    files (an ``audit.log``, notes, an editor's backup) and not named in ``include``."""
    r = as_repo(repo)
    folder = _profile_path(profile)
    return _left(status(r.root, folder), r.rel(folder), folder, include)


def _left(st: RepoStatus | None, rel: str, folder: Path, include: Sequence[str]) -> list[str]:
    from ..files.profile import is_profile_dir, is_workspace_dir

    prefix = rel + "/" if rel else ""
    named = {_named(folder, n) for n in include}
    workspace = is_workspace_dir(folder) and not is_profile_dir(folder)
    return sorted(p for f in (st.files if st is not None else ()) if f.untracked
                  for p in [f.path.removeprefix(prefix)] if not is_memory_file(p, workspace) and p not in named)


def _named(folder: Path, name: str) -> str:
    """A file named on the command line (relative to the profile folder, or a path to it), profile-relative."""
    p = Path(name)
    if p.is_absolute() or p.exists():
        try:
            return p.absolute().relative_to(folder).as_posix()
        except ValueError:
            pass
    return p.as_posix().removeprefix("./")


def profile_changes(repo: RepoLike, profile: Any, include: Sequence[str] = ()) -> ProfileDiff:
    """What changed in the profile folder since HEAD (working tree, staged or not, new files too),
    without the untracked files a commit leaves out (``left_out``)."""
    r = as_repo(repo)
    folder = _profile_path(profile)
    rel = r.rel(folder)
    st = status(r.root, folder)
    prefix = rel + "/" if rel else ""
    files: list[FileChange] = []
    leave = set(_left(st, rel, folder, include))
    for f in st.files if st is not None else ():
        path = f.path.removeprefix(prefix)
        if path in leave:
            continue
        if f.kind == "renamed" and f.orig_path:
            files.append(FileChange(path, "renamed", f.orig_path.removeprefix(prefix)))
        else:
            files.append(FileChange(path, "changed" if f.kind == "conflicted" else f.kind))
    files.sort(key=lambda c: c.path)
    has_head = head_sha(r) is not None

    def pair(name: str) -> tuple[bytes | None, bytes | None]:
        full = f"{prefix}{name}"
        return read_blob(r, "HEAD", full) if has_head else None, read_file(folder / name)

    (om, nm), (oa, na) = pair(MEMORIES), pair(ARCHIVE)
    return profile_diff(om, oa, nm, na, files)


def default_summary(diff: ProfileDiff, name: str = "") -> str:
    """A one-line summary such as ``xiaoyu: 1 added, 1 superseded, state.yaml changed``."""
    counts = Counter(e.kind for e in diff.events)
    parts = [f"{counts[k]} {k}" for k in ("added", "superseded", "changed", "archived", "restored", "removed") if counts[k]]
    if len(diff.events) == 1:
        e = diff.events[0]
        parts = [f"{e.id} {e.describe()}"]
    others = [f for f in diff.files if f.path not in (MEMORIES, ARCHIVE)]
    if len(others) == 1:
        parts.append(f"{others[0].path} {others[0].status}")
    elif others:
        parts.append(f"{len(others)} files changed")
    if not parts:
        parts.append("update memory files")
    text = ", ".join(parts)
    return f"{name}: {text}" if name else text


def format_message(summary: str, diff: ProfileDiff) -> str:
    """``feat(mem): <summary>`` (or a summary with its own type prefix, as given), a blank line,
    then one ``- `` line per entry and file."""
    if TYPED_RE.match(summary.lstrip()):
        head = "\n".join(line.rstrip() for line in summary.strip().splitlines())
    else:
        head = PREFIX + (" ".join(summary.split()).removeprefix(PREFIX.strip()).strip() or "update memory")
    lines = diff.lines()
    body = "\n".join(f"- {line}" for line in lines)
    return f"{head}\n" + (f"\n{body}\n" if body else "")


def build_message(repo: RepoLike, profile: Any, summary: str | None = None, include: Sequence[str] = ()) -> str:
    diff = profile_changes(repo, profile, include)
    name = _profile_path(profile).name
    return format_message(summary or default_summary(diff, name), diff)


def commit_profile(
    profile: Any, summary: str | None = None, *, repo: RepoLike | None = None, env: Mapping[str, str] | None = None,
    include: Sequence[str] = (),
) -> str:
    """Commit the profile folder's changes (and nothing else) with a generated message; returns the sha.

    Untracked files that are not memory files are left out unless named in ``include``.  Raises
    GitError outside a repository, NothingToCommit when nothing changed.
    """
    folder = _profile_path(profile)
    r: Repo = as_repo(repo if repo is not None else folder)
    diff = profile_changes(r, folder, include)
    if not diff.files:
        raise NothingToCommit(r.rel(folder))
    message = format_message(summary or default_summary(diff, folder.name), diff)
    return commit_paths(r, r.rel(folder), message, env=env, leave=left_out(r, folder, include))
