"""References that follow a renumbered addition into the profile's other files (state.yaml, contexts/…).

When both branches added an entry under one id, theirs takes the next free id; a line *their* branch
added elsewhere in the profile that names the id meant their entry, so it takes the new id too.  git
merges those files itself, so the driver leaves a record in the git folder (``write_record``) and reports
a conflict; the merge session reads it, rewrites those lines (``reference_rules``, ``apply_rule``) with
the resolved files, and clears it when it concludes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..files.profile import ARCHIVE_REL
from ..git.blobstream import read_blobs
from ..git.gitrepo import GitError, Repo, run_git, tree_files
from ..git.threeway import id_word

RECORD_REL = "openclaw-tui/merge-renumbered.json"  # inside the git folder
MAX_FILE_BYTES = 16 * 1024 * 1024  # larger files are not scanned for references


@dataclass(frozen=True)
class Sides:
    """The three commits of a merge: base (None: no common ancestor), ours, theirs."""

    base: str | None
    ours: str
    theirs: str


@dataclass(frozen=True)
class RefRule:
    """Lines of one file (repository-relative) to rewrite: their added line -> the line with new ids."""

    path: str
    lines: Mapping[str, str]
    renumbered: tuple[tuple[str, str], ...]  # the (id, new id) pairs that occur in those lines


def is_memory_rel(rel: str) -> bool:
    """memories.md files are merged by id (their references are rewritten there)."""
    return rel.rsplit("/", 1)[-1] == "memories.md"


def profile_rel(memory_rel: str) -> str:
    """The profile folder (repository-relative, "" for the root) of a memories.md path."""
    p = memory_rel.strip("/")
    if p == ARCHIVE_REL or p.endswith("/" + ARCHIVE_REL):
        return p[: -len(ARCHIVE_REL)].rstrip("/")
    return p.rpartition("/")[0]


def blob_id(data: bytes) -> str:
    """git's object id of a blob with these bytes (SHA-1 repositories)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324 - git's own id, not security


def _rev(repo: Repo, rev: str) -> str | None:
    proc = run_git(["rev-parse", "--verify", "-q", rev + "^{commit}"], repo.root, check=False)
    out = proc.stdout.decode("ascii", "replace").strip()
    return out if proc.returncode == 0 and out else None


def _merge_base(repo: Repo, a: str, b: str) -> str | None:
    proc = run_git(["merge-base", a, b], repo.root, check=False)
    out = proc.stdout.decode("ascii", "replace").split()
    return out[0] if proc.returncode == 0 and out else None


def _sides(repo: Repo, head: str, merge: bool) -> Sides | None:
    """HEAD against ``head``, based on their merge base (a merge) or on ``head``'s parent (a replayed commit)."""
    ours, theirs = _rev(repo, "HEAD"), _rev(repo, head)
    if ours is None or theirs is None:
        return None
    return Sides(_merge_base(repo, ours, theirs) if merge else _rev(repo, theirs + "^"), ours, theirs)


def current_sides(repo: Repo) -> Sides | None:
    """The commits of the merge, cherry-pick or rebase step in progress (None: none, or a revert)."""
    for name in ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REBASE_HEAD"):
        try:
            heads = (repo.git_dir / name).read_text(encoding="ascii", errors="replace").split()
        except OSError:
            continue
        # an octopus merge is not told apart
        return _sides(repo, heads[0], name == "MERGE_HEAD") if len(heads) == 1 else None
    return None


def driver_sides(repo: Repo, environ: Mapping[str, str] | None = None) -> Sides | None:
    """The commits as the merge driver sees them: ``git merge`` exports GITHEAD_<sha> for what it merges."""
    env = os.environ if environ is None else environ
    heads = [k[len("GITHEAD_"):] for k in env if k.startswith("GITHEAD_")]
    return _sides(repo, heads[0], True) if len(heads) == 1 else None


def rebase_sides(repo: Repo) -> Sides | None:
    """The commits of the rebase step being replayed: git writes the step (``pick <sha>``) to
    ``rebase-merge/done`` before it merges it; theirs is that commit, its parent the base."""
    try:
        done = (repo.git_dir / "rebase-merge" / "done").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    steps = [ln.split() for ln in done.splitlines() if ln.strip() and not ln.startswith("#")]
    if not steps or len(steps[-1]) < 2 or steps[-1][0] not in ("pick", "p", "reword", "r", "edit", "e"):
        return None
    return _sides(repo, steps[-1][1], False)


def sides_match(repo: Repo, sides: Sides, path: str, ours: bytes, theirs: bytes) -> bool:
    """Whether ``path`` at the ours and theirs commits is exactly what the driver was given."""
    for rev, data in ((sides.ours, ours), (sides.theirs, theirs)):
        proc = run_git(["rev-parse", "--verify", "-q", f"{rev}:{path}"], repo.root, check=False)
        if proc.returncode != 0 or proc.stdout.decode("ascii", "replace").strip() != blob_id(data):
            return False
    return True


def _lines(data: bytes) -> list[str]:
    return [ln.rstrip("\r") for ln in data.decode("utf-8", "surrogateescape").split("\n")]


