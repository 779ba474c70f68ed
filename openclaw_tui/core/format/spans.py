"""Where each block of a memory file starts, found before the file is parsed (and the parse in steps).

In a file whose every block opens with a delimiter line then an ``id:`` line, with no code-fence
run, the delimiter lines pair one after the other (an ``id:`` block always looks like frontmatter,
so it never shifts the pairing): one regular-expression pass finds the block starts
(:func:`block_starts_in_parts`); then any one block parses alone (:func:`entry_at`) and the whole
file in steps with pauses between (:func:`parse_in_steps`), both exactly as ``entries.parse``.  For
any other file the scan answers None and the caller parses the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import repeat

from .entries import _DELIM_RE, _NL_DELIM_RE, BOM, Entry, MemoryFile, _newline_of, _scan

_ID_FIRST_RE = re.compile(r"---[ \r]*\nid[ \t]*:(?:[ \t]|\r?$)", re.M)  # a delimiter line, then an id line
STEP = 4096  # blocks between two pauses (start_lines), blocks parsed per step (parse_in_steps)


FENCE_SLICE = 1 << 22  # characters looked through for a code fence between two pauses


def fenced(text: str, pause: Callable[[], None] | None = None, size: int = FENCE_SLICE, start: int = 0,
           stop: int | None = None) -> bool:
    """A code fence (```` ``` ```` or ``~~~``) starts in ``text[start:stop]``, looked for a slice at a time
    with ``pause()`` in between."""
    stop = len(text) if stop is None else stop
    for at in range(start, stop, size):
        end = min(at + size, stop) + 2  # a fence across the slice's end is in this slice
        if text.find("```", at, end) >= 0 or text.find("~~~", at, end) >= 0:
            return True
        if pause is not None:
            pause()
    return False


PART = 1 << 21  # characters scanned before the first answer of block_starts_in_parts


def block_starts_in_parts(text: str, pause: Callable[[], None] | None = None,
                          part: int | None = None) -> Iterator[tuple[list[int], list[int], int | None] | None]:
    """The start of every block of ``text`` (without its BOM), as ``entries.parse`` finds them, as the
    scan goes: after about ``part`` characters, then twice as many more, and so on, ``(starts, lines, end)`` for the blocks found so far whose end is known (``end``: where
    the next block starts), each a longer run of the same starts; the last is the whole answer with
    ``end`` None.  None instead (once, then nothing) when only the parse can say.

    A run is exact: the text up to ``end`` has no code fence and each start opens with an id line (a
    fence further on only changes what follows it), and ``end`` is a start whose frontmatter closes.
    ``pause()`` runs between parts."""
    if text.startswith(BOM):
        yield None
        return
    part = PART if part is None else part
    looked = 0  # the text before this has no code fence
    opens = _ID_FIRST_RE.match
    delims = [0] if _DELIM_RE.match(text) else []
    starts: list[int] = []
    lines: list[int] = []
    line, at = 1, 0
    mark = part

    def found_upto(k: int) -> bool:
        """Take delims[0:k:2] as starts (each checked, its line counted); False when one is no id line."""
        nonlocal line, at
        new = delims[2 * len(starts) : k : 2]
        if not all(map(opens, repeat(text, len(new)), new)):
            return False
        count, n, last = text.count, line, at
        for pos in new:
            n += count("\n", last, pos)
            last = pos
            lines.append(n)
        line, at = n, last
        starts.extend(new)
        return True

    for m in _NL_DELIM_RE.finditer(text):
        delims.append(m.start() + 1)
        if len(delims) % 2 == 0 and delims[-2] >= mark:  # delims[-2] opens a block whose frontmatter closes
            if fenced(text, pause, start=looked, stop=m.end()) or not found_upto(len(delims) - 1):
                yield None  # (up to the frontmatter of the block at ``end``)
                return
            looked = m.end()
            if len(starts) > 1:
                yield starts[:-1], lines[:-1], starts[-1]
            part *= 2  # runs twice as long each time: a filter looking through each run again costs at most
            mark = delims[-2] + part  # twice its look through the whole file (1M entries: 7 runs, not 90)
            if pause is not None:
                pause()
    # the whole answer: an odd last delimiter opens nothing (the parse stops there too)
    if fenced(text, pause, start=looked) or not found_upto(len(delims) - (len(delims) % 2)):
        yield None
        return
    yield starts, lines, None


def entry_at(text: str, starts: list[int], i: int, line: int, end: int | None = None) -> Entry:
    """Block ``i`` of ``text`` (``starts``: from :func:`block_starts_in_parts`, or a run followed by the start
    ``end``; ``line``: the line it starts on), exactly as ``entries.parse(text)`` reads it."""
    sync = {starts[i + 1]} if i + 1 < len(starts) else ({end} if end is not None else None)
    found, _, _ = _scan(text, starts[i], line, sync, fences=False)
    entry = found[0]
    if sync is None:
        entry.end = len(text)
    return entry


def start_lines(text: str, starts: list[int], pause: Callable[[], None] | None = None) -> list[int]:
    """The line number each of ``starts`` (increasing positions) is on; ``pause()`` every few thousand."""
    out: list[int] = []
    line, at, count = 1, 0, text.count
    for i, pos in enumerate(starts):
        line += count("\n", at, pos)
        at = pos
        out.append(line)
        if pause is not None and i % STEP == STEP - 1:
            pause()
    return out


def parse_in_steps(text: str, bom: bool, starts: list[int], pause: Callable[[], None] | None = None,
                   step: int = STEP) -> MemoryFile:
    """``entries.parse(text, bom)`` (for ``starts`` from :func:`block_starts_in_parts`), parsed ``step`` blocks at a
    time with ``pause()`` in between."""
    entries: list[Entry] = []
    line, at = 1, 0
    for a in range(0, len(starts), step):
        b = a + step
        sync = {starts[b]} if b < len(starts) else None
        line += text.count("\n", at, starts[a])
        at = starts[a]
        found, _, _ = _scan(text, at, line, sync, fences=False)
        entries += found
        if pause is not None and sync is not None:
            pause()
    if entries:
        entries[-1].end = len(text)
    return MemoryFile(text=text, bom=bom, preamble_end=entries[0].start if entries else len(text), entries=entries,
                      newline=_newline_of(text), failed_fence=None)
