"""Three-way merge of memory files by entry id (the core of ``openclaw-tui merge-driver``).

Additions on both sides are kept, a one-sided change is taken, an entry changed differently on both sides
(or deleted on one) is wrapped alone in conflict markers.  Two different entries added under one id are
both kept, theirs under the next free id.  Input that cannot be merged by id merges as text
(``git merge-file``).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..format.entries import MemoryFile, decode, parse, split_trailing
from ..format.fields import next_id
from .gitrepo import GitError, git_available, run_git

STYLES = ("merge", "diff3", "zdiff3")


@dataclass(frozen=True)
class Labels:
    ours: str = "ours"
    base: str = "base"
    theirs: str = "theirs"


def renumber_note(old: str, new: str) -> str:
    return f"{old} was added on both sides as two different entries: both kept, theirs is now {new}"


@dataclass(frozen=True)
class MergeResult:
    data: bytes
    conflicts: int  # number of conflict regions left in ``data``
    mode: str  # "entries" (merged by id), "text" (git merge-file) or "whole" (whole-file markers)
    conflict_ids: tuple[str, ...] = ()
    reason: str | None = None  # why the merge was not made by entry id
    renumbered: tuple[tuple[str, str], ...] = ()  # (id, new id) of theirs' additions that collided with ours'

    @property
    def clean(self) -> bool:
        return self.conflicts == 0


# --- entry text: content and trailing blank lines -------------------------------------------

def entry_contents(mf: MemoryFile) -> dict[str, str]:
    """Id -> content (trailing blank lines removed) of every well-formed entry."""
    return {e.id: split_trailing(e.raw)[0] for e in mf.entries if e.id is not None and e.error is None}


def typical_separator(*files: MemoryFile) -> str:
    for mf in files:
        seps = [split_trailing(e.raw)[1] for e in mf.entries[:-1]]
        if seps:
            return Counter(seps).most_common(1)[0][0]
    return files[0].newline if files else "\n"


# --- plain-text merges ---------------------------------------------------------------------


def _marker_line(char: str, size: int, label: str, nl: str) -> str:
    return char * size + (" " + label if label else "") + nl


def whole_file_conflict(ours: bytes, theirs: bytes, labels: Labels, marker_size: int = 7) -> bytes:
    """The last resort: all of ours against all of theirs in one conflict region."""
    o, t = ours.decode("utf-8", "surrogateescape"), theirs.decode("utf-8", "surrogateescape")
    return conflict_region(o, None, t, labels, marker_size, "merge", "\n").encode("utf-8", "surrogateescape")


def merge_plain(
    base: bytes, ours: bytes, theirs: bytes, labels: Labels = Labels(), marker_size: int = 7, style: str = "merge"
) -> tuple[bytes, int, str]:
    """Line-based 3-way merge like ``git merge-file -p``: (result, conflicts, mode)."""
    if ours == theirs or theirs == base:
        return ours, 0, "text"
    if ours == base:
        return theirs, 0, "text"
    if git_available():
        with tempfile.TemporaryDirectory(prefix="openclaw-merge-") as tmp:
            paths = []
            for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
                p = Path(tmp) / name
                p.write_bytes(data)
                paths.append(str(p))
            args = ["merge-file", "-p", f"--marker-size={marker_size}",
                    "-L", labels.ours, "-L", labels.base, "-L", labels.theirs]
            if style in ("diff3", "zdiff3"):
                args.append(f"--{style}")
            try:
                proc = run_git([*args, *paths], tmp, check=False)
            except GitError:
                proc = None
            if proc is not None and 0 <= proc.returncode < 128:
                return proc.stdout, proc.returncode, "text"
    return whole_file_conflict(ours, theirs, labels, marker_size), 1, "whole"


# --- the merge by id -------------------------------------------------------------------------


class _NotById(Exception):
    """This input cannot be merged by id; the message says why."""


def _parse_side(data: bytes, name: str) -> tuple[MemoryFile, bool]:
    text, bom, ok = decode(data)
    if not ok:
        raise _NotById(f"{name} is not valid UTF-8")
    mf = parse(text, bom=bom)
    if any(e.error is not None for e in mf.entries):
        raise _NotById(f"{name} has malformed blocks")
    ids = [e.id for e in mf.entries]
    if len(ids) != len(set(ids)):
        raise _NotById(f"{name} defines an id twice")
    return mf, bom


@dataclass
class _Item:
    key: str
    content: str  # the entry text, or a whole conflict region
    trailing: str | None  # the separator it had where it came from (None: not known)


def conflict_region(
    ours: str | None, base: str | None, theirs: str | None, labels: Labels, marker_size: int, style: str, nl: str
) -> str:
    """Standard conflict markers around one entry's versions (None: absent on that side)."""
    def section(text: str | None) -> str:
        return text + nl if text and not text.endswith("\n") else text or ""

    out = _marker_line("<", marker_size, labels.ours, nl) + section(ours)
    if style in ("diff3", "zdiff3"):
        out += _marker_line("|", marker_size, labels.base, nl) + section(base)
    out += "=" * marker_size + nl + section(theirs)
    out += _marker_line(">", marker_size, labels.theirs, nl)
    return out


