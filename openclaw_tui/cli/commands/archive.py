"""`openclaw-tui archive PATH ID...` (all or none) and `openclaw-tui restore PATH ID`: moves to and from the archive."""

from __future__ import annotations

import argparse
from typing import Any

from ...core.files.safe_write import digest_early
from ...core.i18n import _
from ...core.lifecycle.archive import archive, restore
from ._editing import open_profile, register_edit


def register(sub: Any) -> None:
    p = register_edit(sub, "archive", "move entries to contexts/archive/memories.md", run)
    p.add_argument("id", metavar="ID", nargs="+")
    r = register_edit(sub, "restore", "move an entry back from contexts/archive/memories.md", run_restore)
    r.add_argument("id", metavar="ID")


def run(args: argparse.Namespace) -> int:
    ids = list(dict.fromkeys(args.id))
    profile = open_profile(args)
    if profile.memories is not None:
        digest_early(profile.memories.data)  # the move's journal names memories.md's bytes: hash them meanwhile
    archive(profile, ids)
    for ident in ids:
        print(_("%(id)s: archived") % {"id": ident})
    return 0


def run_restore(args: argparse.Namespace) -> int:
    restore(open_profile(args), args.id)
    print(_("%(id)s: restored") % {"id": args.id})
    return 0
