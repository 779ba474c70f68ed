"""`openclaw-tui search PATH QUERY [-n N] [--json] [--explain] [--today DATE]`: ranked search (Chinese included).

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
"""

from __future__ import annotations

import sys

from ..i18n import _, localize_error
from ._json import dumps as json_text

TYPE_CHECKING = False  # (not typing's: a fresh ``search`` process imports neither it nor dataclasses)
if TYPE_CHECKING:
    import argparse
    from typing import Any


def register(sub: Any) -> None:
    import argparse

    p = sub.add_parser("search", help=_("ranked search over every profile under PATH"),
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile, a profiles root or an OpenClaw workspace"))
    p.add_argument("query", metavar="QUERY", help=_('words and/or Chinese text; "a phrase" keeps words together; tag:x filters'))
    p.add_argument("-n", type=int, default=10, metavar="N", help=_("show at most N results (default 10)"))
    p.add_argument("--json", action="store_true", help=_('print {"query": Q, "results": [...]} best first'))
    p.add_argument("--explain", action="store_true", help=_("show each result's text score, vector score and decay"))
    p.add_argument("--today", metavar="YYYY-MM-DD", help=_("the date decay counts from (default: today)"))
    p.add_argument("--tags", default="", metavar="a,b", help=_("only entries carrying all these tags (also tag:x in QUERY)"))
    p.set_defaults(run=run)


_FLAGS = {"--json": "json", "--explain": "explain"}
_VALUES = {"-n": "n", "--today": "today", "--tags": "tags"}


class Args:
    """The arguments ``fast_args`` read, as attributes (argparse's ``Namespace`` without importing argparse)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    def __repr__(self) -> str:
        return f"Args({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def fast_args(argv: list[str]) -> Args | None:
    """The arguments of a plain command line (what ``register``'s parser would give), read without argparse.

    Only exact option names, each value in the next argument or after ``=``, and two positionals: anything
    else (``--help``, ``--`` or ``-`` alone, an abbreviation, ``-n5``, a value or a positional starting with
    ``-``, a missing or extra argument, a non-number after ``-n``) returns None, and argparse reads the line
    as before, with its help and its error messages.
    """
    found: dict[str, Any] = {"n": "10", "json": False, "explain": False, "today": None, "tags": ""}
    positional: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if not eq and name in _FLAGS:
            found[_FLAGS[name]] = True
        elif name in _VALUES and (eq and name != "-n" or not eq and i < len(argv) and not argv[i].startswith("-")):
            if not eq:
                value = argv[i]
                i += 1
            found[_VALUES[name]] = value
        else:
            return None
    if len(positional) != 2:
        return None
    try:
        found["n"] = int(found["n"])
    except ValueError:
        return None
    return Args(path=positional[0], query=positional[1], **found)




def _fail(reason: str) -> int:
    print(f"openclaw-tui: {' '.join(localize_error(reason).split())}", file=sys.stderr)
    return 2


def _out(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8", "replace"))
    sys.stdout.buffer.flush()


def run(args: argparse.Namespace) -> int:
    if args.n < 1:
        return _fail(f"-n must be at least 1 (got {args.n})")
    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    quick = None
    if args.today is None:  # a current index: answered from it alone (``quick``), else the full way
        from ..core.search.quick import search_current

        quick = search_current(args.path, args.query, args.n, tags)
    if quick is not None:
        results, profiles = quick
    else:
        from ..core.format.places import NotMemory, locate
        from ..core.search.search import QueryError, search_path
        from ..core.userdirs import ConfigError
        from ._dates import today_option

        try:
            today = today_option(args.today)
        except ValueError as exc:
            return _fail(str(exc))
        try:
            _kind, found = locate(args.path)
            results, _stats = search_path(args.path, args.query, args.n, today=today, tags=tags)
        except (NotMemory, QueryError, ConfigError) as exc:
            return _fail(str(exc))
        profiles = len(found)
    hits = results.hits
    if results.failures:  # a provider was configured and did not answer: say so, the results are still good
        print(f"openclaw-tui: note: {results.note}", file=sys.stderr)
    if args.json:
        doc = {"query": args.query, "results": [h.to_json() for h in hits], "provider": results.provider,
               "note": results.note, "ranking": results.ranking.as_dict()}
        _out(json_text(doc) + "\n")
        return 0
    several = profiles > 1
    lines: list[str] = []
    if args.explain:
        r = results.ranking
        lines.append(f"ranking: text {r.text_weight:g} + vector {r.vector_weight:g}, half-life {r.half_life_days:g} days, "
                     f"MMR lambda {r.mmr_lambda:g} ({r.source}); {results.note}")
    for h in hits:
        where = f"{h.profile_rel}/{h.file}" if several and h.profile_rel != "." else h.file
        span = f"{h.start_line}" if h.start_line == h.end_line else f"{h.start_line}-{h.end_line}"
        lines.append(f"{where}:{span}  {h.id or '-'}  {h.score:.2f}")
        lines.append(f"    {h.snippet}")
        if args.explain:
            lines.append(f"    why: {h.explain()}")
    lines.append(f"{len(hits)} result{'' if len(hits) == 1 else 's'}")
    _out("\n".join(lines) + "\n")
    return 0
