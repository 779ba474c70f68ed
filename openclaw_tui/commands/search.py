"""`openclaw-tui search` (not implemented yet)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("search", help="(not implemented yet)")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("openclaw-tui search: not implemented yet", file=sys.stderr)
    return 2
