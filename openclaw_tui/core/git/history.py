"""A profile's git history read by entry: log pages, what a commit did, rollback, revert, branch comparison.

Every function returns dataclasses; nothing here prints or prompts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .commitmsg import is_memory_file, read_file
from .gitrepo import Repo, RepoLike, as_repo, head_sha, read_blob, rel_path, run_git, status, tree_files
from .semantic_diff import ARCHIVE, MEMORIES, FileChange, ProfileDiff, profile_diff
from .threeway import Labels, merge_bytes, merge_plain

NULL_SHA = "0" * 40


class Refused(RuntimeError):
    """The operation was not run; the message says why (nothing was written)."""


# --- commits -----------------------------------------------------------------------------------

LOG_FORMAT = "%x1e%H%x00%h%x00%P%x00%an%x00%ae%x00%aI%x00%s"


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    short: str
    parents: tuple[str, ...]
    author: str
    email: str
    date: str  # ISO 8601 with the author's offset
    subject: str

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1


def commit_from(header: str) -> CommitInfo:
    f = header.split("\0")
    short = f[1][:7] if len(f[1]) == 40 else f[1]  # --no-abbrev (used with --raw) also widens %h
    return CommitInfo(f[0], short, tuple(f[2].split()), f[3], f[4], f[5], f[6] if len(f) > 6 else "")


def profile_rel(repo: Repo, profile: Any) -> str:
    path = getattr(profile, "path", profile)
    return rel_path(repo, Path(path))


def profile_file(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def log_page(repo: RepoLike, path: Any = "", skip: int = 0, limit: int = 50) -> list[CommitInfo]:
    """Commits touching ``path`` (a Profile, a folder or a file; "" = everything), newest first, one page."""
    r = as_repo(repo)
    if head_sha(r) is None:
        return []
    target = getattr(path, "path", path)
    rel = rel_path(r, target) if str(target) else ""
    return _log(r, ["-n", str(max(0, limit)), f"--skip={max(0, skip)}", "HEAD"], rel)


def _log(repo: Repo, args: list[str], rel: str) -> list[CommitInfo]:
    """``git log ARGS`` limited to the path ``rel`` ("" = everything), parsed."""
    args = ["log", f"--format={LOG_FORMAT}", *args] + (["--", rel] if rel else [])
    out = run_git(args, repo.root).stdout.decode("utf-8", "replace")
    return [commit_from(chunk.strip("\n")) for chunk in out.split("\x1e") if chunk.strip()]


def commit_info(repo: RepoLike, rev: str) -> CommitInfo:
    r = as_repo(repo)
    out = run_git(["log", "-1", f"--format={LOG_FORMAT}", rev, "--"], r.root).stdout.decode("utf-8", "replace")
    return commit_from(out.strip("\x1e\n"))


@dataclass(frozen=True)
class CommitDiff:
    commit: CommitInfo
    diff: ProfileDiff


_STATUS = {"A": "added", "M": "changed", "D": "deleted", "R": "renamed", "C": "added", "T": "changed"}


def _tree_changes(repo: Repo, old: str | None, new: str, rel: str) -> list[FileChange]:
    """Files under the profile ``rel`` that differ between two commits (paths relative to the profile)."""
    args = ["diff-tree", "-r", "-z", "--no-commit-id", "--name-status", "-M"]
    args += [old, new] if old else ["--root", new]
    if rel:
        args += ["--", rel]
    out = run_git(args, repo.root).stdout.decode("utf-8", "surrogateescape").split("\0")
    changes: list[FileChange] = []
    i = 0
    prefix = rel + "/" if rel else ""
    while i < len(out) and out[i]:
        code = out[i][0]
        n = 3 if code in "RC" else 2  # a rename or copy names its source, then its destination
        src = out[i + 1].removeprefix(prefix) if n == 3 else None
        changes.append(FileChange(out[i + n - 1].removeprefix(prefix), _STATUS.get(code, "changed"), src))
        i += n
    return sorted(changes, key=lambda c: c.path)


def _commits_diff(r: Repo, rel: str, old: str | None, new: str) -> ProfileDiff:
    """The profile ``rel`` from commit ``old`` (None: before the first commit) to commit ``new``."""
    def blobs(rev: str | None) -> list[bytes | None]:
        return [read_blob(r, rev, profile_file(rel, name)) if rev else None for name in (MEMORIES, ARCHIVE)]

    (om, oa), (nm, na) = blobs(old), blobs(new)
    return profile_diff(om, oa, nm, na, _tree_changes(r, old, new, rel))


def commit_semantic_diff(repo: RepoLike, sha: str, profile: Any) -> CommitDiff:
    """What commit ``sha`` did to the profile (against its first parent)."""
    r = as_repo(repo)
    info = commit_info(r, sha)
    parent = info.parents[0] if info.parents else None
    return CommitDiff(info, _commits_diff(r, profile_rel(r, profile), parent, info.sha))


def diff_revs(repo: RepoLike, profile: Any, old_rev: str, new_rev: str) -> ProfileDiff:
    """The profile's difference between two revisions (branches, tags, shas)."""
    r = as_repo(repo)
    old_sha, new_sha = (run_git(["rev-parse", "--verify", f"{rev}^{{commit}}"], r.root).stdout.decode().strip()
                        for rev in (old_rev, new_rev))
    return _commits_diff(r, profile_rel(r, profile), old_sha, new_sha)


