"""The ``get`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ...core.files.lines import Refused, pick_profile, resolve_file, split_lines
from ...core.files.profile import NotMemory, discover
from ...core.i18n import N_, _, ngettext
from ._output import fail

DESCRIPTION = N_("""`openclaw-tui get PATH FILE [--line N] [--count M] [--profile NAME]`: exact lines of a profile file.

``--from N --lines M`` are accepted as the same as ``--line N --count M``
(the names of OpenClaw's ``memory_get``); giving both spellings of one is refused.

FILE is relative to the profile folder (``memories.md``,
``contexts/archive/memories.md``, ``state.yaml``...); with a profiles root
it may also start with the profile's path as ``search`` prints it
(``profiles/xiaoyu/memories.md``).  The bytes are printed as they are in
the file (line endings, BOM, invalid UTF-8 included).  A FILE that leaves
the profile folder (``..``, an absolute path, a symlink) is refused.
""")


def register(sub: Any) -> None:
    p = sub.add_parser("get", help=_("print exact lines of a memory file"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile folder, or a profiles root (with --profile)"))
    p.add_argument("file", metavar="FILE", help=_("the file, relative to the profile folder"))
    p.add_argument("--line", type=int, default=None, metavar="N", help=_("first line to print (1-based, default 1)"))
    p.add_argument("--count", type=int, default=None, metavar="M", help=_("number of lines (default: to the end)"))
    p.add_argument("--from", dest="from_", type=int, default=None, metavar="N", help=_("the same as --line (memory_get's name)"))
    p.add_argument("--lines", type=int, default=None, metavar="M", help=_("the same as --count (memory_get's name)"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile when PATH holds several"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.from_ is not None:
        if args.line is not None:
            return fail(_("give --line or --from, not both"))
        args.line = args.from_
    if args.lines is not None:
        if args.count is not None:
            return fail(_("give --count or --lines, not both"))
        args.count = args.lines
    if args.line is None:
        args.line = 1
    if args.line < 1:
        return fail(_("--line must be at least 1 (got %(value)s)") % {"value": args.line})
    if args.count is not None and args.count < 1:
        return fail(_("--count must be at least 1 (got %(value)s)") % {"value": args.count})
    try:
        found = discover(args.path)
        profile, rel = pick_profile(found.profiles, args.profile, args.file)
        path = resolve_file(profile, rel)
        data = path.read_bytes()
    except (NotMemory, Refused) as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(_("%(file)s: cannot be read (%(reason)s)") % {"file": args.file, "reason": exc.strerror or exc})
    lines = split_lines(data)
    if args.line > max(1, len(lines)):
        return fail(ngettext("%(file)s has %(count)d line; --line %(line)s is past its end",
                              "%(file)s has %(count)d lines; --line %(line)s is past its end", len(lines))
                     % {"file": args.file, "count": len(lines), "line": args.line})
    end = len(lines) if args.count is None else min(len(lines), args.line - 1 + args.count)
    sys.stdout.buffer.write(b"".join(lines[args.line - 1 : end]))
    sys.stdout.buffer.flush()
    return 0
