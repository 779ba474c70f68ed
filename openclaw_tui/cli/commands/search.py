"""The ``search`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ...core import phrases
from ...core.format.places import NotMemory, locate
from ...core.i18n import N_, _, ngettext
from ...core.search.api import QueryError, search_path
from ...core.userdirs import ConfigError
from ._dates import today_option
from ._output import fail, out

DESCRIPTION = N_("""`openclaw-tui search PATH QUERY [-n N] [--json] [--explain] [--today DATE]`: ranked search (Chinese included).

Every profile under PATH is searched: entries of memories.md and the archive,
contexts, skills, identity.md, state.yaml (and an OpenClaw workspace's
Markdown files).  Every whitespace-separated part of QUERY must match its
words (or, with an embedding provider configured, mean the same).
Ranking: BM25 fused with vector similarity when a provider answers, times a
temporal decay for dated entries and daily logs, then MMR for diversity
(weights in the config file; a workspace's own OpenClaw settings win).
``--explain`` shows each result's text score, vector score and decay factor.

Read-only for the memory: the index lives in the user's cache folder and is
brought up to date (changed files only) on each run.
""")


def register(sub: Any) -> None:
    p = sub.add_parser("search", help=_("ranked search over every profile under PATH"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile, a profiles root or an OpenClaw workspace"))
    p.add_argument("query", metavar="QUERY", help=_('words and/or Chinese text; "a phrase" keeps words together; tag:x filters'))
    p.add_argument("-n", type=int, default=10, metavar="N", help=_("show at most N results (default 10)"))
    p.add_argument("--json", action="store_true", help=_('print {"query": Q, "results": [...]} best first'))
    p.add_argument("--explain", action="store_true", help=_("show each result's text score, vector score and decay"))
    p.add_argument("--today", metavar="YYYY-MM-DD", help=_("the date decay counts from (default: today)"))
    p.add_argument("--tags", default="", metavar="a,b", help=_("only entries carrying all these tags (also tag:x in QUERY)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.n < 1:
        return fail(_("-n must be at least 1 (got %(n)s)") % {"n": args.n})
    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    try:
        today = today_option(args.today)
    except ValueError as exc:
        return fail(str(exc))
    try:
        _kind, found = locate(args.path)
        results, _stats = search_path(args.path, args.query, args.n, today=today, tags=tags)
    except (NotMemory, QueryError, ConfigError) as exc:
        return fail(str(exc))
    profiles = len(found)
    hits = results.hits
    if results.failures:  # a provider was configured and did not answer: say so, the results are still good
        print("openclaw-tui: " + _("note: %(note)s") % {"note": phrases.localize(results.note)}, file=sys.stderr)
    if args.json:
        doc = {"query": args.query, "results": [h.to_json() for h in hits], "provider": results.provider,
               "note": results.note, "ranking": results.ranking.as_dict()}
        out(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", "replace")
        return 0
    several = profiles > 1
    lines: list[str] = []
    if args.explain:
        r = results.ranking
        lines.append(_("ranking: text %(text)s + vector %(vector)s, half-life %(days)s days, MMR lambda %(mmr)s "
                       "(%(source)s); %(note)s")
                     % {"text": f"{r.text_weight:g}", "vector": f"{r.vector_weight:g}", "days": f"{r.half_life_days:g}",
                        "mmr": f"{r.mmr_lambda:g}", "source": phrases.localize(r.source),
                        "note": phrases.localize(results.note)})
    for h in hits:
        where = f"{h.profile_rel}/{h.file}" if several and h.profile_rel != "." else h.file
        span = f"{h.start_line}" if h.start_line == h.end_line else f"{h.start_line}-{h.end_line}"
        lines.append(f"{where}:{span}  {h.id or '-'}  {phrases.localize(h.readable(today))}")
        lines.append(f"    {h.snippet}")
        if args.explain:
            lines.append("    " + _("why: %(why)s") % {"why": phrases.localize(h.explain())})
    lines.append(ngettext("%(count)d result", "%(count)d results", len(hits)) % {"count": len(hits)})
    out("\n".join(lines) + "\n", "replace")
    return 0
