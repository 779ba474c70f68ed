"""Editing entries: set fields or the body, supersede, add, resolve a conflict.

Every ``plan_*`` function computes a ``Plan`` and writes nothing; the function of the same name
without ``plan_`` applies it and returns it.  Invalid input raises ``EditError``, nothing written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ..files.profile import Profile
from ..files.store import MemoryDoc
from ..format.blocks import Block, edit_raw, rewrite
from ..format.edit import DELETE, EditError, form_changes, render_entry
from ..format.entries import KNOWN_FIELDS, Entry, MemoryFile, parse
from ..format.fields import IMPORTANCE, field_error, next_id
from ..format.locate import ABSENT, Window, byte_offset, file_eligible, locate, sub_file, window_file
from .plan import FileChange, Files, Plan, applying, change, now_iso

Target = Profile | Files
KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
KEEP_LEFT, KEEP_RIGHT, KEEP_BOTH, MERGE = "keep-left", "keep-right", "keep-both", "merge"
CHOICES = (KEEP_LEFT, KEEP_RIGHT, KEEP_BOTH, MERGE)


class InvalidValue(EditError):
    """A field name or value the format does not allow."""


class NotFound(EditError):
    """No well-formed entry has that id."""


# --- building plans ------------------------------------------------------------------


class Builder:
    """Collects block edits on the two memory files, then renders them into one Plan.

    With ``sparse``, an entry of a file not parsed yet is found by ``locate.locate`` and the builder
    works on a *window* of the file; anything a window cannot do (an append, a new code fence, an
    unsure locate) parses the whole file first (the edits made so far carry over by offset).
    """

    def __init__(self, files: Files, title: str, *, sparse: bool = False) -> None:
        self.files = files
        self.plan = Plan(title)
        self._edits: dict[int, dict[int, list[Block]]] = {}
        self._appends: dict[int, list[Block]] = {}
        self._touched: dict[int, set[str]] = {}
        self._sparse = sparse
        self._views: dict[int, MemoryFile] = {}  # id(doc) -> the window in use (absent: doc.mf)
        self._windows: dict[int, list[Window]] = {}
        self._ids: dict[int, list[str]] = {}  # id(doc) -> the id each of its windows was found by
        self._file_ok: dict[int, bool] = {}  # id(doc) -> locate can answer in this file
        self._index: dict[int, dict[str, int]] = {}

    def mf(self, doc: MemoryDoc) -> MemoryFile:
        """The file (or window of it) the block indexes of this builder refer to."""
        view = self._views.get(id(doc))
        return view if view is not None else doc.mf

    def _use(self, doc: MemoryDoc, mf: MemoryFile | None) -> None:
        """Switch ``doc`` to ``mf`` (None: the full parse), moving the edits' indexes by offset."""
        edits = self._edits.get(id(doc))
        if edits:
            old = self.mf(doc)
            new = mf if mf is not None else doc.mf
            index = {e.start: k for k, e in enumerate(new.entries)}
            self._edits[id(doc)] = {index[old.entries[k].start]: v for k, v in edits.items()}
        if mf is None:
            self._views.pop(id(doc), None)
            self._windows.pop(id(doc), None)
            self._ids.pop(id(doc), None)
        else:
            self._views[id(doc)] = mf

    def _full(self, doc: MemoryDoc) -> MemoryFile:
        if id(doc) in self._views:
            self._use(doc, None)
        return doc.mf

    def _find(self, doc: MemoryDoc, entry_id: str) -> int | None:
        windows = self._windows.get(id(doc))
        if self._sparse and not doc.parsed and (windows is not None or not self._edits.get(id(doc))):
            for w, found_by in zip(windows or (), self._ids.get(id(doc), ()), strict=True):
                if found_by == entry_id:  # found already: the same entry
                    start = w.entries[w.index].start
                    return next(k for k, e in enumerate(self.mf(doc).entries) if e.start == start)
            ok = self._file_ok.get(id(doc))
            if ok is None:
                ok = self._file_ok[id(doc)] = file_eligible(doc.text, doc.data if doc.utf8 else None)
            got = locate(doc.text, entry_id, checked=True) if ok else None
            if got == ABSENT:
                return None
            if isinstance(got, Window):
                windows = [*(windows or []), got]
                self._use(doc, window_file(doc.text, doc.bom, windows))
                self._windows[id(doc)] = windows
                self._ids.setdefault(id(doc), []).append(entry_id)
                start = got.entries[got.index].start
                return next(k for k, e in enumerate(self.mf(doc).entries) if e.start == start)
        self._full(doc)
        return self._first(doc).get(entry_id)

    def entry(self, entry_id: str, *, where: str = "any") -> tuple[MemoryDoc, int, Entry]:
        """Find a well-formed entry (``where``: any, memories or archive)."""
        docs = {"any": self.files.docs(), "memories": (self.files.memories,), "archive": (self.files.archive,)}
        for doc in docs[where]:
            k = self._find(doc, entry_id)
            if k is not None:
                return doc, k, self.mf(doc).entries[k]
        place = {"any": "", "memories": " in memories.md", "archive": " in the archive"}[where]
        raise NotFound(f"no entry with id {entry_id}{place}")

    def _first(self, doc: MemoryDoc) -> dict[str, int]:
        """Id -> index of its first well-formed entry in ``doc`` (built once: gc looks up thousands)."""
        index = self._index.get(id(doc))
        if index is None:
            index = {}
            for k, e in enumerate(doc.mf.entries):
                if e.id is not None and e.error is None:
                    index.setdefault(e.id, k)
            self._index[id(doc)] = index
        return index

    def touch(self, doc: MemoryDoc, entry_id: str) -> None:
        self._touched.setdefault(id(doc), set()).add(entry_id)

    def replace(self, doc: MemoryDoc, k: int, blocks: Sequence[Block]) -> None:
        self._edits.setdefault(id(doc), {})[k] = list(blocks)

    def edit(self, doc: MemoryDoc, k: int, changes: Mapping[str, Any], body: str | None = None) -> str:
        """Change fields/body of block ``k`` (edits made earlier to it are kept); returns the new raw."""
        entry = self.mf(doc).entries[k]
        assert entry.id is not None
        current = self._edits.get(id(doc), {}).get(k)
        if current is not None and len(current) != 1:
            raise EditError(f"{entry.id} is moved or removed by this operation already")
        raw = current[0].raw if current else entry.raw
        new_raw = edit_raw(raw, entry.id, changes, body)
        check_values(new_raw, changes)
        new_id = changes.get("id", entry.id)
        self.replace(doc, k, [Block(new_raw, new_id if isinstance(new_id, str) else entry.id)])
        self.touch(doc, entry.id)
        return new_raw

    def remove(self, doc: MemoryDoc, k: int) -> None:
        entry = self.mf(doc).entries[k]
        self.replace(doc, k, [])
        if entry.id is not None:
            self.touch(doc, entry.id)

    def insert_before(self, doc: MemoryDoc, k: int, block: Block) -> None:
        existing = self._edits.get(id(doc), {}).get(k)
        kept = existing if existing is not None else [Block(self.mf(doc).entries[k].raw, None)]
        self.replace(doc, k, [block, *kept])

    def append(self, doc: MemoryDoc, block: Block, *, touch: bool = True) -> None:
        """Add a block at the end (``touch=False`` for a new entry: a rebuilt plan picks a new id)."""
        self._full(doc)  # an append needs the file's true last block
        self._appends.setdefault(id(doc), []).append(block)
        if block.id is not None and touch:
            self.touch(doc, block.id)

    def _spliced(self, doc: MemoryDoc, edits: Mapping[int, Sequence[Block]]) -> FileChange | bool | None:
        """A windowed file's change, the window's text rewritten and its bytes spliced in (False:
        nothing changes; None: do it the whole-file way)."""
        windows = self._windows.get(id(doc))
        if not windows or not edits or doc.data is None or not doc.utf8:
            return None
        view = self.mf(doc)
        lo = 0 if view.preamble_end else view.entries[0].start  # the preamble with the file's first entry
        hi = view.entries[-1].end
        sub = sub_file(view, lo, hi)
        new = rewrite(sub, edits)  # the window holds every neighbour rewrite looks at
        if new == sub.text:
            return False
        skip = 3 if doc.bom else 0
        data = doc.data[skip:] if skip else doc.data
        near = min(range(len(windows)), key=lambda i: abs(windows[i].hit - lo))  # the anchor nearest the window
        b_lo = byte_offset(doc.text, data, windows[near], self._ids[id(doc)][near], lo)
        if b_lo is None:
            return None
        b_hi = b_lo + len(sub.text.encode("utf-8", "surrogateescape"))
        view_bytes = memoryview(doc.data)
        after = b"".join((view_bytes[: skip + b_lo], new.encode("utf-8", "surrogateescape"), view_bytes[skip + b_hi :]))
        return FileChange(doc.path, doc.data, after)

    def build(self, first: MemoryDoc | None = None) -> Plan:
        """Render the edits; ``first`` is written first (the destination of a move)."""
        docs = list(self.files.docs())
        if first is not None and first is docs[1]:
            docs.reverse()
        changes: list[FileChange] = []
        for doc in docs:
            edits = self._edits.get(id(doc), {})
            appends = self._appends.get(id(doc), [])
            if not edits and not appends:
                continue
            if doc is self.files.archive and self.files.archive_error:
                raise EditError(self.files.archive_error)
            if id(doc) in self._views and any(
                "```" in blk.raw or "~~~" in blk.raw for blocks in edits.values() for blk in blocks
            ):
                self._full(doc)  # a new fence line can pair with one anywhere: rewrite checks the whole file
                edits = self._edits.get(id(doc), {})
            spliced = self._spliced(doc, edits) if id(doc) in self._views and not appends else None
            if spliced is False:
                continue
            if isinstance(spliced, FileChange):
                changes.append(spliced)
                continue
            text = rewrite(self.mf(doc), edits, appends)
            if doc.data is not None and text == doc.text:
                continue
            changes.append(change(doc, text))
        self.plan.changes = changes
        self.plan.base = self.files
        self.plan.touched = {d.path: frozenset(self._touched.get(id(d), set())) for d in docs}
        return self.plan


