"""`openclaw-tui merge-driver BASE OURS THEIRS [PATHNAME]`: git's merge driver for memories.md.

The result goes into OURS.  Exit 0 clean, 1 conflicts left; never above 128 (git must see no crash).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ...core import phrases
from ...core.i18n import _

_UNEXPANDED = {"%S", "%X", "%Y", "%P", "%L"}  # placeholders an older git leaves as they are


def register(sub: Any) -> None:
    p = sub.add_parser("merge-driver", help=_("git merge driver: 3-way merge of memories.md by entry id"))
    _arguments(p)
    p.set_defaults(run=run)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("base", help=_("%%O: the common ancestor's version"))
    p.add_argument("ours", help=_("%%A: our version; the result is written here"))
    p.add_argument("theirs", help=_("%%B: their version"))
    p.add_argument("pathname", nargs="*", help=_("%%P: the path being merged (for messages)"))
    p.add_argument("--marker-size", "-L", dest="marker_size", default="7", help=_("%%L: conflict marker size"))
    # the letters follow git's placeholders (git >= 2.44): %S is the base, %X ours, %Y theirs
    p.add_argument("-S", "--base-label", dest="base_label", help=_("%%S: label of the common ancestor"))
    p.add_argument("-X", "--ours-label", dest="ours_label", help=_("%%X: label of our side"))
    p.add_argument("-Y", "--theirs-label", dest="theirs_label", help=_("%%Y: label of their side"))


def _label(value: str | None, default: str) -> str:
    if not value or value in _UNEXPANDED:
        return default
    return " ".join(value.split())


def _git_merge_names() -> tuple[str, str]:
    """Default (ours, theirs) labels: ``git merge`` exports GITHEAD_<sha>=<branch> for what it merges."""
    import os

    names = [v for k, v in os.environ.items() if k.startswith("GITHEAD_") and v.strip()]
    if len(names) == 1:
        return "HEAD", " ".join(names[0].split())
    return "ours", "theirs"


def _sibling_ids(pathname: str) -> set[str]:
    """Ids of the other memory file of the same profile in the work tree (memories.md <-> archive)."""
    from pathlib import Path

    from ...core.files.profile import ARCHIVE_REL
    from ...core.format.entries import decode, parse

    if not pathname:
        return set()
    path = Path(pathname)
    if path.as_posix().endswith(ARCHIVE_REL):
        sibling = path.parent.parent.parent / "memories.md"
    else:
        sibling = path.parent / ARCHIVE_REL
    try:
        text = decode(sibling.read_bytes())[0]
    except OSError:
        return set()
    return {i for i in parse(text).ids() if i}


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _references_elsewhere(pathname: str, ours: bytes, theirs: bytes, renumbered: list[tuple[str, str]]) -> bool:
    """Whether the merge must stop so that references their branch added to a renumbered id, in files git
    merges itself, get rewritten (by ``openclaw-tui merge PATH --commit`` or the merge screen): a record is
    left in the git folder and a conflict reported.  False when their branch added no such reference."""
    import os

    from ...core.git.gitrepo import find_repo
    from ...core.merge.references import (
        driver_sides,
        profile_rel,
        rebase_sides,
        reference_rules,
        sides_match,
        write_record,
    )

    repo = find_repo(os.getcwd())
    if repo is None or not pathname:
        return False
    sides = driver_sides(repo) or rebase_sides(repo)
    if sides is not None and not sides_match(repo, sides, pathname, ours, theirs):
        sides = None  # not the commits git is merging: cannot look
    profile = profile_rel(pathname)
    rules = reference_rules(repo, sides, profile, renumbered) if sides is not None else None
    if rules == []:
        return False
    write_record(repo, pathname, ours, theirs, renumbered)
    if rules is None:
        where = _("the profile's other files could not be checked for references to it (the commits merged are "
                  "unknown)")
    else:
        where = _("references to it were added in %(files)s") % {"files": ", ".join(r.path for r in rules)}
    hint = profile or "."
    print(f"openclaw-tui: {pathname}: " + _("%(where)s; the merge stops here: run %(command)s (or the app's merge "
                                            "screen) to rewrite them and conclude")
          % {"where": where, "command": f"`openclaw-tui merge {hint} --commit`"}, file=sys.stderr)
    return True


def _placeholder(args: argparse.Namespace) -> str | None:
    """A file argument given as git's literal placeholder (``%A``): the driver run by hand from a copied command line."""
    import re

    return next((v for v in (args.base, args.ours, args.theirs) if re.fullmatch(r"%[A-Za-z]", v)), None)


def run(args: argparse.Namespace) -> int:
    literal = _placeholder(args)
    if literal is not None:  # refused before anything is read or written (it would create a file named %A)
        print("openclaw-tui merge-driver: " + _("%(literal)s is a placeholder git fills in when it runs the driver "
                                                 "(set up by `openclaw-tui git-setup`); by hand, give three files: "
                                                 "BASE OURS THEIRS") % {"literal": literal}, file=sys.stderr)
        return 2
    try:
        from ...core.git.threeway import Labels, renumber_note, run_driver

        try:
            size = int(args.marker_size)
        except (TypeError, ValueError):
            size = 7
        pathname = " ".join(args.pathname) if args.pathname else ""
        if pathname in _UNEXPANDED:
            pathname = ""
        ours_default, theirs_default = _git_merge_names()
        labels = Labels(
            _label(args.ours_label, ours_default),
            _label(args.base_label, "base"),
            _label(args.theirs_label, theirs_default),
        )
        renumbered: list[tuple[str, str]] = []
        ours_before, theirs_data = _read(args.ours), _read(args.theirs)
        code = run_driver(args.base, args.ours, args.theirs, labels=labels, marker_size=size,
                          reserved=_sibling_ids(pathname), renumbered=renumbered)
        for old, new in renumbered:
            print(f"openclaw-tui: {pathname or 'memories.md'}: {phrases.localize(renumber_note(old, new))}",
                  file=sys.stderr)
        if renumbered and _references_elsewhere(pathname, ours_before, theirs_data, renumbered):
            code = 1
        if code:
            print("openclaw-tui: " + _("conflicts left in %(file)s") % {"file": pathname or args.ours}, file=sys.stderr)
        return code
    except BaseException:  # noqa: BLE001 - git must never see a crash (>128) from its merge driver
        return 1


def main(argv: list[str] | None = None) -> int:
    """``python -m openclaw_tui.cli.commands.merge_driver ...`` (what git-setup installs): only the merge core is
    imported, so nothing broken elsewhere in the program can fail a merge."""
    try:
        parser = argparse.ArgumentParser(prog="openclaw-tui merge-driver")
        _arguments(parser)
        return run(parser.parse_args(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # bad usage: argparse exits 2, still a "conflict" for git, never a crash
        return exc.code if isinstance(exc.code, int) and 0 <= exc.code <= 2 else 1
    except BaseException:  # noqa: BLE001
        return 1


if __name__ == "__main__":
    sys.exit(main())
