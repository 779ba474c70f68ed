"""What a plan will do, in words a reviewer checks before confirming.

``describe_plan`` lists each entry the plan touches and where it goes
(``mem-0043: memories.md → contexts/archive/memories.md``) and each file
whose bytes change, with how many lines are added and removed.
"""

from __future__ import annotations

from pathlib import Path

from ..diff.lines import line_counts as _text_counts
from ..diff.lines import unified_diff
from ..files.profile import ARCHIVE_REL
from .plan import Plan

MEMORIES = "memories.md"


def _rel(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace")


def line_counts(before: bytes | None, after: bytes) -> tuple[int, int]:
    """(lines added, lines removed) between two versions of a file."""
    return _text_counts(_text(before), _text(after))


def plan_diff(plan: Plan, root: Path | None = None, context: int = 3) -> str:
    """The unified diff of every file the plan changes (like ``Plan.diff``, fast on big files)."""
    out: list[str] = []
    for c in plan.changes:
        if not c.changed:
            continue
        name = _rel(c.path, root) if root is not None else c.path.as_posix()
        out.append(unified_diff(_text(c.before), _text(c.after), "/dev/null" if c.before is None else f"a/{name}",
                                f"b/{name}", context))
    return "".join(out)


def describe_plan(plan: Plan, root: Path | None = None) -> list[str]:
    """One line per entry touched, then one per file changed."""
    lines: list[str] = []
    done: set[str] = set()
    for i in plan.added:
        lines.append(f"{i}: new entry in {MEMORIES}")
        done.add(i)
    for old, new in plan.superseded.items():
        where = f", moves {MEMORIES} → {ARCHIVE_REL}" if old in plan.archived else ""
        lines.append(f"{old}: superseded by {new}{where}")
        done.add(old)
    for i in plan.archived:
        if i not in done:
            lines.append(f"{i}: moves {MEMORIES} → {ARCHIVE_REL} (status archived)")
            done.add(i)
    for i in plan.restored:
        lines.append(f"{i}: moves {ARCHIVE_REL} → {MEMORIES} (status active)")
        done.add(i)
    for i in plan.cold:
        lines.append(f"{i}: status cold (stays in {MEMORIES})")
        done.add(i)
    for i, what in plan.changed.items():
        if i not in done:
            lines.append(f"{i}: {', '.join(what) if what else 'changed'}")
    for c in plan.changes:
        if not c.changed:
            continue
        added, removed = line_counts(c.before, c.after)
        state = "new file" if c.before is None else f"+{added} −{removed} lines"
        lines.append(f"{_rel(c.path, root)}: {state}")
    return lines