def id_word(entry_id: str) -> re.Pattern[str]:
    """An id as a whole word (ASCII boundaries, as references are found)."""
    return re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(entry_id) + r"(?![A-Za-z0-9_-])")


def renumber_additions(
    base: MemoryFile, ours: MemoryFile, theirs: MemoryFile, reserved: frozenset[str] | set[str] = frozenset()
) -> tuple[str, list[tuple[str, str]]]:
    """Theirs' text with each id both sides added (differently) renumbered; and the renumberings.

    A reference in theirs' other entries follows when that side added it.
    """
    b_c, o_c, t_c = entry_contents(base), entry_contents(ours), entry_contents(theirs)
    collided = [k for k, t in t_c.items() if k not in b_c and k in o_c and o_c[k] != t]
    if not collided:
        return theirs.text, []
    taken = set(b_c) | set(o_c) | set(t_c) | set(reserved)
    mapping: list[tuple[str, str]] = []
    for old in collided:
        new = next_id(taken)
        taken.add(new)
        mapping.append((old, new))
    parts = [theirs.preamble]
    for e in theirs.entries:
        raw = e.raw
        for old, new in mapping:
            base_text = b_c.get(e.id or "")
            if e.id == old or base_text is None or not id_word(old).search(base_text):
                raw = id_word(old).sub(new, raw)
        parts.append(raw)
    return "".join(parts), mapping


def merge_by_id(
    base: bytes, ours: bytes, theirs: bytes, labels: Labels = Labels(), marker_size: int = 7, style: str = "merge",
    reserved: frozenset[str] | set[str] = frozenset(),
) -> MergeResult:
    """The id-aware merge; raises _NotById when the input does not allow it."""
    b_mf, b_bom = _parse_side(base, "base")
    o_mf, o_bom = _parse_side(ours, "ours")
    t_mf, t_bom = _parse_side(theirs, "theirs")
    renamed_text, renumbered = renumber_additions(b_mf, o_mf, t_mf, reserved)
    if renumbered:
        expected_ids = [dict(renumbered).get(i, i) for i in t_mf.ids()]
        t_mf = parse(renamed_text, bom=t_bom)
        if t_mf.ids() != expected_ids or any(e.error for e in t_mf.entries):
            raise _NotById("theirs would not read back after renumbering its additions")
    bom = t_bom if o_bom == b_bom else o_bom
    nl = o_mf.newline
    b_c, o_c, t_c = entry_contents(b_mf), entry_contents(o_mf), entry_contents(t_mf)

    b_pre, o_pre, t_pre = (mf.preamble.encode("utf-8", "surrogateescape") for mf in (b_mf, o_mf, t_mf))
    data, conflicts, _ = merge_plain(b_pre, o_pre, t_pre, labels, marker_size, style)
    preamble = data.decode("utf-8", "surrogateescape")
    conflict_ids: list[str] = []

    separators: dict[str, str] = {}  # id -> blank lines after it (where it is not the last entry)
    for mf in (b_mf, t_mf, o_mf):  # ours last: it wins
        for e in mf.entries[:-1]:
            separators[e.id or ""] = split_trailing(e.raw)[1]

    trailing_of = separators.get
    def conflict(key: str, o: str | None, b: str | None, t: str | None) -> _Item:
        conflict_ids.append(key)
        return _Item(key, conflict_region(o, b, t, labels, marker_size, style, nl), None)

    kept: list[_Item] = []  # entries that exist in base, in ours' order
    ours_added: list[_Item] = []
    for key, o in o_c.items():
        b, t = b_c.get(key), t_c.get(key)
        if b is None:
            ours_added.append(_Item(key, o, trailing_of(key)) if t is None or t == o else conflict(key, o, None, t))
        elif t is None:
            if o != b:
                kept.append(conflict(key, o, b, None))
        elif o == b:
            kept.append(_Item(key, t, trailing_of(key)))
        elif t in (b, o):
            kept.append(_Item(key, o, trailing_of(key)))
        else:
            kept.append(conflict(key, o, b, t))
    # deleted by ours but changed by theirs: a conflict, placed after its base neighbour
    base_order = list(b_c)
    for idx, key in enumerate(base_order):
        if key in o_c:
            continue
        b, t = b_c[key], t_c.get(key)
        if t is None or t == b:
            continue
        item = conflict(key, None, b, t)
        kept_at = {it.key: i for i, it in enumerate(kept)}
        pos = next((kept_at[prev] + 1 for prev in reversed(base_order[:idx]) if prev in kept_at), 0)
        kept.insert(pos, item)
    theirs_added = [_Item(k, t, trailing_of(k)) for k, t in t_c.items() if k not in b_c and k not in o_c]
    items = kept + ours_added + theirs_added

    sep = typical_separator(o_mf, t_mf, b_mf)
    final = (o_mf.entries or t_mf.entries)[-1:]
    eof_trailing = split_trailing(final[0].raw)[1] if final else ""
    if preamble and not preamble.endswith("\n") and items:
        preamble += nl
    parts = [preamble]
    for i, item in enumerate(items):
        text = item.content
        last = i == len(items) - 1
        if last:
            if not (o_mf.entries and o_mf.entries[-1].id == item.key and item.key not in conflict_ids):
                if not text.endswith("\n") and (not o_mf.entries or o_mf.text.endswith("\n")):
                    text += nl
            parts.append(text + eof_trailing)
        else:
            if not text.endswith("\n"):
                text += nl
            parts.append(text + (item.trailing if item.trailing is not None else sep))
    merged = "".join(parts)
    conflicts += len(conflict_ids)
    data = (("\ufeff" if bom else "") + merged).encode("utf-8", "surrogateescape")
    if not conflicts:
        check = parse(merged)
        expected = [it.key for it in items]
        if check.ids() != expected or any(e.error for e in check.entries):
            raise _NotById("the merged file would not read back entry for entry")
    return MergeResult(data, conflicts, "entries", tuple(conflict_ids), renumbered=tuple(renumbered))


