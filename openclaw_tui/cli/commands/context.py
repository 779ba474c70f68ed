"""The ``context`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...core.config import ConfigError
from ...core.files.profile import NotMemory
from ...core.i18n import N_, _
from ...core.search.context import agent_context, render_json, render_text, resolve_root
from ._dates import today_option
from ._output import fail, out

DESCRIPTION = N_("""`openclaw-tui context PATH [--query TEXT] [--tags a,b] [--session main|shared|subagent|cron]
[--session-start|--turn] [--today DATE] [--json]`.

What the agent would load before it answers, for a conversation topic, from
the files alone (no agent is run), in prompt order: for a profile (layout A)
the fixed payload (identity.md, state.yaml), the memories a high importance
or a tag of the topic selects, and the context files the topic or the current
task names; for an OpenClaw workspace (layout B) the bootstrap files as
OpenClaw 2026.9.6 injects them (sizes in UTF-16 units, its cut and total; an
older release's rules only when the workspace's openclaw.json selects one),
the session-start block of daily logs, then the search results for the query.  Each part with its file, lines, characters and
an estimated token count; the total against the budget; and what the topic
touches that is left out, with the reason.  Read-only.
""")


def register(sub: Any) -> None:
    p = sub.add_parser("context", help=_("what the agent would load for a topic (layers, tokens, what is left out)"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile folder, a profiles root (with --profile) or a workspace"))
    p.add_argument("--query", default="", metavar="TEXT", help=_("the conversation topic"))
    p.add_argument("--tags", default="", metavar="a,b", help=_("tags the topic selects (besides tags named in the query)"))
    p.add_argument("--session", default="main", choices=("main", "shared", "subagent", "cron"),
                   metavar="main|shared|subagent|cron",
                   help=_("OpenClaw session kind: main gets every file, shared (group/channel) no MEMORY.md, "
                          "subagent AGENTS.md only, cron AGENTS/SOUL/IDENTITY/USER.md (default main)"))
    moment = p.add_mutually_exclusive_group()
    moment.add_argument("--session-start", dest="session_start", action="store_true", default=True,
                        help=_("the first run after /new or /reset: the daily-log block is given (default)"))
    moment.add_argument("--turn", dest="session_start", action="store_false",
                        help=_("a later turn of the session: no daily-log block"))
    p.add_argument("--today", metavar="YYYY-MM-DD", help=_("the date of the conversation (default: today)"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile when PATH holds several"))
    p.add_argument("--openclaw-config", metavar="FILE", help=_("the workspace's openclaw.json (default: looked for)"))
    p.add_argument("--agent", metavar="ID",
                   help=_("read the workspace openclaw.json names for this agent (agents.entries.ID.workspace, or "
                          "agents.defaults.workspace for main), with its own limits; PATH is the folder holding "
                          "openclaw.json unless --openclaw-config names it"))
    p.add_argument("--json", action="store_true", help=_("print the parts and left-out entries as JSON"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        today = today_option(args.today)
    except ValueError as exc:
        return fail(str(exc))
    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    try:
        from ...core.workspace.openclaw_config import OpenClawConfigError

        oc = Path(args.openclaw_config) if args.openclaw_config else None
        path = args.path
        if args.agent:
            from ...core.workspace.openclaw_config import agent_workspaces, load_openclaw_config

            oc = oc or Path(args.path) / "openclaw.json"
            named = agent_workspaces(load_openclaw_config(Path(args.path), oc))
            if args.agent.lower() not in named:
                return fail(_("%(file)s: names no workspace for agent %(agent)s (agents with one: %(agents)s)")
                             % {"file": oc, "agent": repr(args.agent), "agents": ", ".join(sorted(named)) or "-"})
            path = str(named[args.agent.lower()])
        profile = resolve_root(path, args.profile)  # read through the search index, not parsed
        if profile.layout != "openclaw" and args.session == "cron":
            return fail(_("--session cron applies to an OpenClaw workspace only"))
        ctx = agent_context(profile, args.query, tags, args.session, today=today, openclaw_config=oc,
                            session_start=args.session_start)
    except (NotMemory, ConfigError, OpenClawConfigError, ValueError) as exc:
        return fail(str(exc))
    text = render_json(ctx) if args.json else render_text(ctx)
    out(text, "replace")
    return 0
