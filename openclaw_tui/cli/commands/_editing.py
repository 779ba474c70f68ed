"""Shared plumbing of the editing sub-commands (set, supersede, archive, restore, gc)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ...core.files.profile import NotMemory, Profile, resolve_profile
from ...core.files.safe_write import ConcurrentModification
from ...core.format.edit import EditError
from ...core.i18n import _
from ._output import fail


def add_target(p: argparse.ArgumentParser) -> None:
    """The PATH argument and ``--profile NAME`` of every editing command."""
    p.add_argument("path", metavar="PATH", help=_("a profile folder, or a profiles root with --profile"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile to edit when PATH holds several"))


def open_profile(args: argparse.Namespace) -> Profile:
    prof = resolve_profile(args.path, args.profile, lazy=True)  # an edit of one entry need not parse the rest
    if prof.layout != "profile":
        raise NotMemory(f"{args.path}: an OpenClaw workspace has no memories.md entries to edit")
    return prof


def guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn the errors an edit can meet into exit status 2 with one line on stderr."""

    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (NotMemory, EditError, ConcurrentModification, TimeoutError) as exc:
            return fail(str(exc))
        except OSError as exc:
            name = getattr(exc, "filename", None)
            return fail(f"{name}: {exc.strerror}" if name and exc.strerror else str(exc))

    return wrapper


def register_edit(sub: Any, name: str, help_text: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=_(help_text), description=_(help_text))
    add_target(p)
    p.set_defaults(run=guarded(run))
    return p
