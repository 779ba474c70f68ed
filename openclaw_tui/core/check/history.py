"""``secret-in-history``: credentials that earlier commits of the memory files held (``check --history``).

A credential a commit added is reported when the file no longer holds it, once per file, commit and
kind (never the value: it is still in git, so it must be rotated).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

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


def _added_chunks(out: str, prefix: str) -> Iterator[tuple[str, str, str, str]]:
    """(commit, date, file, added text) per file of each commit of a ``git log -p --unified=0``."""
    commit = date = ""
    path: str | None = None
    added: list[str] = []
    for raw in [*out.split("\n"), "diff --git "]:  # the last line ends the last file
        header = raw.startswith("commit ") and len(parts := raw.split(" ")) >= 2 and len(parts[1]) == 40
        if header or raw.startswith("diff --git "):
            if path is not None and added:
                yield commit, date, path, "\n".join(added)
            path, added = None, []
            if header:
                commit, date = parts[1], (parts[2] if len(parts) > 2 else "")
        elif raw.startswith("+++ "):
            name = raw[4:]
            path = name[2 + len(prefix):] if name.startswith("b/" + prefix) else None
        elif raw.startswith("+") and path is not None:
            added.append(raw[1:])


def secrets_in_history(profile: Profile) -> list[HistorySecret]:
    """Credentials that a commit added to a memory file of ``profile`` and the file no longer holds."""
    from ..git.gitrepo import GitError, find_repo, run_git

    repo = find_repo(profile.path)
    if repo is None:
        return []
    prefix = repo.rel(profile.path)
    prefix = prefix + "/" if prefix else ""
    try:
        proc = run_git(
            ["log", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=0",
             "--format=commit %H %as", "--", *_MEMORY_PATHS.get(profile.layout, ())],
            profile.path, env={"GIT_OPTIONAL_LOCKS": "0"}, check=False,
        )
    except GitError:
        return []
    if proc.returncode != 0:
        return []
    current: dict[str, str] = {}
    found: dict[tuple[str, str], HistorySecret] = {}  # (file, value) -> the oldest commit adding it
    for commit, date, rel, text in _added_chunks(proc.stdout.decode("utf-8", "surrogateescape"), prefix):
        for s in find_secrets(text, personal=False):
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
