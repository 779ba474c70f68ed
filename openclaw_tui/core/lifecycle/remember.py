"""Writing a new memory the way the profile design says: dedupe, then conflict detection, then write.

A rebuilt plan (another writer added an entry meanwhile) takes the next free id, so read the id
from the plan that was written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..format.edit import EditError
from .operations import Similar, Target, plan_add, similar_entries
from .plan import Files, Plan


@dataclass(frozen=True)
class TagShare:
    """An active entry that shares tags with the new one: a candidate for ``conflict:``."""

    id: str
    tags: tuple[str, ...]


@dataclass
class Remembered:
    """The outcome of ``plan_remember``/``remember``: the plan and what was found before writing."""

    plan: Plan
    duplicates: list[Similar] = field(default_factory=list)
    conflicts: list[TagShare] = field(default_factory=list)
    skipped: bool = False  # skip_duplicate and an active entry already says the same: nothing planned
    declared: list[str] = field(default_factory=list)  # the ids given as its ``conflict:`` (``--conflict``)

    @property
    def id(self) -> str:
        """The new entry's id, or (skipped) the id of the active entry that says the same."""
        if self.skipped:
            return self.duplicates[0].id
        assert self.plan.new_id is not None
        return self.plan.new_id

    def to_json(self) -> dict[str, Any]:
        shared = {c.id: c for c in self.conflicts}
        return {
            "id": self.id,
            "written": not self.skipped and not self.plan.empty,
            "skipped_duplicate": self.skipped,
            "duplicates": [
                {"id": s.id, "score": s.score, "reason": s.reason, "archived": s.archived} for s in self.duplicates
            ],
            # the declared conflicts first, then the other candidates (active entries sharing a tag)
            "conflicts": [{"id": i, "tags": list(shared[i].tags) if i in shared else [], "declared": True}
                          for i in self.declared]
            + [{"id": c.id, "tags": list(c.tags), "declared": False} for c in self.conflicts if c.id not in self.declared],
        }


def tag_sharers(files: Files, tags: Sequence[str], exclude: Sequence[str] = ()) -> list[TagShare]:
    """Active entries of memories.md sharing a tag with ``tags`` (case-folded), most shared tags first."""
    want = {t.casefold() for t in tags}
    if not want:
        return []
    found: list[tuple[int, int, TagShare]] = []
    for order, e in enumerate(files.memories.mf.well_formed()):
        if e.id is None or e.status != "active" or e.id in exclude:
            continue
        shared = tuple(dict.fromkeys(t for t in e.tags if t.casefold() in want))
        if shared:
            found.append((-len(shared), order, TagShare(e.id, shared)))
    found.sort(key=lambda t: (t[0], t[1]))
    return [s for _, _, s in found]


def _active_duplicates(files: Files, body: str, tags: Sequence[str]) -> list[Similar]:
    status = {e.id: e.status for e in files.memories.mf.well_formed()}
    return [s for s in similar_entries(files, body, tags) if not s.archived and status.get(s.id) == "active"]


def plan_remember(
    target: Target,
    body: str,
    *,
    tags: Sequence[str] = (),
    importance: str | None = None,
    source: str | None = None,
    conflict: str | Sequence[str] | None = None,
    extra: Mapping[str, Any] | None = None,
    skip_duplicate: bool = False,
    now: Any = None,
) -> Remembered:
    """Dedupe, detect conflicts, plan the append (nothing written). Raises EditError on bad input."""
    if not body.strip():
        raise EditError("the new entry has no text")
    files = Files.of(target)
    tags = list(dict.fromkeys(t.strip() for t in tags if t.strip()))
    duplicates = _active_duplicates(files, body, tags)
    if skip_duplicate and duplicates and duplicates[0].score >= 1.0:
        return Remembered(Plan(f"add (same as {duplicates[0].id})", [], base=files), duplicates, [], skipped=True)
    conflict_ids = [conflict] if isinstance(conflict, str) else list(conflict or [])
    live = {e.id for doc in files.docs() for e in doc.mf.well_formed()}
    for other in conflict_ids:
        if other not in live:
            raise EditError(f"--conflict {other}: no entry has that id")
    meta: dict[str, Any] = dict(extra or {})
    if importance is not None:
        meta["importance"] = importance
    if tags:
        meta["tags"] = tags
    if source is not None:
        meta["source"] = source
    if conflict_ids:
        meta["conflict"] = conflict_ids[0] if len(conflict_ids) == 1 else conflict_ids
    plan = plan_add(files, meta, body, now)
    return Remembered(plan, duplicates, tag_sharers(files, tags), declared=conflict_ids)


__all__ = ["Remembered", "TagShare", "plan_remember", "tag_sharers"]
