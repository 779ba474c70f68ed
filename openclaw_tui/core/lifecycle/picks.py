"""Which picked entries an operation on several takes and which it leaves alone (one rule for every
front end), and the conflict pair of an entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..format.entries import Entry
from ..format.fields import ids_in_value
from .plan import Files


@dataclass(frozen=True)
class PickedArchive:
    """Picked ids to move to the archive, and those already there (left alone)."""

    ids: tuple[str, ...]
    already: tuple[str, ...]


def archive_picks(files: Files, picked: Sequence[str]) -> PickedArchive:
    already = tuple(i for i in picked if files.memories.mf.get(i) is None and files.archive.mf.get(i) is not None)
    return PickedArchive(tuple(i for i in picked if i not in already), already)


@dataclass(frozen=True)
class PickedCold:
    """The status every eligible pick gets, the ids that change, and the picks left alone."""

    status: str  # "cold", or "active" when every eligible pick is cold already
    ids: tuple[str, ...]
    skipped: tuple[str, ...]
    eligible: int


def cold_picks(files: Files, picked: Sequence[str]) -> PickedCold:
    """Active and cold entries of memories.md switch; all cold ones become active, else all become cold."""
    eligible: list[tuple[str, str]] = []
    skipped: list[str] = []
    for ident in picked:
        e = files.memories.mf.get(ident)
        if e is None or e.error or e.status not in ("active", "cold"):
            skipped.append(ident)
        else:
            eligible.append((ident, str(e.status)))
    new = "active" if eligible and all(status == "cold" for _i, status in eligible) else "cold"
    ids = tuple(i for i, status in eligible if status != new)
    return PickedCold(new, ids, tuple(skipped), len(eligible))


def compact_picks(files: Files, picked: Sequence[str]) -> list[str]:
    """The picks compaction can merge: well-formed active entries of memories.md."""
    return [i for i in picked if (e := files.memories.mf.get(i)) is not None and e.status == "active" and not e.error]


def conflict_pair(files: Files, entry: Entry) -> tuple[Entry, Entry] | None:
    """``entry`` and the entry it conflicts with (either side naming the other; an unresolved pair
    preferred), earlier in the file first."""
    ident = entry.id
    if ident is None:
        return None
    by_id: dict[str, Entry] = {}
    order: dict[str, int] = {}
    for n, e in enumerate(files.memories.mf.well_formed()):
        if e.id is not None and e.id not in by_id:
            by_id[e.id] = e
            order[e.id] = n
    partners: list[str] = [i for i in ids_in_value(entry.meta.get("conflict")) if i in by_id and i != ident]
    for other_id, other in by_id.items():
        if other_id != ident and ident in ids_in_value(other.meta.get("conflict")) and other_id not in partners:
            partners.append(other_id)
    if not partners:
        return None
    partners.sort(key=lambda i: (not (by_id[i].status == "active" and entry.status == "active"), order[i]))
    other = by_id[partners[0]]
    me = by_id.get(ident, entry)
    first, second = sorted((me, other), key=lambda e: order.get(e.id or "", 0))
    return first, second


def find_block(entries: Sequence[Entry], old: Entry) -> Entry | None:
    """The block of a fresh parse that is ``old``: same id (well-formed), else same raw text."""
    if old.error is None and old.id is not None:
        same = [e for e in entries if e.id == old.id and e.error is None]
        exact = [e for e in same if e.raw == old.raw]
        return (exact or same)[0] if same else None
    return next((e for e in entries if e.raw == old.raw), None)
