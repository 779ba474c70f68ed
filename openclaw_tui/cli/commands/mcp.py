"""The ``mcp`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from ...core.i18n import N_, _
from ._output import fail

DESCRIPTION = N_("""`openclaw-tui mcp PATH [--allow-write] [--commit] [--profile NAME]`: the memory as an MCP server (stdio).

Agents reach the same memory as people do, through the same routines: search,
exact lines, the context the agent loads, the check's findings; with
--allow-write, new entries (duplicates returned instead of written), supersede
and archive (layout A), or a daily-log line and a MEMORY.md item (layout B),
each through the write protocol, credentials refused. --commit commits each
write with the spec's commit message. Needs the SDK: pip install 'openclaw-tui[mcp]'.
See docs/mcp.md.
""")

HELP = "serve the memory to agents over MCP (stdio): search, get, context, check; writes with --allow-write"


def register(sub: Any) -> None:
    p = sub.add_parser("mcp", help=_(HELP), description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile, a profiles root or an OpenClaw workspace"))
    p.add_argument("--allow-write", action="store_true",
                   help=_("offer the writing tools (default: read-only)"))
    p.add_argument("--commit", action="store_true", help=_("commit each write (the folder must be in a git repository)"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile writes and the context are for, when PATH holds several"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("mcp") is None:
        return fail(_("mcp needs the MCP SDK: pip install 'openclaw-tui[mcp]'"))
    from ...core.files.profile import NotMemory
    from ...mcp_server import serve

    if args.commit:
        if not args.allow_write:
            return fail(_("--commit commits writes: give --allow-write too"))
        from ...core.git.gitrepo import find_repo, git_available

        if not git_available():
            return fail(_("git is not installed"))
        if find_repo(args.path) is None:
            return fail(_("%(path)s: not inside a git repository (needed by --commit)") % {"path": args.path})
    try:
        serve(args.path, profile=args.profile, allow_write=args.allow_write, commit=args.commit)
    except NotMemory as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 0
    return 0