def check_values(raw: str, changes: Mapping[str, Any]) -> None:
    """The edited entry must read back exactly the values that were set."""
    mf = parse(raw)
    meta = mf.entries[0].meta if len(mf.entries) == 1 else {}
    for key, value in changes.items():
        if value is DELETE:
            ok = key not in meta
        else:
            ok = key in meta and meta[key] == value
        if not ok:
            raise InvalidValue(f"{key}: {value!r} cannot be written as a YAML value that reads back the same")


def validate(files: Files, changes: Mapping[str, Any], entry_id: str | None = None) -> None:
    """Raise InvalidValue for a bad field name or a known field's invalid value."""
    for key, value in changes.items():
        if not isinstance(key, str) or not KEY_RE.fullmatch(key):
            raise InvalidValue(f"{key!r} is not a field name")
        if value is DELETE:
            if key == "id":
                raise InvalidValue("the id cannot be removed")
            continue
        if not _plain(value):
            raise InvalidValue(f"{key}: {value!r} is not a YAML scalar, list or mapping")
        error = field_error(key, value)
        if error:
            raise InvalidValue(error)
        if key == "id" and value != entry_id and value in files.all_ids():
            raise InvalidValue(f"id {value} is already used")


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


# --- set ------------------------------------------------------------------------------


