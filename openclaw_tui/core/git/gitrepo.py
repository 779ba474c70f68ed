"""The git repository holding a memory folder: status, objects, commits, the merge driver, branches, sync.

Queries return None or empty results without git or a repository; commands that change the repository
raise ``GitError`` with git's one-line reason.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..files.lock_exclude import EXCLUDE_LINES, LOCK_SUFFIXES
from ..files.safe_write import atomic_write
from .run import GitError as GitError  # re-exported: every git caller's names stay here
from .run import git_available as git_available
from .run import git_env as git_env
from .run import git_executable as git_executable
from .run import git_text as git_text
from .run import run_git as run_git

DRIVER_NAME = "openclaw-memory"
ATTRIBUTES_LINE = f"memories.md merge={DRIVER_NAME}"


@functools.lru_cache(maxsize=1)
def git_version() -> tuple[int, ...]:
    try:
        out = git_text(["version"], ".")
    except GitError:
        return (0,)
    m = re.match(r"\d+(?:\.\d+)*", out.split()[-1])  # "2.39.2.windows.1" -> (2, 39, 2)
    return tuple(map(int, m.group().split("."))) if m else (0,)


# --- the repository ------------------------------------------------------------------------


@dataclass(frozen=True)
class Repo:
    """A non-bare git repository: its work tree root and git folder (absolute)."""

    root: Path
    git_dir: Path

    def rel(self, path: Path | str) -> str:
        """Posix path of ``path`` relative to the work tree root ("" for the root itself)."""
        p = Path(os.path.realpath(Path(path).absolute()))
        rel = p.relative_to(os.path.realpath(self.root)).as_posix()
        return "" if rel == "." else rel

    def path(self, rel: str) -> Path:
        return self.root / rel if rel else self.root


RepoLike = Repo | Path | str


def find_repo(path: Path | str) -> Repo | None:
    """The repository whose work tree holds ``path`` (a folder or file), or None."""
    if not git_available():
        return None
    p = Path(path).absolute()
    folder = p if p.is_dir() else p.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        out = git_text(["rev-parse", "--show-toplevel", "--absolute-git-dir"], folder)
    except GitError:
        return None
    lines = out.split("\n")
    if len(lines) != 2 or not lines[0]:
        return None
    return Repo(Path(lines[0]), Path(lines[1]))


def as_repo(repo: RepoLike) -> Repo:
    """A Repo from a Repo or any path inside one; raises GitError when there is none."""
    if isinstance(repo, Repo):
        return repo
    found = find_repo(repo)
    if found is None:
        reason = "git is not installed" if not git_available() else f"{repo} is not inside a git repository"
        raise GitError(["rev-parse"], 128, reason)
    return found


def common_dir(repo: RepoLike) -> Path:
    """The git folder shared by all work trees of the repository (``.git`` of the main one)."""
    r = as_repo(repo)
    common = Path(git_text(["rev-parse", "--git-common-dir"], r.root))
    return common if common.is_absolute() else r.root / common


def rel_path(repo: Repo, path: Path | str) -> str:
    """Path relative to the repository root; a relative ``path`` is taken as already relative."""
    p = Path(path)
    return repo.rel(p) if p.is_absolute() else p.as_posix().strip("/").removeprefix("./")


def head_sha(repo: RepoLike) -> str | None:
    r = as_repo(repo)
    proc = run_git(["rev-parse", "--verify", "-q", "HEAD^{commit}"], r.root, check=False)
    return proc.stdout.decode().strip() or None if proc.returncode == 0 else None


def is_lock_artifact(rel: str) -> bool:
    """A ``<file>.lock`` left by the safe-write protocol (never committed)."""
    return rel.endswith(LOCK_SUFFIXES)


# --- status ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileStatus:
    """One path from ``git status``: XY codes as git prints them (``?`` untracked, ``U`` unmerged)."""

    path: str  # relative to the repository root
    index: str
    worktree: str
    orig_path: str | None = None  # for renames

    @property
    def untracked(self) -> bool:
        return self.index == "?"

    @property
    def conflicted(self) -> bool:
        return "U" in (self.index + self.worktree) or (self.index + self.worktree) in ("AA", "DD")

    @property
    def kind(self) -> str:
        """added / deleted / renamed / changed / conflicted."""
        if self.conflicted:
            return "conflicted"
        codes = self.index + self.worktree
        if self.untracked or ("A" in codes and "D" not in codes):
            return "added"
        if "D" in codes:
            return "deleted"
        if "R" in codes or "C" in codes:
            return "renamed"
        return "changed"


@dataclass(frozen=True)
class RepoStatus:
    repo: Repo
    branch: str | None  # None when HEAD is detached
    head: str | None  # None on an unborn branch (no commit yet)
    upstream: str | None = None
    ahead: int = 0
    behind: int = 0
    operation: str | None = None  # "merge", "rebase", "cherry-pick", "revert", "am", "bisect"
    files: tuple[FileStatus, ...] = field(default_factory=tuple)

    @property
    def conflicted(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files if f.conflicted)

    @property
    def tracked_changes(self) -> tuple[FileStatus, ...]:
        return tuple(f for f in self.files if not f.untracked)


# what git leaves in its folder while an operation is stopped, first match wins
_OPERATIONS = (
    ("rebase-merge", "rebase"), ("rebase-apply/applying", "am"), ("rebase-apply", "rebase"), ("MERGE_HEAD", "merge"),
    ("CHERRY_PICK_HEAD", "cherry-pick"), ("REVERT_HEAD", "revert"), ("BISECT_LOG", "bisect"),
)


def operation_in_progress(repo: Repo) -> str | None:
    return next((op for name, op in _OPERATIONS if (repo.git_dir / name).exists()), None)


_PATH_FIELD = {"1": 8, "2": 9, "u": 10}  # ``git status --porcelain=v2``: fields before the path


def status(path: Path | str, pathspec: Path | str | None = None) -> RepoStatus | None:
    """Branch, HEAD, operation in progress and changed files (under ``pathspec``, else everywhere).

    None when ``path`` is not in a repository.  Lock files of the safe-write protocol are left out.
    """
    repo = find_repo(path)
    if repo is None:
        return None
    args = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"]
    if pathspec is not None:
        rel = rel_path(repo, pathspec)
        args += ["--", rel or "."]
    try:
        out = run_git(args, repo.root, env={"GIT_OPTIONAL_LOCKS": "0"}).stdout.decode("utf-8", "surrogateescape")
    except GitError:
        return None
    headers: dict[str, str] = {}  # "# branch.oid <sha>" and the like
    files: list[FileStatus] = []
    records = out.split("\0")
    i = 0
    while i < len(records):
        rec = records[i]
        i += 1
        if not rec:
            continue
        if rec.startswith("# "):
            key, _, value = rec[2:].partition(" ")
            headers[key] = value
            continue
        kind = rec[0]
        if kind in _PATH_FIELD:  # ordinary, renamed and unmerged entries
            parts = rec.split(" ", _PATH_FIELD[kind])
            orig = None
            if kind == "2":  # a rename: the original path is the next record
                orig = records[i] if i < len(records) else None
                i += 1
            files.append(FileStatus(parts[-1], parts[1][0], parts[1][1], orig))
        elif kind == "?":
            files.append(FileStatus(rec[2:], "?", "?"))
    files = [f for f in files if not is_lock_artifact(f.path)]
    branch, head = headers.get("branch.head"), headers.get("branch.oid")
    ahead, _, behind = headers.get("branch.ab", "").partition(" ")
    return RepoStatus(repo, None if branch == "(detached)" else branch, None if head == "(initial)" else head,
                      headers.get("branch.upstream"), abs(int(ahead or 0)), abs(int(behind or 0)),
                      operation_in_progress(repo), tuple(files))


# --- reading objects ------------------------------------------------------------------------


def read_blob(repo: RepoLike, rev: str, rel: str) -> bytes | None:
    """The bytes of ``rel`` (repository-relative) at ``rev``; None when it does not exist there."""
    r = as_repo(repo)
    exe = git_executable()
    if exe is None:
        return None
    try:  # stdout only: one read to the end instead of a poll loop (blobs can be tens of MB)
        proc = subprocess.run([exe, "cat-file", "blob", f"{rev}:{rel}"], cwd=r.root, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=git_env())
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def tree_files(repo: RepoLike, rev: str, rel: str) -> dict[str, tuple[str, str]]:
    """Files under ``rel`` at ``rev``: repository-relative path -> (mode, blob sha)."""
    r = as_repo(repo)
    args = ["ls-tree", "-r", "-z", "--full-tree", rev]
    if rel:
        args += ["--", rel]
    proc = run_git(args, r.root, check=False)
    if proc.returncode != 0:
        return {}
    found: dict[str, tuple[str, str]] = {}
    for rec in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not rec:
            continue
        meta, _, path = rec.partition("\t")
        mode, kind, sha = meta.split(" ")
        if kind == "blob":
            found[path] = (mode, sha)
    return found


# --- changing the repository ----------------------------------------------------------------


def commit_paths(repo: RepoLike, rel: str, message: str, *, env: Mapping[str, str] | None = None,
                 leave: Sequence[str] = ()) -> str:
    """Stage everything under ``rel`` (but lock files and the untracked files ``leave`` names, relative
    to ``rel``) and commit only that, leaving other staged changes staged; returns the sha."""
    r = as_repo(repo)
    spec = rel or "."
    excludes = [f":(exclude,glob){rel + '/' if rel else ''}**/*{s}" for s in LOCK_SUFFIXES]
    excludes += [f":(exclude,literal){rel + '/' if rel else ''}{name}" for name in leave]
    run_git(["add", "-A", "--", spec, *excludes], r.root, env=env)
    args = ["commit", "-q", "--no-verify", "-F", "-"]
    if head_sha(r) is not None and operation_in_progress(r) is None:
        args += ["--only", "--", spec]
    run_git(args, r.root, input=message.encode("utf-8"), env=env)
    sha = head_sha(r)
    assert sha is not None
    return sha


def strip_conflict_comments(message: str) -> str:
    """``message`` without git's commented ``# Conflicts:`` block (and the comment lines after it)."""
    out: list[str] = []
    skipping = False
    for line in message.splitlines(keepends=True):
        if line.startswith("# Conflicts:"):
            skipping = True
            continue
        if skipping and line.startswith("#"):
            continue
        skipping = False
        out.append(line)
    return "".join(out).rstrip("\n") + "\n" if "".join(out).strip() else ""


