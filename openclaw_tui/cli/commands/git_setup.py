"""`openclaw-tui git-setup PATH [--hooks]`: install the id-aware merge driver (and a post-commit hook).

Running it twice changes nothing; a ``post-commit`` hook openclaw-tui did not write is left alone (exit 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ...core.i18n import _
from ._output import fail


def register(sub: Any) -> None:
    p = sub.add_parser("git-setup", help=_("install the id-aware merge driver in the repository holding PATH"))
    p.add_argument("path", help=_("any folder inside the repository"))
    p.add_argument("--hooks", action="store_true",
                   help=_("also install a post-commit hook that keeps the entry-history index current"))
    p.set_defaults(run=run)


HOOK_MARK = "# openclaw-tui post-commit hook (git-setup --hooks)"


def hook_text(repo_root: Path, profiles: list[Any]) -> str:
    """The post-commit hook: index each profile's entry history, quietly, never failing the commit."""
    import shlex

    lines = ["#!/bin/sh", HOOK_MARK,
             "# Keeps the entry-history index (.git/openclaw-tui/) current; written by openclaw-tui git-setup --hooks."]
    for prof in profiles:
        rel = prof.path.resolve().relative_to(repo_root.resolve()).as_posix() or "."
        cmd = [sys.executable, "-m", "openclaw_tui.cli", "history", rel, "--index"]
        lines.append(" ".join(shlex.quote(c) for c in cmd) + " >/dev/null 2>&1")
    lines.append("exit 0")
    return "\n".join(lines) + "\n"


def install_hook(repo: Any, path: Path) -> str | None:
    """Write the post-commit hook; returns what was done, None when it was already there. Raises ValueError."""
    from ...core.files.profile import NotMemory, discover
    from ...core.git.gitrepo import git_text

    try:
        profiles = [p for p in discover(path).profiles if p.layout == "profile"]
    except NotMemory as exc:
        raise ValueError(f"--hooks: {exc}") from None
    if not profiles:
        raise ValueError(f"--hooks: {path} holds no profile with memories.md to index")
    hooks = Path(git_text(["rev-parse", "--git-path", "hooks"], repo.root))
    hooks = hooks if hooks.is_absolute() else repo.root / hooks
    hook = hooks / "post-commit"
    text = hook_text(repo.root, profiles)
    try:
        current = hook.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{hook}: cannot be read ({exc})") from None
    if current is not None and HOOK_MARK not in current:
        line = [x for x in text.splitlines() if "--index" in x][0]
        raise ValueError(f"{hook} exists and was not written by openclaw-tui; add this line to it: {line}")
    if current == text and os.access(hook, os.X_OK):
        return None
    from ...core.files.safe_write import atomic_write

    hooks.mkdir(parents=True, exist_ok=True)
    atomic_write(hook, text.encode("utf-8"))
    hook.chmod(0o755)
    return (_("post-commit hook updated: %(hook)s") if current is not None
            else _("post-commit hook installed: %(hook)s")) % {"hook": hook}


def run(args: argparse.Namespace) -> int:
    from ...core.git.gitrepo import GitError, find_repo, git_available, install_merge_driver

    path = Path(args.path)
    if not path.exists():
        print("openclaw-tui: " + _("%(path)s: no such file or folder") % {"path": path}, file=sys.stderr)
        return 2
    if not git_available():
        return fail(_("git is not installed"))
    repo = find_repo(path)
    if repo is None:
        print("openclaw-tui: " + _("%(path)s: not inside a git repository") % {"path": path}, file=sys.stderr)
        return 2
    hook_done: str | None = None
    try:
        if args.hooks:
            hook_done = install_hook(repo, path)  # first: a refusal leaves everything as it was
        changed = install_merge_driver(repo)
    except ValueError as exc:
        print(f"openclaw-tui: {exc}", file=sys.stderr)
        return 2
    except (GitError, OSError) as exc:
        print("openclaw-tui: " + _("git-setup failed: %(reason)s") % {"reason": exc}, file=sys.stderr)
        return 2
    if changed:
        for line in changed:
            print(_("set %(what)s") % {"what": line})
        print(_("merge driver installed in %(folder)s") % {"folder": repo.root})
    else:
        print(_("merge driver already installed in %(folder)s") % {"folder": repo.root})
    if args.hooks:
        print(hook_done or _("post-commit hook already installed"))
    return 0