def plan_set(target: Target, entry_id: str, changes: Mapping[str, Any], body: str | None = None, *,
             expect: str | None = None) -> Plan:
    """Set fields (``edit.DELETE`` removes one) and/or the body of one entry (memories.md or archive);
    ``expect``: the entry's raw text as the caller read it (EditError when it changed since)."""
    files = Files.of(target)
    b = Builder(files, f"edit {entry_id}", sparse=True)
    doc, k, entry = b.entry(entry_id)
    if expect is not None and entry.raw != expect:
        raise EditError(f"{entry_id} changed on disk since it was opened; nothing was written")
    validate(files, changes, entry_id)
    effective = form_changes(entry.meta, changes)
    what = list(effective)
    if effective or body is not None:
        new_raw = b.edit(doc, k, effective, body)
        if body is not None and new_raw != edit_raw(entry.raw, entry_id, effective):
            what.append("body")
        if new_raw == entry.raw:
            what = []
    plan = b.build() if what else Plan(f"edit {entry_id}", [], base=files)
    if what:
        plan.changed[entry_id] = what
    plan.rebuild = lambda: plan_set(files.reload(), entry_id, changes, body, expect=expect)
    return plan


set_entry = applying(plan_set)


def plan_set_many(target: Target, entry_ids: Sequence[str], changes: Mapping[str, Any]) -> Plan:
    """The same field changes on several entries, in one plan (entries that already say so are left alone)."""
    ids = list(dict.fromkeys(entry_ids))
    files = Files.of(target)
    title = f"edit {ids[0]}" if len(ids) == 1 else f"edit {len(ids)} entries"
    b = Builder(files, title)
    changed: dict[str, list[str]] = {}
    for ident in ids:
        doc, k, entry = b.entry(ident)
        validate(files, changes, ident)
        effective = form_changes(entry.meta, changes)
        if effective:
            b.edit(doc, k, effective)
            changed[ident] = list(effective)
    plan = b.build() if changed else Plan(title, [], base=files)
    plan.changed.update(changed)
    plan.rebuild = lambda: plan_set_many(files.reload(), ids, changes)
    return plan


