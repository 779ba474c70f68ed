"""`openclaw-tui archive PATH ID` and `openclaw-tui restore PATH ID`.

archive moves an entry of memories.md (its exact bytes, plus ``status:
archived`` and ``archived_at``) to contexts/archive/memories.md; restore
moves it back (``status: active``, ``archived_at`` dropped).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.lifecycle import archive, restore
from ._editing import open_profile, register_edit


def register(sub: Any) -> None:
    p = register_edit(sub, "archive", "move an entry to contexts/archive/memories.md", run)
    p.add_argument("id", metavar="ID")
    r = register_edit(sub, "restore", "move an entry back from contexts/archive/memories.md", run_restore)
    r.add_argument("id", metavar="ID")


def run(args: argparse.Namespace) -> int:
    archive(open_profile(args), args.id)
    print(f"{args.id}: archived")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    restore(open_profile(args), args.id)
    print(f"{args.id}: restored")
    return 0
