"""Word-level differences between two texts, and between two entries' fields.

``tokens`` splits text into words, runs of spaces, single punctuation marks
and single CJK characters (Chinese and Japanese have no spaces between words,
so each character is a token).  ``word_diff`` aligns the tokens of two texts
with difflib and returns runs marked equal / delete / insert / replace, which
a UI colours on each side.  ``meta_diff`` lines up two entries' fields.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b\u3040-\u30ff\u3100-\u312f\u3190-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
)
_TOKEN_RE = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])\w)+|\s+|.", re.S)

EQUAL, DELETE, INSERT, REPLACE = "equal", "delete", "insert", "replace"
MISSING: Any = object()  # a field one side does not have


def tokens(text: str) -> list[str]:
    """Words, whitespace runs, punctuation marks and CJK characters, in order; ``"".join`` gives ``text``."""
    return _TOKEN_RE.findall(text)


@dataclass(frozen=True)
class Run:
    """A stretch of the two texts: ``a`` (left side) and ``b`` (right side) for ``op``."""

    op: str  # equal, delete (only in a), insert (only in b), replace
    a: str
    b: str


def word_diff(a: str, b: str) -> list[Run]:
    """The two texts as aligned runs of tokens (``"".join(r.a)`` is ``a``, ``"".join(r.b)`` is ``b``)."""
    ta, tb = tokens(a), tokens(b)
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    runs: list[Run] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        runs.append(Run(op, "".join(ta[i1:i2]), "".join(tb[j1:j2])))
    return runs


def similarity(a: str, b: str) -> float:
    """Share of tokens the two texts have in common (1.0: the same)."""
    return difflib.SequenceMatcher(None, tokens(a), tokens(b), autojunk=False).ratio()


@dataclass(frozen=True)
class FieldPair:
    """One field of two entries; ``MISSING`` when a side lacks it."""

    name: str
    a: Any
    b: Any

    @property
    def differs(self) -> bool:
        return self.a is MISSING or self.b is MISSING or self.a != self.b


def meta_diff(a: Mapping[str, Any], b: Mapping[str, Any], order: Sequence[str] = (), skip: Iterable[str] = ()) -> list[FieldPair]:
    """Every field of either entry: ``order`` first, then ``a``'s other fields, then ``b``'s."""
    names: list[str] = []
    skipped = set(skip)
    for name in [*order, *a, *b]:
        if name not in names and name not in skipped and (name in a or name in b):
            names.append(name)
    return [FieldPair(n, a.get(n, MISSING), b.get(n, MISSING)) for n in names]




# --- line diffs of whole files, fast on big memory files ----------------------------------------
#
# difflib on the lines of a 100k-entry file is slow: ``---``, ``status: active`` and blank
# lines repeat thousands of times.  Lines are first grouped into chunks (a chunk starts at a
# ``---`` line and after a blank line), which are nearly all unique; the chunks are aligned,
# and only the chunks that differ are compared line by line.

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


def _merge(codes: list[Opcode]) -> list[Opcode]:
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
    head = 0
    limit = min(len(a), len(b))
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    codes: list[Opcode] = [(EQUAL, 0, head, 0, head)]
    ma, mb = a[head : len(a) - tail], b[head : len(b) - tail]
    ca, cb = _chunks(ma), _chunks(mb)
    ka = ["".join(ma[s:e]) for s, e in ca]
    kb = ["".join(mb[s:e]) for s, e in cb]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb).get_opcodes():
        a1 = ca[i1][0] if i1 < len(ca) else len(ma)
        a2 = ca[i2 - 1][1] if i2 > i1 else a1
        b1 = cb[j1][0] if j1 < len(cb) else len(mb)
        b2 = cb[j2 - 1][1] if j2 > j1 else b1
        if op == EQUAL or op in (DELETE, INSERT):
            codes.append((op, head + a1, head + a2, head + b1, head + b2))
            continue
        sub = difflib.SequenceMatcher(None, ma[a1:a2], mb[b1:b2], autojunk=False)
        for sop, s1, s2, t1, t2 in sub.get_opcodes():
            codes.append((sop, head + a1 + s1, head + a1 + s2, head + b1 + t1, head + b1 + t2))
    codes.append((EQUAL, len(a) - tail, len(a), len(b) - tail, len(b)))
    return _merge(codes)


def _grouped(codes: list[Opcode], n: int) -> list[list[Opcode]]:
    """Hunks of opcodes with ``n`` lines of context (as difflib.get_grouped_opcodes)."""
    codes = list(codes) or [(EQUAL, 0, 1, 0, 1)]
    if codes[0][0] == EQUAL:
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = (tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2)
    if codes[-1][0] == EQUAL:
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = (tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n))
    groups: list[list[Opcode]] = []
    group: list[Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == EQUAL and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            groups.append(group)
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == EQUAL):
        groups.append(group)
    return groups


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
    for group in _grouped(line_opcodes(a, b), n):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == EQUAL:
                out.extend(" " + line for line in a[i1:i2])
                continue
            out.extend("-" + line for line in a[i1:i2])
            out.extend("+" + line for line in b[j1:j2])
    return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def line_counts(before: str, after: str) -> tuple[int, int]:
    """(lines added, lines removed) from ``before`` to ``after``."""
    added = removed = 0
    for tag, i1, i2, j1, j2 in line_opcodes(before.splitlines(keepends=True), after.splitlines(keepends=True)):
        if tag != EQUAL:
            removed += i2 - i1
            added += j2 - j1
    return added, removed


__all__ = ["DELETE", "EQUAL", "INSERT", "MISSING", "REPLACE", "FieldPair", "Run", "line_counts", "line_opcodes",
           "meta_diff", "similarity", "tokens", "unified_diff", "word_diff"]
