"""Keeping the write protocol's lock files out of ``git status``: their patterns go into the
repository's ``.git/info/exclude`` (``safe_write.exclude_locks``), found without running git."""

from __future__ import annotations

from pathlib import Path

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
