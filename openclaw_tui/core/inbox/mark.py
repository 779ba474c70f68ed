"""The review mark of a memory folder: its files' bytes as the user last reviewed them.

In git: a snapshot commit (as ``git stash create`` makes one, parent HEAD) under
``refs/openclaw-tui/reviewed/<folder>``; outside git: a JSON file in the user's data folder.  With no
mark yet: the last commit, or nothing ("everything is new").
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import posixpath
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_dir

from ..files.safe_write import atomic_write
from ..git.blobstream import read_blobs
from ..git.gitrepo import (
    Repo,
    find_repo,
    head_sha,
    is_lock_artifact,
    run_git,
    tree_files,
)
from ..i18n import N_

REF_PREFIX = "refs/openclaw-tui/reviewed/"
DATA_ENV = "OPENCLAW_TUI_DATA"
SKIP_NAMES = ("audit.log",)  # written by openclaw-tui itself, not memory the agent changed
_IDENTITY = {"GIT_AUTHOR_NAME": "openclaw-tui", "GIT_AUTHOR_EMAIL": "openclaw-tui@localhost",
             "GIT_COMMITTER_NAME": "openclaw-tui", "GIT_COMMITTER_EMAIL": "openclaw-tui@localhost"}


@dataclass
class Mark:
    """What the user reviewed: file bytes by folder-relative path, and where they came from."""

    folder: Path
    files: dict[str, bytes] = field(default_factory=dict)
    kind: str = "empty"  # "snapshot" (git ref), "commit" (first time: HEAD), "data" (outside git), "empty"
    sha: str | None = None  # the snapshot commit, or the commit used as the mark
    base: str | None = None  # commits after this one made the changes (git log base..HEAD)
    time: str | None = None  # when the mark was set (ISO 8601)
    note: str | None = None  # said to the user: first time, fallback after a rebase, ...


def data_dir() -> Path:
    """The user's data folder for openclaw-tui (platformdirs), or ``$OPENCLAW_TUI_DATA``."""
    return Path(os.environ.get(DATA_ENV) or user_data_dir("openclaw-tui", appauthor=False))


