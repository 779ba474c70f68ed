"""The ``merge`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
from typing import Any

from ...core import phrases
from ...core.i18n import N_, _, ngettext
from ._output import fail, out, print_json

DESCRIPTION = N_("""`openclaw-tui merge PATH`: resolve the conflicts of a git merge in memory files, as the merge screen does.

With no option: list what is conflicted under PATH (memory files by entry
id, other files by region), each item with the side that alone changed it
when git's base shows one (``suggested``); exit 1 while something is left.
Decide with ``--pick KEY=ours|theirs|both`` (``FILE:KEY`` when a key is in
several files), ``--suggested`` (every item with a suggestion) and
``--rest ours|theirs|both`` (everything still undecided); every item must be
decided, else nothing is written (exit 1).  Then each file is written
(compare-and-swap, under its lock) and staged; ``--commit [-m MSG]`` also
concludes the merge (or cherry-pick, revert, rebase step).  ``--dry-run``
prints the resulting diff and writes nothing; ``--abort`` runs
``git merge --abort``.
""")

SIDES = ("ours", "theirs", "both")


def register(sub: Any) -> None:
    p = sub.add_parser("merge", help=_("list and resolve merge conflicts in memory files"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile folder or a profiles root inside the repository"))
    p.add_argument("--pick", action="append", default=[], metavar="KEY=SIDE",
                   help=_("decide one item: ours, theirs or both (repeatable)"))
    p.add_argument("--suggested", action="store_true", help=_("take the suggested side wherever there is one"))
    p.add_argument("--rest", choices=SIDES, metavar="SIDE", help=_("take SIDE for every item still undecided"))
    p.add_argument("--commit", action="store_true", help=_("after writing, conclude the merge with a commit"))
    p.add_argument("-m", "--message", metavar="MSG", help=_("the merge commit's message (default: git's)"))
    p.add_argument("--abort", action="store_true", help=_("git merge --abort (back to before the merge)"))
    p.add_argument("--dry-run", action="store_true", help=_("print the resolved diff; write nothing"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.set_defaults(run=run)


# the git operations a merge can be part of (core/git: status().operation)
OPERATIONS = (N_("merge"), N_("rebase"), N_("cherry-pick"), N_("revert"))


def _items_json(session: Any) -> list[dict[str, Any]]:
    from ...core.merge.conflicts import suggestion

    return [{
        "file": f.display,
        "mode": f.conflicts.mode,
        "items": [{"key": it.key, "situation": it.situation, "line": it.line, "suggested": suggestion(it),
                   "decided": f.choices.get(it.key) if isinstance(f.choices.get(it.key), str) else None,
                   "ours": it.ours, "base": it.base, "theirs": it.theirs} for it in f.items],
    } for f in session.files]


def _listing(session: Any) -> str:
    from ...core.merge.conflicts import suggestion

    lines: list[str] = []
    if session.operation:
        lines.append(_("%(operation)s in progress") % {"operation": _(session.operation)}
                     + (f": {session.merging}" if session.merging else ""))
    for f in session.files:
        n = len(f.items)
        lines.append(f"{f.display}: " + ngettext("%(count)d conflict", "%(count)d conflicts", n) % {"count": n}
                     + ("" if f.conflicts.mode == "entries" else _(" (by region: %(reason)s)")
                        % {"reason": phrases.localize(f.conflicts.reason or "not memory")}))
        for it in f.items:
            hint = suggestion(it)
            lines.append(f"  {phrases.localize(it.description)} " + _("(line %(line)s)") % {"line": it.line}
                         + (_("; suggested: %(side)s") % {"side": hint} if hint else ""))
    lines += [phrases.localize(n) for f in session.files for n in f.collision_notes()]
    lines += [_("when written, references rewritten: %(note)s") % {"note": n} for n in session.reference_notes()]
    lines.append(ngettext("%(count)d conflict left", "%(count)d conflicts left", session.remaining)
                 % {"count": session.remaining})
    return "\n".join(lines) + "\n"


def _apply_picks(session: Any, picks: list[str], suggested: bool, rest: str | None) -> str | None:
    """Record the decisions; returns why the input is bad (None: fine)."""
    for pick in picks:
        key, eq, side = pick.rpartition("=")
        if not eq or not key or side not in SIDES:
            return f"--pick {pick!r}: " + _("expected KEY=ours, KEY=theirs or KEY=both")
        fname, colon, bare = key.rpartition(":")
        targets = [f for f in session.files if any(it.key == (bare if colon else key) for it in f.items)
                   and (not colon or f.display == fname or f.display.endswith("/" + fname))]
        if not targets:
            return f"--pick {pick!r}: " + _("no conflict item %(key)r under this path") % {"key": key}
        if len(targets) > 1:
            return f"--pick {pick!r}: " + _("%(key)r is in several files (%(files)s); use FILE:KEY") % {
                "key": key, "files": ", ".join(t.display for t in targets)}
        targets[0].choose(bare if colon else key, side)
    for f in session.files:
        if suggested:
            f.accept_suggestions()
        if rest is not None:
            for it in f.items:
                if it.key not in f.choices:
                    f.choose(it.key, rest)
    return None


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ...core.diff.lines import unified_diff
    from ...core.files.safe_write import ConcurrentModification
    from ...core.git.gitrepo import GitError
    from ...core.merge.conflicts import ResolutionError
    from ...core.merge.merge_session import MergeSession

    path = Path(args.path)
    if not path.is_dir():
        return fail(_("%(path)s: no such folder") % {"path": path})
    deciding = bool(args.pick or args.suggested or args.rest)
    if args.abort and (deciding or args.commit):
        return fail(_("--abort cannot be combined with decisions or --commit"))
    try:
        session = MergeSession.open(path, [path])
        if args.abort:
            if session.operation is None:
                return fail(_("no merge in progress"))
            session.abort()
            out(_("%(operation)s aborted") % {"operation": _(session.operation)} + "\n")
            return 0
        problem = _apply_picks(session, args.pick, args.suggested, args.rest)
        if problem:
            return fail(problem)
        if not deciding and not args.commit:
            if args.json:
                print_json({"operation": session.operation, "merging": session.merging,
                            "remaining": session.remaining, "files": _items_json(session),
                            "renumbered": [n for f in session.files for n in f.collision_notes()],
                            "references": session.reference_notes()})
            else:
                out(_listing(session) if session.files else _("no conflicts") + "\n")
            return 1 if session.remaining else 0
        if session.remaining:
            out(_listing(session) + _("nothing written: decide every item (--pick, --suggested, --rest)") + "\n")
            return 1
        bad = session.problems()
        if bad:
            f, reason = bad[0]
            return fail(f"{f.display}: {phrases.localize(reason)}")
        if args.dry_run:
            text = ""
            for f in session.files:
                if f.data is not None:
                    before = f.data.decode("utf-8", "surrogateescape")
                    text += unified_diff(before, f.result_bytes().decode("utf-8", "surrogateescape"),
                                         f"a/{f.display}", f"b/{f.display}")
            out(text + _("(dry run: nothing written)") + "\n")
            return 0
        written = session.complete() if session.files else []
        lines = [_("resolved %(file)s") % {"file": f.display} for f in session.files if f.path in written]
        lines += [phrases.localize(n) for f in session.files for n in f.collision_notes()]
        lines += [_("references rewritten: %(note)s") % {"note": n} for n in session.reference_notes_done]
        if args.commit:
            left = session.unmerged_left()
            if left:
                out("\n".join(lines + [_("still unmerged: %(files)s") % {"files": ", ".join(left)}]) + "\n")
                return 1
            done = session.conclude(args.message)
            lines.append(_("%(operation)s concluded: %(sha)s") % {"operation": _(done.operation), "sha": done.sha[:7]}
                         + (_("; %(operation)s stopped again") % {"operation": _(done.still)} if done.still else ""))
            if done.still:
                out("\n".join(lines) + "\n")
                return 1
        out("\n".join(lines) + "\n" if lines else _("nothing to write") + "\n")
        return 0
    except (ResolutionError, GitError, ConcurrentModification, TimeoutError, OSError) as exc:
        return fail(str(exc))
