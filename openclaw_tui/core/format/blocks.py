"""Verified rewrites of whole blocks of a memory file.

``rewrite`` replaces, removes or inserts blocks (entries) of a parsed file
and returns the new text, touching no other byte.  It then proves that the
new text parses into exactly the intended blocks: around each edited run it
re-parses the run with its neighbours (a ``---`` left at the end of a body
could pair with the next entry's opening line), and when a new block holds
a code-fence line, which can hide text far away, it re-parses the whole
file.  A rewrite that would change how anything else parses raises
``EditError`` instead.

``edit_raw`` edits one entry's raw text on its own (fields and/or body), so
editing an entry costs the same in a file of ten entries or of 100,000.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .edit import EditError, set_body, set_fields
from .entries import MemoryFile, parse

_FENCE_LINE_RE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.M)


@dataclass(frozen=True)
class Block:
    """A block to write: its raw text and the id it must parse as (None: any, for kept raws)."""

    raw: str
    id: str | None


def raw_newline(raw: str, default: str = "\n") -> str:
    nl = raw.find("\n")
    if nl < 0:
        return default
    return "\r\n" if nl > 0 and raw[nl - 1] == "\r" else "\n"


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
    """New text of ``mf`` with block ``k`` replaced by ``edits[k]`` (empty: removed) and ``append`` added.

    Every block but the file's last gets a line ending if it lacks one.
    """
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
                todo[n - 1] = [Block(last.raw + raw_newline(last.raw, mf.newline), last.id if last.error is None else None)]
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
    expected_all: list[str] | None = None
    pos = 0
    fenced = False
    for cluster in clusters:
        a, b = cluster[0], cluster[-1]
        start = blocks[a].start if a < n else len(text)
        end = blocks[b].end if b < n else len(text)
        after = b + 1 if b + 1 < n else None  # the unchanged block after the run
        new = [blk for k in cluster for blk in todo[k]]
        at_end = after is None
        for i, blk in enumerate(new):
            if not blk.raw.endswith("\n") and not (at_end and i == len(new) - 1):
                new[i] = Block(blk.raw + raw_newline(blk.raw, mf.newline), blk.id)
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
        expected_all = []
        for k in range(n + 1):
            if k in todo:
                expected_all.extend(blk.raw for blk in _fixed(todo, k, n, clusters, mf.newline))
            elif k < n:
                expected_all.append(blocks[k].raw)
        full = parse(new_text)
        if full.preamble != mf.preamble + prefix_fix or [e.raw for e in full.entries] != expected_all:
            raise EditError("the edit would change how the rest of the file parses (an unbalanced code fence?)")
    return new_text


def _fixed(todo: Mapping[int, Sequence[Block]], k: int, n: int, clusters: list[list[int]], nl: str) -> list[Block]:
    """The blocks written for key ``k``, line endings fixed as ``rewrite`` does."""
    cluster = next(c for c in clusters if k in c)
    at_end = cluster[-1] + 1 >= n
    out: list[Block] = []
    for kk in cluster:
        out.extend(todo[kk])
    fixed = [
        Block(b.raw + raw_newline(b.raw, nl), b.id)
        if not b.raw.endswith("\n") and not (at_end and i == len(out) - 1)
        else b
        for i, b in enumerate(out)
    ]
    offset = sum(len(todo[kk]) for kk in cluster if kk < k)
    return fixed[offset : offset + len(todo[k])]
