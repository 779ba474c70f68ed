"""`openclaw-tui git-setup PATH`: install the id-aware merge driver for memories.md.

Adds ``memories.md merge=openclaw-memory`` to the repository root's
``.gitattributes`` (left uncommitted) and sets
``merge.openclaw-memory.{name,driver}`` in the repository's own config (the
driver runs this very Python, so it works from a venv that is not on PATH);
the safe-write lock files go into ``.git/info/exclude``.  Running it twice
changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("git-setup", help="install the id-aware merge driver in the repository holding PATH")
    p.add_argument("path", help="any folder inside the repository")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core.git.gitrepo import GitError, find_repo, git_available, install_merge_driver

    path = Path(args.path)
    if not path.exists():
        print(f"openclaw-tui: {path}: no such file or folder", file=sys.stderr)
        return 2
    if not git_available():
        print("openclaw-tui: git is not installed", file=sys.stderr)
        return 2
    repo = find_repo(path)
    if repo is None:
        print(f"openclaw-tui: {path}: not inside a git repository", file=sys.stderr)
        return 2
    try:
        changed = install_merge_driver(repo)
    except (GitError, OSError) as exc:
        print(f"openclaw-tui: git-setup failed: {exc}", file=sys.stderr)
        return 2
    if changed:
        for line in changed:
            print(f"set {line}")
        print(f"merge driver installed in {repo.root}")
    else:
        print(f"merge driver already installed in {repo.root}")
    return 0
