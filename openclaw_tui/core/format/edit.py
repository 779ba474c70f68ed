"""Minimal text edits of a parsed memory file: each function returns the new text of the whole file
(without BOM) in which only the edited entry's edited lines changed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .entries import Entry, MemoryFile, _newline_of
from .scalars import quoted, render_scalar


class EditError(ValueError):
    """The edit cannot be made (unknown id, malformed entry...)."""


DELETE = object()  # sentinel value: remove the field


def _entry(mf: MemoryFile, entry_id: str) -> Entry:
    entry = mf.get(entry_id)
    if entry is None:
        raise EditError(f"no entry with id {entry_id}")
    return entry


def _split_lines(text: str) -> list[str]:
    """Lines with their endings (only ``\\n`` ends a line)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


_TOP_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*|\"[^\"]*\"|'[^']*')[ \t]*:(?:[ \t]|\r?$)")


def _key_of(line: str) -> str | None:
    m = _TOP_KEY_RE.match(line.rstrip("\n"))
    if not m:
        return None
    key = m.group(1)
    return key[1:-1] if key[0] in "'\"" else key


def field_spans(frontmatter: str) -> dict[str, tuple[int, int]]:
    """Top-level key -> (first line index, end line index exclusive) in the frontmatter."""
    lines = _split_lines(frontmatter)
    spans: dict[str, tuple[int, int]] = {}
    current: str | None = None
    start = 0
    last_content = 0

    def close(end: int) -> None:
        if current is not None and current not in spans:
            spans[current] = (start, end)

    literal = False  # the current value is a block scalar (| or >): its "# ..." lines are text
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        if not body.strip() or body.startswith("#"):
            continue  # blank lines and top-level comments belong to no field
        if body[0] in " \t-":
            if current is not None and (literal or not body.lstrip(" \t").startswith("#")):
                last_content = i + 1  # indented continuation or block-list item (not a comment)
            continue
        close(last_content)
        current, start, last_content = _key_of(line), i, i + 1
        m = _TOP_KEY_RE.match(body)
        literal = m is not None and body[m.end() :].lstrip(" \t").startswith(("|", ">"))
    close(last_content)
    return spans


