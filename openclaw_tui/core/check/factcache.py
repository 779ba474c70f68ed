"""A cache of what the check reads from a big memory file, kept in the user's cache folder.

Every fact is a function of the file's bytes and of this code, each entry's part of its block alone.
``facts`` returns the stored facts when the bytes are the ones stored (compared in ``CHUNK`` pieces);
when the file changed, only the blocks between its unchanged head and tail are read again (a private
key and links beside fenced code may reach across blocks: those are found in the whole text again).
A missing, damaged or stale cache file only makes the check slower; small files are never cached.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import marshal
import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any, cast

from ..format.entries import Entry, MemoryFile, Rescanned, _newline_of, _scan, parse, rescan_start
from .fieldscan import field_facts
from .refs import IdRefRow, LinkRow, MemoryRefFacts, memory_ref_parts
from .secrets import SecretMatch

MIN_BYTES = 1 << 20  # below this the check is fast enough without a cache
KEEP = 8  # memory files whose facts are kept (each costs about a third of its size on disk)
CHUNK = 1 << 14  # the file is compared with the stored one in pieces of this many bytes
_VERSION = 7  # raised when what the facts hold changes
_MAGIC = b"openclaw-tui check facts\n"
_MARSHAL = 2  # marshal format 2: no back-references, faster to write
_HERE = Path(__file__).resolve().parent
# the modules whose code decides these facts: a change to any of them invalidates every cache file
_CODE = (
    _HERE / "fieldscan.py", _HERE / "secrets.py", _HERE / "instructions.py", _HERE / "factcache.py", _HERE / "refs.py",
    _HERE.parent / "format" / "entries.py", _HERE.parent / "format" / "fields.py",
    _HERE.parent / "format" / "yamlio.py",
)


@dataclass
class Facts:
    """What the check reads from one memory file (``fresh``: not stored yet)."""

    mf: MemoryFile
    exact: list[int]  # indices of the entries the field scan reads exactly (fieldscan.field_facts)
    by_tag: dict[str, list[int]]  # tag -> indices of the other entries carrying it
    secrets: list[SecretMatch]
    instructions: list[tuple[str, int, int]]
    refs: MemoryRefFacts  # what its text says about references (refs.py)
    n_field: int = 0  # the first ``n_field`` id rows of ``refs`` are reference-field rows, the rest body ids
    fences: bool = False  # the text has fence-like runs (```, ~~~): links are found in the whole text
    fresh: bool = True
    parse_rows: tuple[Any, ...] | None = None  # the parse as stored (``_rows``), when the cache made it
    pieces: tuple[list[bytes], list[bytes]] | None = None  # digests known to hold: from the start, the end


def _code_key() -> str:
    parts = [str(_VERSION), str(CHUNK), sys.version]
    for p in _CODE:
        try:
            st = p.stat()
        except OSError:
            parts.append(f"{p.name}:-")
            continue
        parts.append(f"{p.name}:{st.st_mtime_ns}:{st.st_size}")
    return "|".join(parts)


def _cache_file(path: Path) -> Path:
    from ..config import cache_dir

    name = hashlib.blake2b(os.fsencode(os.path.abspath(path)), digest_size=16).hexdigest()
    return cache_dir() / "check" / f"{name}.facts"


# --- comparing bytes with the stored ones -----------------------------------------------------


def _digest(piece: memoryview) -> bytes:
    return hashlib.sha256(piece).digest()[:16]  # SHA-256: hardware-assisted on most CPUs


def _front(view: memoryview, k: int) -> bytes:
    return _digest(view[k * CHUNK : (k + 1) * CHUNK])


def _back(view: memoryview, k: int) -> bytes:
    n = len(view)
    return _digest(view[max(0, n - (k + 1) * CHUNK) : n - k * CHUNK])


def _pieces(data: bytes, known: tuple[list[bytes], list[bytes]] | None = None) -> tuple[list[bytes], list[bytes]]:
    """Digests of the pieces of ``data`` from its start and from its end (``known``: the first ones of each)."""
    view = memoryview(data)
    count = -(-len(data) // CHUNK)
    front, back = ([], []) if known is None else (list(known[0]), list(known[1]))
    front.extend(_front(view, k) for k in range(len(front), count))
    back.extend(_back(view, k) for k in range(len(back), count))
    return front, back


def _same_pieces(view: memoryview, old: list[bytes], piece: Any) -> int:
    """How many of the pieces (``_front`` or ``_back``) of ``view`` equal the stored ones."""
    k = 0
    while k < len(old) and k * CHUNK < len(view) and piece(view, k) == old[k]:
        k += 1
    return k


# --- the cache file ------------------------------------------------------------------------


def _read(path: Path) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """The head, the plain part and the pickled part of the cache file of ``path``."""
    with open(_cache_file(path), "rb") as fh:
        blob = fh.read()
    if not blob.startswith(_MAGIC):
        raise ValueError("not a facts file")
    at = len(_MAGIC)
    head_len = int.from_bytes(blob[at : at + 4], "little")
    head = marshal.loads(blob[at + 4 : at + 4 + head_len])
    if not isinstance(head, tuple) or len(head) != 7 or head[0] != _code_key():
        raise ValueError("another schema or code")
    at += 4 + head_len
    if hashlib.sha256(memoryview(blob)[at:]).digest() != head[6]:
        raise ValueError("damaged")
    plain_len = int.from_bytes(blob[at : at + 4], "little")
    plain = marshal.loads(blob[at + 4 : at + 4 + plain_len])
    extra = pickle.loads(blob[at + 4 + plain_len :])  # noqa: S301 - our own cache file, in the user's cache folder
    return head, plain, extra


# the stored parse: per entry its start, line, frontmatter start and end, body start, id and byte offset
# (in the bytes after a BOM); then the preamble's end, the newline, the first unclosed fence
_ROWS = 10


def _parse_of(rows: tuple[Any, ...], extra: tuple[Any, ...], text: str, bom: bool, text_len: int) -> MemoryFile:
    """The stored parse, its entries pointing at ``text`` (of ``text_len`` characters when they were stored)."""
    starts, lines, fm_starts, fm_ends, body_starts, ids, _bstarts, preamble_end, newline, failed_fence = rows
    errors, loaded = extra
    ends = [*starts[1:], text_len] if starts else []
    entries: list[Entry] = list(
        map(Entry, starts, ends, lines, fm_starts, fm_ends, body_starts, ids, itertools.repeat(text))
    )
    for i, error in errors.items():
        entries[i].error = error
    for i, (meta, key_lines) in loaded.items():
        entries[i]._meta, entries[i]._key_lines = meta, key_lines
    return MemoryFile(text=text, bom=bom, preamble_end=preamble_end, entries=entries, newline=newline,
                      failed_fence=failed_fence)


def facts(path: Path, data: bytes, text: str, bom: bool) -> Facts | None:
    """The facts of the memory file ``path`` whose bytes are ``data`` (``text``, ``bom``: decoded); None: a small file."""
    if len(data) < MIN_BYTES:
        return None
    found = None
    with contextlib.suppress(Exception):  # a missing, stale or damaged cache is only a slower check
        found = _from_cache(path, data, text, bom)
    return found if found is not None else compute(parse(text, bom=bom))


def _from_cache(path: Path, data: bytes, text: str, bom: bool) -> Facts | None:
    head, plain, extra = _read(path)
    _key, old_size, old_text_len, old_bom, front, back, _sealed = head
    front = [front[i : i + 16] for i in range(0, len(front), 16)]
    back = [back[i : i + 16] for i in range(0, len(back), 16)]
    view = memoryview(data)
    same_front = _same_pieces(view, front, _front)
    rows = plain[:_ROWS]
    exact, by_tag, secrets, instructions, field_rows, body_rows, link_rows, fences = plain[_ROWS:]
    if old_size == len(data) and same_front == len(front):  # the very bytes the facts were stored for
        mf = _parse_of(rows, extra, text, bom, len(text))
        return Facts(mf, exact, by_tag, [SecretMatch(*s) for s in secrets], instructions,
                     (field_rows + body_rows, link_rows), len(field_rows), fences, fresh=False)
    if old_bom != bom:
        return None
    # the bytes before the first piece that differs, and after the last one, are the old ones
    same_back = _same_pieces(view, back, _back)
    while same_back and (same_front + same_back) * CHUNK > min(len(data), old_size):
        same_back -= 1
    skip = 3 if bom else 0
    starts, bstarts = rows[0], rows[6]
    i = bisect.bisect_right(bstarts, same_front * CHUNK - skip) - 1
    a = starts[i] if i >= 0 else 0  # an entry start in the unchanged head
    k = bisect.bisect_left(bstarts, old_size - skip - same_back * CHUNK) if same_back else len(starts)
    b_old = starts[k] if k < len(starts) else old_text_len  # an entry start in the unchanged tail
    b_new = b_old + len(text) - old_text_len
    if not a <= min(b_old, b_new):
        return None
    # fence-like runs: none in the new text when the old one had none and none meets the changed part
    fences = _has_fences(text) if fences else _has_fences(text[max(0, a - 2) : b_new + 2])
    rows, extra, w = _reparse(rows, extra, text, a, b_old, b_new, len(data) - old_size, fences)
    if not rows[0]:
        return None
    mf = _parse_of(rows, extra, text, bom, len(text))
    found = _update(mf, w, exact, by_tag, [SecretMatch(*s) for s in secrets], instructions,
                    field_rows, body_rows, link_rows, fences)
    if found is not None:
        found.parse_rows, found.pieces = (*rows, *extra), (front[:same_front], back[:same_back])
    return found


class _Moved:
    """The stored entry starts from ``first`` on, as they are after the text moved by ``shift``: ``in`` asks."""

    def __init__(self, starts: list[int], first: int, shift: int) -> None:
        self.starts, self.first, self.shift = starts, first, shift

    def __contains__(self, pos: object) -> bool:
        if not isinstance(pos, int):
            return False
        k = bisect.bisect_left(self.starts, pos - self.shift, self.first)
        return k < len(self.starts) and self.starts[k] == pos - self.shift


def _reparse(
    rows: tuple[Any, ...], extra: tuple[Any, ...], text: str, a: int, b_old: int, b_new: int, byte_shift: int,
    fences: bool,
) -> tuple[tuple[Any, ...], tuple[Any, ...], Rescanned]:
    """``entries.reparse`` on the stored rows: the text changed in ``[a, b_old)``, now ``[a, b_new)``."""
    starts, lines, fm_starts, fm_ends, body_starts, ids, bstarts, preamble_end, _newline, failed_fence = rows
    errors, loaded = extra
    delta = b_new - b_old
    i, start, first_line = rescan_start(starts, fm_starts.__getitem__, lines.__getitem__, preamble_end,
                                        failed_fence, a)
    j = bisect.bisect_left(starts, b_old)
    middle, synced_at, failed = _scan(text, start, first_line, cast("set[int]", _Moved(starts, j, delta)), fences)
    k = len(starts)
    line_shift = 0
    if synced_at is not None:
        k = bisect.bisect_left(starts, synced_at - delta, j)
        line_shift = first_line + text.count("\n", start, synced_at) - lines[k]
    moved = len(middle) - (k - i)

    def join(old: list[Any], new: list[Any], shift: int) -> list[Any]:
        return old[:i] + new + ([x + shift for x in old[k:]] if shift else old[k:])

    # byte offsets of the new blocks: from the last unchanged one before them
    new_b = _byte_starts(text, [e.start for e in middle], *((bstarts[i], start) if start else (0, 0)))
    new_starts = join(starts, [e.start for e in middle], delta)
    if failed is None and failed_fence is not None and failed_fence < start:
        failed = failed_fence
    rows = (
        new_starts, join(lines, [e.line for e in middle], line_shift),
        join(fm_starts, [e.fm_start for e in middle], delta), join(fm_ends, [e.fm_end for e in middle], delta),
        join(body_starts, [e.body_start for e in middle], delta), join(ids, [e.id for e in middle], 0),
        join(bstarts, new_b, byte_shift), new_starts[0] if new_starts else len(text), _newline_of(text), failed,
    )

    def remap(old: dict[int, Any], new: dict[int, Any]) -> dict[int, Any]:
        out = {x: v for x, v in old.items() if x < i}
        out.update(new)
        out.update((x + moved, v) for x, v in old.items() if x >= k)
        return out

    new_errors = {i + t: e.error for t, e in enumerate(middle) if e.error is not None}
    new_loaded = {i + t: (e._meta, e._key_lines) for t, e in enumerate(middle)
                  if e._meta is not None or e._key_lines is not None}
    window = Rescanned(i, len(middle), k, start, len(text) if synced_at is None else synced_at, delta,
                       first_line, line_shift)
    return rows, (remap(errors, new_errors), remap(loaded, new_loaded)), window


# --- computing them: all of a file, or the blocks a change re-read ---------------------------------


def compute(mf: MemoryFile) -> Facts:
    """Every fact of ``mf``, read from its whole text."""
    from .instructions import find_instructions
    from .secrets import TextView, find_secrets

    text = mf.text
    view = TextView(text)
    exact, by_tag = field_facts(mf)
    field_rows, body_rows, link_rows = memory_ref_parts(mf)
    return Facts(mf, exact, by_tag, find_secrets(text, view=view), find_instructions(text, view=view),
                 (field_rows + body_rows, link_rows), len(field_rows), _has_fences(text))


def _has_fences(text: str) -> bool:
    return "```" in text or "~~~" in text


def _update(
    mf: MemoryFile, w: Rescanned, exact: list[int], by_tag: dict[str, list[int]], secrets: list[SecretMatch],
    instructions: list[tuple[str, int, int]], field_rows: list[IdRefRow], body_rows: list[IdRefRow],
    link_rows: list[LinkRow], fences: bool,
) -> Facts | None:
    """The stored facts of the old file, with those of the blocks ``w`` re-read computed again."""
    from .instructions import find_instructions
    from .secrets import find_secrets

    if any(r[0] is None for r in field_rows):
        return None
    text = mf.text
    lo, hi = w.start, w.stop
    hi_old = hi - w.shift
    moved = w.count - (w.old_end - w.first)  # entries added (removed: negative)
    entries = mf.entries
    tail = w.first + w.count  # the first entry after the blocks re-read, if any
    stop_line_old = entries[tail].line - w.line_shift if tail < len(entries) else None
    # field scan: entry indices
    new_exact, new_tags = field_facts(mf, w.first, w.first + w.count)
    i = bisect.bisect_left(exact, w.first)
    j = bisect.bisect_left(exact, w.old_end)
    exact = exact[:i] + new_exact + ([k + moved for k in exact[j:]] if moved else exact[j:])
    tags: dict[str, list[int]] = {}
    for tag, where in by_tag.items():
        i = bisect.bisect_left(where, w.first)
        j = bisect.bisect_left(where, w.old_end)
        now = where[:i] + new_tags.pop(tag, []) + ([k + moved for k in where[j:]] if moved else where[j:])
        if now:
            tags[tag] = now
    tags.update(new_tags)
    # keys in the order the file first names them: by first entry, then by place on its tags line
    by_tag = dict(sorted(tags.items(), key=lambda kv: (kv[1][0], _rank(entries[kv[1][0]], kv[0]))))
    # secrets and instructions: character offsets
    part = text[lo:hi]
    d = w.shift
    if "-----BEGIN" in text:  # a private key may span blocks
        secrets = find_secrets(text)
    else:
        secrets = _splice(secrets, attrgetter("start"), lo, hi_old, [
            SecretMatch(s.kind, s.start + lo, s.end + lo, s.value) for s in find_secrets(part)
        ], (lambda s: SecretMatch(s.kind, s.start + d, s.end + d, s.value)) if d else None)
    instructions = _splice(instructions, itemgetter(1), lo, hi_old, [
        (kind, a + lo, b + lo) for kind, a, b in find_instructions(part)
    ], (lambda t: (t[0], t[1] + d, t[2] + d)) if d else None)
    # references: line numbers
    whole_links = fences  # the new text (or the old one: then it still has them) has fence-like runs
    new_field, new_body, new_links = memory_ref_parts(mf, w.first, w.first + w.count, lo, hi, w.line,
                                                      links=not whole_links)
    down = (lambda r: (r[0] + w.line_shift, *r[1:])) if w.line_shift else None
    field_rows = _splice(field_rows, itemgetter(0), w.line, stop_line_old, new_field, down)
    body_rows = _splice(body_rows, itemgetter(0), w.line, stop_line_old, new_body, down)
    if whole_links:
        link_rows = memory_ref_parts(mf, ids=False)[2]
    else:
        link_rows = _splice(link_rows, itemgetter(0), w.line, stop_line_old, new_links, down)
    return Facts(mf, exact, by_tag, secrets, instructions, (field_rows + body_rows, link_rows), len(field_rows),
                 fences)


def _rank(e: Entry, tag: str) -> int:
    tags = e.tags
    return tags.index(tag) if tag in tags else len(tags)


def _splice(
    old: list[Any], at: Callable[[Any], int], lo: int, hi: int | None, new: list[Any], move: Callable[[Any], Any] | None,
) -> list[Any]:
    """The items of ``old`` at (``at``) before ``lo``, then ``new``, then those at ``hi`` or later (none when
    ``hi`` is None), each ``move``d."""
    i = bisect.bisect_left(old, lo, key=at)
    j = len(old) if hi is None else bisect.bisect_left(old, hi, lo=i, key=at)
    return old[:i] + new + (old[j:] if move is None else [move(x) for x in old[j:]])


# --- storing them ----------------------------------------------------------------------------


def store(path: Path, data: bytes, found: Facts) -> None:
    """Save ``found`` (the facts of ``path``, whose bytes are ``data``); failures are ignored."""
    if len(data) < MIN_BYTES or not found.fresh:
        return
    mf = found.mf
    es = mf.entries
    if found.parse_rows is not None:
        rows, (errors, loaded) = found.parse_rows[:_ROWS], found.parse_rows[_ROWS:]
        for i in found.exact:  # read during the check: stored read
            e = es[i]
            if e._meta is not None and i not in loaded:
                loaded[i] = (e._meta, e._key_lines)
    else:
        if any(a.end != b.start for a, b in zip(es, es[1:], strict=False)) or (es and es[-1].end != len(mf.text)):
            return  # not the shape a whole-file parse gives
        rows = (
            [e.start for e in es], [e.line for e in es], [e.fm_start for e in es], [e.fm_end for e in es],
            [e.body_start for e in es], [e.id for e in es], _byte_starts(mf.text, [e.start for e in es]), mf.preamble_end, mf.newline,
            mf.failed_fence,
        )
        errors = {i: e.error for i, e in enumerate(es) if e.error is not None}
        loaded = {i: (e._meta, e._key_lines) for i, e in enumerate(es) if e._meta is not None or e._key_lines is not None}
    front, back = _pieces(data, found.pieces)
    id_rows, link_rows = found.refs
    plain = (
        *rows, found.exact, found.by_tag, [(s.kind, s.start, s.end, s.value) for s in found.secrets],
        found.instructions, id_rows[: found.n_field], id_rows[found.n_field :], link_rows, found.fences,
    )
    with contextlib.suppress(Exception):
        body = marshal.dumps(plain, _MARSHAL)
        rest = b"".join([len(body).to_bytes(4, "little"), body, pickle.dumps((errors, loaded), protocol=5)])
        head = (_code_key(), len(data), len(mf.text), mf.bom, b"".join(front), b"".join(back),
                hashlib.sha256(rest).digest())  # the seal: a damaged file is not read
        head_blob = marshal.dumps(head, _MARSHAL)
        blob = b"".join([_MAGIC, len(head_blob).to_bytes(4, "little"), head_blob, rest])
        target = _cache_file(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(blob)
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
        found.fresh = False
        _prune(target.parent)


def _byte_starts(text: str, starts: list[int], b: int = 0, c: int = 0) -> list[int]:
    """The byte offsets (after a BOM) of the character offsets ``starts``, counted from char ``c`` at byte ``b``."""
    out = []
    for start in starts:
        b += len(text[c:start].encode("utf-8", "surrogateescape"))
        c = start
        out.append(b)
    return out


def _prune(folder: Path) -> None:
    """Keep the cache files of the ``KEEP`` memory files checked last (the others may be long gone)."""
    with contextlib.suppress(OSError):
        facts = sorted(folder.glob("*.facts"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in facts[KEEP:]:
            old.unlink(missing_ok=True)
