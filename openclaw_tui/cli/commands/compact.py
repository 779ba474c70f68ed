"""`openclaw-tui compact PATH (--tag T | --ids A,B,...) --body-file F`: several entries become one new entry."""

from __future__ import annotations

import argparse
from typing import Any

from ...core.i18n import _, ngettext
from ...core.lifecycle.archive import compact, plan_compact
from ...core.lifecycle.plan import Files
from ...core.lifecycle.remember import tag_sharers
from ._editing import open_profile, register_edit
from ._output import fail, out, print_json
from ._plans import plan_json, plan_text
from .add import split_list
from .set import read_body


def register(sub: Any) -> None:
    p = register_edit(sub, "compact", "merge several entries into one new entry", run)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--tag", metavar="T", help=_("every active entry of memories.md with this tag"))
    which.add_argument("--ids", metavar="A,B,...", help=_("these entries (comma-separated)"))
    p.add_argument("--body-file", metavar="F", required=True, help=_("the merged entry's text (- reads standard input)"))
    p.add_argument("--tags", metavar="a,b", help=_("the merged entry's tags (default: all of theirs)"))
    p.add_argument("--importance", metavar="I", help=_("the merged entry's importance (default: the highest)"))
    p.add_argument("--dry-run", action="store_true", help=_("print what would change; write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def run(args: argparse.Namespace) -> int:
    try:
        body = read_body(args.body_file)
    except ValueError as exc:
        return fail(str(exc))
    if not body.strip():
        return fail(_("%(file)s: the merged entry has no text") % {"file": args.body_file})
    prof = open_profile(args)
    if args.tag is not None:
        ids = [s.id for s in tag_sharers(Files.of(prof), [args.tag])]
        if len(ids) < 2:
            return fail("--tag " + args.tag + ": " + ngettext(
                "%(count)d active entry in memories.md carries it; compaction needs two or more",
                "%(count)d active entries in memories.md carry it; compaction needs two or more", len(ids))
                % {"count": len(ids)})
    else:
        ids = split_list(args.ids)
    tags = split_list(args.tags) if args.tags is not None else None
    run_plan = plan_compact if args.dry_run else compact
    plan = run_plan(prof, ids, body, tags, args.importance)
    if args.json:
        print_json({"ids": ids, **plan_json(plan, prof.path, args.dry_run)})
    else:
        out(plan_text(plan, prof.path, args.dry_run))
    return 0
