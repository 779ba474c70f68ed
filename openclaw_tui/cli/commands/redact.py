"""`openclaw-tui redact PATH [--dry-run] [--skip N ...]`: list the secrets, then replace them by placeholders."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ...core.check.redact import RedactError, plan_redaction, redact_profile
from ...core.files.profile import resolve_profile
from ...core.i18n import _, ngettext
from ._editing import add_target, guarded
from ._output import fail


def register(sub: Any) -> None:
    p = sub.add_parser(
        "redact",
        help=_("replace secrets (phones, e-mails, IDs, cards, keys, passwords) by placeholders"),
        description=_("Replace secrets by {{secret:KIND-N}} placeholders and record them in secrets_refs.yaml."),
    )
    add_target(p)
    p.add_argument("--dry-run", action="store_true", help=_("print what would be redacted; write nothing"))
    p.add_argument("--skip", type=int, action="append", default=[], metavar="N",
                   help=_("leave the N-th secret of the list (1 = its first line) alone; repeatable; --dry-run shows the list"))
    p.set_defaults(run=guarded(run))


def run(args: argparse.Namespace) -> int:
    profile = resolve_profile(args.path, args.profile)
    try:
        every = plan_redaction(profile)
    except RedactError as exc:
        return fail(str(exc))
    skip = set(args.skip)
    bad = sorted(n for n in skip if not 1 <= n <= len(every))
    if bad:
        return fail(f"--skip {bad[0]}: " + ngettext("there is %(count)d secret to redact", "there are %(count)d secrets to redact",
                                              len(every)) % {"count": len(every)})
    out = "".join(f"{r.describe()}{' ' + _('skipped') if n in skip else ''}\n" for n, r in enumerate(every, 1))
    sys.stdout.write(out)  # the list comes before anything is written
    sys.stdout.flush()
    try:
        redact_profile(profile, dry_run=args.dry_run, skip=skip)
    except RedactError as exc:
        return fail(str(exc))
    return 0
