"""Undo and redo of applied plans, through the same locked compare-and-swap path.

Both refuse with ``ConcurrentModification``, writing nothing, when a file no longer holds the bytes
the plan left (or found): another program changed it meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..files.safe_write import ConcurrentModification, locked, read_bytes, replace_all
from .plan import Plan, apply_changes


@dataclass(frozen=True)
class Step:
    """Set ``path`` from ``expected`` to ``new`` (None: the file is absent / removed)."""

    path: Path
    expected: bytes | None
    new: bytes | None


def write_steps(steps: Sequence[Step]) -> None:
    """All or nothing: check every file under all the locks, then write (or remove) in order."""
    todo = [s for s in steps if s.expected != s.new]
    if not todo:
        return
    with locked(*(s.path for s in todo)):
        for s in todo:
            if read_bytes(s.path) != s.expected:
                raise ConcurrentModification(s.path)
        replace_all([(s.path, s.expected, s.new) for s in todo])  # journaled: a crash never half-undoes


def plan_steps(plan: Plan, *, undo: bool = False) -> list[Step]:
    """The steps that write ``plan`` (or undo it), the files it removes included: a removed file
    goes last when writing (after its copy exists) and comes back first when undoing; undone
    changes go in reverse order (what a move added is removed last)."""
    if undo:
        return ([Step(p, None, data) for p, data in plan.removed.items()]
                + [Step(c.path, c.after, c.before) for c in reversed(plan.changes) if c.changed])
    return [Step(c.path, c.before, c.after) for c in plan.changes if c.changed] + [
        Step(p, data, None) for p, data in plan.removed.items()]


def write_plan(plan: Plan, retries: int = 3) -> Plan:
    """Write ``plan`` (``apply_changes``, or one journaled all-or-nothing write when it removes files,
    rebuilt and retried when a file changed meanwhile); returns the plan written."""
    if not plan.removed:
        return apply_changes(plan)
    for c in plan.changes:  # a move's destination folder (contexts/archive/) may not exist yet
        if c.before is None and c.changed:
            c.path.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(retries):
        try:
            write_steps(plan_steps(plan))
            return plan
        except ConcurrentModification:
            if plan.rebuild is None or attempt == retries - 1:
                raise
            plan = plan.rebuild()
    return plan


class UndoStack:
    """Applied plans, newest last; undone plans wait for redo until a new plan is applied."""

    def __init__(self, limit: int = 200) -> None:
        self.limit = limit
        self._done: list[Plan] = []
        self._undone: list[Plan] = []

    def __len__(self) -> int:
        return len(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def peek(self) -> Plan | None:
        """The plan ``undo`` would revert."""
        return self._done[-1] if self._done else None

    def peek_redo(self) -> Plan | None:
        """The plan ``redo`` would write again."""
        return self._undone[-1] if self._undone else None

    def push(self, plan: Plan) -> None:
        """Remember a plan that was applied (empty plans are not remembered)."""
        if plan.empty:
            return
        self._done.append(plan)
        del self._done[: -self.limit]
        self._undone.clear()

    def apply(self, plan: Plan) -> Plan:
        """Apply ``plan`` (see ``write_plan``) and remember what was written."""
        written = write_plan(plan)
        self.push(written)
        return written

    def undo(self) -> Plan:
        """Revert the newest plan; returns it. Raises IndexError when there is nothing to undo."""
        plan = self._done[-1]
        write_steps(plan_steps(plan, undo=True))
        self._done.pop()
        self._undone.append(plan)
        return plan

    def redo(self) -> Plan:
        """Write the newest undone plan again; returns it."""
        plan = self._undone[-1]
        write_steps(plan_steps(plan))
        self._undone.pop()
        self._done.append(plan)
        return plan

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()
