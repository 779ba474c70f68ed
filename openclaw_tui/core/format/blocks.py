"""Verified rewrites of whole blocks of a memory file.

``rewrite`` replaces, removes or inserts blocks and returns the new text, touching no other byte,
then proves the new text parses into exactly the intended blocks: each edited run is re-parsed
with its neighbours (a ``---`` left at the end of a body could pair with the next opening line),
and the whole file when a new block holds a code-fence line.  A rewrite that would change how
anything else parses raises ``EditError``.  ``edit_raw`` edits one entry's raw text on its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .edit import EditError, set_body, set_fields
from .entries import MemoryFile, _newline_of, parse

_FENCE_LINE_RE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.M)


@dataclass(frozen=True)
class Block:
    """A block to write: its raw text and the id it must parse as (None: any, for kept raws)."""

    raw: str
    id: str | None


def _single(raw: str, entry_id: str) -> MemoryFile:
    mini = parse(raw)
    if len(mini.entries) != 1 or mini.preamble_end != 0 or mini.entries[0].id != entry_id:
        raise EditError(f"{entry_id} cannot be edited on its own")
    return mini


def edit_raw(raw: str, entry_id: str, changes: Mapping[str, Any], body: str | None = None) -> str:
    """New raw text of one entry with ``changes`` (see ``edit.set_fields``) and maybe a new body."""
    text = raw
    if changes:
        text = set_fields(_single(text, entry_id), entry_id, changes)
    if body is not None:
        new_id = changes.get("id", entry_id)
        if not isinstance(new_id, str):
            new_id = entry_id
        text = set_body(_single(text, new_id), new_id, body)
    return text


def _expect_ok(kind: str, got: Sequence[tuple[str, str | None, bool]], want: Sequence[Block]) -> None:
    if len(got) != len(want):
        raise EditError(f"the {kind} would not parse as intended (a block would merge or split)")
    for (raw, ident, ok), block in zip(got, want, strict=True):
        if raw != block.raw:
            raise EditError(f"the {kind} would not parse as intended (block boundaries move)")
        if block.id is not None and (not ok or ident != block.id):
            raise EditError(f"the {kind} would not parse as intended ({block.id} would not be a valid entry)")


def rewrite(mf: MemoryFile, edits: Mapping[int, Sequence[Block]], append: Sequence[Block] = ()) -> str:
    """New text of ``mf`` with block ``k`` replaced by ``edits[k]`` (empty: removed) and ``append`` added;
    every block but the file's last gets a line ending if it lacks one."""
    blocks = mf.entries
    n = len(blocks)
    text = mf.text
    todo: dict[int, list[Block]] = {k: list(v) for k, v in edits.items()}
    if any(k < 0 or k >= n for k in todo):
        raise EditError("no such block")
    prefix_fix = ""
    if append:
        todo[n] = list(append)
        if text and not text.endswith("\n"):
            if n and (n - 1) not in todo:
                last = blocks[n - 1]
                todo[n - 1] = [Block(last.raw + _newline_of(last.raw, mf.newline), last.id if last.error is None else None)]
            elif not n:
                prefix_fix = mf.newline
    if not todo:
        return text
    keys = sorted(todo)
    clusters: list[list[int]] = []
    for k in keys:
        if clusters and clusters[-1][-1] == k - 1:
            clusters[-1].append(k)
        else:
            clusters.append([k])
    pieces: list[str] = []
    written: dict[int, list[Block]] = {}  # first key of a run -> the run's blocks as written
    pos = 0
    fenced = False
    for cluster in clusters:
        a, b = cluster[0], cluster[-1]
        start = blocks[a].start if a < n else len(text)
        end = blocks[b].end if b < n else len(text)
        after = b + 1 if b + 1 < n else None  # the unchanged block after the run
        run = [blk for k in cluster for blk in todo[k]]
        keep = len(run) - 1 if after is None else -1  # the file's last block keeps its ending as it is
        new = written[a] = [
            blk if blk.raw.endswith("\n") or i == keep else Block(blk.raw + _newline_of(blk.raw, mf.newline), blk.id)
            for i, blk in enumerate(run)
        ]
        segment = "".join(blk.raw for blk in new)
        fix = prefix_fix if a == 0 else ""
        fenced = fenced or bool(_FENCE_LINE_RE.search(segment))
        left = mf.preamble + fix if a == 0 else blocks[a - 1].raw
        right = blocks[after].raw if after is not None else ""
        check = parse(left + segment + right)
        got = [(e.raw, e.id, e.error is None) for e in check.entries]
        want = ([] if a == 0 else [Block(left, None)]) + new + ([] if after is None else [Block(right, None)])
        if a == 0 and check.preamble != left:
            raise EditError("the edit would not parse as intended (the preamble would change)")
        _expect_ok("edit", got, want)
        pieces.append(text[pos:start])
        pieces.append(fix + segment)
        pos = end
    pieces.append(text[pos:])
    new_text = "".join(pieces)
    if fenced:
        # a fence line can pair with one anywhere in the file: check the whole file
        expected_all: list[str] = []
        for k in range(n + 1):
            if k in written:
                expected_all.extend(blk.raw for blk in written[k])
            elif k < n and k not in todo:
                expected_all.append(blocks[k].raw)
        full = parse(new_text)
        if full.preamble != mf.preamble + prefix_fix or [e.raw for e in full.entries] != expected_all:
            raise EditError("the edit would change how the rest of the file parses (an unbalanced code fence?)")
    return new_text