# --- rollback and revert ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileRestore:
    path: str  # relative to the profile folder
    action: str  # "restore", "create" or "delete"
    current: bytes | None
    target: bytes | None


@dataclass(frozen=True)
class RollbackPlan:
    repo: Repo
    profile_rel: str  # the profile folder, relative to the repository root
    sha: str
    commit: CommitInfo
    files: tuple[FileRestore, ...]
    diff: ProfileDiff  # what applying it changes (now -> that commit)
    blocked: str | None = None  # why it cannot be applied (then ``apply_rollback`` refuses)

    @property
    def empty(self) -> bool:
        return not self.files


def _dirty_reason(repo: Repo, rel: str) -> str | None:
    st = status(repo.root, repo.path(rel))
    if st is None:
        return "not inside a git repository"
    if st.operation is not None:
        return f"a {st.operation} is in progress; finish or abort it first"
    prefix = rel + "/" if rel else ""
    # an untracked file a commit leaves out (an audit.log) is none of the profile's history
    dirty = [f for f in st.files if not f.untracked or is_memory_file(f.path.removeprefix(prefix))]
    if dirty:
        names = ", ".join(f.path.removeprefix(prefix) for f in dirty[:5])
        more = f" and {len(dirty) - 5} more" if len(dirty) > 5 else ""
        return f"the profile has uncommitted changes ({names}{more}); commit or discard them first"
    return None


