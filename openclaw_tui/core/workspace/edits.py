"""Lossless edits of a workspace's MEMORY.md and USER.md, as plans (see lifecycle/plan.py).

A plan is rebuilt on the file's new bytes when it changed meanwhile (the row found again by its
key); only the row's characters change, every other byte (BOM, line endings, bad bytes) stays.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path

from ..files.profile import inside
from ..files.safe_write import ConcurrentModification
from ..format.edit import EditError
from ..format.entries import decode
from ..lifecycle.plan import FileChange, Plan
from .model import (
    BULLET_RE,
    Directive,
    MemRow,
    newline_of,
    parse_directives,
    parse_memory_text,
    split_lines,
)

BOM = b"\xef\xbb\xbf"


def _read(path: Path) -> tuple[bytes | None, str, bool]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, "", False
    text, bom, _ok = decode(data)
    return data, text, bom


def encode(text: str, bom: bool) -> bytes:
    return (BOM if bom else b"") + text.encode("utf-8", "surrogateescape")


def text_plan(path: Path, title: str, transform: Callable[[str], str], *, create: bool = False) -> Plan:
    """A plan that replaces ``path``'s text by ``transform(text)``, rebuilt the same way."""

    if (path.exists() or path.is_symlink()) and not inside(path.parent, path):
        raise EditError(f"{path.name} is a link that leaves its folder; nothing is written through it")

    def build() -> Plan:
        before, text, bom = _read(path)
        if before is None and not create:
            raise EditError(f"{path.name} does not exist")
        after = encode(transform(text), bom)
        return Plan(title, [FileChange(path, before, after)], rebuild=build)

    return build()


def ending_before(text: str, end: int) -> str:
    """The line ending of the line that ends at ``end`` (the document's when it has none)."""
    if text[:end].endswith("\r\n"):
        return "\r\n"
    if text[:end].endswith("\n"):
        return "\n"
    last = text.rfind("\n", 0, end)  # a line without an ending: the one before it shows the style
    if last > 0:
        return "\r\n" if text[last - 1] == "\r" else "\n"
    return newline_of(text)


def _find(text: str, key: str, line: int | None = None) -> MemRow:
    rows = [r for r in parse_memory_text(text) if r.key == key]
    if not rows:
        raise ConcurrentModification(Path("MEMORY.md"), f"no row {key!r} any more")
    if line is None:
        return rows[0]
    return min(rows, key=lambda r: abs(r.line - line))


def _clean(new: str, nl: str) -> str:
    return nl.join(new.replace("\r\n", "\n").split("\n"))


def _check_item_text(new: str) -> None:
    if not new.strip():
        raise EditError("the text is empty; remove the item instead")


def edit_row(path: Path, key: str, new_text: str, line: int | None = None) -> Plan:
    """Replace the text of one item (or the title of one section); its bullet and metadata stay."""
    _check_item_text(new_text)

    def transform(text: str) -> str:
        row = _find(text, key, line)
        new = _clean(new_text.strip(), newline_of(text))
        if row.kind == "section" and "\n" in new_text.strip():
            raise EditError("a section title is one line")
        return text[: row.body_start] + new + text[row.body_end:]

    return text_plan(path, f"edit {key.split(' :: ')[-1][:40] or key}", transform)


def remove_row(path: Path, key: str, line: int | None = None) -> Plan:
    """Remove one item or text row, or a section with everything under it."""

    def transform(text: str) -> str:
        row = _find(text, key, line)
        return text[:row.start] + text[row.section_end if row.kind == "section" else row.end:]

    return text_plan(path, f"remove {key[-50:]}", transform)


def insert_point(section: MemRow, rows: Sequence[MemRow]) -> int:
    """Where a new item of ``section`` goes: after its last own row (before any sub-section)."""
    own_end = section.end
    for r in rows:
        if r.start >= section.section_end:
            break
        if r.start >= section.end:
            if r.kind == "section":
                break
            own_end = r.end
    return own_end


def _insert_items(text: str, section_key: str | None, block: Callable[[str], str], where: str = "") -> str:
    """Insert ``block(nl)`` (lines in the line ending ``nl`` of the place) at the end of section
    ``section_key`` (None: of the text)."""
    rows = parse_memory_text(text)
    section = None
    if section_key is not None:
        section = next((r for r in rows if r.kind == "section" and r.key == section_key), None)
        if section is None:
            raise EditError(f"no section {section_key!r}{where}")
    pos = len(text) if section is None else insert_point(section, rows)
    nl = ending_before(text, pos)
    before = text[:pos]
    prefix = nl if before and not before.endswith("\n") else ""
    last_own = [r for r in rows if section is not None and section.end <= r.start < pos and r.kind != "section"]
    if section is not None and (not last_own or last_own[-1].kind != "item"):
        prefix += nl  # a blank line after the heading (or a text row)
    return before + prefix + block(nl) + text[pos:]


def item_line(body: str, nl: str, bullet: str = "- ") -> str:
    lines = body.strip().replace("\r\n", "\n").split("\n")
    return bullet + (nl + "  ").join(x.strip() for x in lines) + nl


