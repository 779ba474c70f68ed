"""``secret-in-history``: credentials that earlier commits of the memory files held (``check --history``).

A credential a commit added is reported when the file no longer holds it, once per file, commit and
kind (never the value: it is still in git, so it must be rotated).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..files.profile import BOOTSTRAP_NAMES, Profile
from .secrets import KIND_LABEL, find_secrets

# what "memory files" means per layout: the files the agent remembers with
_MEMORY_PATHS = {
    "openclaw": (*BOOTSTRAP_NAMES, "DREAMS.md", "memory.md", "memory/"),
    "profile": ("memories.md", "contexts/", "identity.md", "state.yaml", "skills/"),
}


@dataclass(frozen=True)
class HistorySecret:
    file: str  # relative to the profile folder
    commit: str
    date: str
    kind: str

    def message(self) -> str:
        return (
            f"commit {self.commit[:10]}{' (' + self.date + ')' if self.date else ''} added a {KIND_LABEL[self.kind]}"
            f" ({self.kind}) to {self.file} that the file no longer holds; it is still in the git history: rotate it"
        )


_HUNK_RE = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
Hunk = tuple[str, str, "str | None", bool, int, list[str], list[str]]


def log_hunks(folder: Path, *args: str) -> Iterator[Hunk]:
    """(commit, date, path after ``b/``, whether the file is new, first old line, removed lines, added
    lines) of each hunk of ``git log -p --unified=0 ARGS`` run read-only in ``folder`` (none on failure)."""
    from ..git.run import GitError, run_git

    try:
        proc = run_git(["log", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=0",
                        "--format=commit %H %as", *args], folder, env={"GIT_OPTIONAL_LOCKS": "0"}, check=False)
    except GitError:
        return
    if proc.returncode != 0:
        return
    commit = date = ""
    path: str | None = None
    new_file = False
    removed: list[str] = []
    added: list[str] = []
    start = old_left = new_left = 0
    for raw in proc.stdout.decode("utf-8", "surrogateescape").split("\n"):
        if old_left > 0 or new_left > 0:  # inside a hunk: content lines only
            if raw.startswith("-") and old_left > 0:
                removed.append(raw[1:])
                old_left -= 1
            elif raw.startswith("+") and new_left > 0:
                added.append(raw[1:])
                new_left -= 1
            elif not raw.startswith("\\"):
                old_left = new_left = 0
            if old_left == 0 and new_left == 0:
                yield commit, date, path, new_file, start, removed, added
            continue
        if raw.startswith("commit "):
            parts = raw.split(" ")
            commit, date, path = parts[1], (parts[2] if len(parts) > 2 else ""), None
        elif raw.startswith("diff --git "):
            path = None
        elif raw.startswith("--- "):
            new_file = raw == "--- /dev/null"
        elif raw.startswith("+++ "):
            path = raw[6:] if raw.startswith("+++ b/") else None
        elif raw.startswith("@@") and (m := _HUNK_RE.match(raw)):
            start = int(m.group(1))
            old_left = int(m.group(2)) if m.group(2) is not None else 1
            new_left = int(m.group(4)) if m.group(4) is not None else 1
            removed, added = [], []


def secrets_in_history(profile: Profile) -> list[HistorySecret]:
    """Credentials that a commit added to a memory file of ``profile`` and the file no longer holds."""
    from ..git.gitrepo import find_repo

    repo = find_repo(profile.path)
    if repo is None:
        return []
    prefix = repo.rel(profile.path)
    prefix = prefix + "/" if prefix else ""
    added_by: dict[tuple[str, str, str], list[str]] = {}  # (commit, date, file) -> its added lines, log order
    for commit, date, name, _new, _start, _removed, added in log_hunks(
        profile.path, "--", *_MEMORY_PATHS.get(profile.layout, ())
    ):
        if name is not None and name.startswith(prefix) and added:
            added_by.setdefault((commit, date, name[len(prefix):]), []).extend(added)
    current: dict[str, str] = {}
    found: dict[tuple[str, str], HistorySecret] = {}  # (file, value) -> the oldest commit adding it
    for (commit, date, rel), lines in added_by.items():
        for s in find_secrets("\n".join(lines), personal=False):
            if rel not in current:
                path = profile.path / rel
                try:
                    current[rel] = path.read_bytes().decode("utf-8", "surrogateescape") if path.is_file() else ""
                except OSError:
                    current[rel] = ""
            if s.value in current[rel]:
                continue
            found[(rel, s.value)] = HistorySecret(rel, commit, date, s.kind)  # log is newest first
    first: dict[tuple[str, str, str], HistorySecret] = {}  # one per file, commit and kind: values stay unnamed
    for h in sorted(found.values(), key=lambda h: (h.file, h.date, h.commit)):
        first.setdefault((h.file, h.commit, h.kind), h)
    return list(first.values())
