"""`openclaw-tui gc PATH`: apply the TTL, cold and cap rules; one line per entry moved or marked.

Exit 1 when memories.md is still over the cap afterwards (no ``low`` entries left to archive).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any

from ...core import phrases
from ...core.config import ConfigError
from ...core.i18n import _, ngettext
from ...core.lifecycle.archive import gc_apply, gc_plan, remaining_over_cap
from ._editing import open_profile, register_edit
from ._limits import add_limit_options, effective_limits
from ._output import fail


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def register(sub: Any) -> None:
    p = register_edit(sub, "gc", "apply the TTL, cold and cap rules; print what moved", run)
    p.add_argument("--dry-run", action="store_true", help=_("only print what would move"))
    p.add_argument("--today", type=_date, metavar="DATE", help=_("the date to apply the rules on (default: today)"))
    add_limit_options(p, "cold_days", "cap")


def run(args: argparse.Namespace) -> int:
    try:
        limits = effective_limits(args, "cold_days", "cap")
    except ConfigError as exc:
        return fail(str(exc))
    prof = open_profile(args)
    today = args.today or dt.date.today()
    actions = gc_plan(prof, today, cold_days=limits.cold_days, cap=limits.cap)
    if not args.dry_run and actions:
        gc_apply(prof, actions)
    for action in actions:
        line = action.describe()
        if args.dry_run:
            line = line.replace(": archived (", ": would be archived (", 1).replace(": cold (", ": would become cold (", 1)
        print(phrases.localize(line))
    over = remaining_over_cap(prof, actions, limits.cap)
    if over:
        print("openclaw-tui: " + ngettext(
            "memories.md stays %(over)d entry over the cap of %(cap)d (no low entries left to archive)",
            "memories.md stays %(over)d entries over the cap of %(cap)d (no low entries left to archive)", over)
            % {"over": over, "cap": limits.cap}, file=sys.stderr)
        return 1
    return 0
