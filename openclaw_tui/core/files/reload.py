"""Reloading a memory file another program changed: what changed, by id, quickly.

``diff_ids`` compares entries by id without touching the unchanged ones: the entries wholly inside
the common prefix and suffix are checked to sit at the same offsets instead of comparing their text.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from ..format.entries import Entry, MemoryFile, common_prefix, common_suffix


@dataclass(frozen=True)
class IdDiff:
    """Entry ids added, changed (raw text differs) and removed; ``other``: the preamble or a malformed block changed."""

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    other: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.other)

    @property
    def touched(self) -> tuple[str, ...]:
        return self.added + self.changed + self.removed


_START = attrgetter("start")
_END = attrgetter("end")
_ID = attrgetter("id")


class ChangedRegion:
    """Where two texts differ: after ``line`` (a line start) and before ``z_old`` / ``z_new``."""

    def __init__(self, old: str, new: str) -> None:
        self.prefix = common_prefix(old, new)
        self.line = old.rfind("\n", 0, self.prefix) + 1  # lines before it are whole and identical
        self.suffix = common_suffix(old, new, min(len(old), len(new)) - self.prefix)
        self.z_old = len(old) - self.suffix
        self.z_new = len(new) - self.suffix


class _Window:
    """A parse seen around an edit: the *head* blocks end before the edited line, the *tail* blocks
    start inside the common suffix; only the blocks in between are read.  Two parses sharing that
    prefix and suffix have the same head when its size and last block agree, and the same tail when
    its first block starts at the same distance from the end with the same id."""

    __slots__ = ("entries", "text", "ia", "ib", "head", "tail", "mid", "preamble")

    def __init__(self, mf: MemoryFile, line: int, z: int, head: bool = True, tail: bool = True) -> None:
        es = mf.entries
        self.entries, self.text = es, mf.text
        self.ia = bisect_right(es, line, key=_END) if head else 0
        self.ib = max(self.ia, bisect_left(es, z + 1, key=_START)) if tail else len(es)
        last = es[self.ia - 1] if self.ia else None
        self.head = (self.ia, last.start, last.end, last.id, last.error) if last else (0,)
        first = es[self.ib] if self.ib < len(es) else None
        self.tail = (len(es) - self.ib, first.start - z, first.id, first.error) if first else (0,)
        text = mf.text
        self.mid = [(e.id, e.error, text[e.start : e.end]) for e in es[self.ia : self.ib]]
        self.preamble = text[: mf.preamble_end]


def _first_raws(mid: list[tuple[str | None, str | None, str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for x, err, raw in mid:
        if x is not None and err is None and x not in found:
            found[x] = raw
    return found


class _Lookup:
    """First well-formed occurrence of an id among some blocks of a parse (built on first use)."""

    def __init__(self, entries: list[Entry], text: str) -> None:
        self.entries, self.text = entries, text
        self.ids: list[str | None] | None = None

    def raw(self, x: str) -> str | None:
        if not self.entries:
            return None
        if self.ids is None:
            self.ids = list(map(_ID, self.entries))
        i = -1
        while True:
            try:
                i = self.ids.index(x, i + 1)
            except ValueError:
                return None
            e = self.entries[i]
            if e.error is None:
                return self.text[e.start : e.end]


def _diff(o: _Window, n: _Window) -> IdDiff:
    """The diff of two windows whose head and tail agree (see ``_Window``)."""
    old_mid, new_mid = _first_raws(o.mid), _first_raws(n.mid)
    other = o.preamble != n.preamble or (
        [raw for _, err, raw in o.mid if err is not None] != [raw for _, err, raw in n.mid if err is not None]
    )
    if not old_mid and not new_mid:
        return IdDiff(other=other)
    # head and tail are the same in both parses: look ids up in the new one
    head = _Lookup(n.entries[: n.ia], n.text)
    tail = _Lookup(n.entries[n.ib :], n.text)
    added: list[str] = []
    changed: list[str] = []
    removed: list[str] = []
    for x, raw in new_mid.items():
        if head.raw(x) is not None:
            continue
        before = old_mid.get(x) if x in old_mid else tail.raw(x)
        if before is None:
            added.append(x)
        elif before != raw:
            changed.append(x)
    for x, raw in old_mid.items():
        if x in new_mid or head.raw(x) is not None:
            continue
        after = tail.raw(x)
        if after is None:
            removed.append(x)
        elif after != raw:
            changed.append(x)
    return IdDiff(tuple(added), tuple(changed), tuple(removed), other)


def diff_ids(old: MemoryFile, new: MemoryFile) -> IdDiff:
    """Entries added, changed and removed between two parses (the first well-formed entry of each id)."""
    if old.text == new.text and old.preamble_end == new.preamble_end and len(old.entries) == len(new.entries):
        return IdDiff()
    edit = ChangedRegion(old.text, new.text)
    o, n = _Window(old, edit.line, edit.z_old), _Window(new, edit.line, edit.z_new)
    head, tail = o.head == n.head, o.tail == n.tail
    if not (head and tail):  # an edit that opens or closes a code fence can hide or reveal entries far away
        o, n = _Window(old, edit.line, edit.z_old, head, tail), _Window(new, edit.line, edit.z_new, head, tail)
    return _diff(o, n)


def summary(name: str, diff: IdDiff, who: str = "another program") -> str:
    """``"memories.md: 2 added, 1 changed by another program"``."""
    parts = [f"{len(ids)} {word}" for ids, word in
             ((diff.added, "added"), (diff.changed, "changed"), (diff.removed, "removed")) if ids]
    if parts:
        return f"{name}: {', '.join(parts)} by {who}"
    return f"{name}: changed by {who}" if diff.other else f"{name}: unchanged"


def nearest_surviving(old_order_ids: Sequence[str], removed_id: str, new_ids: Iterable[str]) -> str | None:
    """The entry to select after ``removed_id`` vanished: the next survivor in the old order, else the previous."""
    ordered = list(new_ids)
    alive = set(ordered)
    if removed_id in alive:
        return removed_id
    try:
        i = list(old_order_ids).index(removed_id)
    except ValueError:
        return ordered[0] if ordered else None
    for j in range(i + 1, len(old_order_ids)):
        if old_order_ids[j] in alive:
            return old_order_ids[j]
    for j in range(i - 1, -1, -1):
        if old_order_ids[j] in alive:
            return old_order_ids[j]
    return ordered[0] if ordered else None
