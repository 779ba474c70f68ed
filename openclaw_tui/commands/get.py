"""The ``get`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from ..core.format.profile import NotMemory, Profile, discover, inside
from ..i18n import N_, _, localize_error, ngettext

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


class _Refused(ValueError):
    pass


def _fail(reason: str) -> int:
    print(f"openclaw-tui: {' '.join(localize_error(reason).split())}", file=sys.stderr)
    return 2


def _pick(profiles: list[Profile], name: str | None, file: str) -> tuple[Profile, str]:
    if name is not None:
        for p in profiles:
            if p.name == name:
                return p, file
        raise _Refused(_("no profile named %(name)s") % {"name": name})
    if len(profiles) == 1:
        return profiles[0], file
    posix = file.replace(os.sep, "/")
    for p in profiles:
        prefix = p.rel.rstrip("/") + "/"
        if posix.startswith(prefix):
            return p, posix[len(prefix):]
    names = ", ".join(p.name for p in profiles)
    raise _Refused(_("the path holds several profiles (%(names)s); choose one with --profile NAME") % {"names": names})


def resolve_file(profile: Profile, file: str) -> Path:
    """The file's path, refusing anything that leaves the profile folder."""
    rel = PurePosixPath(file.replace(os.sep, "/"))
    if not file or rel.is_absolute() or Path(file).is_absolute():
        raise _Refused(_("%(file)s: FILE must be relative to the profile folder") % {"file": file})
    if ".." in rel.parts:
        raise _Refused(_("%(file)s: leaves the profile folder") % {"file": file})
    path = profile.path / Path(*rel.parts) if rel.parts else profile.path
    if not inside(profile.path, path):
        raise _Refused(_("%(file)s: leaves the profile folder (through a link)") % {"file": file})
    if not path.exists():
        raise _Refused(_("%(file)s: no such file in profile %(name)s") % {"file": file, "name": profile.name})
    if not path.is_file():
        raise _Refused(_("%(file)s: not a regular file") % {"file": file})
    return path


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their endings; only ``\\n`` ends a line (as in the parser)."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def run(args: argparse.Namespace) -> int:
    if args.from_ is not None:
        if args.line is not None:
            return _fail(_("give --line or --from, not both"))
        args.line = args.from_
    if args.lines is not None:
        if args.count is not None:
            return _fail(_("give --count or --lines, not both"))
        args.count = args.lines
    if args.line is None:
        args.line = 1
    if args.line < 1:
        return _fail(_("--line must be at least 1 (got %(value)s)") % {"value": args.line})
    if args.count is not None and args.count < 1:
        return _fail(_("--count must be at least 1 (got %(value)s)") % {"value": args.count})
    try:
        found = discover(args.path)
        profile, rel = _pick(found.profiles, args.profile, args.file)
        path = resolve_file(profile, rel)
        data = path.read_bytes()
    except (NotMemory, _Refused) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(_("%(file)s: cannot be read (%(reason)s)") % {"file": args.file, "reason": exc.strerror or exc})
    lines = split_lines(data)
    if args.line > max(1, len(lines)):
        return _fail(ngettext("%(file)s has %(count)d line; --line %(line)s is past its end",
                              "%(file)s has %(count)d lines; --line %(line)s is past its end", len(lines))
                     % {"file": args.file, "count": len(lines), "line": args.line})
    end = len(lines) if args.count is None else min(len(lines), args.line - 1 + args.count)
    sys.stdout.buffer.write(b"".join(lines[args.line - 1 : end]))
    sys.stdout.buffer.flush()
    return 0