def reference_rules(
    repo: Repo, sides: Sides, profile: str, renumbered: Iterable[tuple[str, str]], only: Iterable[str] | None = None,
) -> list[RefRule]:
    """For each file of the profile their branch changed (memories.md files aside, or just the
    repository-relative paths ``only``): their added lines that name a renumbered id, with the new id put in."""
    mapping = [(old, new) for old, new in renumbered if old != new]
    if not mapping:
        return []
    try:
        theirs = tree_files(repo, sides.theirs, profile)
        base = tree_files(repo, sides.base, profile) if sides.base else {}
        ours = tree_files(repo, sides.ours, profile)
    except (GitError, ValueError):
        return []
    wanted_paths = None if only is None else set(only)
    changed = sorted(p for p, (mode, sha) in theirs.items()
                     if mode != "120000"  # a symbolic link: its text is a path, never followed
                     and (not is_memory_rel(p) if wanted_paths is None else p in wanted_paths)
                     and base.get(p, ("", ""))[1] != sha)
    if not changed:
        return []
    wanted = [theirs[p][1] for p in changed] + [m[p][1] for m in (base, ours) for p in changed if p in m]
    try:
        blobs = read_blobs(repo, wanted)
    except GitError:
        return []
    patterns = [(old, new, id_word(old)) for old, new in mapping]
    rules: list[RefRule] = []
    for p in changed:
        data = blobs.get(theirs[p][1], b"")
        if not data or len(data) > MAX_FILE_BYTES or b"\0" in data:
            continue
        if not any(old.encode("utf-8", "surrogateescape") in data for old, _, _ in patterns):
            continue
        known: set[str] = set()
        for m in (base, ours):
            if p in m:
                known.update(_lines(blobs.get(m[p][1], b"")))
        lines: dict[str, str] = {}
        used: dict[str, str] = {}
        for ln in _lines(data):
            if ln in known or ln in lines:
                continue
            new_ln = ln
            for old, new, pat in patterns:
                if pat.search(new_ln):
                    new_ln = pat.sub(new, new_ln)
                    used[old] = new
            if new_ln != ln:
                lines[ln] = new_ln
        if lines:
            rules.append(RefRule(p, lines, tuple(used.items())))
    return rules


def apply_rule(data: bytes, rule: RefRule) -> tuple[bytes, int]:
    """``data`` with the rule's lines rewritten (line endings kept); and how many lines changed."""
    lines = data.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    bodies = [raw.rstrip("\r\n") for raw in lines]
    out = [rule.lines[body] + raw[len(body):] if body in rule.lines else raw
           for raw, body in zip(lines, bodies, strict=True)]
    return "".join(out).encode("utf-8", "surrogateescape"), sum(body in rule.lines for body in bodies)


# --- the record the driver leaves for the session --------------------------------------------


def record_path(repo: Repo) -> Path:
    return repo.git_dir / RECORD_REL


def read_record(repo: Repo) -> list[dict[str, object]]:
    try:
        data = json.loads(record_path(repo).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("entries") if isinstance(data, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def write_record(repo: Repo, path: str, ours: bytes, theirs: bytes, renumbered: Iterable[tuple[str, str]]) -> None:
    """Remember the renumbering of one memories.md (repository-relative ``path``) for the session."""
    from ..files.safe_write import atomic_write

    entries = [e for e in read_record(repo) if e.get("path") != path]
    entries.append({"path": path, "ours_blob": blob_id(ours), "theirs_blob": blob_id(theirs),
                    "renumbered": [[old, new] for old, new in renumbered]})
    target = record_path(repo)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, (json.dumps({"entries": entries}, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def clear_record(repo: Repo) -> None:
    with contextlib.suppress(OSError):
        record_path(repo).unlink()


def _stage_blobs(repo: Repo) -> dict[str, dict[int, str]]:
    """Unmerged paths -> stage number -> blob id."""
    proc = run_git(["ls-files", "-u", "-z"], repo.root, check=False)
    found: dict[str, dict[int, str]] = {}
    for rec in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        meta, tab, path = rec.partition("\t")
        parts = meta.split()
        if tab and len(parts) == 3 and parts[2].isdigit():
            found.setdefault(path, {})[int(parts[2])] = parts[1]
    return found


def recorded_renumberings(repo: Repo) -> dict[str, list[tuple[str, str]]]:
    """memories.md path -> renumberings the driver recorded, while git still lists that file unmerged
    with the very ours and theirs versions the driver merged."""
    entries = read_record(repo)
    if not entries:
        return {}
    stages = _stage_blobs(repo)
    found: dict[str, list[tuple[str, str]]] = {}
    for e in entries:
        path, pairs = e.get("path"), e.get("renumbered")
        st = stages.get(path) if isinstance(path, str) else None
        if st is None or not isinstance(pairs, list):
            continue
        if st.get(2) != e.get("ours_blob") or st.get(3) != e.get("theirs_blob"):
            continue
        ok = [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2]
        if isinstance(path, str) and ok:
            found[path] = ok
    return found
