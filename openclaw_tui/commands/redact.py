"""`openclaw-tui redact PATH [--profile NAME] [--dry-run]`: replace secrets by placeholders.

Prints one line per secret, ``file:line kind placeholder`` (never the value),
and records each placeholder with the SHA-256 of its value in
``secrets_refs.yaml``.  ``--dry-run`` prints the same lines and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.format.profile import resolve_profile
from ..core.lifecycle.redact import RedactError, redact_profile
from ..i18n import _
from ._editing import add_target, fail, guarded


def register(sub: Any) -> None:
    p = sub.add_parser(
        "redact",
        help=_("replace secrets (phones, e-mails, IDs, cards, keys, passwords) by placeholders"),
        description=_("Replace secrets by {{secret:KIND-N}} placeholders and record them in secrets_refs.yaml."),
    )
    add_target(p)
    p.add_argument("--dry-run", action="store_true", help=_("print what would be redacted; write nothing"))
    p.set_defaults(run=guarded(run))


def run(args: argparse.Namespace) -> int:
    profile = resolve_profile(args.path, args.profile)
    try:
        result = redact_profile(profile, dry_run=args.dry_run)
    except RedactError as exc:
        return fail(str(exc))
    out = "".join(r.describe() + "\n" for r in result.redactions)
    sys.stdout.write(out)
    return 0
