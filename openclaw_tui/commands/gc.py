"""`openclaw-tui gc PATH [--dry-run] [--today DATE] [--cold-days N] [--cap N]`.

Applies the TTL, cold and cap rules and prints one line per entry moved or
marked.  Exit 1 when memories.md is still over the cap afterwards (no
``low`` entries left to archive).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any

from ..core.lifecycle.lifecycle import gc_apply, gc_plan, remaining_over_cap
from ._editing import open_profile, register_edit


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0")
    return value


def register(sub: Any) -> None:
    p = register_edit(sub, "gc", "apply the TTL, cold and cap rules; print what moved", run)
    p.add_argument("--dry-run", action="store_true", help="only print what would move")
    p.add_argument("--today", type=_date, metavar="DATE", help="the date to apply the rules on (default: today)")
    p.add_argument("--cold-days", type=_count, default=90, metavar="N", help="days without a hit before cold (90)")
    p.add_argument("--cap", type=_count, default=200, metavar="N", help="most entries memories.md may hold (200)")


def run(args: argparse.Namespace) -> int:
    prof = open_profile(args)
    today = args.today or dt.date.today()
    actions = gc_plan(prof, today, cold_days=args.cold_days, cap=args.cap)
    if not args.dry_run and actions:
        gc_apply(prof, actions)
    for action in actions:
        line = action.describe()
        if args.dry_run:
            line = line.replace(": archived (", ": would be archived (", 1).replace(": cold (", ": would become cold (", 1)
        print(line)
    over = remaining_over_cap(prof, actions, args.cap)
    if over:
        print(
            f"openclaw-tui: memories.md stays {over} entr{'y' if over == 1 else 'ies'} over the cap of {args.cap}"
            " (no low entries left to archive)",
            file=sys.stderr,
        )
        return 1
    return 0
