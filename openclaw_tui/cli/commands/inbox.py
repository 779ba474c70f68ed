"""The ``inbox`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...core import phrases
from ...core.i18n import N_, _, ngettext
from ._editing import guarded
from ._output import fail, out

DESCRIPTION = N_("""`openclaw-tui inbox PATH [--json] [--diff]`: what changed in a profile or workspace since your review.

Each change: its id, what it is (an entry added, a MEMORY.md item moved, lines appended to a daily log,
a file changed...), and who made it (the commit's author, date and subject, or "not committed, written
at ...").  A night of dreaming is one group, named "dreaming DATE".

``--approve ID...`` takes those changes into your review mark (the mark's copy of each entry or item
becomes the folder's, byte for byte); ``--approve --all`` moves the mark to the folder as it is now.
``--revert ID...`` gives the folder's copy back the mark's bytes (one entry, item or file each; a group
name reverts the whole night).  The mark is a snapshot commit under ``refs/openclaw-tui/reviewed/`` in
git, or a file in your data folder outside git.  Exit 0, or 2 (bad PATH or ID, a file changed meanwhile).
""")


def register(sub: Any) -> None:
    p = sub.add_parser("inbox", help=_("what the agent changed since your review; approve or revert it"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile folder or workspace, or a profiles root with --profile"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile when PATH holds several"))
    act = p.add_mutually_exclusive_group()
    act.add_argument("--approve", nargs="*", metavar="ID", help=_("take these changes into the review mark"))
    act.add_argument("--revert", nargs="+", metavar="ID", help=_("put these changes back as they were at the mark"))
    p.add_argument("--all", action="store_true", help=_("with --approve: every change (the mark moves to now)"))
    p.add_argument("--diff", action="store_true", help=_("print each change's diff too"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.set_defaults(run=guarded(run))


# the kinds of review mark (core/inbox/mark.py: Mark.kind) that the listing names
MARK_KINDS = (N_("commit"), N_("snapshot"), N_("data"))


def render(inbox: Any, diff: bool = False) -> str:
    """The inbox as text (the CLI's listing)."""
    n = inbox.count
    mark = (f"{_(inbox.mark.kind)} {inbox.mark.sha[:12] if inbox.mark.sha else ''} {inbox.mark.time or ''}"
            .replace("  ", " ").strip())
    lines = [ngettext("%(count)d change since your review", "%(count)d changes since your review", n) % {"count": n}
             + (_(" (mark: %(mark)s)") % {"mark": mark} if inbox.mark.kind != "empty" else "")]
    lines += [_("note: %(note)s") % {"note": _(note)} for note in inbox.notes]
    group = None
    for c in sorted(inbox.changes, key=lambda c: (c.group or "", )) if inbox.groups() else inbox.changes:
        if c.group != group:
            group = c.group
            lines.append(f"[{phrases.localize(group)}]" if group else "")
        lines.append(f"  {c.id}  {phrases.change_kind(c.kind, c.what)}  {c.file}  {c.title}")
        lines.append(f"      {phrases.localize(c.detail)} · {phrases.localize(c.who)}")
        if diff:
            lines += ["      " + d for d in c.diff]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from ...core.files.profile import resolve_profile
    from ...core.git.gitrepo import GitError
    from ...core.inbox import actions
    from ...core.inbox.inbox import load_inbox

    if args.all and args.approve is None:
        return fail(_("--all goes with --approve"))
    folder = resolve_profile(args.path, args.profile, lazy=True).path
    try:
        if args.approve is not None:
            if not args.all and not args.approve:
                return fail(_("--approve needs IDs, or --all"))
            before = load_inbox(folder).count
            mark = actions.approve_all(folder) if args.all else actions.approve(folder, args.approve)
            left = load_inbox(folder).count
            doc = {"approved": before - left, "left": left, "mark": mark.sha}
            out(json.dumps(doc) + "\n" if args.json else _("%(approved)d approved, %(left)d left") % {"approved": before - left, "left": left} + "\n")
            return 0
        if args.revert:
            plan = actions.revert(folder, args.revert)
            left = load_inbox(folder).count
            files = [str(p.relative_to(folder)) for p in plan.files]
            out(json.dumps({"reverted": args.revert, "files": files, "left": left}) + "\n" if args.json
                 else _("reverted %(changes)s (%(files)s); %(left)d left")
                 % {"changes": ", ".join(args.revert), "files": ", ".join(files), "left": left} + "\n")
            return 0
        inbox = load_inbox(folder)
    except actions.InboxError as exc:
        return fail(str(exc))
    except GitError as exc:
        return fail(f"git: {exc}")
    out(json.dumps(inbox.to_json(), ensure_ascii=False, indent=1) + "\n" if args.json else render(inbox, args.diff))
    return 0
