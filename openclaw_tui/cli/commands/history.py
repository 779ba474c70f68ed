"""The ``history`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...core import phrases
from ...core.i18n import N_, _, ngettext
from ._editing import guarded
from ._output import fail, out, print_json

DESCRIPTION = N_("""`openclaw-tui history PATH [--entry ID] [-n N] [--skip K] [--json] [--index]`: the profile's git history.

Without ``--entry``: the commits that touched the profile, newest first,
each with what it did entry by entry (``mem-0013: added``,
``mem-0007: superseded by mem-0012``, ``state.yaml: changed``).
With ``--entry ID``: every commit that created, changed, archived,
restored or removed that entry, with the fields that changed; ``--json``
adds each version's text.  ``--index`` brings the entry-history index
(``.git/openclaw-tui/entry-index.sqlite``) up to date and prints how many
pairs of versions it added, which suits a ``post-commit`` hook.
Read-only for the memory files.  Exit 0, or 2 (not a profile, not in a git
repository).
""")


def register(sub: Any) -> None:
    p = sub.add_parser("history", help=_("commits that touched a profile, or one entry's versions"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", metavar="PATH", help=_("a profile folder, or a profiles root with --profile"))
    p.add_argument("--profile", metavar="NAME", help=_("the profile when PATH holds several"))
    p.add_argument("--entry", metavar="ID", help=_("the versions of this entry instead of the commit list"))
    p.add_argument("--item", metavar="TEXT", help=_("a workspace: the versions of the MEMORY.md item or USER.md "
                   "directive whose text is (or holds, or is most like) TEXT, rewording included"))
    p.add_argument("-n", type=int, default=20, metavar="N", help=_("at most N commits (default 20; 0: all)"))
    p.add_argument("--skip", type=int, default=0, metavar="K", help=_("skip the K newest commits (commit list only)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.add_argument("--index", action="store_true", help=_("update the entry-history index and print what it added"))
    p.set_defaults(run=guarded(run))


def _commit_json(info: Any) -> dict[str, Any]:
    return {"sha": info.sha, "date": info.date, "author": info.author, "subject": info.subject,
            "parents": list(info.parents)}


def run(args: argparse.Namespace) -> int:
    from ...core.files.profile import resolve_profile
    from ...core.git.entry_history import entry_history, index_entry_history
    from ...core.git.gitrepo import GitError, find_repo, git_available
    from ...core.git.history import commit_semantic_diff, log_page

    if args.n < 0 or args.skip < 0:
        return fail(_("-n and --skip must not be negative"))
    profile = resolve_profile(args.path, args.profile)
    if not git_available():
        return fail(_("git is not installed"))
    repo = find_repo(profile.path)
    if repo is None:
        return fail(_("%(path)s: not inside a git repository") % {"path": args.path})
    if args.item:
        return _print_item(args, profile.path)
    try:
        if args.index:
            added = index_entry_history(repo, profile)
            out(json.dumps({"indexed": added}) + "\n" if args.json else
                 ngettext("%(count)d pair of versions indexed", "%(count)d pairs of versions indexed", added)
                 % {"count": added} + "\n")
            return 0
        if args.entry:
            versions = entry_history(repo, profile, args.entry, args.n or None)
            return _print_versions(args, versions)
        limit = args.n or 1_000_000
        commits = log_page(repo, profile, args.skip, limit)
        diffs = [commit_semantic_diff(repo, c.sha, profile).diff for c in commits]
    except GitError as exc:
        return fail(f"git: {exc}")
    if args.json:
        doc = [{**_commit_json(c), "changes": d.lines()} for c, d in zip(commits, diffs, strict=True)]
        print_json(doc)
        return 0
    lines: list[str] = []
    for c, d in zip(commits, diffs, strict=True):
        lines.append(f"{c.short}  {c.date[:10]}  {c.author}  {c.subject}")
        lines += [f"    {phrases.localize(line)}" for line in d.lines()]
    lines.append(ngettext("%(count)d commit", "%(count)d commits", len(commits)) % {"count": len(commits)})
    out("\n".join(lines) + "\n")
    return 0


def _print_versions(args: argparse.Namespace, versions: list[Any]) -> int:
    if args.json:
        doc = [{**_commit_json(v.commit), "kind": v.kind, "file": v.file,
                "fields": list(v.change.field_names) if v.change else [],
                "body_changed": bool(v.change and v.change.body_changed), "text": v.raw}
               for v in versions]
        print_json({"id": args.entry, "versions": doc})
        return 0
    lines: list[str] = []
    for v in versions:
        what = _(v.kind)
        details = v.change.describe() if v.change is not None else ""
        if details:
            what += _(" (%(details)s)") % {"details": phrases.localize(details)}
        where = f"  [{v.file}]" if v.file and v.file != "memories.md" else ""
        lines.append(f"{v.commit.short}  {v.commit.date[:10]}  {what}{where}  {v.commit.subject}")
    lines.append(ngettext("%(count)d version of %(id)s", "%(count)d versions of %(id)s", len(versions))
                 % {"count": len(versions), "id": args.entry})
    out("\n".join(lines) + "\n")
    return 0


def _print_item(args: argparse.Namespace, folder: Any) -> int:
    """``--item TEXT``: one MEMORY.md item / USER.md directive followed across commits (see core.inbox.item_history)."""
    from ...core.git.gitrepo import GitError
    from ...core.inbox.item_history import NoItem, item_history

    try:
        versions = item_history(folder, args.item, args.n or None)
    except (NoItem, GitError) as exc:
        return fail(str(exc))
    if args.json:
        print_json({"item": args.item, "versions": [v.to_json() for v in versions]})
        return 0
    lines = []
    for v in versions:
        who = f"{v.sha[:8]}  {(v.date or '')[:10]}  {v.author}  {v.subject}" if v.sha else _("not committed")
        lines.append(f"{who}\n    {_(v.kind)} [{v.file} › {' › '.join(v.heading_path)}]  {v.diff or v.text}")
    lines.append(ngettext("%(count)d version", "%(count)d versions", len(versions)) % {"count": len(versions)})
    out("\n".join(lines) + "\n")
    return 0
