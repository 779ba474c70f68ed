"""Printing what an editing plan did (or would do, with --dry-run), as text or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core import phrases
from ...core.i18n import _
from ...core.lifecycle.plan import Plan


def rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def plan_json(plan: Plan, root: Path, dry_run: bool) -> dict[str, Any]:
    """What a plan does, by entry id, and the files it writes (relative to the profile)."""
    return {
        "dry_run": dry_run,
        "written": not dry_run and not plan.empty,
        "new_id": plan.new_id,
        "added": list(plan.added),
        "superseded": dict(plan.superseded),
        "archived": list(plan.archived),
        "changed": {k: list(v) for k, v in plan.changed.items()},
        "files": [rel(p, root) for p in plan.files],
    }


def plan_text(plan: Plan, root: Path, dry_run: bool) -> str:
    """The plan's entry lines (as a commit body says them); under --dry-run, its diff too."""
    lines = [phrases.localize(line.removeprefix("- ")) for line in plan.commit_lines()]
    text = "".join(line + "\n" for line in lines)
    if dry_run and not plan.empty:
        text += plan.diff(root)
        text += _("(dry run: nothing written)") + "\n"
    return text
