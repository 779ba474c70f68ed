"""Where profiles and workspaces are, before anything of them is read: ``locate(path)``.

Kept apart from ``profile`` (which loads what this finds); ``profile`` re-exports every name.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

PROFILE_MARKERS = ("memories.md", "identity.md", "state.yaml")
WORKSPACE_MARKERS = ("MEMORY.md", "memory.md", "memory", "AGENTS.md", "SOUL.md")
BOOTSTRAP_NAMES = (
    "AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md", "BOOTSTRAP.md",
    "MEMORY.md", "memory.md",
)
ARCHIVE_REL = "contexts/archive/memories.md"


class NotMemory(ValueError):
    """The path is not a profile, a profiles root or a workspace."""


def inside(root: Path, path: Path) -> bool:
    """True when ``path`` (symlinks resolved) lies inside ``root``."""
    try:
        real = Path(os.path.realpath(path))
        return real == Path(os.path.realpath(root)) or real.is_relative_to(os.path.realpath(root))
    except (OSError, ValueError):
        return False


def present(path: Path) -> bool:
    """True when something (a file, a folder, a link, one that cannot be read) is at ``path``."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:  # the folder above cannot be searched: something may be there, unreadable
        return True
    return True


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def is_profile_dir(path: Path) -> bool:
    return _is_dir(path) and any(_exists(path / m) for m in PROFILE_MARKERS)


def is_workspace_dir(path: Path) -> bool:
    return _is_dir(path) and any(_exists(path / m) for m in WORKSPACE_MARKERS) and claude_code_memory(path) is None


_CLAUDE_KEYS = ("type:", "metadata:")


def claude_code_memory(path: Path) -> str | None:
    """What a Claude Code memory folder is, in words, or None: a folder with ``CLAUDE.md``, or one under
    ``.claude/`` or beside ``MEMORY.md`` whose topic files open with ``type:``/``metadata:`` front
    matter.  A folder with OpenClaw's own AGENTS.md or SOUL.md is never one."""
    if _exists(path / "AGENTS.md") or _exists(path / "SOUL.md"):
        return None
    if _exists(path / "CLAUDE.md"):
        return "a Claude Code project memory (CLAUDE.md)"
    under_claude = ".claude" in Path(os.path.abspath(path)).parts
    if not (under_claude or _exists(path / "MEMORY.md")):
        return None
    try:
        names = sorted(n for n in os.listdir(path) if n.endswith(".md") and n not in ("MEMORY.md", "memory.md"))
    except OSError:
        return None
    for name in names[:20]:
        try:
            with open(path / name, "rb") as fh:
                head = fh.read(600).decode("utf-8", "replace")
        except OSError:
            continue
        if head.startswith("---") and any(f"\n{k}" in head for k in _CLAUDE_KEYS):
            return "a Claude Code memory folder (MEMORY.md and topic files with type:/metadata: front matter)"
    if under_claude and _exists(path / "MEMORY.md"):
        return "a Claude Code memory folder (under .claude/)"
    return None


class Place(NamedTuple):
    """Where a profile or workspace is, before anything of it is read (``rel``: as ``Profile.rel``;
    ``layout``: "profile" or "openclaw")."""

    path: Path
    rel: str
    layout: str


def locate(path: Path | str, *, workspaces: bool = False) -> tuple[str, list[Place]]:
    """What ``path`` is (``"profile"``, ``"root"`` or ``"workspace"``) and its profiles, reading no file;
    raises NotMemory.  A root's profiles are the folders directly inside it that are profiles or
    OpenClaw workspaces; a folder holding ``profiles/`` is read as that root.  ``workspaces=True``
    (the UI) also lists the workspaces beside that ``profiles/`` folder (the bundled samples).
    """
    given = Path(path)
    try:
        if not given.exists():
            raise NotMemory(f"{given}: no such file or folder")
        if not given.is_dir():
            raise NotMemory(f"{given}: not a folder")
    except OSError as exc:
        raise NotMemory(f"{given}: cannot be read ({exc.strerror or exc})") from exc
    if is_profile_dir(given):
        return "profile", [Place(given, ".", "profile")]
    roots = [(given, "")]
    if _is_dir(given / "profiles"):
        roots.insert(0, (given / "profiles", "profiles/"))
    listed: list[tuple[str, list[Path]]] = []
    for folder, prefix in roots:
        try:
            children = sorted(p for p in folder.iterdir() if _is_dir(p) and not p.name.startswith("."))
        except OSError as exc:
            raise NotMemory(f"{given}: cannot be listed ({exc.strerror})") from exc
        listed.append((prefix, children))
        if any(is_profile_dir(c) for c in children):
            found = _with_workspaces(prefix, children)  # the workspaces beside the profiles too (the spec)
            if prefix and workspaces:  # PATH holds profiles/: the UI adds the workspaces beside that folder
                found += [w for w in _with_workspaces("", _folders(given)) if w.layout == "openclaw"]
            return "root", found
    if is_workspace_dir(given):
        return "workspace", [Place(given, ".", "openclaw")]
    for prefix, children in listed:  # a folder of workspaces only: a root of them
        found = _with_workspaces(prefix, children)
        if found:
            return "root", found
    claude = claude_code_memory(given)
    if claude is not None:
        raise NotMemory(f"{given}: {claude}, not an OpenClaw workspace: not supported yet "
                        "(OpenClaw's limits and rules do not apply to it)")
    raise NotMemory(f"{given}: not a profile, a profiles root or an OpenClaw workspace")


def _folders(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if _is_dir(p) and not p.name.startswith("."))
    except OSError:
        return []


def _with_workspaces(prefix: str, children: list[Path]) -> list[Place]:
    """The profiles and the OpenClaw workspaces among ``children``, in name order."""
    out = []
    for c in children:
        if is_profile_dir(c):
            out.append(Place(c, prefix + c.name, "profile"))
        elif is_workspace_dir(c):
            out.append(Place(c, prefix + c.name, "openclaw"))
    return out


def indexed_rel(layout: str, rel: str) -> bool:
    """Whether a file (path relative to its profile) belongs in the index."""
    if layout == "openclaw":
        return rel in BOOTSTRAP_NAMES or rel == "DREAMS.md" or (rel.startswith("memory/") and rel.endswith(".md"))
    if rel in ("memories.md", ARCHIVE_REL, "identity.md", "state.yaml"):
        return True
    return (rel.startswith("contexts/") or rel.startswith("skills/")) and rel.endswith(".md")
