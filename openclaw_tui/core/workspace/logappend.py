"""Append ``- HH:MM text`` to today's daily log (``memory/YYYY-MM-DD.md``), the way the agent does:
bytes are only added after the last one; a new log starts with the ``# YYYY-MM-DD`` heading.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..files.profile import inside
from ..format.edit import EditError
from ..lifecycle.plan import Plan
from .edits import item_line, text_plan
from .model import newline_of


def log_path(workspace: Path, day: dt.date) -> Path:
    """Today's daily log of ``workspace``; refused when ``memory/`` or the log leaves the folder."""
    path = workspace / "memory" / f"{day.isoformat()}.md"
    for part in (path.parent, path):
        if (part.exists() or part.is_symlink()) and not inside(workspace, part):
            raise EditError(f"{part.relative_to(workspace)} is a link that leaves the workspace; nothing is written")
    return path


def append_log(workspace: Path, text: str, now: dt.datetime | None = None) -> Plan:
    """The plan that appends ``- HH:MM text`` to the daily log of ``now``'s day (created if missing)."""
    if not text.strip():
        raise EditError("the text is empty")
    now = now or dt.datetime.now()
    path = log_path(workspace, now.date())
    if not path.parent.exists():
        path.parent.mkdir()

    def transform(old: str) -> str:
        nl = newline_of(old)
        head = old if not old or old.endswith("\n") else old + nl
        if not head:
            head = f"# {now.date().isoformat()}{nl}{nl}"
        return head + item_line(f"{now:%H:%M} {text.strip()}", nl)

    return text_plan(path, f"append to memory/{path.name}", transform, create=True)
