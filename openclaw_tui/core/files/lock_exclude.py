"""Keeping the write protocol's lock files out of ``git status``.

The ``<file>.lock`` files stay beside what they lock (the protocol); their patterns go into the
repository's own ``.git/info/exclude`` (never a tracked file such as ``.gitignore``) when a write
first creates a lock file there, and in ``git-setup``.  Found without running git: a write must
not wait on a subprocess.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

# Lock files that the safe-write protocol leaves beside the files it writes.
LOCK_SUFFIXES = (".md.lock", ".yaml.lock", ".yml.lock", ".log.lock", ".json.lock", ".txt.lock")
EXCLUDE_LINES = tuple(f"*{s}" for s in LOCK_SUFFIXES)


def git_common_dir(folder: Path) -> Path | None:
    """The git folder shared by the work trees of the repository holding ``folder`` (None outside one):
    ``.git`` itself, or for a linked work tree (``.git`` a file ``gitdir: …``) the folder its
    ``commondir`` names."""
    for d in (folder, *folder.parents):
        dot = d / ".git"
        if dot.is_dir():
            git_dir = dot
        elif dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            if not text.startswith("gitdir:"):
                return None
            git_dir = d / text.removeprefix("gitdir:").strip()
        else:
            continue
        try:
            common = (git_dir / "commondir").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return git_dir
        return git_dir / common
    return None


def exclude_locks(folder: Path) -> list[str]:
    """Add the lock patterns missing from ``info/exclude`` of the repository holding ``folder``;
    returns the lines added (none outside a repository, or when it cannot be written)."""
    common = git_common_dir(folder)
    if common is None or not common.is_dir():
        return []
    exclude = common / "info" / "exclude"
    with contextlib.suppress(OSError):  # a read-only repository keeps its status as it is
        try:
            data = exclude.read_bytes()
        except FileNotFoundError:
            data = b""
        have = {line.strip() for line in data.splitlines()}
        missing = [line for line in EXCLUDE_LINES if line.encode() not in have]
        if not missing:
            return []
        from .safe_write import atomic_write

        nl = b"\r\n" if b"\r\n" in data else b"\n"
        sep = b"" if not data or data.endswith(b"\n") else nl
        exclude.parent.mkdir(exist_ok=True)
        # atomic, but no lock file of its own: that is git's folder, not memory
        atomic_write(exclude, data + sep + b"".join(line.encode() + nl for line in missing))
        return missing
    return []
