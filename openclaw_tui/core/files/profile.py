"""Profiles and layouts: what a folder of agent memory holds (layout ``"profile"`` or ``"openclaw"``),
loaded; ``discover(path)`` finds and loads the profiles under a path as the spec defines."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

# the names of places that callers import from here (re-exported)
from ..format.places import ARCHIVE_REL as ARCHIVE_REL
from ..format.places import BOOTSTRAP_NAMES as BOOTSTRAP_NAMES
from ..format.places import NotMemory as NotMemory
from ..format.places import _exists as _exists
from ..format.places import inside as inside
from ..format.places import is_profile_dir as is_profile_dir
from ..format.places import is_workspace_dir as is_workspace_dir
from ..format.places import locate as locate
from ..format.places import present as present

if TYPE_CHECKING:  # imported where used: locating profiles (search, context) parses nothing
    from .store import MemoryDoc

@dataclass
class TextFile:
    """A file of a profile other than the memory files, read losslessly."""

    rel: str  # path relative to the profile folder, with forward slashes
    path: Path
    data: bytes | None = None
    text: str = ""
    utf8: bool = True
    error: str | None = None  # why it could not be read (then text is "")

    @classmethod
    def read(cls, root: Path, path: Path) -> TextFile:
        rel = path.relative_to(root).as_posix()
        if not inside(root, path):
            return cls(rel, path, error="it is a link that leaves the profile folder")
        try:
            if not path.is_file():
                return cls(rel, path, error="not a regular file")
            data = path.read_bytes()
        except OSError as exc:
            return cls(rel, path, error=f"cannot be read: {exc.strerror or exc}")

        from ..format.entries import decode  # here: locating profiles (a fresh ``search``) imports no parser

        text, bom, ok = decode(data)
        return cls(rel, path, data, text, ok, None if ok else "not valid UTF-8")


@dataclass
class Profile:
    name: str
    path: Path  # absolute
    rel: str  # relative to the path the user gave ("." when it is that path)
    layout: str  # "profile" or "openclaw"
    memories: MemoryDoc | None = None
    archive: MemoryDoc | None = None
    memories_error: str | None = None  # memories.md exists but cannot be used
    archive_error: str | None = None
    identity: TextFile | None = None
    state: TextFile | None = None
    secrets_refs: TextFile | None = None
    contexts: list[TextFile] = field(default_factory=list)
    skills: list[TextFile] = field(default_factory=list)
    # layout B
    bootstrap: list[TextFile] = field(default_factory=list)
    daily_logs: list[TextFile] = field(default_factory=list)
    other: list[TextFile] = field(default_factory=list)

    @property
    def memories_path(self) -> Path:
        return self.path / "memories.md"

    @property
    def archive_path(self) -> Path:
        return self.path / ARCHIVE_REL

    @property
    def audit_log_path(self) -> Path:
        return self.path / "audit.log"

    def text_files(self) -> Iterator[TextFile]:
        """Every non-memory file of the profile that was looked at."""
        yield from (f for f in (self.identity, self.state, self.secrets_refs) if f is not None)
        yield from self.contexts
        yield from self.skills
        yield from self.bootstrap
        yield from self.daily_logs
        yield from self.other

    def entry_count(self) -> int:
        return 0 if self.memories is None else sum(1 for _ in self.memories.mf.well_formed())

    def reload(self) -> Profile:
        return load_profile(self.path, self.rel, self.layout)


def _md_files(root: Path, folder: Path, skip: set[Path] | None = None) -> list[TextFile]:
    files: list[TextFile] = []
    if not present(folder) or not inside(root, folder):
        return files
    try:
        if not folder.is_dir():
            return files
    except OSError as exc:  # the folder above it cannot be searched
        files.append(TextFile(folder.relative_to(root).as_posix(), folder, error=f"cannot be read: {exc.strerror or exc}"))
        return files

    def unreadable(exc: OSError) -> None:  # a folder that cannot be listed: a finding, the rest still read
        where = Path(exc.filename) if exc.filename else folder
        rel = where.relative_to(root).as_posix() if where.is_relative_to(root) else where.as_posix()
        files.append(TextFile(rel, where, error=f"cannot be read: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable):
        dirnames.sort()
        here = Path(dirpath)
        for name in sorted(filenames):
            p = here / name
            if not name.endswith(".md") or (skip and p in skip):
                continue
            files.append(TextFile.read(root, p))
    return files


def _load_doc(profile_path: Path, path: Path, lazy: bool = False) -> tuple[MemoryDoc | None, str | None]:
    from .store import MemoryDoc

    if not present(path):
        return None, None
    if not inside(profile_path, path):
        return None, "it is a link that leaves the profile folder"
    try:
        if not path.is_file():
            return None, "not a regular file"
        doc = MemoryDoc.load(path, lazy=lazy)
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}"
    return doc, None if doc.utf8 else "not valid UTF-8"


def load_profile(path: Path, rel: str = ".", layout: str | None = None, *, lazy: bool = False) -> Profile:
    """Read a profile's files; with ``lazy`` its memory files are parsed only when first used."""
    path = Path(path).absolute()
    if layout is None:
        layout = "profile" if is_profile_dir(path) or not is_workspace_dir(path) else "openclaw"
    prof = Profile(name=path.name, path=path, rel=rel, layout=layout)
    from .safe_write import confine, recover

    confine(path)  # nothing below it is ever written through a link that leaves it
    recover(path)  # finish a move between files that a crash interrupted (see safe_write)
    if layout == "openclaw":
        _load_workspace(prof)
        return prof
    prof.memories, prof.memories_error = _load_doc(path, prof.memories_path, lazy)
    prof.archive, prof.archive_error = _load_doc(path, prof.archive_path, lazy)
    for name, attr in (("identity.md", "identity"), ("state.yaml", "state"), ("secrets_refs.yaml", "secrets_refs")):
        p = path / name
        if present(p):
            setattr(prof, attr, TextFile.read(path, p))
    prof.contexts = _md_files(path, path / "contexts", skip={prof.archive_path})
    prof.skills = _md_files(path, path / "skills")
    return prof


def _load_workspace(prof: Profile) -> None:
    path = prof.path
    for name in BOOTSTRAP_NAMES:
        p = path / name
        if present(p):
            prof.bootstrap.append(TextFile.read(path, p))
    if _exists(path / "DREAMS.md"):
        prof.other.append(TextFile.read(path, path / "DREAMS.md"))
    prof.daily_logs = _md_files(path, path / "memory")


@dataclass
class Discovery:
    root: Path  # the path as given
    kind: str  # "profile", "root" or "workspace"
    profiles: list[Profile]


def discover(path: Path | str, *, lazy: bool = False, workspaces: bool = False) -> Discovery:
    """Find the profiles under ``path`` (``locate``) and load them; raises NotMemory (the CLI exits 2)."""
    kind, places = locate(path, workspaces=workspaces)
    return Discovery(Path(path), kind, [load_profile(p.path, p.rel, p.layout, lazy=lazy) for p in places])


def resolve_profile(path: Path | str, name: str | None = None, *, lazy: bool = False) -> Profile:
    """The single profile an editing command acts on (``--profile NAME`` for roots)."""
    found = discover(path, lazy=lazy)
    if name is not None:
        for p in found.profiles:
            if p.name == name:
                return p
        raise NotMemory(f"{path}: no profile named {name}")
    if len(found.profiles) != 1:
        names = ", ".join(p.name for p in found.profiles)
        raise NotMemory(f"{path}: holds several profiles ({names}); choose one with --profile NAME")
    return found.profiles[0]
