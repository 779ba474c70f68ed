"""`openclaw-tui check PATH`: the consistency check (read-only unless --write-audit-log).

Exit 0 when no finding reaches --fail-on, 1 when one does, 2 when the check could not run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from ...core.check.codes import SEVERITY_RANK
from ...core.check.report import append_audit_log, to_json, to_sarif, to_text
from ...core.check.rules import check_discovery
from ...core.config import ConfigError
from ...core.files.profile import NotMemory, discover
from ...core.i18n import _
from ._limits import add_limit_options, effective_limits
from ._output import fail

FAIL_ON = ("error", "warning", "info", "never")
LIMITS = ("cap", "cold_days", "bootstrap_max_chars", "bootstrap_total_max_chars", "user_max_chars", "stale_log_days")


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help=_("check a profile, a profiles root or a workspace for consistency"),
        description=_("Check agent memory for consistency. Read-only unless --write-audit-log is given."),
    )
    p.add_argument("path", metavar="PATH", help=_("a profile, a profiles root, a folder holding profiles/, or a workspace"))
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("--fail-on", choices=FAIL_ON, default="error", help=_("lowest severity that makes the exit status 1"))
    p.add_argument("--write-audit-log", action="store_true", help=_("append the findings to each profile's audit.log"))
    p.add_argument("--history", action="store_true",
                   help=_("also read the git history of the memory files: secret-in-history for each credential "
                          "an earlier commit held that the file no longer holds"))
    p.add_argument("--today", type=_date, metavar="YYYY-MM-DD", help=_("the date taken as today (default: local date)"))
    add_limit_options(p, *LIMITS)
    p.add_argument("--openclaw-config", metavar="FILE",
                   help=_("a workspace's openclaw.json (default: looked for where OpenClaw keeps it); its limits win "
                   "over the config file's, options over both"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        limits = effective_limits(args, *LIMITS)
        discovery = discover(args.path, lazy=True)  # check.py parses, or takes a cached parse
    except (ConfigError, NotMemory) as exc:
        return fail(str(exc))
    release = None
    if discovery.kind == "workspace":
        from dataclasses import replace

        from ...core.workspace.openclaw_config import OpenClawConfigError, load_openclaw_config

        try:
            oc = load_openclaw_config(discovery.root, Path(args.openclaw_config) if args.openclaw_config else None)
        except OpenClawConfigError as exc:
            return fail(str(exc))
        limits = replace(limits, **{n: getattr(oc.limits, n) for n in oc.overridden if getattr(args, n) is None})
        release = oc.release  # the release whose rules size the bootstrap files, as ``context`` uses
    findings = check_discovery(discovery, today=args.today, history=args.history, release=release, **{name: getattr(limits, name) for name in LIMITS})
    if args.format == "text":
        out = to_text(discovery, findings)
    else:
        doc = to_json(discovery, findings, args.path) if args.format == "json" else to_sarif(discovery, findings)
        out = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    sys.stdout.write(out)
    sys.stdout.flush()
    if args.write_audit_log:
        for profile in discovery.profiles:
            try:
                append_audit_log(profile, findings)
            except (OSError, TimeoutError) as exc:
                print("openclaw-tui: " + _("cannot append to %(file)s: %(reason)s") % {"file": profile.audit_log_path, "reason": exc},
                      file=sys.stderr)
                return 2
    if args.fail_on == "never":
        return 0
    limit = SEVERITY_RANK[args.fail_on]
    return 1 if any(SEVERITY_RANK[f.severity] <= limit for f in findings) else 0