# --- supersede ------------------------------------------------------------------------


def _supersede_into(b: Builder, old: str, new: str) -> None:
    doc, k, entry = b.entry(old)
    wanted = {"status": "superseded", "superseded_by": new}
    effective = form_changes(entry.meta, wanted)
    if effective:
        b.edit(doc, k, effective)
        b.plan.changed.setdefault(old, []).extend(effective)
    b.plan.superseded[old] = new


def plan_supersede(target: Target, old: str, new: str) -> Plan:
    """OLD becomes ``superseded`` with ``superseded_by: NEW`` (NEW must be a live entry)."""
    files = Files.of(target)
    b = Builder(files, f"supersede {old} by {new}", sparse=True)
    if old == new:
        raise EditError(f"{old} cannot supersede itself")
    b.entry(old)
    ndoc, _, nentry = b.entry(new)
    if ndoc is files.archive or nentry.status in ("superseded", "archived"):
        raise EditError(f"{new} is {nentry.status if ndoc is not files.archive else 'archived'}; "
                        "supersede by an active entry")
    _supersede_into(b, old, new)
    plan = b.build()
    plan.rebuild = lambda: plan_supersede(files.reload(), old, new)
    return plan


supersede = applying(plan_supersede)


# --- add ------------------------------------------------------------------------------

_ORDER = {name: i for i, name in enumerate(KNOWN_FIELDS)}


def new_entry_meta(files: Files, meta: Mapping[str, Any], now_text: str, source: str = "manual") -> dict[str, Any]:
    """Fields of a new entry: id (next free), timestamp, source, status, then ``meta`` (validated)."""
    validate(files, meta)
    fields: dict[str, Any] = {
        "id": next_id(files.all_ids()),
        "timestamp": now_text,
        "source": source,
        "status": "active",
    }
    for key, value in meta.items():
        if value is DELETE:
            fields.pop(key, None)
        else:
            fields[key] = value
    known = sorted((k for k in fields if k in _ORDER), key=_ORDER.__getitem__)
    return {k: fields[k] for k in known + [k for k in fields if k not in _ORDER]}


def append_new(b: Builder, doc: MemoryDoc, meta: Mapping[str, Any], body: str) -> str:
    nl = doc.mf.newline if doc.mf.text else "\n"
    raw = render_entry(meta, body, nl)
    check_values(raw, meta)
    entry_id = str(meta["id"])
    b.append(doc, Block(raw, entry_id), touch=False)
    b.plan.added.append(entry_id)
    b.plan.new_id = entry_id
    return entry_id


def plan_add(target: Target, meta: Mapping[str, Any], body: str, now: Any = None) -> Plan:
    """Append a new entry to memories.md (id, timestamp, source and status filled in unless given)."""
    files = Files.of(target)
    fields = new_entry_meta(files, meta, now_iso(now))
    b = Builder(files, f"add {fields['id']}")
    append_new(b, files.memories, fields, body)
    plan = b.build()
    plan.rebuild = lambda: plan_add(files.reload(), meta, body, now)
    return plan


add_entry = applying(plan_add)


@dataclass(frozen=True)
class Similar:
    """An existing entry that may duplicate a new one."""

    id: str
    score: float  # 1.0: the same text
    reason: str
    archived: bool = False


_WORDS_RE = re.compile(r"[\W_]+")


def normalize_text(text: str) -> str:
    """Case-folded words, punctuation and spacing dropped (for duplicate detection)."""
    return " ".join(_WORDS_RE.sub(" ", text.casefold()).split())


def similar_entries(
    target: Target, body: str, tags: Sequence[str] | None = None, *, threshold: float = 0.8, limit: int = 5
) -> list[Similar]:
    """Entries (memories.md and archive) whose text is the same or nearly the same as ``body``."""
    files = Files.of(target)
    want = normalize_text(body)
    want_tags = {t.casefold() for t in tags or ()}
    found: list[tuple[float, int, Similar]] = []
    order = 0
    for doc in files.docs():
        archived = doc is files.archive
        for e in doc.mf.well_formed():
            order += 1
            assert e.id is not None
            have = normalize_text(e.body)
            same_tags = bool(want_tags) and want_tags == {t.casefold() for t in e.tags}
            if have == want:
                found.append((1.0, order, Similar(e.id, 1.0, "same text", archived)))
                continue
            floor = 0.5 if same_tags else threshold
            sm = SequenceMatcher(None, want, have, autojunk=False)
            if sm.real_quick_ratio() < floor or sm.quick_ratio() < floor:
                continue
            ratio = sm.ratio()
            if ratio >= threshold:
                found.append((ratio, order, Similar(e.id, round(ratio, 3), "nearly the same text", archived)))
            elif same_tags and ratio >= floor:
                found.append((ratio, order, Similar(e.id, round(ratio, 3), "same tags, similar text", archived)))
    found.sort(key=lambda t: (-t[0], t[1]))
    return [s for _, _, s in found[:limit]]


