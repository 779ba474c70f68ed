"""Editing one entry as text: its frontmatter as YAML and its body, or its whole raw block.

``raw_problems`` says what is wrong with an edited block and ``plan_replace`` swaps that one block
(a malformed one too: how a broken entry is fixed by hand).  The blank lines after an entry are not
part of what the reviewer edits: ``EntryParts`` keeps them aside and puts them back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..files.store import MemoryDoc
from ..format.blocks import Block
from ..format.edit import DELETE, EditError, changed_value, form_changes, normalise_newlines
from ..format.entries import Entry, _newline_of, parse
from ..format.fields import field_error
from .operations import Builder, Target
from .plan import Files, Plan

_SPLIT = (",", "，", "、")


@dataclass(frozen=True)
class EntryParts:
    """An entry's raw text cut into what a reviewer edits and what stays as it is."""

    opening: str  # the opening ``---`` line with its line ending
    frontmatter: str  # the YAML between the two ``---`` lines
    closing: str  # the closing ``---`` line with its line ending
    body: str  # the body without its trailing line breaks
    trailing: str  # the line breaks after the body (the blank line before the next entry)
    newline: str

    @classmethod
    def of(cls, entry: Entry) -> EntryParts:
        text = entry.text_ref
        body = text[entry.body_start : entry.end]
        content = body.rstrip("\r\n")
        return cls(
            text[entry.start : entry.fm_start],
            text[entry.fm_start : entry.fm_end],
            text[entry.fm_end : entry.body_start],
            content,
            body[len(content) :],
            _newline_of(entry.raw),
        )

    @property
    def raw(self) -> str:
        return self.opening + self.frontmatter + self.closing + self.body + self.trailing

    def compose(self, frontmatter: str | None = None, body: str | None = None) -> str:
        """The raw text with a new frontmatter and/or body (line endings made the entry's own)."""
        fm = self.frontmatter if frontmatter is None else normalise_newlines(frontmatter, self.newline)
        if fm and not fm.endswith("\n"):
            fm += self.newline
        content = self.body if body is None else normalise_newlines(body, self.newline).rstrip("\r\n")
        closing = self.closing
        if not closing.endswith("\n") and content:
            closing += self.newline  # the closing --- ended the file
        trailing = self.trailing
        if content and not trailing and self.raw.endswith("\n"):
            trailing = self.newline  # an entry without a body that ended the file: keep the final newline
        return self.opening + fm + closing + content + trailing

    def with_raw(self, raw: str) -> EntryParts:
        """Parts of an edited raw text (the separator after the body is kept from this one)."""
        mf = parse(normalise_newlines(raw, self.newline))
        if len(mf.entries) != 1 or mf.preamble:
            raise EditError("the text is not exactly one entry")
        parts = EntryParts.of(mf.entries[0])
        return replace(parts, trailing=self.trailing, newline=self.newline)


def normalize_raw(new_raw: str, old_raw: str) -> str:
    """An edited raw block with the old block's line endings and trailing blank lines."""
    nl = _newline_of(old_raw)
    text = normalise_newlines(new_raw, nl)
    trailing = old_raw[len(old_raw.rstrip("\r\n")) :]
    return text.rstrip("\r\n") + trailing


# --- validation -----------------------------------------------------------------------------


def raw_problems(new_raw: str, old: Entry | None, taken_ids: set[str]) -> list[str]:
    """What prevents ``new_raw`` from replacing ``old`` (empty when it can be saved); a known field's
    invalid value blocks the save only when the edit set or changed it."""
    mf = parse(new_raw)
    if not mf.entries or mf.preamble.strip():
        return ["the text must start with a --- line followed by the fields (id: …) and a closing ---"]
    if len(mf.entries) != 1:
        return [f"the text holds {len(mf.entries)} entries; an entry's body cannot contain a new entry"]
    entry = mf.entries[0]
    if entry.error is not None:
        return [entry.error]
    problems: list[str] = []
    old_meta = old.meta if old is not None and old.error is None else {}
    old_id = old.id if old is not None else None
    if entry.id != old_id and entry.id in taken_ids:
        problems.append(f"id {entry.id} is already used")
    for key, value in entry.meta.items():
        if not changed_value(old_meta, key, value):
            continue
        error = field_error(key, value)
        if error:
            problems.append(error)
    return problems


