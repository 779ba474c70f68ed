"""The check's scan of every entry's frontmatter fields, read from the text at once (``field_facts``)."""

from __future__ import annotations

import bisect
import re

from ..format.entries import MemoryFile

_BOOL = r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)"
_TAIL = r"(?:[ \t]+#[^\n]*)?[ \t]*\r?\n"
_DATE = r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])"
_TIME = r"[Tt](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?"
_OFFSET = r"(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)"
_WORD = rf"(?!{_BOOL}(?:[ \t]|\r?\n))[^\W\d]"
# Values that are valid for sure when a field's line holds them in this plain form.  A field line
# in any other form is a *suspect*: its entry's frontmatter is then read and validated exactly.
_GOOD: dict[str, str] = {
    "id": rf"{_WORD}\S*",
    "timestamp": _DATE + _TIME + _OFFSET,
    "source": rf"{_WORD}(?:\S|[ \t]+(?![#\s]))*",
    "importance": r"(?:high|medium|low)",
    "status": r"active",  # any other status makes its entry a suspect: that is how inactive entries are found
    "last_hit": _DATE,
    "archived_at": _DATE + _TIME + f"{_OFFSET}?",
}
# One pass finds every suspect line, and every line of a field whose entries are always read exactly
# (ttl, conflict, superseded_by, merged_from: rare, and their values matter beyond validity).
_EXACT_RE = re.compile(
    r"\n(?:"
    + "|".join(
        [rf"{name}[ \t]*:(?![ \t]+{good}{_TAIL})" for name, good in _GOOD.items()]
        + [rf"{name}[ \t]*:" for name in ("ttl", "conflict", "superseded_by", "merged_from")]
    )
    + ")"
)
_TAGS_RE = re.compile(rf"\ntags[ \t]*:(?:[ \t]+\[([^\n\[\]{{}}]*)\]{_TAIL})?")
_TAG_ITEM_RE = re.compile(rf"(?!{_BOOL}\Z)[^\W\d](?:[^'\"#:{{}}\[\],\s]|[ \t]+(?=\S))*")


def field_facts(mf: MemoryFile, first: int = 0, stop: int | None = None) -> tuple[list[int], dict[str, list[int]]]:
    """The field scan of entries ``[first, stop)`` of ``mf``: (the entries to read exactly: a suspect field
    line, a ttl or reference field, tags not in flow style; tag -> the other entries carrying it).
    Every other entry is active and its known fields are valid."""
    entries = mf.entries
    stop = len(entries) if stop is None else stop
    if stop <= first:
        return [], {}
    text = mf.text
    lo, hi = entries[first].start, entries[stop - 1].end
    starts = [e.start for e in entries[first:stop]]
    exact: dict[int, None] = {}
    bisect_right = bisect.bisect_right
    for m in _EXACT_RE.finditer(text, lo, hi):
        pos = m.start() + 1
        i = bisect_right(starts, pos) - 1
        if i < 0:
            continue
        e = entries[first + i]
        if e.error is None and e.fm_start <= pos < e.fm_end:
            exact[first + i] = None
    by_tag: dict[str, list[int]] = {}
    part_tag: dict[str, str] = {}  # a raw flow-list item -> its tag, or "" when YAML must read it
    for m in _TAGS_RE.finditer(text, lo, hi):
        pos = m.start() + 1
        i = first + bisect_right(starts, pos) - 1
        if i < first:
            continue
        e = entries[i]
        if e.error is not None or pos >= e.fm_end or i in exact:
            continue
        items = m.group(1)
        if items is None:
            exact[i] = None
            continue
        tags = []
        for part in items.split(","):
            tag = part_tag.get(part)
            if tag is None:
                stripped = part.strip(" \t")
                tag = part_tag[part] = stripped if _TAG_ITEM_RE.fullmatch(stripped) else ""
            if not tag:
                break
            tags.append(tag)
        else:
            for tag in dict.fromkeys(tags) if len(tags) > 1 else tags:  # a tag named twice: its entry once
                where = by_tag.get(tag)
                if where is None:
                    by_tag[tag] = [i]
                else:
                    where.append(i)
            continue
        if items.strip(" \t"):
            exact[i] = None  # not a simple flow list: read it exactly
    return sorted(exact), by_tag
