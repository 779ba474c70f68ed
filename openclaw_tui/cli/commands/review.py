"""`openclaw-tui review WORKSPACE`: the queue of what dreaming promoted into MEMORY.md, and the verdicts on it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...core import phrases
from ...core.files.profile import resolve_profile
from ...core.i18n import _
from ...core.lifecycle.plan import Plan, apply_changes
from ...core.workspace import dreaming
from ._editing import guarded
from ._output import fail


def register(sub: Any) -> None:
    help_text = "review what OpenClaw's dreaming promoted into MEMORY.md"
    p: argparse.ArgumentParser = sub.add_parser("review", help=_(help_text), description=_(help_text))
    p.add_argument("path", metavar="PATH", help=_("an OpenClaw workspace"))
    group = p.add_mutually_exclusive_group()
    group.add_argument("--accept", type=int, metavar="LINE", help=_("accept the promoted item on LINE"))
    group.add_argument("--reject", type=int, metavar="LINE", help=_("remove the promoted item on LINE"))
    group.add_argument("--edit", type=int, metavar="LINE", help=_("rewrite the text of the item on LINE (with --text)"))
    p.add_argument("--strip", action="store_true", help=_("with --accept: remove dreaming's markers and scores"))
    p.add_argument("--text", metavar="TEXT", help=_("the new text for --edit"))
    p.add_argument("--dry-run", action="store_true", help=_("show what would change, write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.set_defaults(run=guarded(run))


def _queue_json(queue: list[dreaming.QueueItem]) -> list[dict[str, Any]]:
    return [
        {
            "line": q.row.line, "text": q.row.text, "section": list(q.row.heading_path), "score": q.row.score or None,
            "trigger": q.row.trigger, "importance": q.row.importance,
            "sources": [{"file": f, "line": n, "text": t} for f, n, t in q.source_lines],
            "source_missing": q.source_missing, "new_in_git": q.new_in_git, "residue": q.row.has_residue,
            "flags": q.flags, "why": q.why or None,
        }
        for q in queue
    ]


def run(args: argparse.Namespace) -> int:
    prof = resolve_profile(args.path, None)
    if prof.layout != "openclaw":
        return fail(_("%(path)s: review takes an OpenClaw workspace") % {"path": args.path})
    ws = prof.path
    queue = dreaming.review_queue(ws)
    line = args.accept or args.reject or args.edit
    if line is None:
        if args.strip or args.text is not None:
            return fail(_("--strip goes with --accept, --text with --edit"))
        empty = None
        if not queue:
            from ...core.workspace.model import load_memory
            from ...core.workspace.openclaw_config import OpenClawConfigError, load_openclaw_config

            try:
                enabled = load_openclaw_config(ws).dreaming_enabled
            except OpenClawConfigError:
                enabled = None
            empty = dreaming.empty_reason(ws, load_memory(ws), enabled)
        if args.json:
            doc: dict[str, Any] = {"queue": _queue_json(queue)}
            if empty is not None:
                doc["empty_reason"] = empty
            print(json.dumps(doc, ensure_ascii=False, indent=1))
        elif empty is not None:
            print(_("nothing to review: %(why)s") % {"why": _(empty)})
        else:
            for q in queue:
                score = q.row.score.get("score", "-")
                src = ", ".join(f"{f}:{n}" for f, n, _t in q.source_lines) or (_("source gone") if q.source_missing else "")
                flags = "".join("  " + _("review flag: %(flag)s") % {"flag": f} for f in q.flags)
                print(f"MEMORY.md:{q.row.line}  " + _("score %(score)s") % {"score": score} + f"  {q.row.text}  [{src}]{flags}")
                if q.recall:
                    print("    " + _("why: %(why)s") % {"why": phrases.localize(q.why)})
        return 0
    item = next((q for q in queue if q.row.line == line), None)
    if item is None:
        return fail(_("no promoted item to review on line %(line)s of MEMORY.md") % {"line": line})
    if args.edit is not None and not args.text:
        return fail(_("--edit needs --text"))
    plan: Plan | None
    if args.reject is not None:
        plan = dreaming.reject(ws, item)
    elif args.edit is not None:
        plan = dreaming.edit(ws, item, args.text)
    elif args.dry_run:
        plan = dreaming.strip_plan(ws, item) if args.strip else None
    else:
        plan = dreaming.accept(ws, item, strip=args.strip)
    out: dict[str, Any] = {"line": line, "dry_run": args.dry_run}
    if plan is not None and args.dry_run:
        out["diff"] = plan.diff(ws)
    elif plan is not None:
        apply_changes(plan)
    out["done"] = "accept" if args.accept is not None else "reject" if args.reject is not None else "edit"
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    elif "diff" in out:
        print(out["diff"], end="")
    else:
        done = {"accept": _("MEMORY.md:%(line)s: accepted"), "reject": _("MEMORY.md:%(line)s: rejected"),
                "edit": _("MEMORY.md:%(line)s: edited")}[out["done"]]
        print(done % {"line": line})
    return 0
