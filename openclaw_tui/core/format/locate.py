"""Find one entry of a big memory file without parsing the others.

``locate(text, id)`` returns a *window*: the first well-formed entry with that id and its
neighbours, as ``Entry`` objects with the very offsets a full ``parse`` gives them, or ``ABSENT``
when no well-formed entry has that id.  It reads only the blocks around each place the id occurs.

Where it cannot be sure it answers ``None`` and the caller parses the whole file: a code-fence line
(a fence can hide a ``---`` line far away), a backslash (a YAML escape could spell the id), an id
with whitespace or of digits alone (YAML reads ``0x10`` as 16), or no resynchronisation point
nearby.  Without fences, whether a ``---`` line opens a block depends only on the blocks just
before it: after a stretch that is not frontmatter, the next ``---`` always opens one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .entries import (
    _DELIM_RE,
    _ID_LINE_RE,
    _NL_DELIM_RE,
    _SIMPLE_BLOCK_RE,
    BOM,
    Entry,
    MemoryFile,
    _newline_of,
    classify_block,
)

ABSENT = "absent"
MAX_STEPS = 64  # blocks walked back before giving up (None: parse the whole file)
MAX_HITS = 256  # places the id occurs before giving up
_NUMERIC_RE = re.compile(r"[-+]?[0-9_]+")

Block = tuple[str, str | None, dict[str, Any] | None, dict[str, int] | None, str | None]


class _Unsure(Exception):
    pass


@dataclass
class Window:
    """Consecutive entries of a file, at their true offsets."""

    entries: list[Entry]
    index: int  # the entry that was looked for
    first: bool  # entries[0] is the file's first entry (the text before it is the preamble)
    hit: int = 0  # char offset of the occurrence of the id that found it ...
    nth: int = 0  # ... which is its nth occurrence in the text (and so in the file's bytes)


def id_eligible(entry_id: str) -> bool:
    """True when an entry with this id always writes it literally (no whitespace, not digits alone)."""
    return bool(entry_id) and not any(c.isspace() for c in entry_id) and not _NUMERIC_RE.fullmatch(entry_id)


def file_eligible(text: str, data: bytes | None = None) -> bool:
    """True when the text has no fence line, no backslash and no second BOM (``data``: faster to search)."""
    if text.startswith(BOM):
        return False
    hay: str | bytes = text if data is None else data
    for needle in ("```", "~~~", "\\"):
        n: str | bytes = needle if data is None else needle.encode()
        if n[:1] in hay and n in hay:  # type: ignore[operator]  # the first character alone is a quick memchr
            return False
    return True


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.steps = 0
        self._kind: dict[int, Block] = {}

    def next_delim(self, pos: int) -> int | None:
        """Start of the first ``---`` line at or after ``pos``."""
        text = self.text
        if pos <= 0 and _DELIM_RE.match(text):
            return 0
        m = _NL_DELIM_RE.search(text, max(pos - 1, 0))
        return None if m is None else m.start() + 1

    def prev_delim(self, pos: int) -> int | None:
        """Start of the last ``---`` line starting before ``pos``."""
        text = self.text
        bound = pos + 2  # "\n---" found below it starts a line at or before pos - 1
        while True:
            i = text.rfind("\n---", 0, bound)
            if i < 0:
                return 0 if pos > 0 and _DELIM_RE.match(text) else None
            if _DELIM_RE.match(text, i + 1):
                return i + 1
            bound = i + 3  # the next candidate starts before this one

    def block(self, d: int, close: int) -> Block:
        """How the scan reads the stretch between the ``---`` lines at ``d`` and ``close`` (as ``_scan``)."""
        got = self._kind.get(d)
        if got is not None:
            return got
        text = self.text
        nl = text.find("\n", d)
        fm_start = close if nl < 0 else nl + 1
        result: Block | None = None
        if _SIMPLE_BLOCK_RE.fullmatch(text, fm_start, close):
            m = _ID_LINE_RE.search(text, fm_start, close)
            if m is not None and m.group(1)[0] not in "'\"[":
                result = ("entry", m.group(1), None, None, None)
        if result is None:
            result = classify_block(text[fm_start:close], 1)
        self._kind[d] = result
        return result

    def _step(self, limit: int) -> None:
        self.steps += 1
        if self.steps > limit:
            raise _Unsure

    def opens(self, d: int) -> bool:
        """True when the scan takes the ``---`` line at ``d`` as an opening line."""
        flips = 0
        while True:
            self._step(MAX_STEPS)
            p = self.prev_delim(d)
            if p is None:
                return flips % 2 == 0  # the first ``---`` line of the file opens
            if self.block(p, d)[0] == "text":
                return flips % 2 == 0  # after a stretch that is not frontmatter, a line opens
            flips += 1  # p opens -> d closes p's block; p closes -> d opens
            d = p

    def entry(self, d: int) -> Entry | None:
        """The entry opening at ``d`` (an opening line), with its end; None: a text stretch."""
        text = self.text
        close = self.next_delim(d + 1)
        if close is None:
            return None
        kind, ident, meta, key_lines, error = self.block(d, close)
        if kind == "text":
            return None
        nl = text.find("\n", d)
        fm_start = close if nl < 0 else nl + 1
        nl = text.find("\n", close)
        body_start = len(text) if nl < 0 else nl + 1
        nxt = self.following(body_start)
        end = len(text) if nxt is None else nxt
        return Entry(d, end, 0, fm_start, close, body_start, ident, text, meta, key_lines, error)

    def following(self, pos: int) -> int | None:
        """Start of the first entry at or after ``pos`` (a place where the scan looks for an opening line)."""
        d = self.next_delim(pos)
        while d is not None:
            self._step(4 * MAX_STEPS)
            close = self.next_delim(d + 1)
            if close is None:
                return None
            if self.block(d, close)[0] != "text":
                return d
            d = close
        return None

    def preceding(self, start: int) -> int | None:
        """Start of the entry just before the one at ``start`` (None: it is the first)."""
        d = self.prev_delim(start)
        while d is not None:
            self._step(4 * MAX_STEPS)
            nxt = self.next_delim(d + 1)
            if nxt is not None and self.opens(d) and self.block(d, nxt)[0] != "text":
                return d
            d = self.prev_delim(d)
        return None


def locate(text: str, entry_id: str, data: bytes | None = None, *, checked: bool = False) -> Window | str | None:
    """The entry before (if any), the entry, the entry after (if any); ``ABSENT``; or None (parse it all).
    ``data`` (the bytes of ``text``) makes the first checks faster; ``checked``: ``file_eligible`` holds."""
    if not id_eligible(entry_id) or not (checked or file_eligible(text, data)):
        return None
    reader = _Reader(text)
    try:
        pos = text.find(entry_id)
        hits = 0
        while pos >= 0:
            hits += 1
            if hits > MAX_HITS:
                return None
            reader.steps = 0
            d = reader.prev_delim(pos)
            close = reader.next_delim(pos)
            if d is not None and close is not None and reader.opens(d):
                kind, ident, _, _, error = reader.block(d, close)
                if kind == "entry" and error is None and ident == entry_id:
                    reader.steps = 0
                    window = _window(reader, d)
                    window.hit, window.nth = pos, hits - 1
                    return window
            pos = text.find(entry_id, pos + 1)
    except _Unsure:
        return None
    return ABSENT


def _window(reader: _Reader, d: int) -> Window:
    target = reader.entry(d)
    assert target is not None
    window = [target]
    before = reader.preceding(d)
    if before is not None:
        prev = reader.entry(before)
        assert prev is not None
        window.insert(0, prev)
    if target.end < len(reader.text):
        after = reader.entry(target.end)
        assert after is not None
        window.append(after)
    text = reader.text
    line = 1 + text.count("\n", 0, window[0].start)
    for a, b in zip(window, window[1:], strict=False):
        a.line = line
        line += text.count("\n", a.start, b.start)
    window[-1].line = line
    return Window(window, 0 if before is None else 1, before is None)


def window_file(text: str, bom: bool, windows: list[Window]) -> MemoryFile:
    """A ``MemoryFile`` over the whole text holding only the entries of ``windows`` (merged, in order),
    for ``blocks.rewrite`` of entries whose neighbours it holds."""
    merged = {e.start: e for w in windows for e in w.entries}
    entries = [merged[k] for k in sorted(merged)]
    first = any(w.first for w in windows)
    preamble_end = entries[0].start if first and entries else 0
    return MemoryFile(text=text, bom=bom, preamble_end=preamble_end, entries=entries, newline=_newline_of(text))


def byte_offset(text: str, data: bytes, window: Window, entry_id: str, x: int) -> int | None:
    """Offset in ``data`` (the UTF-8 bytes of ``text``, BOM removed) of char offset ``x``, found from the
    window's nth occurrence of the id (UTF-8 is self-synchronising); None: the anchor is not there."""
    needle = entry_id.encode("utf-8")
    b = -1
    for _ in range(window.nth + 1):
        b = data.find(needle, b + 1)
        if b < 0:
            return None
    if x <= window.hit:
        return b - len(text[x : window.hit].encode("utf-8", "surrogateescape"))
    return b + len(text[window.hit : x].encode("utf-8", "surrogateescape"))


def sub_file(view: MemoryFile, lo: int, hi: int) -> MemoryFile:
    """The part ``[lo, hi)`` of a window's text (from one of its entries' start, or 0, to the end of its
    last), as a file of its own holding the window's entries (offsets moved)."""
    text = view.text[lo:hi]
    entries = []
    for e in view.entries:
        moved = Entry(e.start - lo, e.end - lo, e.line, e.fm_start - lo, e.fm_end - lo, e.body_start - lo, e.id,
                      text, e._meta, e._key_lines, e.error)
        entries.append(moved)
    preamble_end = entries[0].start if entries else len(text)
    return MemoryFile(text=text, bom=view.bom, preamble_end=preamble_end, entries=entries,
                      newline=view.newline)
