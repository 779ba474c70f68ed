"""Exact lines of a memory file, by the rules of ``get`` and MCP's ``memory_get``: a file is named
relative to its profile folder; anything that leaves it is refused with ``Refused``."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from .profile import Profile, inside


class Refused(ValueError):
    """The file named cannot be read by these rules (the message says why)."""


def pick_profile(profiles: list[Profile], name: str | None, file: str) -> tuple[Profile, str]:
    """The profile ``file`` belongs to (``name`` when given) and the file's path inside it."""
    if name is not None:
        for p in profiles:
            if p.name == name:
                return p, file
        raise Refused(f"no profile named {name}")
    if len(profiles) == 1:
        return profiles[0], file
    posix = file.replace(os.sep, "/")
    for p in profiles:
        prefix = p.rel.rstrip("/") + "/"
        if posix.startswith(prefix):
            return p, posix[len(prefix):]
    names = ", ".join(p.name for p in profiles)
    raise Refused(f"the path holds several profiles ({names}); choose one with --profile NAME")


def resolve_file(profile: Profile, file: str) -> Path:
    """The file's path, refusing anything that leaves the profile folder."""
    rel = PurePosixPath(file.replace(os.sep, "/"))
    if not file or rel.is_absolute() or Path(file).is_absolute():
        raise Refused(f"{file}: FILE must be relative to the profile folder")
    if ".." in rel.parts:
        raise Refused(f"{file}: leaves the profile folder")
    path = profile.path / Path(*rel.parts) if rel.parts else profile.path
    if not inside(profile.path, path):
        raise Refused(f"{file}: leaves the profile folder (through a link)")
    if not path.exists():
        raise Refused(f"{file}: no such file in profile {profile.name}")
    if not path.is_file():
        raise Refused(f"{file}: not a regular file")
    return path


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their endings; only ``\\n`` ends a line (as in the parser)."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines
