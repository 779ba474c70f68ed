"""`openclaw-tui add PATH --body TEXT`: append one entry (next id), listing duplicate and conflict candidates.

``--skip-duplicate`` writes nothing (exit 1, that entry's id printed) when an active entry has the same text.
"""

from __future__ import annotations

import argparse
from typing import Any

from ...core import phrases
from ...core.i18n import _
from ...core.lifecycle.plan import apply_changes
from ...core.lifecycle.remember import plan_remember
from ._editing import open_profile, register_edit
from ._output import fail, out, print_json
from ._plans import plan_text
from .set import read_body


def split_list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def register(sub: Any) -> None:
    p = register_edit(sub, "add", "append one entry (next id); list duplicate and conflict candidates", run)
    body = p.add_mutually_exclusive_group(required=True)
    body.add_argument("--body", metavar="TEXT", help=_("the entry's text"))
    body.add_argument("--body-file", metavar="F", help=_("read the text from F (- reads standard input)"))
    p.add_argument("--tags", metavar="a,b", default="", help=_("comma-separated tags"))
    p.add_argument("--importance", metavar="I", help=_("high, medium or low"))
    p.add_argument("--source", metavar="S", default="manual", help=_("where it came from (default: manual)"))
    p.add_argument("--conflict", metavar="ID", action="append", default=[],
                   help=_("an entry this one contradicts (repeatable)"))
    p.add_argument("--skip-duplicate", action="store_true",
                   help=_("write nothing (exit 1) when an active entry has the same text"))
    p.add_argument("--dry-run", action="store_true", help=_("print what would be written; write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def run(args: argparse.Namespace) -> int:
    try:
        body = args.body if args.body is not None else read_body(args.body_file)
    except ValueError as exc:
        return fail(str(exc))
    prof = open_profile(args)
    result = plan_remember(prof, body, tags=split_list(args.tags), importance=args.importance, source=args.source,
                           conflict=args.conflict, skip_duplicate=args.skip_duplicate)
    if not result.skipped and not args.dry_run:
        result.plan = apply_changes(result.plan)
    if args.json:
        doc = result.to_json()
        doc["dry_run"] = args.dry_run
        doc["written"] = doc["written"] and not args.dry_run
        print_json(doc)
    else:
        text = f"{result.id}\n"
        if result.skipped:
            text += _("not written: %(id)s already says the same") % {"id": result.id} + "\n"
        for s in result.duplicates:
            text += _("possible duplicate: %(id)s (%(reason)s, %(score)s)") % {
                "id": s.id, "reason": phrases.localize(s.reason), "score": f"{s.score:.2f}"} + "\n"
        for other in result.declared:
            text += _("conflict: %(id)s (--conflict)") % {"id": other} + "\n"
        for c in result.conflicts:
            text += _("shares tags with: %(id)s (%(tags)s)") % {"id": c.id, "tags": ", ".join(c.tags)} + "\n"
        if args.dry_run:
            text += plan_text(result.plan, prof.path, True)
        out(text)
    return 1 if result.skipped else 0
