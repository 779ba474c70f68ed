"""``openclaw-memory-check [CHECK OPTIONS] FILE...``: the pre-commit hook.

``openclaw-tui check`` runs once per profile or workspace holding a staged file; files outside any are ignored.
Exit status: the highest of the checks'.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..core.files.profile import is_profile_dir, is_workspace_dir
from .commands.check import LIMITS

# check's options that take a value (the limits included), so the value is not taken for a staged file
WITH_VALUE = {"--fail-on", "--format", "--today", "--openclaw-config", *("--" + n.replace("_", "-") for n in LIMITS)}


def memory_folder(file: Path, top: Path) -> Path | None:
    """The nearest folder holding ``file`` that is a profile or a workspace (not above ``top``)."""
    folder = file.parent
    top = top.resolve()
    while True:
        if is_profile_dir(folder) or is_workspace_dir(folder):
            # the archive (contexts/archive/memories.md) belongs to the profile two levels up
            if folder.name == "archive" and folder.parent.name == "contexts" and is_profile_dir(folder.parent.parent):
                return folder.parent.parent
            return folder
        resolved = folder.resolve()
        if resolved == top or resolved == resolved.parent or folder == folder.parent:
            return None
        folder = folder.parent


def split_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(check options, files): options start with ``-``; ``--fail-on`` and the like take the next word."""
    options: list[str] = []
    files: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--":
            files.extend(it)
        elif arg in WITH_VALUE:
            options += [arg, next(it, "")]
        elif arg.startswith("-"):
            options.append(arg)
        else:
            files.append(arg)
    return options, files


def main(argv: Sequence[str] | None = None) -> int:
    from . import main as cli_main

    options, files = split_args(list(sys.argv[1:] if argv is None else argv))
    top = Path.cwd()
    folders: list[Path] = []
    for name in files:
        folder = memory_folder(Path(name), top)
        if folder is not None and folder not in folders:
            folders.append(folder)
    status = 0
    for folder in folders:
        sys.stdout.flush()
        status = max(status, cli_main(["check", str(folder), *options]))
    return status


if __name__ == "__main__":
    sys.exit(main())