def _regular(files: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {p: sha for p, (mode, sha) in files.items() if mode in ("100644", "100755")}


def plan_rollback(repo: RepoLike, profile: Any, sha: str) -> RollbackPlan:
    """What restoring the profile folder's files to commit ``sha`` would change."""
    r = as_repo(repo)
    rel = profile_rel(r, profile)
    info = commit_info(r, sha)
    blocked = _dirty_reason(r, rel)
    now = _regular(tree_files(r, "HEAD", rel))  # {} before the first commit
    then = _regular(tree_files(r, info.sha, rel))
    prefix = rel + "/" if rel else ""
    files: list[FileRestore] = []
    for path in sorted(set(now) | set(then)):
        if now.get(path) == then.get(path):
            continue
        current = read_file(r.path(path))
        target = read_blob(r, info.sha, path) if path in then else None
        action = "create" if path not in now else "delete" if path not in then else "restore"
        files.append(FileRestore(path.removeprefix(prefix), action, current, target))
    in_the_way = [f.path for f in files if f.action == "create" and f.current is not None]
    if in_the_way and blocked is None:  # an untracked file (left out of commits) where the commit has one
        blocked = f"{in_the_way[0]} is an untracked file the rollback would replace; commit or move it first"
    changes = [FileChange(f.path, {"create": "added", "delete": "deleted"}.get(f.action, "changed")) for f in files]
    diff = _writes_diff(r.path(rel), {f.path: (f.current, f.target) for f in files}, changes)
    return RollbackPlan(r, rel, info.sha, info, tuple(files), diff, blocked)


def _writes_diff(folder: Path, writes: dict[str, tuple[bytes | None, bytes | None]],
                 files: Sequence[FileChange]) -> ProfileDiff:
    """What writing ``writes`` (profile-relative path -> (now, after)) does to the profile in ``folder``."""
    def pair(name: str) -> tuple[bytes | None, bytes | None]:
        if name in writes:
            return writes[name]
        data = read_file(folder / name)
        return data, data

    (om, nm), (oa, na) = pair(MEMORIES), pair(ARCHIVE)
    return profile_diff(om, oa, nm, na, files)


def _write_files(changes: Sequence[tuple[Path, bytes | None, bytes | None]]) -> None:
    """Write (or delete, for None) several files, each compare-and-swapped, under all their locks."""
    from ..files.safe_write import ConcurrentModification, locked, read_bytes, replace_all

    with locked(*[p for p, _, _ in changes]):
        for p, expected, _ in changes:
            if read_bytes(p) != expected:
                raise ConcurrentModification(p)
        # additions first, deletions last: a crash in between duplicates, never loses
        replace_all(sorted(changes, key=lambda c: c[2] is None))  # journaled


def apply_rollback(plan: RollbackPlan) -> list[str]:
    """Restore the files as planned (uncommitted); returns the profile-relative paths written."""
    if plan.blocked:
        raise Refused(plan.blocked)
    reason = _dirty_reason(plan.repo, plan.profile_rel)
    if reason:
        raise Refused(reason)
    base = plan.repo.path(plan.profile_rel)
    _write_files([(base / f.path, f.current, f.target) for f in plan.files])
    return [f.path for f in plan.files]


@dataclass(frozen=True)
class RevertResult:
    sha: str
    files: tuple[str, ...]  # profile-relative paths written
    diff: ProfileDiff  # what the revert changed


def revert_commit(repo: RepoLike, profile: Any, sha: str, *, dry_run: bool = False) -> RevertResult:
    """Undo what commit ``sha`` did to the profile's files (left uncommitted).

    Each file is merged 3-way (memory files by entry id); any conflict refuses, writing nothing.
    """
    r = as_repo(repo)
    rel = profile_rel(r, profile)
    info = commit_info(r, sha)
    reason = _dirty_reason(r, rel)
    if reason:
        raise Refused(reason)
    parent = info.parents[0] if info.parents else None
    changes = _tree_changes(r, parent, info.sha, rel)
    writes: list[tuple[Path, bytes | None, bytes | None]] = []
    by_path: dict[str, tuple[bytes | None, bytes | None]] = {}
    conflicts: list[str] = []
    labels = Labels("current", info.short, f"before {info.short}")
    for ch in changes:
        paths = [ch.path] + ([ch.old_path] if ch.old_path else [])
        for path in paths:
            full = profile_file(rel, path)
            base = read_blob(r, info.sha, full)
            theirs = read_blob(r, parent, full) if parent else None
            ours = read_file(r.path(full))
            if base == theirs:
                continue
            if ours == base:
                result: bytes | None = theirs
            elif ours == theirs:
                continue
            elif ours is None or theirs is None or base is None:
                conflicts.append(path)
                continue
            elif path in (MEMORIES, ARCHIVE) or path.endswith("/memories.md"):
                merged = merge_bytes(base, ours, theirs, labels)
                if not merged.clean:
                    conflicts.append(path + (f" ({', '.join(merged.conflict_ids)})" if merged.conflict_ids else ""))
                    continue
                result = merged.data
            else:
                data, n, _mode = merge_plain(base, ours, theirs, labels)
                if n:
                    conflicts.append(path)
                    continue
                result = data
            writes.append((r.path(full), ours, result))
            by_path[path] = (ours, result)
    if conflicts:
        raise Refused(f"reverting {info.short} conflicts with later changes in {', '.join(conflicts)}; nothing written")
    rels = tuple(by_path)
    diff = _writes_diff(r.path(rel), by_path, [FileChange(x, "changed") for x in rels])
    if not dry_run and writes:
        _write_files(writes)
    return RevertResult(info.sha, rels, diff)


# --- branches -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchComparison:
    base: str  # the branch compared from
    other: str
    only_base: tuple[CommitInfo, ...]  # commits on ``base`` not on ``other`` (touching the profile)
    only_other: tuple[CommitInfo, ...]
    diff: ProfileDiff  # the profile on ``base`` -> on ``other``


def compare_branches(repo: RepoLike, profile: Any, base: str, other: str, limit: int = 200) -> BranchComparison:
    """How the profile differs between two branches (or any revisions), entry by entry."""
    r = as_repo(repo)
    rel = profile_rel(r, profile)
    return BranchComparison(
        base, other,
        tuple(_log(r, ["-n", str(limit), f"{other}..{base}"], rel)),
        tuple(_log(r, ["-n", str(limit), f"{base}..{other}"], rel)),
        diff_revs(r, profile, base, other),
    )


__all__ = [
    "CommitInfo", "log_page", "commit_info", "ProfileDiff", "CommitDiff", "commit_semantic_diff", "diff_revs",
    "RollbackPlan", "plan_rollback", "apply_rollback", "RevertResult", "revert_commit",
    "BranchComparison", "compare_branches", "Refused", "MEMORIES", "ARCHIVE",
]