def _skip(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return (is_lock_artifact(rel) or name in SKIP_NAMES or name.endswith((".tmp", ".pending"))
            or rel.startswith(".git/") or "/.git/" in rel or name.startswith(".openclaw-tui"))


def folder_files(folder: Path, repo: Repo | None = None) -> dict[str, bytes]:
    """The folder's files now, by folder-relative posix path (git-ignored ones left out in git)."""
    folder = Path(folder)
    rels: list[str] = []
    if repo is not None:
        prefix = repo.rel(folder)
        proc = run_git(["ls-files", "-z", "-c", "-o", "--exclude-standard", "--", prefix or "."], repo.root)
        cut = len(prefix) + 1 if prefix else 0
        rels = [p[cut:] for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p]
    else:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            base = Path(root).relative_to(folder).as_posix()
            rels += [n if base == "." else f"{base}/{n}" for n in sorted(names)]
    out: dict[str, bytes] = {}
    for rel in rels:
        if _skip(rel):
            continue
        p = folder / rel
        try:
            if p.is_file() and not p.is_symlink():
                out[rel] = p.read_bytes()
        except OSError:
            continue  # vanished or unreadable meanwhile: not part of this look
    return out


def ref_name(repo: Repo, folder: Path) -> str:
    """``refs/openclaw-tui/reviewed/<folder>``: the folder's path made ref-safe, with a hash against clashes."""
    rel = repo.rel(folder)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", rel.replace("/", "--")).strip("._") or "root"
    return REF_PREFIX + f"{safe}-{hashlib.sha1(rel.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"


def _data_file(folder: Path) -> Path:
    key = hashlib.sha1(os.path.realpath(folder).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return data_dir() / "reviewed" / f"{key}.json"


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def _commit_info(repo: Repo, rev: str) -> tuple[str, str, str] | None:
    """(sha, first parent or "", committer date) of ``rev``, or None when it is not a commit."""
    proc = run_git(["log", "-1", "--format=%H%x00%P%x00%cI", rev, "--"], repo.root, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        return None
    sha, parents, date = proc.stdout.decode().strip().split("\0")
    return sha, (parents.split() or [""])[0], date


def _tree_bytes(repo: Repo, rev: str, folder: Path) -> dict[str, bytes]:
    prefix = repo.rel(folder)
    listing = tree_files(repo, rev, prefix)
    blobs = read_blobs(repo, [sha for _mode, sha in listing.values()])
    cut = len(prefix) + 1 if prefix else 0
    return {path[cut:]: blobs[sha] for path, (_mode, sha) in listing.items() if sha in blobs and not _skip(path[cut:])}


def _is_ancestor(repo: Repo, a: str, b: str) -> bool:
    return run_git(["merge-base", "--is-ancestor", a, b], repo.root, check=False).returncode == 0


def read_mark(folder: Path | str) -> Mark:
    """The folder's review mark (see the module docstring); never raises for a missing or stale one."""
    folder = Path(folder).absolute()
    repo = find_repo(folder)
    if repo is None:
        path = _data_file(folder)
        try:
            doc = json.loads(path.read_text("utf-8"))
            files = {k: base64.b64decode(v) for k, v in doc["files"].items()}
            return Mark(folder, files, "data", None, None, doc.get("time"))
        except FileNotFoundError:
            return Mark(folder, {}, "empty", note=N_("not reviewed yet and not in git: everything is new"))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            return Mark(folder, {}, "empty", note=f"the review mark {path} cannot be read ({exc}): everything is new")
    head = head_sha(repo)
    ref = ref_name(repo, folder)
    proc = run_git(["rev-parse", "--verify", "-q", ref], repo.root, check=False)
    target = proc.stdout.decode().strip() if proc.returncode == 0 else ""
    note = None
    if target:
        info = _commit_info(repo, target)
        if info is None:
            note = f"the review mark {ref} points at a missing commit {target[:12]}; comparing with the last commit"
        else:
            sha, parent, date = info
            base = parent or None
            if base and head and not _is_ancestor(repo, base, head):
                merge = run_git(["merge-base", base, head], repo.root, check=False).stdout.decode().strip() or None
                note = (f"the commit reviewed ({base[:12]}) is no longer in this branch's history (rebased?): "
                        "changes are still compared with what you reviewed, and told from "
                        + (f"commit {merge[:12]} on" if merge else "the first commit on"))
                base = merge
            return Mark(folder, _tree_bytes(repo, sha, folder), "snapshot", sha, base, date, note)
    if head is None:
        return Mark(folder, {}, "empty", note=note or N_("not reviewed yet and nothing committed: everything is new"))
    info = _commit_info(repo, head)
    return Mark(folder, _tree_bytes(repo, head, folder), "commit", head, head, info[2] if info else None,
                note or N_("not reviewed yet: showing what changed since the last commit"))


def _blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def write_mark(folder: Path | str, files: dict[str, bytes], parent: str | None = None) -> Mark:
    """Make ``files`` (folder-relative path -> bytes) the folder's review mark; in git, its snapshot
    commit's parent is ``parent`` (default HEAD): the commits after it are the ones the inbox names."""
    folder = Path(folder).absolute()
    repo = find_repo(folder)
    if repo is None:
        path = _data_file(folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        when = _now()
        doc = {"folder": str(folder), "time": when,
               "files": {k: base64.b64encode(v).decode() for k, v in sorted(files.items())}}
        atomic_write(path, json.dumps(doc, indent=0).encode())
        return Mark(folder, dict(files), "data", time=when)
    prefix = repo.rel(folder)
    full = {posixpath.join(prefix, rel): data for rel, data in files.items()}
    shas = {rel: _blob_sha(data) for rel, data in full.items()}
    check = run_git(["cat-file", "--batch-check"], repo.root,
                    input="".join(s + "\n" for s in set(shas.values())).encode()).stdout.decode()
    missing = {line.split()[0] for line in check.splitlines() if line.endswith(" missing")}
    for rel, data in full.items():
        if shas[rel] in missing:
            run_git(["hash-object", "-w", "--stdin"], repo.root, input=data)
            missing.discard(shas[rel])
    with tempfile.TemporaryDirectory(prefix="openclaw-tui-index.") as tmp:  # git makes the index in it
        env = {**_IDENTITY, "GIT_INDEX_FILE": os.path.join(tmp, "index")}
        info = "".join(f"100644 {sha}\t{rel}\n" for rel, sha in sorted(shas.items()))
        run_git(["update-index", "--add", "--index-info"], repo.root, input=info.encode("utf-8", "surrogateescape"),
                env=env)
        tree = run_git(["write-tree"], repo.root, env=env).stdout.decode().strip()
    head = parent or head_sha(repo)
    args = ["commit-tree", tree, "-m", f"openclaw-tui: reviewed {prefix or '.'}"] + (["-p", head] if head else [])
    sha = run_git(args, repo.root, env=_IDENTITY).stdout.decode().strip()
    run_git(["update-ref", "-m", "openclaw-tui review", ref_name(repo, folder), sha], repo.root)
    return Mark(folder, dict(files), "snapshot", sha, head, _now())


