"""What dreaming writes beside MEMORY.md (``memory/.dreams/``, ``memory/dreaming/``,
``memory/imports/``, DREAMS.md), listed read-only with sizes and what each is; none of it is in the
agent's prompt.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..files.profile import inside
from ..format.entries import decode
from .injection import exact_name

DIARY_NAMES = ("DREAMS.md", "dreams.md")
MACHINE_DIRS = (
    ("memory/.dreams", "state",
     "dreaming's machine state (recall store, phase signals, ingestion checkpoints, locks)"),
    ("memory/dreaming", "report", "a dreaming phase report (light, REM or deep sweep), machine-written"),
    ("memory/imports", "import", "imported material, machine-written; not a daily log"),
)
DIARY_MEANING = "the dream diary: what each dreaming sweep looked at and promoted, for you to review"
LIMIT = 2_000  # files listed at most (a runaway machine folder must not stall the view)


@dataclass(frozen=True)
class MachineFile:
    rel: str  # workspace-relative, "/" separated
    kind: str  # "diary", "state", "report" or "import"
    size: int  # bytes on disk
    meaning: str

    @property
    def searched(self) -> bool:
        """Whether ``search`` covers it: the index's own rule (``file_kinds``), one answer everywhere."""
        from .file_kinds import classify

        return classify(self.rel).searched

    @property
    def what(self) -> str:
        return f"{self.meaning}; not loaded into the prompt, {'searched' if self.searched else 'not searched'}; " \
               "read-only here"


def machine_files(workspace: Path | str) -> tuple[list[MachineFile], int]:
    """(the diary and dreaming's files, sorted per folder; how many more were not listed)."""
    root = Path(workspace)
    out: list[MachineFile] = []
    more = 0
    for name in DIARY_NAMES:
        if (root / name).is_file() and exact_name(root, name):
            out.append(MachineFile(name, "diary", _size(root / name), DIARY_MEANING))
            break  # an existing dreams.md is used instead of DREAMS.md, never both
    for folder, kind, meaning in MACHINE_DIRS:
        base = root / folder
        if not base.is_dir() or not inside(root, base):
            continue
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base):  # links are not followed
            dirnames.sort()
            found.extend((Path(dirpath) / fn).relative_to(root).as_posix() for fn in sorted(filenames))
        for rel in found:
            if len(out) >= LIMIT:
                more += 1
                continue
            out.append(MachineFile(rel, kind, _size(root / rel), meaning))
    return out, more


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def preview(workspace: Path | str, rel: str, max_bytes: int = 8_192) -> tuple[str, bool]:
    """(the start of the file as text, whether it was cut); the bytes are decoded, never parsed."""
    root = Path(workspace)
    path = root / rel
    if not inside(root, path) or not path.is_file():
        return "", False
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        return f"(cannot be read: {exc.strerror or exc})", False
    return decode(data[:max_bytes])[0], len(data) > max_bytes
