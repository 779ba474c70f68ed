"""Which files of a profile or workspace the search index holds, and their text as the index reads it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..format.places import ARCHIVE_REL, BOOTSTRAP_NAMES, inside, locate
from .reader import Root
from .text import indexed_rel, is_memory_rel

if TYPE_CHECKING:
    from typing import Any

    from ..files.profile import Profile
    from ..format.entries import MemoryFile

# a daily log's name, also under memory/archive/ (dated by its name, so decay applies)
_DAILY = r"memory/(?:archive/(?:[^/]+/)*)?(\d{4}-\d{2}-\d{2})(?:[-_][^/]*)?\.md"


def _parser() -> Any:
    """The memory-file parser, imported when a file has to be read (a current index parses nothing)."""
    from ..format import entries

    return entries


def roots_of(path: Path | str) -> list[Root]:
    """The profiles under ``path`` as ``discover`` finds them, without reading their files (NotMemory)."""
    _kind, found = locate(path)
    return [Root(Path(folder).absolute().name, rel, Path(folder).absolute(), layout) for folder, rel, layout in found]


def _walk_md(root: Path, folder: Path) -> Iterator[Path]:
    try:
        if not folder.is_dir() or not inside(root, folder):
            return
    except OSError:
        return
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                yield Path(dirpath) / name


def files_of(root: Root) -> list[tuple[str, Path]]:
    """(rel, path) of every file of a profile that belongs in the index."""
    base = root.path
    if root.layout == "openclaw":
        names: list[Path] = [base / n for n in (*BOOTSTRAP_NAMES, "DREAMS.md")]
        candidates = names + list(_walk_md(base, base / "memory"))
    else:
        candidates = [base / "memories.md", base / ARCHIVE_REL, base / "identity.md", base / "state.yaml"]
        candidates += [p for p in _walk_md(base, base / "contexts") if p != base / ARCHIVE_REL]
        candidates += list(_walk_md(base, base / "skills"))
    out: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for p in candidates:
        rel = p.relative_to(base).as_posix()
        if rel in seen or not indexed_rel(root.layout, rel):
            continue
        seen.add(rel)
        try:
            wanted = (p.exists() or p.is_symlink()) and inside(base, p) and p.is_file()
        except OSError:  # cannot be looked at (a folder above is unreadable): the check reports it, search skips it
            continue
        if wanted:
            out.append((rel, p))
    return out


def day_of_rel(rel: str) -> int | None:
    from ..format.fields import parse_date

    m = re.fullmatch(_DAILY, rel)
    if m is None:
        return None
    d = parse_date(m.group(1))
    return d.toordinal() if d is not None else None


def read_indexed(owner: Root, path: Path, rel: str) -> str | None:
    if not inside(owner.path, path):
        return None
    try:
        if not path.is_file():
            return None
        data = path.read_bytes()
    except OSError:
        return None
    text, _bom, ok = _parser().decode(data)
    if not ok and not is_memory_rel(rel):
        return None
    return str(text)


def profile_contents(profile: Profile) -> Iterator[tuple[str, Path, str | MemoryFile]]:
    for doc, rel in ((profile.memories, "memories.md"), (profile.archive, ARCHIVE_REL)):
        if doc is not None:
            yield rel, doc.path, doc.mf
    for f in profile.text_files():
        if f.error is None and f.data is not None and indexed_rel(profile.layout, f.rel):
            yield f.rel, f.path, f.text
