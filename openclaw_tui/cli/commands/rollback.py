"""`openclaw-tui rollback PATH COMMIT` and `revert PATH COMMIT`: undo in git, one profile at a time, uncommitted."""

from __future__ import annotations

import argparse
from typing import Any

from ...core import phrases
from ...core.i18n import N_, _
from ._editing import add_target, guarded
from ._output import fail, out, print_json


def register(sub: Any) -> None:
    for name, help_text in (("rollback", "restore the profile folder as it was at COMMIT"),
                            ("revert", "undo what COMMIT did to the profile")):
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        add_target(p)
        p.add_argument("commit", metavar="COMMIT")
        p.add_argument("--dry-run", action="store_true", help=_("print what would change; write nothing"))
        p.add_argument("--json", action="store_true", help=_("print JSON"))
        p.set_defaults(run=guarded(run_rollback if name == "rollback" else run_revert))


def _open(args: argparse.Namespace) -> tuple[Any, Any, str] | str:
    """(repo, profile, the commit's full sha) for ``args``, or why not (one line)."""
    from ...core.files.profile import resolve_profile
    from ...core.git.gitrepo import find_repo, git_available, run_git

    profile = resolve_profile(args.path, args.profile)
    if not git_available():
        return _("git is not installed")
    repo = find_repo(profile.path)
    if repo is None:
        return _("%(path)s: not inside a git repository") % {"path": args.path}
    rev = args.commit
    found = None if not rev or rev.startswith("-") else run_git(["rev-parse", "--verify", "-q", rev + "^{commit}"],
                                                                repo.root, check=False)
    if found is None or found.returncode != 0:
        return _("%(commit)s: no such commit") % {"commit": rev}
    return repo, profile, found.stdout.decode().strip()


# what a rollback does to a file (core/git/history.py: FileRestore.action)
ACTIONS = (N_("restore"), N_("create"), N_("delete"))


def run_rollback(args: argparse.Namespace) -> int:
    from ...core.files.safe_write import ConcurrentModification
    from ...core.git.gitrepo import GitError
    from ...core.git.history import Refused, apply_rollback, plan_rollback

    opened = _open(args)
    if isinstance(opened, str):
        return fail(opened)
    repo, profile, sha = opened
    try:
        plan = plan_rollback(repo, profile, sha)
        if plan.blocked:
            return fail(_("rollback refused: %(reason)s") % {"reason": phrases.localize(str(plan.blocked))})
        if not args.dry_run:
            apply_rollback(plan)
    except (Refused, GitError, ConcurrentModification, TimeoutError, OSError) as exc:
        return fail(_("rollback refused: %(reason)s") % {"reason": phrases.localize(str(exc))})
    changes = plan.diff.lines()
    if args.json:
        print_json({"commit": plan.sha, "dry_run": args.dry_run, "written": not args.dry_run and not plan.empty,
                    "files": [{"path": f.path, "action": f.action} for f in plan.files], "changes": changes})
        return 0
    said = _("%(path)s: would %(action)s") if args.dry_run else _("%(path)s: %(action)s")
    text = "".join(said % {"path": f.path, "action": _(f.action)} + "\n" for f in plan.files)
    text += "".join(f"  {phrases.localize(line)}\n" for line in changes)
    done = {"commit": plan.commit.short, "subject": plan.commit.subject}
    text += (_("%(commit)s: the profile already matches it") % done if plan.empty else
             (_("would roll back to %(commit)s (%(subject)s); not committed") if args.dry_run
              else _("rolled back to %(commit)s (%(subject)s); not committed")) % done) + "\n"
    out(text)
    return 0


def run_revert(args: argparse.Namespace) -> int:
    from ...core.files.safe_write import ConcurrentModification
    from ...core.git.gitrepo import GitError
    from ...core.git.history import Refused, commit_info, revert_commit

    opened = _open(args)
    if isinstance(opened, str):
        return fail(opened)
    repo, profile, sha = opened
    try:
        info = commit_info(repo, sha)
        result = revert_commit(repo, profile, sha, dry_run=args.dry_run)
    except (Refused, GitError, ConcurrentModification, TimeoutError, OSError) as exc:
        return fail(_("revert refused: %(reason)s") % {"reason": phrases.localize(str(exc))})
    changes = result.diff.lines()
    if args.json:
        print_json({"commit": result.sha, "dry_run": args.dry_run, "written": not args.dry_run and bool(result.files),
                    "files": list(result.files), "changes": changes})
        return 0
    text = "".join(f"  {phrases.localize(line)}\n" for line in changes)
    done = {"commit": info.short, "subject": info.subject}
    if not result.files:
        text += _("%(commit)s: nothing of it is left to undo in the profile") % done + "\n"
    else:
        text += (_("would revert %(commit)s (%(subject)s); not committed") if args.dry_run
                 else _("reverted %(commit)s (%(subject)s); not committed")) % done + "\n"
    out(text)
    return 0
