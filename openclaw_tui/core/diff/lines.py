"""Line-level differences between two texts: unified diffs, line counts, and line marks with
the changed words inside each line (``words``); ``entry_summary`` names the fields an entry's version changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import groupby
from os.path import commonprefix
from typing import Any

from ..format.entries import parse
from . import words

Segment = tuple[str, bool]  # (text, differs from the other side)
PAIR_SIMILARITY = 0.4  # two lines this alike are one changed line, else one removed and one added


def _merge(segments: list[Segment]) -> list[Segment]:
    """The non-empty segments, neighbours with the same flag joined."""
    return [("".join(t for t, _c in run), changed)
            for changed, run in groupby((seg for seg in segments if seg[0]), key=lambda seg: seg[1])]


def word_diff(a: str, b: str) -> tuple[list[Segment], list[Segment]]:
    """Both texts cut into segments, each flagged when it is not in the other text."""
    runs = words.word_diff(a, b)
    left: list[Segment] = [(r.a, r.op != words.EQUAL) for r in runs]
    right: list[Segment] = [(r.b, r.op != words.EQUAL) for r in runs]
    return _merge(left), _merge(right)


@dataclass(frozen=True)
class LineMark:
    """One line of a text and how it differs from the reference text."""

    text: str  # without its line break
    changed: bool  # the line is not in the reference as it is
    segments: tuple[Segment, ...]  # the line cut into pieces, changed pieces flagged
    whole: bool = False  # nothing like it in the reference (an added line)
    removed: bool = False  # a line of the reference that this text does not have


def _lines(text: str) -> list[str]:
    """The lines of ``text`` without their breaks (no empty one after a final newline)."""
    lines = [ln.rstrip("\r") for ln in text.split("\n")] if text else []
    if text.endswith("\n"):
        lines.pop()
    return lines


def mark_lines(text: str, reference: str | None) -> list[LineMark]:
    """Each line of ``text``, marked where it differs from ``reference`` (None: nothing marked), and the lines
    of the reference missing from ``text`` where they were (``removed=True``)."""
    lines = _lines(text)
    if reference is None:
        return [LineMark(ln, False, ((ln, False),)) for ln in lines]
    ref = _lines(reference)
    out: list[LineMark] = []
    sm = SequenceMatcher(None, lines, ref, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out.extend(LineMark(ln, False, ((ln, False),)) for ln in lines[i1:i2])
            continue
        olds, refs = lines[i1:i2], ref[j1:j2]
        for k in range(max(len(olds), len(refs))):
            ln = olds[k] if k < len(olds) else None
            rf = refs[k] if k < len(refs) else None
            if ln is not None and rf is not None and words.similarity(ln, rf) >= PAIR_SIMILARITY:
                segs, _ = word_diff(ln, rf)
                out.append(LineMark(ln, True, tuple(segs)))
                continue
            if rf is not None:
                out.append(LineMark(rf, True, ((rf, True),), whole=True, removed=True))
            if ln is not None:
                out.append(LineMark(ln, True, ((ln, True),), whole=True))
    return out


# --- entries --------------------------------------------------------------------------------


def _meta_body(raw: str) -> tuple[dict[str, Any], str] | None:
    mf = parse(raw)
    if not mf.entries or mf.entries[0].error:
        return None
    e = mf.entries[0]
    return e.meta, e.body.strip()


def entry_summary(raw: str | None, reference: str | None) -> str:
    """``importance, last_hit (added), body`` — what ``raw`` changed relative to ``reference``."""
    if raw is None:
        return "deleted" if reference is not None else ""
    if reference is None:
        return "new"
    a, b = _meta_body(raw), _meta_body(reference)
    if a is None or b is None:
        return "text changed" if raw != reference else "unchanged"
    parts = [f"{p.name} (added)" if p.b is words.MISSING else f"{p.name} (removed)" if p.a is words.MISSING else p.name
             for p in words.meta_diff(a[0], b[0]) if p.differs]
    if a[1] != b[1]:
        parts.append("body")
    if not parts:
        return "formatting only" if raw.strip() != reference.strip() else "unchanged"
    return ", ".join(parts)


__all__ = ["Segment", "word_diff", "LineMark", "mark_lines", "entry_summary"]


# --- line diffs of whole files, fast on big memory files ----------------------------------------
# Lines are grouped into chunks (starting at a ``---`` line and after a blank line), nearly all unique;
# the chunks are aligned, and only the chunks that differ are compared line by line.

Opcode = tuple[str, int, int, int, int]


def _chunks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) line ranges of the chunks of ``lines``."""
    out: list[tuple[int, int]] = []
    start = 0
    for k, line in enumerate(lines):
        if k > start and (line.rstrip() == "---" or not lines[k - 1].strip()):
            out.append((start, k))
            start = k
    if start < len(lines):
        out.append((start, len(lines)))
    return out


