"""What a plan will do, in words a reviewer checks before confirming: each entry touched and where
it goes (``mem-0043: memories.md → contexts/archive/memories.md``), each file changed (+/− lines)."""

from __future__ import annotations

from pathlib import Path

from ..diff.lines import line_counts
from ..files.profile import ARCHIVE_REL
from .plan import Plan, rel_name

MEMORIES = "memories.md"


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace")


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
        added, removed = line_counts(_text(c.before), _text(c.after))
        state = "new file" if c.before is None else f"+{added} −{removed} lines"
        lines.append(f"{rel_name(c.path, root)}: {state}")
    return lines