def _refuse_conflicts(st: RepoStatus, args: list[str]) -> None:
    if st.conflicted:
        raise GitError(args, 1, f"{len(st.conflicted)} file(s) still have conflicts: {', '.join(st.conflicted)}")


def conclude_merge(repo: RepoLike, message: str | None = None) -> str:
    """Commit the merge in progress once no file is left unmerged; returns the new sha."""
    r = as_repo(repo)
    st = status(r.root)
    if st is None or st.operation not in ("merge", "cherry-pick", "revert"):
        raise GitError(["commit"], 1, "no merge is in progress")
    _refuse_conflicts(st, ["commit"])
    if not message:  # git's prepared message, without the "# Conflicts:" list it adds for the editor
        try:
            message = (r.git_dir / "MERGE_MSG").read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            message = ""
    message = strip_conflict_comments(message)
    args = ["commit", "-q", "--no-verify"] + (["-F", "-"] if message else ["--no-edit"])
    run_git(args, r.root, input=message.encode("utf-8", "surrogateescape") if message else None)
    sha = head_sha(r)
    assert sha is not None
    return sha


CONTINUE_LABEL = {
    "merge": "Conclude the merge", "cherry-pick": "Commit the cherry-pick", "revert": "Commit the revert",
    "rebase": "Continue the rebase", "am": "Continue applying the patches",
}