def _comment_start(value_part: str) -> int:
    """Index of a trailing ``#`` comment (with its leading blanks) in ``value_part``, or -1."""
    quote: str | None = None
    i = 0
    while i < len(value_part):
        c = value_part[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                if quote == "'" and value_part[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                quote = None
        elif c in "'\"" and (i == 0 or value_part[i - 1] in " \t[,{"):
            quote = c
        elif c == "#" and i > 0 and value_part[i - 1] in " \t":
            j = i
            while j > 0 and value_part[j - 1] in " \t":
                j -= 1
            return j
        i += 1
    return -1


def render_value(value: Any) -> str:
    """One-line YAML of a field value: ``render_scalar``, except that strings inside flow
    lists/mappings are quoted when they hold a flow indicator (``[0[]`` would be invalid)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow_item(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow_item(k)}: {_flow_item(v)}" for k, v in value.items()) + "}"
    return render_scalar(value)


def _flow_item(value: Any) -> str:
    if isinstance(value, (list, tuple, dict)):
        return render_value(value)
    text = render_scalar(value)
    if isinstance(value, str) and text == value and any(c in value for c in "[]{},"):
        return quoted(value)
    return text


def _render_field(key: str, value: Any, nl: str, block_indent: str | None) -> list[str]:
    if isinstance(value, list) and block_indent is not None and value:
        return [f"{key}:{nl}"] + [f"{block_indent}- {render_scalar(v)}{nl}" for v in value]
    return [f"{key}: {render_value(value)}{nl}"]


def changed_value(old: Mapping[str, Any], key: str, value: Any) -> bool:
    """Whether setting ``key`` to ``value`` changes ``old`` (a value of another type counts)."""
    return key not in old or old[key] != value or type(old[key]) is not type(value)


def form_changes(old: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``values`` that differ from ``old`` (``DELETE`` for ones to remove): what an edit changes."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if value is DELETE:
            if key in old:
                out[key] = DELETE
        elif changed_value(old, key, value):
            out[key] = value
    return out


def set_fields(mf: MemoryFile, entry_id: str, changes: Mapping[str, Any]) -> str:
    """Set (or with ``DELETE`` remove) top-level fields of one entry."""
    entry = _entry(mf, entry_id)
    nl = _newline_of(entry.raw)
    lines = _split_lines(entry.frontmatter)
    spans = field_spans(entry.frontmatter)
    replacements: list[tuple[int, int, list[str]]] = []
    appended: list[str] = []
    for key, value in changes.items():
        if key in spans:
            a, b = spans[key]
            if value is DELETE:
                replacements.append((a, b, []))
                continue
            first = lines[a]
            eol = first[len(first.rstrip("\r\n")) :] or nl
            if b - a == 1:
                head, _, rest = first.rstrip("\r\n").partition(":")
                lead = rest[: len(rest) - len(rest.lstrip(" \t"))] or " "
                value_part = rest[len(lead) :] if rest.strip() else ""
                cut = _comment_start(value_part) if value_part else -1
                comment = value_part[cut:] if cut >= 0 else ""
                if value_part.strip() == "" and isinstance(value, list) and value:
                    replacements.append((a, b, _render_field(key, value, eol, "  ")))
                    continue
                replacements.append((a, b, [f"{head}:{lead}{render_value(value)}{comment}{eol}"]))
            else:
                item = re.match(r"([ \t]*)-[ \t]", lines[a + 1]) if a + 1 < len(lines) else None
                indent = item.group(1) if item else None
                head = first.rstrip("\r\n").partition(":")[0]
                replacements.append((a, b, _render_field(head, value, eol, indent)))
        elif value is not DELETE:
            appended.extend(_render_field(key, value, nl, None))
    for a, b, new in sorted(replacements, reverse=True):
        lines[a:b] = new
    if appended:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += nl
        lines.extend(appended)
    new_fm = "".join(lines)
    text = mf.text
    return text[: entry.fm_start] + new_fm + text[entry.fm_end :]


def normalise_newlines(text: str, nl: str) -> str:
    text = text.replace("\r\n", "\n")
    return text.replace("\n", nl) if nl != "\n" else text


def set_body(mf: MemoryFile, entry_id: str, body: str) -> str:
    entry = _entry(mf, entry_id)
    nl = _newline_of(entry.raw)
    body = normalise_newlines(body, nl)
    is_last = entry.end == len(mf.text)
    if body and not body.endswith("\n") and (not is_last or mf.text.endswith("\n")):
        body += nl  # the file keeps (or lacks) its final newline
    if body and entry.body_start > 0 and mf.text[entry.body_start - 1] != "\n":
        body = nl + body  # the closing --- ended the file without a newline
    if not _trailing(body):  # a new body replaces what the entry says, not the blank lines parting it
        body += _trailing(entry.body)  # from the next entry (unless it brings its own)
    return mf.text[: entry.body_start] + body + mf.text[entry.end :]


def _trailing(text: str) -> str:
    """The blank lines after ``text``'s last non-blank line (all of it when it is blank)."""
    k = len(text.rstrip(" \t\r\n"))
    if k == 0:
        return text
    end = text.find("\n", k)
    return text[end + 1 :] if end >= 0 else ""


def render_entry(meta: Mapping[str, Any], body: str, nl: str = "\n") -> str:
    """Text of a new entry: ``---``, one line per field, ``---``, body."""
    lines = ["---" + nl]
    for key, value in meta.items():
        lines.extend(_render_field(key, value, nl, None))
    lines.append("---" + nl)
    body = normalise_newlines(body, nl)
    if body and not body.endswith(nl):
        body += nl
    return "".join(lines) + body