# --- conflicts ------------------------------------------------------------------------


def _without(value: Any, other: str) -> Any:
    """A ``conflict`` value without ``other`` (DELETE when nothing is left; None: not named)."""
    if isinstance(value, str):
        return DELETE if value.strip() == other else None
    if isinstance(value, list) and any(isinstance(v, str) and v.strip() == other for v in value):
        rest = [v for v in value if not (isinstance(v, str) and v.strip() == other)]
        return rest if rest else DELETE
    return None


def highest_importance(values: Sequence[Any]) -> str | None:
    return next((v for v in IMPORTANCE if v in values), None)  # IMPORTANCE is high, medium, low


def merged_tags(entries: Sequence[Entry]) -> list[str]:
    return list(dict.fromkeys(t for e in entries for t in e.tags))


def merged_meta(ids: Sequence[str], originals: Sequence[Entry], tags: Sequence[str] | None,
                importance: str | None) -> dict[str, Any]:
    """``merged_from``, the tags and the highest importance of ``originals`` (unless given)."""
    meta: dict[str, Any] = {"merged_from": list(ids)}
    kept_tags = list(tags) if tags is not None else merged_tags(originals)
    if kept_tags:
        meta["tags"] = kept_tags
    imp = importance or highest_importance([e.meta.get("importance") for e in originals])
    if imp:
        meta["importance"] = imp
    return meta


def plan_resolve_conflict(
    target: Target,
    a: str,
    b: str,
    choice: str,
    merged_body: str | None = None,
    *,
    tags: Sequence[str] | None = None,
    importance: str | None = None,
    now: Any = None,
) -> Plan:
    """Resolve ``a`` (left) vs ``b`` (right): keep-left, keep-right, keep-both or merge (spec: conflicts)."""
    if choice not in CHOICES:
        raise EditError(f"unknown choice {choice!r} (expected one of {', '.join(CHOICES)})")
    if a == b:
        raise EditError(f"{a} cannot conflict with itself")
    files = Files.of(target)
    bld = Builder(files, f"resolve conflict {a} / {b}: {choice}")
    adoc, ak, aentry = bld.entry(a)
    bdoc, bk, bentry = bld.entry(b)
    if choice == KEEP_LEFT:
        _supersede_into(bld, b, a)
    elif choice == KEEP_RIGHT:
        _supersede_into(bld, a, b)
    elif choice == KEEP_BOTH:
        dropped = False
        for doc, k, entry, other in ((adoc, ak, aentry, b), (bdoc, bk, bentry, a)):
            rest = _without(entry.meta.get("conflict"), other)
            if rest is not None:
                bld.edit(doc, k, {"conflict": rest})
                assert entry.id is not None
                bld.plan.changed.setdefault(entry.id, []).append("conflict")
                dropped = True
        if not dropped:
            raise EditError(f"neither {a} nor {b} names the other in conflict:")
    else:
        if merged_body is None:
            raise EditError("a merge needs the text of the new entry")
        fields = new_entry_meta(files, merged_meta([a, b], [aentry, bentry], tags, importance), now_iso(now))
        new = append_new(bld, files.memories, fields, merged_body)
        _supersede_into(bld, a, new)
        _supersede_into(bld, b, new)
    plan = bld.build()
    plan.rebuild = lambda: plan_resolve_conflict(
        files.reload(), a, b, choice, merged_body, tags=tags, importance=importance, now=now
    )
    return plan


resolve_conflict = applying(plan_resolve_conflict)


__all__ = [
    "CHOICES", "KEEP_BOTH", "KEEP_LEFT", "KEEP_RIGHT", "MERGE", "Builder", "InvalidValue", "NotFound",
    "Similar", "add_entry", "plan_add", "plan_resolve_conflict", "plan_set", "plan_supersede",
    "resolve_conflict", "set_entry", "similar_entries", "supersede", "validate",
]
