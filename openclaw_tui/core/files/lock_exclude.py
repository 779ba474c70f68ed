"""Keeping the write protocol's lock files out of ``git status``.

The ``<file>.lock`` files stay beside what they lock (the protocol); their patterns go into the
repository's own ``.git/info/exclude`` (never a tracked file such as ``.gitignore``) when a write
first creates a lock file there (``safe_write.exclude_locks``).  Found without running git: a write
must not wait on a subprocess.
"""

from __future__ import annotations

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