@dataclass(frozen=True)
class Continued:
    sha: str  # HEAD afterwards
    operation: str  # what was continued
    still: str | None = None  # the operation still in progress (a rebase stopped at its next conflict)
    conflicted: tuple[str, ...] = ()


def continue_operation(repo: RepoLike, message: str | None = None) -> Continued:
    """Finish what stopped on conflicts once they are resolved and staged.

    A merge, cherry-pick or revert is committed; a rebase or ``git am`` continues and may stop at a
    later conflict (``still`` and ``conflicted`` say so).
    """
    r = as_repo(repo)
    st = status(r.root)
    if st is None or st.operation is None:
        raise GitError(["commit"], 1, "no merge, rebase, cherry-pick or revert is in progress")
    op = st.operation
    if op in ("merge", "cherry-pick", "revert"):
        return Continued(conclude_merge(r, message), op)
    if op not in ("rebase", "am"):
        raise GitError([op, "--continue"], 1, f"a {op} cannot be continued from here")
    _refuse_conflicts(st, [op, "--continue"])
    proc = run_git([op, "--continue"], r.root, check=False)
    after = status(r.root)
    still = after.operation if after is not None else None
    conflicted = after.conflicted if after is not None and still else ()
    if proc.returncode != 0 and not conflicted:  # a rebase stopping at its next conflict is no failure
        raise GitError([op, "--continue"], proc.returncode, proc.stderr.decode("utf-8", "replace").strip())
    sha = head_sha(r)
    assert sha is not None
    return Continued(sha, op, still, conflicted)