def merge_bytes(
    base: bytes, ours: bytes, theirs: bytes, labels: Labels = Labels(), marker_size: int = 7, style: str = "merge",
    reserved: frozenset[str] | set[str] = frozenset(),
) -> MergeResult:
    """Merge three versions of a memory file: by id when possible, else as plain text.

    ``reserved``: ids defined elsewhere (the archive) that a renumbered addition must not take.
    """
    if ours == theirs or theirs == base:
        return MergeResult(ours, 0, "entries")
    if ours == base:
        return MergeResult(theirs, 0, "entries")
    try:
        return merge_by_id(base, ours, theirs, labels, marker_size, style, reserved)
    except _NotById as exc:
        reason = str(exc)
    except (RecursionError, ValueError, IndexError, KeyError) as exc:  # a parser bug must not lose the merge
        reason = f"internal error: {exc!r}"
    data, conflicts, mode = merge_plain(base, ours, theirs, labels, marker_size, style)
    return MergeResult(data, conflicts, mode, reason=reason)


def conflict_style() -> str:
    """``merge.conflictStyle`` as git sees it here ("merge" when unset or unknown)."""
    try:
        proc = run_git(["config", "--get", "merge.conflictStyle"], os.getcwd(), check=False)
    except GitError:
        return "merge"
    value = proc.stdout.decode("utf-8", "replace").strip().lower()
    return value if value in STYLES else "merge"


# --- the driver: files in, result into OURS --------------------------------------------------


def _read(path: Path | str) -> bytes:
    try:
        return Path(path).read_bytes()
    except (OSError, ValueError):
        return b""


def _write(path: Path | str, data: bytes) -> None:
    from ..files.safe_write import atomic_write

    atomic_write(Path(path), data)


def run_driver(
    base_path: Path | str,
    ours_path: Path | str,
    theirs_path: Path | str,
    *,
    labels: Labels = Labels(),
    marker_size: int = 7,
    reserved: frozenset[str] | set[str] = frozenset(),
    renumbered: list[tuple[str, str]] | None = None,
) -> int:
    """Merge the three files into ``ours_path``; 0 clean, 1 conflicts. Never raises, never > 1.

    ``renumbered`` receives the (id, new id) pairs of the renumbered additions.
    """
    base = ours = theirs = b""
    try:
        base, ours, theirs = _read(base_path), _read(ours_path), _read(theirs_path)
        marker_size = marker_size if 1 <= marker_size <= 1000 else 7
        result = merge_bytes(base, ours, theirs, labels, marker_size, conflict_style(), reserved)
        if result.data != ours or not Path(ours_path).exists():
            _write(ours_path, result.data)
        if renumbered is not None:
            renumbered.extend(result.renumbered)
        return 0 if result.clean else 1
    except BaseException:  # noqa: BLE001 - a merge driver must never crash git's merge
        pass
    try:
        data, conflicts, _ = merge_plain(base, ours, theirs, labels, marker_size, "merge")
        _write(ours_path, data)
        return 0 if conflicts == 0 else 1
    except BaseException:  # noqa: BLE001
        pass
    try:
        with open(ours_path, "wb") as fh:
            fh.write(whole_file_conflict(ours, theirs, labels, marker_size))
    except BaseException:  # noqa: BLE001
        pass
    return 1
