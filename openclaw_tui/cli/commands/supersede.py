"""`openclaw-tui supersede PATH OLD NEW`: OLD becomes superseded, superseded_by: NEW."""

from __future__ import annotations

import argparse
from typing import Any

from ...core.i18n import _
from ...core.lifecycle.operations import supersede
from ._editing import open_profile, register_edit


def register(sub: Any) -> None:
    p = register_edit(sub, "supersede", "mark OLD as superseded by NEW", run)
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")


def run(args: argparse.Namespace) -> int:
    plan = supersede(open_profile(args), args.old, args.new)
    said = _("%(old)s: already superseded by %(new)s") if plan.empty else _("%(old)s: superseded by %(new)s")
    print(said % {"old": args.old, "new": args.new})
    return 0