def move_item(path: Path, key: str, section_key: str, line: int | None = None) -> Plan:
    """Move one item (its marker lines and metadata with it) to the end of another section."""

    def transform(text: str) -> str:
        row = _find(text, key, line)
        if row.kind != "item":
            raise EditError("only list items can be moved")
        block = text[row.start:row.end]
        nl = newline_of(text)
        if not block.endswith("\n"):
            block += nl
        return _insert_items(text[: row.start] + text[row.end:], section_key, lambda _nl: block)

    return text_plan(path, f"move {row_title(key)}", transform)


def row_title(key: str) -> str:
    return key.split(" :: ", 1)[-1][:40]


def insert_into_section(text: str, section_key: str | None, bodies: Sequence[str], where: str = "") -> str:
    """``text`` with new items (one per body) at the end of section ``section_key`` (None: of the file)."""
    return _insert_items(text, section_key, lambda nl: "".join(item_line(b, nl) for b in bodies), where)


def append_items(path: Path, section_key: str | None, bodies: Sequence[str], *, title: str = "") -> Plan:
    """Append new items (one per body) to a section of MEMORY.md (None: the end of the file)."""

    def transform(text: str) -> str:
        return insert_into_section(text, section_key, bodies)

    return text_plan(path, title or f"add {len(bodies)} item(s)", transform, create=True)


def strip_metadata(path: Path, key: str, line: int | None = None) -> Plan:
    """Remove dreaming's marker lines above an item and its trailing comments / score bracket."""

    def transform(text: str) -> str:
        row = _find(text, key, line)
        if row.kind != "item":
            raise EditError("only list items carry dreaming's metadata")
        own = next(ln for ln in split_lines(text) if ln.number == row.line)
        tail = text[row.body_end:row.end]
        ending = "\r\n" if tail.endswith("\r\n") else "\n" if tail.endswith("\n") else ""
        return text[: row.start] + text[own.start:row.body_end] + ending + text[row.end:]

    return text_plan(path, f"strip metadata of {row_title(key)}", transform)


# --- USER.md -------------------------------------------------------------------------------------


def _directive(text: str, line: int, expect: str | None = None) -> Directive:
    for d in parse_directives(text):
        if d.line == line and (expect is None or d.text == expect):
            return d
    for d in parse_directives(text):  # lines moved: find it by its text
        if expect is not None and d.text == expect:
            return d
    raise ConcurrentModification(Path("USER.md"), f"no directive at line {line} any more")


def supersede_directive(
    path: Path, line: int, text_now: str | None = None, new_text: str | None = None, today: dt.date | None = None
) -> Plan:
    """Mark one directive superseded in place (only its status word changes); with ``new_text``,
    a new active directive observed ``today`` follows it."""
    today = today or dt.date.today()

    def transform(text: str) -> str:
        d = _directive(text, line, text_now)
        if d.status == "superseded" and new_text is None:
            raise EditError("that directive is superseded already")
        out = text[: d.status_start] + "superseded" + text[d.status_end:]
        if new_text is not None:
            _check_item_text(new_text)
            nl = ending_before(text, d.end)
            end = d.end + len("superseded") - (d.status_end - d.status_start)
            out = _after(out, end, _directive_block(text, d.body_start, new_text, today, nl), nl)
        return out

    return text_plan(path, "supersede a USER.md directive", transform)


def _after(text: str, end: int, block: str, nl: str) -> str:
    """``block`` after a blank line behind the line that ends at ``end``."""
    return text[:end] + ("" if text[:end].endswith("\n") else nl) + nl + block + text[end:]


def _directive_block(text: str, body_start: int, body: str, today: dt.date, nl: str) -> str:
    """A new directive written like the one whose text starts at ``body_start`` (bullet or not)."""
    line_start = text.rfind("\n", 0, body_start) + 1
    bullet = "- " if BULLET_RE.match(text[line_start:body_start]) else ""
    return f"<!-- observed: {today.isoformat()} | status: active -->{nl}" + item_line(body, nl, bullet)


def add_directive(path: Path, body: str, today: dt.date | None = None) -> Plan:
    """Append a new active directive observed ``today`` after the last one (or under a
    "Directives" heading at the end of the file)."""
    today = today or dt.date.today()
    _check_item_text(body)

    def transform(text: str) -> str:
        ds = parse_directives(text)
        nl = ending_before(text, ds[-1].end if ds else 0)
        if ds:
            return _after(text, ds[-1].end, _directive_block(text, ds[-1].body_start, body, today, nl), nl)
        block = f"<!-- observed: {today.isoformat()} | status: active -->{nl}- {body.strip()}{nl}"
        prefix = "" if not text or text.endswith("\n") else nl
        heading = f"{nl}## Directives{nl}{nl}" if text.strip() else f"## Directives{nl}{nl}"
        return text + prefix + heading + block

    return text_plan(path, "add a USER.md directive", transform, create=True)


