"""Which files of a workspace the credential scan reads beyond the memory files (spec: Secrets): every
text file outside ``.git`` and installed packages, links not followed; never ``secrets_refs.yaml`` or
``audit.log``."""

from __future__ import annotations

import os
from pathlib import Path

from ..files.profile import Profile, TextFile

TEXT_SUFFIXES = (".md", ".markdown", ".yaml", ".yml", ".json", ".txt")
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "site-packages", "__pycache__"})
_NEVER = frozenset({"secrets_refs.yaml", "audit.log"})
MAX_BYTES = 16 * 1024 * 1024  # a bigger file is data, not notes: not read


def extra_text_files(profile: Profile) -> list[TextFile]:
    """The workspace's text files beyond its bootstrap files and ``memory/``, sorted by path."""
    known = {f.rel for f in (*profile.bootstrap, *profile.other, *profile.daily_logs)}
    root = profile.path
    out: list[TextFile] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.lower().endswith(TEXT_SUFFIXES) or name in _NEVER:
                continue
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if rel in known:
                continue
            try:
                st = path.lstat()
            except OSError:
                continue
            if not path.is_file() or path.is_symlink() or st.st_size > MAX_BYTES:
                continue
            out.append(TextFile.read(root, path))
    return out
