"""`openclaw-tui resolve PATH A B --keep A|B|both` (or `--merge-file F`): settle a conflict between two entries."""

from __future__ import annotations

import argparse
from typing import Any

from ...core.i18n import _
from ...core.lifecycle.operations import (
    KEEP_BOTH,
    KEEP_LEFT,
    KEEP_RIGHT,
    MERGE,
    plan_resolve_conflict,
    resolve_conflict,
)
from ._editing import open_profile, register_edit
from ._output import fail, out, print_json
from ._plans import plan_json, plan_text
from .set import read_body


def register(sub: Any) -> None:
    p = register_edit(sub, "resolve", "resolve a conflict between entries A and B", run)
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--keep", metavar="A|B|both", help=_("the id to keep (the other is superseded by it), or both"))
    how.add_argument("--merge-file", metavar="F", help=_("write a merged entry with F's text; it supersedes both"))
    p.add_argument("--dry-run", action="store_true", help=_("print what would change; write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def run(args: argparse.Namespace) -> int:
    body = None
    if args.merge_file is not None:
        try:
            body = read_body(args.merge_file)
        except ValueError as exc:
            return fail(str(exc))
        choice = MERGE
    elif args.keep == args.a:
        choice = KEEP_LEFT
    elif args.keep == args.b:
        choice = KEEP_RIGHT
    elif args.keep == "both":
        choice = KEEP_BOTH
    else:
        return fail(_("--keep %(keep)s: give %(a)s, %(b)s or both") % {"keep": args.keep, "a": args.a, "b": args.b})
    prof = open_profile(args)
    if args.dry_run:
        plan = plan_resolve_conflict(prof, args.a, args.b, choice, body)
    else:
        plan = resolve_conflict(prof, args.a, args.b, choice, body)
    if args.json:
        print_json({"a": args.a, "b": args.b, "choice": choice, **plan_json(plan, prof.path, args.dry_run)})
    else:
        out(plan_text(plan, prof.path, args.dry_run) or _("%(a)s / %(b)s: nothing to change") % {"a": args.a, "b": args.b} + "\n")
    return 0
