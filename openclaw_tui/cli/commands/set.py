"""`openclaw-tui set PATH ID FIELD=VALUE... [--body-file F] [--unset FIELD]`: edit one entry (VALUE read as YAML)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from ...core.format.edit import DELETE
from ...core.format.yamlio import load_yaml
from ...core.i18n import _
from ...core.lifecycle.operations import set_entry
from ._editing import open_profile, register_edit
from ._output import fail


def register(sub: Any) -> None:
    p = register_edit(sub, "set", "change fields and/or the body of one entry", run)
    p.add_argument("id", metavar="ID")
    p.add_argument("assignments", nargs="*", metavar="FIELD=VALUE")
    p.add_argument("--body-file", metavar="F", help=_("the new body (UTF-8 text; - reads standard input)"))
    p.add_argument("--unset", action="append", default=[], metavar="FIELD", help=_("remove a field (repeatable)"))


def parse_assignment(text: str) -> tuple[str, Any]:
    """``FIELD=VALUE`` -> (field, value read as YAML). Raises ValueError."""
    name, eq, value = text.partition("=")
    name = name.strip()
    if not eq or not name:
        raise ValueError(f"{text!r} is not FIELD=VALUE")
    if not value.strip():
        raise ValueError(f"{name}: no value given (use --unset {name} to remove the field)")
    try:
        return name, load_yaml(value)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ValueError(f"{name}: {value!r} is not a YAML value ({problem})") from None


def read_body(name: str) -> str:
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name}: not UTF-8 text") from None


def run(args: argparse.Namespace) -> int:
    changes: dict[str, Any] = {}
    try:
        for item in args.assignments:
            name, value = parse_assignment(item)
            if name in changes:
                raise ValueError(f"{name} is given twice")
            changes[name] = value
        for name in args.unset:
            if name in changes:
                raise ValueError(f"{name} is both set and unset")
            changes[name] = DELETE
        body = read_body(args.body_file) if args.body_file is not None else None
    except ValueError as exc:
        return fail(str(exc))
    if not changes and body is None:
        return fail(_("nothing to set: give FIELD=VALUE, --unset FIELD or --body-file F"))
    plan = set_entry(open_profile(args), args.id, changes, body)
    if plan.empty:
        print(_("%(id)s: unchanged") % {"id": args.id})
    else:
        for entry_id, what in plan.changed.items():
            print(_("%(id)s: changed %(fields)s") % {"id": entry_id, "fields": ", ".join(what)})
    return 0
