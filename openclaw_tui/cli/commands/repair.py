"""`openclaw-tui repair PATH [--finding N [--candidate K] | --all-safe]`: repair dangling and inactive references.

Exit 0 when no reference problem is left, 1 when one is (with no action: when there is any), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ...core import phrases
from ...core.check.messages import SEVERITY_WORDS, localize
from ...core.check.repair import Problem, find_problems, plan_all_safe, plan_repair, together
from ...core.files.profile import resolve_profile
from ...core.i18n import _, ngettext
from ...core.lifecycle.plan import Plan, apply_changes
from ._editing import add_target, guarded
from ._output import fail
from .check import _date


def register(sub: Any) -> None:
    p = sub.add_parser(
        "repair",
        help=_("repair dangling and inactive references (lists candidates; applies one with --finding or --all-safe)"),
        description=_("Repair dangling and inactive references. With no action: list the findings and their candidates."),
    )
    add_target(p)
    act = p.add_mutually_exclusive_group()
    act.add_argument("--finding", type=int, metavar="N", help=_("apply a candidate of finding N (as numbered by the listing)"))
    act.add_argument("--all-safe", action="store_true", help=_("apply every repair with one certain candidate"))
    p.add_argument("--candidate", type=int, metavar="K", default=None, help=_("which candidate of --finding (default 1)"))
    p.add_argument("--only", action="store_true", help=_("with --finding: not the other findings naming the same target"))
    p.add_argument("--dry-run", action="store_true", help=_("print the diff, write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.add_argument("--today", type=_date, metavar="YYYY-MM-DD", help=_("the date taken as today (default: local date)"))
    p.add_argument("--no-history", action="store_true", help=_("do not look for deleted entries in git history"))
    p.set_defaults(run=guarded(run))


def run(args: argparse.Namespace) -> int:
    if args.candidate is not None and args.finding is None:
        return fail(_("--candidate needs --finding N"))
    if args.only and args.finding is None:
        return fail(_("--only needs --finding N"))
    profile = resolve_profile(args.path, args.profile)
    problems = find_problems(profile, today=args.today, history=not args.no_history)
    if args.finding is None and not args.all_safe:
        return _list(problems, args.json)
    if args.all_safe:
        run_ = plan_all_safe(profile, problems, today=args.today)
        plan, repaired, left = run_.plan, [p.number for p, _c in run_.done], [p.number for p in run_.left]
    else:
        chosen = next((p for p in problems if p.number == args.finding), None)
        if chosen is None:
            return fail(ngettext("no finding %(n)s: there is %(count)d", "no finding %(n)s: there are %(count)d", len(problems))
                        % {"n": args.finding, "count": len(problems)})
        k = args.candidate or 1
        if not 1 <= k <= len(chosen.candidates):
            return fail(_("finding %(n)s has %(count)d candidate(s), not %(k)s")
                        % {"n": chosen.number, "count": len(chosen.candidates), "k": k})
        cand = chosen.candidates[k - 1]
        group = [chosen] if args.only else together(problems, chosen, cand)
        plan = plan_repair(profile, group, cand)
        repaired = [p.number for p in group]
        left = [p.number for p in problems if p.number not in repaired]
    if not args.dry_run and not plan.empty:
        plan = apply_changes(plan)
    _report(plan, profile, repaired, left, args)
    return 1 if left else 0


def _list(problems: list[Problem], as_json: bool) -> int:
    if as_json:
        sys.stdout.write(json.dumps({"problems": [p.to_json() for p in problems]}, ensure_ascii=False, indent=2) + "\n")
        return 1 if problems else 0
    out = []
    for p in problems:
        f = p.finding
        where = f"{f.file}:{f.line}" if f.line is not None else f.file
        message = " ".join(localize(f.code, f.message).split())
        out.append(f"[{p.number}] {where}: {_(SEVERITY_WORDS[f.severity])} {f.code} {message}")
        if not p.candidates:
            out.append("    " + _("no candidate: edit the reference by hand"))
        for k, c in enumerate(p.candidates, start=1):
            mark = "  " + _("(safe)") if c.safe else ""
            out.append(f"    {k}. {' '.join(phrases.localize(c.describe()).split())}{mark}")
            if c.action == "restore-git" and c.text:
                out.extend("       | " + row for row in c.text.splitlines())
    safe = sum(1 for p in problems if p.safe is not None)
    out.append(ngettext("%(count)d reference problem, %(safe)d with a safe repair",
                        "%(count)d reference problems, %(safe)d with a safe repair", len(problems))
               % {"count": len(problems), "safe": safe})
    sys.stdout.write("\n".join(out) + "\n")
    return 1 if problems else 0


def _report(plan: Plan, profile: Any, repaired: list[int], left: list[int], args: argparse.Namespace) -> None:
    diff = plan.diff(profile.path)
    if args.json:
        doc = {
            "applied": not args.dry_run and not plan.empty,
            "title": plan.title,
            "repaired": repaired,
            "left": left,
            "files": [c.path.relative_to(profile.path).as_posix() for c in plan.changes if c.changed],
            "diff": diff,
        }
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return
    if args.dry_run:
        sys.stdout.write(diff)
        print(_("%(title)s (dry run: nothing written)") % {"title": phrases.localize(plan.title)})
    else:
        print(phrases.localize(plan.title) if not plan.empty else _("nothing to repair"))
    if left:
        print(ngettext("left: finding %(numbers)s", "left: findings %(numbers)s", len(left))
              % {"numbers": ", ".join(map(str, left))})
