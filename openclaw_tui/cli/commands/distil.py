"""`openclaw-tui distil PATH ...`: daily-log lines into MEMORY.md, or context lines into memories.md."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path
from typing import Any

from ...core.files.profile import resolve_profile
from ...core.format.edit import EditError
from ...core.i18n import _
from ...core.lifecycle.plan import apply_changes
from ._editing import guarded
from ._output import fail


def _numbers(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        out = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise EditError(_("%(value)r is not a list of line numbers such as 2,3,7") % {"value": text}) from None
    if any(n < 1 for n in out):
        raise EditError(_("line numbers start at 1"))
    return out


def register(sub: Any) -> None:
    help_text = "distil daily-log (or context) lines into long-term memory"
    p: argparse.ArgumentParser = sub.add_parser("distil", help=_(help_text), description=_(help_text))
    p.add_argument("path", metavar="PATH", help=_("an OpenClaw workspace, or a profile folder"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile when PATH holds several"))
    p.add_argument("--log", metavar="FILE", help=_("the daily log, e.g. memory/2026-10-12.md"))
    p.add_argument("--context", metavar="FILE", help=_("layout A: the context file, e.g. contexts/2025-06-01.md"))
    p.add_argument("--lines", metavar="N,M", help=_("the line numbers to distil"))
    p.add_argument("--drop", metavar="N,M", help=_("lines reviewed but not kept (marked dropped)"))
    p.add_argument("--section", metavar="TITLE", help=_("the MEMORY.md section (its title or heading path) to append to"))
    p.add_argument("--remove-old", action="store_true", help=_("remove fully distilled logs older than 30 days (one commit)"))
    p.add_argument("--keep-context", action="store_true", help=_("layout A: leave the context file where it is"))
    p.add_argument("--today", metavar="DATE", help=_("today's date (YYYY-MM-DD)"))
    p.add_argument("--dry-run", action="store_true", help=_("show what would change, write nothing"))
    p.add_argument("--json", action="store_true", help=_("print a JSON summary"))
    p.set_defaults(run=guarded(run))


def _section_key(ws: Path, title: str | None) -> str | None:
    if title is None:
        return None
    from ...core.workspace.model import load_memory

    mem = load_memory(ws)
    if mem is None:
        raise EditError(_("the workspace has no MEMORY.md; leave out --section to start one"))
    secs = mem.sections
    exact = [s for s in secs if s.key == title or " › ".join(s.heading_path) == title]
    named = exact or [s for s in secs if s.text == title]
    if len(named) != 1:
        raise EditError(_("no section %(title)r in MEMORY.md") % {"title": title} if not named else
                        _("%(title)r names %(count)d sections; give its heading path") % {"title": title, "count": len(named)})
    return named[0].key


def run(args: argparse.Namespace) -> int:
    try:
        today = dt.date.fromisoformat(args.today) if args.today else dt.date.today()
    except ValueError:
        return fail(_("--today %(value)r is not a date YYYY-MM-DD") % {"value": args.today})
    prof = resolve_profile(args.path, args.profile)
    out: dict[str, Any] = {"path": str(prof.path), "dry_run": args.dry_run}
    if prof.layout == "profile":
        if not args.context or not args.lines:
            return fail(_("a profile takes --context contexts/FILE.md --lines N,M"))
        if args.dry_run:
            from ...core.workspace.distil import _log_lines, distil_context_plan, line_text

            picked = _log_lines(prof.path / args.context, _numbers(args.lines))
            out["entries"] = [{"source": f"{args.context}:{n}", "body": line_text(t)} for n, t in picked.items()]
            out["archive"] = None if args.keep_context else f"contexts/archive/{Path(args.context).name}"
            plan = distil_context_plan(prof, args.context, _numbers(args.lines), archive=not args.keep_context)
            # the diff of memories.md; the archive copy is the move printed after it, not a new text
            plan.changes = [c for c in plan.changes if c.before is not None]
            out["diff"] = plan.diff(prof.path)
        else:
            from ...core.workspace.distil import distil_context

            _plan, ids, dest = distil_context(prof, args.context, _numbers(args.lines), archive=not args.keep_context)
            out["added"] = ids
            out["archive"] = dest.relative_to(prof.path).as_posix() if dest else None
        _print(args, out)
        return 0
    from ...core.workspace.distil import distil_plan, removable_logs, remove_logs

    ws = prof.path
    if args.remove_old:
        old = removable_logs(ws, today)
        out["removed"] = old
        if old and not args.dry_run:
            out["commit"] = remove_logs(ws, old)
        _print(args, out)
        return 0
    if not args.log or not (args.lines or args.drop):
        return fail(_("a workspace takes --log memory/FILE.md --lines N,M [--section TITLE], or --remove-old"))
    res = distil_plan(ws, args.log, _numbers(args.lines), _section_key(ws, args.section), dropped=_numbers(args.drop))
    out["items"] = res.items
    if args.dry_run:
        out["diff"] = res.plan.diff(ws)
    else:
        apply_changes(res.plan)
    _print(args, out)
    return 0


def _print(args: argparse.Namespace, out: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return
    dry = bool(out.get("dry_run"))
    if "diff" in out:
        print(out["diff"], end="")
        if not out.get("archive"):
            return
    for key in ("items", "added", "removed"):
        for v in out.get(key, []):
            label = {"items": _("item: %(value)s"), "added": _("added: %(value)s"),
                     "removed": _("would remove: %(value)s") if dry else _("removed: %(value)s")}[key]
            print(label % {"value": v})
    if "removed" in out and not out["removed"]:
        print(_("nothing to remove: no fully distilled daily log is older than 30 days"))
    if out.get("archive"):
        print(_("would move %(file)s to %(archive)s") % {"file": args.context, "archive": out["archive"]} if dry
              else _("moved to %(archive)s") % {"archive": out["archive"]})
    if out.get("commit"):
        print(_("commit %(sha)s") % {"sha": out["commit"][:10]})
