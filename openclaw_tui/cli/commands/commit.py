"""`openclaw-tui commit PATH [FILE ...]`: commit a profile's changes with a message listing them entry by entry.

Untracked files other than memory files are left out unless named (and said on stderr).
Exit 0 committed, 1 nothing to commit, 2 not a profile or not in a git repository.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ...core.i18n import _
from ...core.phrases import localize_error
from ._editing import guarded
from ._output import fail


def register(sub: Any) -> None:
    p = sub.add_parser("commit", help=_("commit a profile's changes with a message listing what changed"))
    p.add_argument("path", help=_("a profile folder (or a profiles root with --profile)"))
    p.add_argument("files", nargs="*", metavar="FILE",
                   help=_("untracked files of the profile to commit too (other than memory files, they are left out)"))
    p.add_argument("-m", "--message", dest="summary", help=_("one-line summary (default: made from the changes)"))
    p.add_argument("--profile", help=_("the profile's name when PATH holds several"))
    p.add_argument("--dry-run", action="store_true", help=_("print the message, commit nothing"))
    p.set_defaults(run=guarded(run))


def run(args: argparse.Namespace) -> int:
    from ...core.files.profile import resolve_profile
    from ...core.git.commitmsg import NothingToCommit, build_message, commit_profile, left_out
    from ...core.git.gitrepo import GitError, find_repo, git_available, git_text

    profile = resolve_profile(args.path, args.profile)
    if not git_available():
        return fail(_("git is not installed"))
    repo = find_repo(profile.path)
    if repo is None:
        print("openclaw-tui: " + _("%(path)s: not inside a git repository") % {"path": args.path}, file=sys.stderr)
        return 2
    for name in args.files:  # a FILE names something in the profile folder (relative to it, or a path to it)
        given = Path(name)
        full = (given if given.is_absolute() or given.exists() else profile.path / given).absolute()
        if not full.is_relative_to(profile.path.absolute()) or not (full.exists() or full.is_symlink()):
            print("openclaw-tui: " + _("%(name)s: no such file in the profile folder %(folder)s")
                  % {"name": name, "folder": profile.path}, file=sys.stderr)
            return 2
    try:
        left = left_out(repo, profile, args.files)
        if args.dry_run:
            sys.stdout.write(build_message(repo, profile, args.summary, args.files))
            _tell_left(left)
            return 0
        sha = commit_profile(profile, args.summary, repo=repo, include=args.files)
    except NothingToCommit as exc:
        print(f"openclaw-tui: {localize_error(str(exc))}", file=sys.stderr)
        _tell_left(left)
        return 1
    except GitError as exc:
        print("openclaw-tui: " + _("commit failed: %(reason)s") % {"reason": exc}, file=sys.stderr)
        return 1
    print(f"{sha[:12]} {git_text(['log', '-1', '--format=%s', sha], repo.root)}")
    _tell_left(left)
    return 0


def _tell_left(left: list[str]) -> None:
    """What the commit left out (stderr: stdout stays the commit line or the message)."""
    if left:
        print("openclaw-tui: " + _("left uncommitted (untracked, not memory files; name them to commit them): "
                                   "%(files)s") % {"files": ", ".join(left)}, file=sys.stderr)
