"""`openclaw-tui search PATH QUERY [-n N] [--json]`: ranked full-text search (Chinese included).

Every profile under PATH is searched: entries of memories.md and the archive,
contexts, skills, identity.md, state.yaml (and an OpenClaw workspace's
Markdown files).  Every whitespace-separated part of QUERY must match.
Read-only: nothing is written, the index lives in memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.format.profile import NotMemory, discover
from ..core.search.search import QueryError, search_profiles


def register(sub: Any) -> None:
    p = sub.add_parser("search", help="ranked full-text search over every profile under PATH",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help="a profile, a profiles root or an OpenClaw workspace")
    p.add_argument("query", metavar="QUERY", help="words and/or Chinese text (quote several words)")
    p.add_argument("-n", type=int, default=10, metavar="N", help="show at most N results (default 10)")
    p.add_argument("--json", action="store_true", help='print {"query": Q, "results": [...]} best first')
    p.set_defaults(run=run)


def _fail(reason: str) -> int:
    print(f"openclaw-tui: {' '.join(reason.split())}", file=sys.stderr)
    return 2


def _out(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8", "replace"))
    sys.stdout.buffer.flush()


def run(args: argparse.Namespace) -> int:
    if args.n < 1:
        return _fail(f"-n must be at least 1 (got {args.n})")
    try:
        found = discover(args.path)
        hits = search_profiles(found.profiles, args.query, args.n)
    except (NotMemory, QueryError) as exc:
        return _fail(str(exc))
    if args.json:
        doc = {"query": args.query, "results": [h.to_json() for h in hits]}
        _out(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return 0
    several = len(found.profiles) > 1
    lines: list[str] = []
    for h in hits:
        where = f"{h.profile_rel}/{h.file}" if several and h.profile_rel != "." else h.file
        span = f"{h.start_line}" if h.start_line == h.end_line else f"{h.start_line}-{h.end_line}"
        lines.append(f"{where}:{span}  {h.id or '-'}  {h.score:.2f}")
        lines.append(f"    {h.snippet}")
    lines.append(f"{len(hits)} result{'' if len(hits) == 1 else 's'}")
    _out("\n".join(lines) + "\n")
    return 0
