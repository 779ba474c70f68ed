"""Line-level differences between two texts, with the changed words inside each line.

Words come from ``words`` (CJK text diffs character by character).

``mark_lines(text, reference)`` says, line by line, what of ``text`` is not
in ``reference``: whole lines (added) or words inside a line (changed).
``entry_summary`` names the fields and body an entry's version changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ..format.entries import parse
from . import words

Segment = tuple[str, bool]  # (text, differs from the other side)
PAIR_SIMILARITY = 0.4  # two lines this alike are one changed line, else one removed and one added
tokens = words.tokens


def _merge(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for text, changed in segments:
        if not text:
            continue
        if out and out[-1][1] == changed:
            out[-1] = (out[-1][0] + text, changed)
        else:
            out.append((text, changed))
    return out


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
    removed: bool = False  # a line of the reference that this text does not have (``with_removed``)


def _lines(text: str) -> list[str]:
    return [ln.rstrip("\r") for ln in text.split("\n")] if text else []


def mark_lines(text: str, reference: str | None, with_removed: bool = False) -> list[LineMark]:
    """Each line of ``text``, marked where it differs from ``reference`` (None: nothing marked).

    With ``with_removed``, lines of the reference missing from ``text`` are
    included where they were (``removed=True``).
    """
    lines = _lines(text)
    if lines and lines[-1] == "" and text.endswith("\n"):
        lines.pop()
    if reference is None:
        return [LineMark(ln, False, ((ln, False),)) for ln in lines]
    ref = _lines(reference)
    if ref and ref[-1] == "" and reference.endswith("\n"):
        ref.pop()
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
            if rf is not None and with_removed:
                out.append(LineMark(rf, True, ((rf, True),), whole=True, removed=True))
            if ln is not None:
                out.append(LineMark(ln, True, ((ln, True),), whole=True))
    return out


# --- entries --------------------------------------------------------------------------------


def _meta_body(raw: str | None) -> tuple[dict[str, Any], str] | None:
    if raw is None:
        return None
    mf = parse(raw)
    if not mf.entries or mf.entries[0].error:
        return None
    e = mf.entries[0]
    return e.meta, e.body.strip()


def field_changes(raw: str | None, reference: str | None) -> tuple[list[str], bool]:
    """(names of the fields ``raw`` has differently from ``reference``, body differs)."""
    a, b = _meta_body(raw), _meta_body(reference)
    if a is None or b is None:
        return [], (raw or "") != (reference or "")
    names = [k for k in list(a[0]) + [k for k in b[0] if k not in a[0]] if a[0].get(k, _MISSING) != b[0].get(k, _MISSING)]
    return names, a[1] != b[1]


_MISSING = object()


def entry_summary(raw: str | None, reference: str | None) -> str:
    """``importance, last_hit (added), body`` — what ``raw`` changed relative to ``reference``."""
    if raw is None:
        return "deleted" if reference is not None else ""
    if reference is None:
        return "new"
    a, b = _meta_body(raw), _meta_body(reference)
    if a is None or b is None:
        return "text changed" if raw != reference else "unchanged"
    parts: list[str] = []
    names, body = field_changes(raw, reference)
    for name in names:
        if name not in b[0]:
            parts.append(f"{name} (added)")
        elif name not in a[0]:
            parts.append(f"{name} (removed)")
        else:
            parts.append(name)
    if body:
        parts.append("body")
    if not parts:
        return "formatting only" if raw.strip() != reference.strip() else "unchanged"
    return ", ".join(parts)


__all__ = ["Segment", "tokens", "word_diff", "LineMark", "mark_lines", "field_changes", "entry_summary"]