def _merge_codes(codes: list[Opcode]) -> list[Opcode]:
    out: list[Opcode] = []
    for code in codes:
        if code[1] == code[2] and code[3] == code[4]:
            continue
        if out and out[-1][0] == code[0] and out[-1][2] == code[1] and out[-1][4] == code[3]:
            last = out[-1]
            out[-1] = (last[0], last[1], code[2], last[3], code[4])
        else:
            out.append(code)
    return out


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """difflib-style opcodes turning lines ``a`` into lines ``b`` (equal, replace, delete, insert)."""
    head = len(commonprefix([list(a), list(b)]))
    tail = len(commonprefix([list(a[head:])[::-1], list(b[head:])[::-1]]))
    codes: list[Opcode] = [(words.EQUAL, 0, head, 0, head)]
    ma, mb = a[head : len(a) - tail], b[head : len(b) - tail]
    ca, cb = _chunks(ma), _chunks(mb)
    ka = ["".join(ma[s:e]) for s, e in ca]
    kb = ["".join(mb[s:e]) for s, e in cb]
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ka, kb).get_opcodes():
        a1 = ca[i1][0] if i1 < len(ca) else len(ma)
        a2 = ca[i2 - 1][1] if i2 > i1 else a1
        b1 = cb[j1][0] if j1 < len(cb) else len(mb)
        b2 = cb[j2 - 1][1] if j2 > j1 else b1
        if op == words.EQUAL or op in (words.DELETE, words.INSERT):
            codes.append((op, head + a1, head + a2, head + b1, head + b2))
            continue
        sub = SequenceMatcher(None, ma[a1:a2], mb[b1:b2], autojunk=False)
        for sop, s1, s2, t1, t2 in sub.get_opcodes():
            codes.append((sop, head + a1 + s1, head + a1 + s2, head + b1 + t1, head + b1 + t2))
    codes.append((words.EQUAL, len(a) - tail, len(a), len(b) - tail, len(b)))
    return _merge_codes(codes)


class _LineMatcher(SequenceMatcher[str]):
    """difflib's hunks (``get_grouped_opcodes``) over ``line_opcodes`` (no difflib index of the lines is built)."""

    def __init__(self, a: Sequence[str], b: Sequence[str]) -> None:
        self.a, self.b = a, b

    def get_opcodes(self) -> list[Opcode]:  # type: ignore[override]
        return line_opcodes(self.a, self.b)


def _range(start: int, stop: int) -> str:
    length = stop - start
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def unified_diff(before: str, after: str, from_name: str, to_name: str, n: int = 3) -> str:
    """A unified diff of two texts (every line ends with a newline in the output)."""
    a = before.splitlines(keepends=True)
    b = after.splitlines(keepends=True)
    if a == b:
        return ""
    out = [f"--- {from_name}\n", f"+++ {to_name}\n"]
    for group in _LineMatcher(a, b).get_grouped_opcodes(n):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == words.EQUAL:
                out.extend(" " + line for line in a[i1:i2])
                continue
            out.extend("-" + line for line in a[i1:i2])
            out.extend("+" + line for line in b[j1:j2])
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def line_counts(before: str, after: str) -> tuple[int, int]:
    """(lines added, lines removed) from ``before`` to ``after``."""
    added = removed = 0
    for tag, i1, i2, j1, j2 in line_opcodes(before.splitlines(keepends=True), after.splitlines(keepends=True)):
        if tag != words.EQUAL:
            removed += i2 - i1
            added += j2 - j1
    return added, removed
