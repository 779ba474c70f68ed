"""Where a reference sits in its file's bytes (``locate``), and whether it can be cut out cleanly
(``removal``): shared by ``suggest.py`` and ``repair.py`` so that both name the same best repair."""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from itertools import accumulate
from typing import Protocol, TypeVar
from urllib.parse import quote

from ..files.profile import ARCHIVE_REL, Profile
from .refs import Ref


class _Cand(Protocol):
    @property
    def action(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def why(self) -> str: ...
    @property
    def kind(self) -> str: ...


C = TypeVar("C", bound=_Cand)


# --- bytes of a reference ----------------------------------------------------------------


def file_bytes(profile: Profile, rel: str) -> bytes | None:
    if rel == "memories.md" and profile.memories is not None:
        return profile.memories.data
    if rel == ARCHIVE_REL and profile.archive is not None:
        return profile.archive.data
    for f in profile.text_files():
        if f.rel == rel:
            return f.data
    return None


_FEW_LINES = 2048  # up to this line, walking from the start is cheaper than an index
_index: list[tuple[bytes, array[int]]] = []  # the newline index of the last big file asked (kept alive with it)


def _line_starts(data: bytes) -> array[int]:
    for held, starts in _index:
        if held is data:
            return starts
    starts = array("q", [0])
    starts.extend(accumulate(len(row) + 1 for row in data.split(b"\n")))
    _index[:] = [(data, starts)]
    return starts


def line_bounds(data: bytes, line: int) -> tuple[int, int]:
    """Byte offsets of line ``line`` (1-based) without its line ending."""
    if line <= _FEW_LINES:
        pos = 0
        for _ in range(line - 1):
            nl = data.find(b"\n", pos)
            if nl < 0:
                return len(data), len(data)
            pos = nl + 1
    else:
        starts = _line_starts(data)
        if line - 1 >= len(starts) - 1:
            return len(data), len(data)
        pos = starts[line - 1]
    end = data.find(b"\n", pos)
    end = len(data) if end < 0 else end
    if end > pos and data[end - 1 : end] == b"\r":
        end -= 1
    return pos, end


def written(ref: Ref) -> list[str]:
    """How the reference may be written in its file, likeliest first."""
    if ref.target_id is not None:
        return [ref.text or ref.target_id]
    return list(dict.fromkeys([ref.text, quote(ref.text, safe="/#?&=+@:")]))


_ASCII_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


LONG_LINE = 20_000  # bytes: on a longer line (a hostile flood of links) no reference is cut out or rewritten unasked
_hits: list[tuple[bytes, dict[tuple[int, bytes], list[tuple[int, int]]]]] = []  # the last file's occurrences


def locate(data: bytes, line: int, forms: Sequence[str], nth: int = 0) -> tuple[int, int] | None:
    """Byte offsets of the ``nth`` whole-word occurrence of the reference on ``line`` (found once per file,
    line and form: a line with thousands of references is not rescanned)."""
    memo = next((m for held, m in _hits if held is data), None)
    if memo is None:
        memo = {}
        _hits[:] = [(data, memo)]
    a = b = -1
    for form in forms:
        needle = form.encode("utf-8", "surrogateescape")
        hits = memo.get((line, needle))
        if hits is None:
            if a < 0:
                a, b = line_bounds(data, line)
            hits = []
            start = a
            while True:
                i = data.find(needle, start, b)
                if i < 0:
                    break
                j = i + len(needle)
                before = data[i - 1] if i > a else 32
                after = data[j] if j < b else 32
                if before not in _ASCII_WORD and before not in b"./" and after not in _ASCII_WORD and after != 0x2F:
                    hits.append((i, j))
                start = i + 1
            memo[(line, needle)] = hits
        if len(hits) > nth:
            return hits[nth]
    return None


# --- removal -----------------------------------------------------------------------------

_ITEM_RE = re.compile(rb"^([ \t]*)-[ \t]+(['\"]?)([^\s'\"#]+)\2[ \t]*(#.*)?$")
_KEYVAL_RE = re.compile(rb"^([ \t]*)([^\s:#][^:#]*?|['\"][^'\"]*['\"])[ \t]*:[ \t]+(['\"]?)([^\s'\"#]+)\3[ \t]*(#.*)?$")
_FLOW_ITEM_RE = re.compile(rb"\[[^\[\]\n]*\]")
_LINK_RE = re.compile(rb"!?\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\([^\n]*?\)")


def removal(profile: Profile, ref: Ref, span: tuple[int, int]) -> tuple[int, int, bytes] | None:
    """(start, end, replacement) that removes the reference, or None when it cannot be cut out cleanly:
    a state.yaml item or ``key: id`` line, a reference field's line or list item, a link (its text stays)."""
    found = _line_of(profile, ref)
    if found is None:
        return None
    data, a, b = found
    row = data[a:b]
    full_end = b + (2 if data[b : b + 2] == b"\r\n" else 1 if data[b : b + 1] == b"\n" else 0)
    s, e = span
    state = ref.kind in ("state", "state-path")
    if state or ref.kind in ("conflict", "superseded_by", "merged_from") or ref.kind.startswith("field:"):
        m = _ITEM_RE.match(row) or _KEYVAL_RE.match(row)  # a row never matches both
        if m is not None and data[s:e] == _value(m):
            if m.re is _ITEM_RE and not _more_items(data, a, full_end, m.group(1)):
                return None  # the list's only item: removing it would leave a key holding null
            return a, full_end, b""
        for fm in () if state else _FLOW_ITEM_RE.finditer(row):
            lo, hi = a + fm.start(), a + fm.end()
            if lo < s and e < hi:
                items = [x.strip() for x in data[lo + 1 : hi - 1].split(b",")]
                if len(items) < 2 or data[s:e] not in items:
                    return None
                kept = [x for x in items if x != data[s:e]]
                return lo, hi, b"[" + b", ".join(kept) + b"]"
        return None
    if ref.kind == "link":
        for lm in _LINK_RE.finditer(row):
            lo, hi = a + lm.start(), a + lm.end()
            if lo < s and e < hi and not lm.group(0).startswith(b"!"):
                return lo, hi, lm.group(1)
    return None


def _line_of(profile: Profile, ref: Ref) -> tuple[bytes, int, int] | None:
    """The bytes of the reference's file and its line's bounds; None when unread or longer than ``LONG_LINE``."""
    data = file_bytes(profile, ref.file)
    if data is None or ref.line is None:
        return None
    a, b = line_bounds(data, ref.line)
    return None if b - a > LONG_LINE else (data, a, b)


def _value(m: re.Match[bytes]) -> bytes:
    """The value of a state.yaml ``- value`` or ``key: value`` line."""
    return m.group(4) if m.re is _KEYVAL_RE else m.group(3)


def _more_items(data: bytes, a: int, full_end: int, indent: bytes) -> bool:
    """True when a neighbouring line is another item of the same block list."""
    prev_start = data.rfind(b"\n", 0, max(0, a - 1)) + 1 if a > 0 else -1
    rows = []
    if prev_start >= 0 and a > 0:
        rows.append(data[prev_start : a - 1])
    nxt_end = data.find(b"\n", full_end)
    rows.append(data[full_end : len(data) if nxt_end < 0 else nxt_end])
    return any(re.match(re.escape(indent) + rb"-[ \t]", r.rstrip(b"\r")) for r in rows)


def whole_value(profile: Profile, ref: Ref, span: tuple[int, int]) -> bool:
    """Whether the reference is a whole value (a reference field's, a state.yaml ``key: id`` / ``- id``):
    only then is rewriting it certain enough to do unasked."""
    if ref.kind in ("conflict", "superseded_by", "merged_from") or ref.kind.startswith("field:"):
        return True
    if ref.kind not in ("state", "state-path"):
        return False
    found = _line_of(profile, ref)
    if found is None:
        return False
    data, a, b = found
    m = _ITEM_RE.match(data[a:b]) or _KEYVAL_RE.match(data[a:b])
    return m is not None and data[span[0] : span[1]] == _value(m)


def removal_why(ref: Ref) -> str:
    if ref.kind in ("state", "state-path"):
        return "drop this line of state.yaml" if ref.kind == "state" else "drop this path from state.yaml"
    if ref.kind == "link":
        return "unlink: keep the link's text"
    return f"drop it from {ref.kind.removeprefix('field:')}"


# --- order ---------------------------------------------------------------------------------


def order_candidates(cands: list[C]) -> list[C]:
    """Repair candidates or suggestions: certain kinds first; a guess after removal unless it stands out."""
    rank = {"superseded": 0, "archive": 1, "merged": 2, "git": 3, "git-file": 4, "chain": 5, "cold": 6}
    strong = [c for c in cands if c.kind in rank]
    strong.sort(key=lambda c: rank[c.kind])
    guesses = [c for c in cands if c.kind in ("typo", "file")]
    weak = [c for c in cands if c.kind == "context"]  # sharing words only: never before removal
    removes = [c for c in cands if c.kind == "remove"]
    first_guess_clear = bool(guesses) and ("one of" not in guesses[0].why or "shares" in guesses[0].why)
    if guesses and guesses[0].kind == "file":
        first_guess_clear = len(guesses) == 1 or "100%" in guesses[0].why
    out = strong + (guesses + removes if first_guess_clear else removes + guesses) + weak
    unique: dict[tuple[str, str], C] = {}
    for c in out:
        unique.setdefault((c.action, c.target), c)
    return list(unique.values())
