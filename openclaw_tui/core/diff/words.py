"""Word-level differences between two texts (CJK character by character), and between two entries' fields."""

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
    return [Run(op, "".join(ta[i1:i2]), "".join(tb[j1:j2])) for op, i1, i2, j1, j2 in sm.get_opcodes()]


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
    skipped = set(skip)
    names = [n for n in dict.fromkeys([*order, *a, *b]) if n not in skipped and (n in a or n in b)]
    return [FieldPair(n, a.get(n, MISSING), b.get(n, MISSING)) for n in names]


__all__ = ["DELETE", "EQUAL", "INSERT", "MISSING", "REPLACE", "FieldPair", "Run", "meta_diff", "similarity", "tokens",
           "word_diff"]