def changed_fields(old: Entry | None, new_raw: str) -> list[str]:
    """Names of the fields that differ, then ``body`` (for a plan's ``changed``)."""
    mf = parse(new_raw)
    new = mf.entries[0] if mf.entries else None
    if new is None:
        return []
    if old is None or old.error is not None:
        return ["frontmatter", "body"] if old is None or new.body != old.body else ["frontmatter"]
    out = [k for k in new.meta if changed_value(old.meta, k, new.meta[k])]
    out += [k for k in old.meta if k not in new.meta]
    if new.body != old.body:
        out.append("body")
    return out


# --- the plan --------------------------------------------------------------------------------


def _locate(doc: MemoryDoc, entry_id: str | None, old_raw: str, line: int | None) -> int:
    """Index of the block being edited: the well-formed entry ``entry_id`` (None: any block)
    whose raw text is still ``old_raw``.  Raises EditError when it changed on disk meanwhile."""
    blocks = doc.mf.entries
    if entry_id is not None:
        same = [k for k, e in enumerate(blocks) if e.id == entry_id and e.error is None]
        exact = [k for k in same if blocks[k].raw == old_raw]
        if exact:
            return exact[0]
        if same:
            raise EditError(f"{entry_id} changed on disk since it was opened; nothing was written")
        raise EditError(f"{entry_id} is no longer in {doc.path.name}")
    found = [k for k, e in enumerate(blocks) if e.raw == old_raw]
    if line is not None:
        found.sort(key=lambda k: abs(blocks[k].line - line))
    if found:
        return found[0]
    raise EditError(f"{entry_id or 'the block'} is no longer in {doc.path.name}")


def plan_replace(
    target: Target, file: str, old_raw: str, new_raw: str, *, entry_id: str | None = None, line: int | None = None
) -> Plan:
    """Replace one block of ``memories.md`` (``file="memories"``) or the archive by ``new_raw``.

    ``entry_id`` names a well-formed entry (None: a malformed block, found by its raw text).
    Raises EditError when ``new_raw`` cannot be saved.
    """
    files = Files.of(target)
    doc = files.memories if file == "memories" else files.archive
    k = _locate(doc, entry_id, old_raw, line)
    old = doc.mf.entries[k]
    new_raw = normalize_raw(new_raw, old.raw)
    problems = raw_problems(new_raw, old, files.all_ids())
    if problems:
        raise EditError("; ".join(problems))
    new_id = parse(new_raw).entries[0].id
    name = entry_id or new_id or "block"
    b = Builder(files, f"edit {name}")
    if new_raw == old.raw:
        plan = Plan(f"edit {name}", [])
    else:
        b.replace(doc, k, [Block(new_raw, new_id)])
        if old.id is not None:
            b.touch(doc, old.id)
        plan = b.build()
        what = changed_fields(old, new_raw)
        if what and new_id is not None:
            plan.changed[new_id] = what
    plan.rebuild = lambda: plan_replace(files.reload(), file, old_raw, new_raw, entry_id=entry_id, line=line)
    return plan


# --- form values -------------------------------------------------------------------------------


def parse_list(text: str) -> list[str]:
    """Items of a comma-separated list (``,``, ``，`` or ``、``), stripped, empty ones and repeats dropped."""
    for sep in _SPLIT[1:]:
        text = text.replace(sep, ",")
    return list(dict.fromkeys(item for part in text.split(",") if (item := part.strip())))


def format_list(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def id_value(text: str, was_list: bool) -> Any:
    """An id field from its text: DELETE when empty, a list when several ids (or it was one)."""
    ids = parse_list(text)
    if not ids:
        return DELETE
    if len(ids) == 1 and not was_list:
        return ids[0]
    return ids


__all__ = [
    "EntryParts", "changed_fields", "form_changes", "format_list", "id_value", "normalize_raw", "parse_list",
    "plan_replace", "raw_problems",
]