def has_stash(repo: RepoLike) -> bool:
    """Is there a stash entry (a ``git stash pop`` that conflicted keeps its entry)?"""
    r = as_repo(repo)
    return run_git(["rev-parse", "--verify", "-q", "refs/stash"], r.root, check=False).returncode == 0


# --- the merge driver's installation ---------------------------------------------------------


def driver_command() -> str:
    """The ``merge.openclaw-memory.driver`` value: this Python running the driver module alone."""
    cmd = f"{shlex.quote(sys.executable)} -m openclaw_tui.cli.commands.merge_driver --marker-size %L"
    if git_version() >= (2, 44):  # since git 2.44: %S base, %X ours, %Y theirs (labels, shell-quoted)
        cmd += " --base-label %S --ours-label %X --theirs-label %Y"
    return cmd + " %O %A %B %P"  # git shell-quotes %P itself


def _config_get(repo: Repo, key: str) -> str | None:
    proc = run_git(["config", "--local", "--get", key], repo.root, check=False)
    return proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n") if proc.returncode == 0 else None


def _ensure_line(path: Path, line: str) -> bool:
    """Append ``line`` to a text file unless a line equal to it is there; True when written."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    if line.encode() in (ln.strip() for ln in data.splitlines()):
        return False
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    sep = b"" if not data or data.endswith(b"\n") else nl
    # atomic, but no lock file: a stray ``.gitattributes.lock`` would show in every ``git status``
    atomic_write(path, data + sep + line.encode() + nl)
    return True


def install_merge_driver(repo: RepoLike) -> list[str]:
    """Install the id-aware merge driver; returns what changed (empty when already installed).

    The root ``.gitattributes`` line (left uncommitted), the repository's own config, and the lock files
    in ``.git/info/exclude``.
    """
    r = as_repo(repo)
    changed: list[str] = []
    if _ensure_line(r.root / ".gitattributes", ATTRIBUTES_LINE):
        changed.append(f".gitattributes: {ATTRIBUTES_LINE}")
    wanted = {
        f"merge.{DRIVER_NAME}.name": "openclaw-tui: merge memories.md by entry id",
        f"merge.{DRIVER_NAME}.driver": driver_command(),
    }
    for key, value in wanted.items():
        if _config_get(r, key) != value:
            run_git(["config", "--local", key, value], r.root)
            changed.append(f"git config {key}")
    exclude = common_dir(r) / "info" / "exclude"
    for line in EXCLUDE_LINES:
        if _ensure_line(exclude, line):
            changed.append(f"info/exclude: {line}")
    return changed


# --- branches -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchInfo:
    name: str
    current: bool
    sha: str
    subject: str
    upstream: str | None = None


def list_branches(repo: RepoLike) -> list[BranchInfo]:
    """Local branches, the current one marked."""
    r = as_repo(repo)
    fmt = "%(HEAD)%00%(refname:short)%00%(objectname)%00%(upstream:short)%00%(contents:subject)"
    out = git_text(["for-each-ref", f"--format={fmt}", "refs/heads"], r.root)
    found: list[BranchInfo] = []
    for line in out.splitlines():
        head, name, sha, upstream, subject = (line.split("\0") + [""] * 5)[:5]
        found.append(BranchInfo(name, head == "*", sha, subject, upstream or None))
    return found


def current_branch(repo: RepoLike) -> str | None:
    r = as_repo(repo)
    proc = run_git(["symbolic-ref", "-q", "--short", "HEAD"], r.root, check=False)
    return proc.stdout.decode().strip() or None if proc.returncode == 0 else None


def create_branch(repo: RepoLike, name: str, start: str = "HEAD", *, switch: bool = False) -> None:
    r = as_repo(repo)
    run_git(["check-ref-format", "--branch", name], r.root)
    run_git(["branch", "--", name, start], r.root)
    if switch:
        switch_branch(r, name)


def switch_branch(repo: RepoLike, name: str) -> None:
    """Check out another branch; refused while files are changed or an operation is in progress."""
    r = as_repo(repo)
    st = status(r.root)
    if st is None:
        raise GitError(["switch"], 128, f"{r.root} is not a git repository")
    if st.operation:
        raise GitError(["switch"], 1, f"a {st.operation} is in progress; finish or abort it first")
    if st.tracked_changes:
        names = ", ".join(f.path for f in st.tracked_changes[:5])
        raise GitError(["switch"], 1, f"uncommitted changes ({names}); commit them before switching branches")
    run_git(["checkout", "-q", name, "--"], r.root)


# --- sync -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SyncResult:
    ok: bool
    message: str  # one line for the user
    conflicts: tuple[str, ...] = ()  # repository-relative paths left with conflicts


def _upstream(repo: Repo, branch: str) -> tuple[str, str] | None:
    """(remote, remote-tracking ref) for ``branch``: its upstream, else origin/<branch>."""
    remote = _config_get(repo, f"branch.{branch}.remote")
    merge_ref = _config_get(repo, f"branch.{branch}.merge")
    if remote and merge_ref and remote != ".":
        return remote, f"{remote}/{merge_ref.removeprefix('refs/heads/')}"
    remotes = git_text(["remote"], repo.root).split()
    if "origin" in remotes:
        return "origin", f"origin/{branch}"
    if len(remotes) == 1:
        return remotes[0], f"{remotes[0]}/{branch}"
    return None


def pull(repo: RepoLike) -> SyncResult:
    """Fetch and merge the current branch's upstream, with the id-aware merge driver installed."""
    r = as_repo(repo)
    branch = current_branch(r)
    if branch is None:
        return SyncResult(False, "HEAD is detached: switch to a branch first")
    op = operation_in_progress(r)
    if op:
        return SyncResult(False, f"a {op} is in progress; finish or abort it first")
    up = _upstream(r, branch)
    if up is None:
        return SyncResult(False, "no remote to pull from")
    remote, ref = up
    try:
        run_git(["fetch", "--quiet", remote], r.root)
    except GitError as exc:
        return SyncResult(False, f"fetch from {remote} failed: {exc}")
    if run_git(["rev-parse", "--verify", "-q", ref], r.root, check=False).returncode != 0:
        return SyncResult(False, f"{ref} does not exist")
    install_merge_driver(r)
    proc = run_git(["merge", "--no-edit", "--no-stat", ref], r.root, check=False)
    text = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if proc.returncode == 0:
        return SyncResult(True, f"already up to date with {ref}" if "Already up to date" in text else f"merged {ref}")
    st = status(r.root)
    conflicts = st.conflicted if st else ()
    if conflicts:
        return SyncResult(False, f"merged {ref} with conflicts in {len(conflicts)} file(s)", conflicts)
    return SyncResult(False, str(GitError(["merge"], proc.returncode, proc.stderr.decode("utf-8", "replace"))))


def push(repo: RepoLike) -> SyncResult:
    """Push the current branch to its upstream (setting origin/<branch> as upstream when none)."""
    r = as_repo(repo)
    branch = current_branch(r)
    if branch is None:
        return SyncResult(False, "HEAD is detached: switch to a branch first")
    up = _upstream(r, branch)
    if up is None:
        return SyncResult(False, "no remote to push to")
    remote, _ref = up
    has_upstream = _config_get(r, f"branch.{branch}.remote") is not None
    target = [remote, f"HEAD:refs/heads/{branch}"] if has_upstream else ["-u", remote, branch]
    proc = run_git(["push", "--quiet", "--porcelain", *target], r.root, check=False)
    if proc.returncode == 0:
        return SyncResult(True, f"pushed {branch} to {remote}")
    return SyncResult(False, str(GitError(["push"], proc.returncode, proc.stderr.decode("utf-8", "replace"))))
