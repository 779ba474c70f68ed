"""The lifecycle of entries (nothing is ever deleted): archive, restore, gc (rules: ``policy``), compaction.

A move writes the destination first and then the source, so a crash in between duplicates an
entry and never loses one.  ``plan_*`` functions write nothing; the others apply the plan.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..format.blocks import Block, edit_raw
from ..format.edit import DELETE, EditError
from ..format.entries import Entry
from ..format.fields import id_number, parse_date, parse_datetime
from .operations import Builder, Target, append_new, check_values, merged_meta, new_entry_meta
from .plan import Files, Plan, applying, now_iso
from .policy import DEFAULTS, cold_since, over_cap, ttl_passed

# --- archive / restore ------------------------------------------------------------------


def _move_to_archive(b: Builder, entry_id: str, changes: Mapping[str, Any]) -> None:
    files = b.files
    if entry_id in b.plan.archived:
        raise EditError(f"{entry_id} is moved to the archive twice")
    try:
        doc, k, entry = b.entry(entry_id, where="memories")
    except EditError:
        if files.archive.mf.get(entry_id) is not None:
            raise EditError(f"{entry_id} is already in the archive") from None
        raise
    if files.archive.mf.get(entry_id) is not None:
        raise EditError(f"{entry_id} is in memories.md and in the archive (duplicate id); fix that first")
    raw = edit_raw(entry.raw, entry_id, changes)
    check_values(raw, changes)
    b.remove(doc, k)
    b.append(files.archive, Block(raw, entry_id))
    b.touch(files.archive, entry_id)
    b.plan.archived.append(entry_id)


def plan_archive(target: Target, entry_id: str | Sequence[str], now: dt.datetime | None = None) -> Plan:
    """Move entries of memories.md to the archive (status archived, archived_at now), in one plan."""
    ids = [entry_id] if isinstance(entry_id, str) else list(entry_id)
    if not ids:
        raise EditError("no entry to archive")
    files = Files.of(target)
    b = Builder(files, f"archive {ids[0]}" if len(ids) == 1 else f"archive {len(ids)} entries", sparse=True)
    stamp = now_iso(now)
    for ident in ids:
        _move_to_archive(b, ident, {"status": "archived", "archived_at": stamp})
    plan = b.build(first=files.archive)
    plan.rebuild = lambda: plan_archive(files.reload(), ids, now)
    return plan


archive = applying(plan_archive)


def _restore_position(entries: Sequence[Entry], entry_id: str) -> int | None:
    """Where a restored entry goes: before the first entry with a higher id number (None: at the end)."""
    n = id_number(entry_id)
    if n is None:
        return None
    for k, e in enumerate(entries):
        m = id_number(e.id) if e.id is not None else None
        if m is not None and m > n:
            return k
    return None


def plan_restore(target: Target, entry_id: str) -> Plan:
    """Move an archived entry back to memories.md: status active, archived_at dropped."""
    files = Files.of(target)
    b = Builder(files, f"restore {entry_id}")
    if files.memories.mf.get(entry_id) is not None:
        raise EditError(f"{entry_id} is already in memories.md")
    doc, k, entry = b.entry(entry_id, where="archive")
    changes: dict[str, Any] = {}
    if entry.meta.get("status") != "active":
        changes["status"] = "active"
    if "archived_at" in entry.meta:
        changes["archived_at"] = DELETE
    raw = edit_raw(entry.raw, entry_id, changes)
    check_values(raw, changes)
    b.remove(doc, k)
    block = Block(raw, entry_id)
    mem = files.memories
    pos = _restore_position(mem.mf.entries, entry_id)
    if pos is None:
        b.append(mem, block)
    else:
        b.insert_before(mem, pos, block)
        b.touch(mem, entry_id)
    b.plan.restored.append(entry_id)
    plan = b.build(first=mem)
    plan.rebuild = lambda: plan_restore(files.reload(), entry_id)
    return plan


restore = applying(plan_restore)


# --- gc ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GcAction:
    """One thing gc does: ``ttl`` and ``cap`` move the entry to the archive, ``cold`` marks it in place."""

    kind: str  # "ttl", "cold" or "cap"
    id: str
    reason: str

    @property
    def moves(self) -> bool:
        return self.kind in ("ttl", "cap")

    def describe(self) -> str:
        what = "cold" if self.kind == "cold" else "archived"
        return f"{self.id}: {what} ({self.reason})"


def _age_key(e: Entry) -> tuple[int, float]:
    """Sort key, oldest first; entries with no readable timestamp come after the dated ones."""
    value = e.meta.get("timestamp")
    when = parse_datetime(value) if isinstance(value, str) else None
    if when is None:
        day = parse_date(value)
        if day is None:
            return (1, 0.0)
        when = dt.datetime.combine(day, dt.time())
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return (0, when.timestamp())


def gc_plan(
    target: Target, today: dt.date, cold_days: int = DEFAULTS.cold_days, cap: int = DEFAULTS.cap
) -> list[GcAction]:
    """What gc would do on ``today``, in this order: TTL moves, cold marks, cap moves (rules: ``policy``)."""
    files = Files.of(target)
    entries = list(files.memories.mf.well_formed())
    stuck = set(files.archive.mf.ids())  # also in the archive (duplicate id): not moved until fixed
    ttl: list[GcAction] = []
    cold: dict[str, GcAction] = {}
    gone: set[str] = set()
    for e in entries:
        assert e.id is not None
        if e.id in gone:
            continue
        expires = ttl_passed(e, today)
        if expires is not None and e.id not in stuck:
            ttl.append(GcAction("ttl", e.id, f"ttl {expires.isoformat()} has passed"))
            gone.add(e.id)
            continue
        since = cold_since(e, today, cold_days)
        if since is not None:
            cold[e.id] = GcAction(
                "cold", e.id, f"not hit since {since.day.isoformat()} ({since.field}), {cold_days}+ days"
            )
    capped: list[GcAction] = []
    kept = [e for e in entries if e.id not in gone]
    unique: dict[str | None, Entry] = {}
    for e in kept:
        unique.setdefault(e.id, e)  # the first copy of each id
    excess = over_cap(len(kept), cap)
    if excess:
        low = [e for e in unique.values() if e.meta.get("importance") == "low" and e.id not in stuck]
        low.sort(key=_age_key)  # stable: file order among equals
        for e in low[:excess]:
            assert e.id is not None
            capped.append(GcAction("cap", e.id, f"over capacity: {len(kept)} entries, cap {cap}"))
            cold.pop(e.id, None)
    return ttl + list(cold.values()) + capped


def remaining_over_cap(target: Target, actions: Sequence[GcAction], cap: int = DEFAULTS.cap) -> int:
    """How many entries memories.md would still hold over ``cap`` after ``actions``."""
    files = Files.of(target)
    moved = {a.id for a in actions if a.moves}
    left = sum(1 for e in files.memories.mf.well_formed() if e.id not in moved)
    return over_cap(left, cap)


def plan_gc(target: Target, actions: Sequence[GcAction], now: dt.datetime | None = None) -> Plan:
    """The plan that carries out ``actions`` (from ``gc_plan``)."""
    files = Files.of(target)
    b = Builder(files, f"gc: {len(actions)} entr{'y' if len(actions) == 1 else 'ies'}")
    stamp = now_iso(now)
    for action in actions:
        if action.moves:
            _move_to_archive(b, action.id, {"status": "archived", "archived_at": stamp})
        elif action.kind == "cold":
            doc, k, _ = b.entry(action.id, where="memories")
            b.edit(doc, k, {"status": "cold"})
            b.plan.cold.append(action.id)
        else:
            raise EditError(f"unknown gc action {action.kind!r}")
    plan = b.build(first=files.archive)
    plan.rebuild = lambda: plan_gc(files.reload(), actions, now)
    return plan


gc_apply = applying(plan_gc)


# --- compaction -------------------------------------------------------------------------


def plan_compact(
    target: Target,
    ids: Sequence[str],
    body: str,
    tags: Sequence[str] | None = None,
    importance: str | None = None,
    now: dt.datetime | None = None,
) -> Plan:
    """One new entry (``merged_from: ids``) replaces ``ids``, which become superseded and move to the archive."""
    ids = list(ids)
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise EditError("compaction needs two or more different ids")
    files = Files.of(target)
    b = Builder(files, f"compact {', '.join(ids)}")
    originals = [b.entry(i, where="memories")[2] for i in ids]
    stamp = now_iso(now)
    fields = new_entry_meta(files, merged_meta(ids, originals, tags, importance), stamp)
    new = str(fields["id"])
    b.plan.title = f"compact {', '.join(ids)} into {new}"
    for i in ids:
        _move_to_archive(b, i, {"status": "superseded", "superseded_by": new, "archived_at": stamp})
        b.plan.superseded[i] = new
    append_new(b, files.memories, fields, body)
    plan = b.build(first=files.archive)
    plan.rebuild = lambda: plan_compact(files.reload(), ids, body, tags, importance, now)
    return plan


compact = applying(plan_compact)
