"""Re-indexing a memory file around an edit: only the entries near it are read again, the rows after it move
with their blocks.  The old text comes from the write (``before``) or from the stored rows (``_edit_around``)."""

from __future__ import annotations

import hashlib
import sqlite3
from os.path import commonprefix
from typing import TYPE_CHECKING

from .index_files import _parser
from .index_rows import (
    IndexRows,
    _block_at,
    _entry_piece,
    _Piece,
    _rows_in,
    chunk_hash,
)
from .reader import _JOIN

if TYPE_CHECKING:
    from ..files.reload import ChangedRegion


class _Edit:
    """An edit found from the stored rows (``Index._edit_around``): the new text's ``[at, new_end)`` replaced
    ``old_mid``; ``line``, ``z_old`` and ``z_new`` narrow it as ``reload.ChangedRegion`` does (``_window``)."""

    __slots__ = ("at", "new_end", "old_mid", "line", "z_old", "z_new")

    def __init__(self, text: str, at: int, old_mid: str, new_end: int) -> None:
        new_mid = text[at:new_end]
        same = len(commonprefix([old_mid, new_mid]))
        tail = len(commonprefix([old_mid[same:][::-1], new_mid[same:][::-1]]))
        self.at, self.new_end, self.old_mid = at, new_end, old_mid
        self.line = text.rfind("\n", 0, at + same) + 1
        self.z_old = at + len(old_mid) - tail
        self.z_new = new_end - tail


def _digest_around_is(text: str, data: bytes | None, bom: bool, edit: _Edit, digest: str) -> bool:
    """The bytes of ``text`` with ``edit.old_mid`` put back in place have the SHA-1 ``digest``.

    ``data``: the bytes ``text`` was decoded from (a BOM first when ``bom``), hashed in place around the edit.
    """
    mark = b"\xef\xbb\xbf" if bom else b""
    try:
        if data is None:
            data = mark + text.encode("utf-8")
        elif data.startswith(b"\xef\xbb\xbf") != bom:
            return False
        size = len(data) - len(mark)
        mid = len(text[edit.at : edit.new_end].encode("utf-8"))
        if edit.at <= len(text) - edit.new_end:
            head = len(text[: edit.at].encode("utf-8"))
            tail = size - head - mid
        else:
            tail = len(text[edit.new_end :].encode("utf-8"))
            head = size - tail - mid
        old_mid = edit.old_mid.encode("utf-8")
    except UnicodeEncodeError:
        return False
    if head < 0 or tail < 0:
        return False
    view = memoryview(data)
    h = hashlib.sha1(view[: len(mark) + head])
    h.update(old_mid)
    h.update(view[len(data) - tail :])
    return h.hexdigest() == digest


class IndexEdits(IndexRows):
    """Re-indexing the entries around an edit of a memory file (``Index`` refreshes and writes through it)."""

    def _window_from_rows(self, db: sqlite3.Connection, key: str, text: str, old_digest: str | None = None,
                          bom: bool = False, data: bytes | None = None) -> tuple[int, int] | None:
        """``_window`` for a file another program changed, its old text put back from the stored rows: the
        few an edit changed (``_edit_around``, with ``old_digest``, the SHA-1 of the bytes they were made from),
        else every row when they tile the file exactly.  None: re-index it whole."""
        if old_digest is not None:
            found = self._edit_around(db, key, text, old_digest, bom, data)
            if found is not None:
                return self._window(db, key, found[0], text, found[1])
        parts: list[str] = []
        at = 0
        for start, end, raw in db.execute(
                f"SELECT b.off + c.rstart, b.off + c.rend, t.raw FROM {_JOIN} JOIN texts t ON t.rowid = c.rowid"
                " WHERE c.path = ? ORDER BY c.blk, c.rstart", (key,)):
            if start != at or len(raw) != end - start:
                return None
            parts.append(raw)
            at = end
        if not parts:
            return None
        from ..files.reload import ChangedRegion

        old = "".join(parts)
        return self._window(db, key, len(old), text, ChangedRegion(old, text))

    @staticmethod
    def _edit_around(db: sqlite3.Connection, key: str, text: str, old_digest: str, bom: bool,
                     data: bytes | None = None) -> tuple[int, _Edit] | None:
        """(the old text's length, the edited region with its old text) of a file changed since its rows were
        made, or None (edits in several places, an edit keeping the length, rows not tiling what changed).

        Two binary searches over the places: the first row whose text is no longer its hash, then the first
        of the rows after it that all hold their text shifted by the change of length.  The result is
        checked against the indexed bytes' SHA-1 ``old_digest``: never a wrong text.
        """
        probe = db.cursor()

        def row_at(x: int) -> tuple[int, int, int] | None:
            """The row whose place begins at or before ``x`` (old offsets), the last such."""
            block = _block_at(probe, key, x)
            if block is None:
                return None
            found: tuple[int, int, int] | None = probe.execute(
                f"SELECT b.off + c.rstart, b.off + c.rend, c.rowid FROM {_JOIN} WHERE c.path = ? AND c.blk = ?"
                " AND c.rstart <= ? ORDER BY c.rstart DESC LIMIT 1", (key, block[0], x - block[1])).fetchone()
            if found is None:  # the block's rows all begin after x: the last row of the blocks before it
                found = probe.execute(f"SELECT b.off + c.rstart, b.off + c.rend, c.rowid FROM {_JOIN}"
                                      " WHERE c.path = ? AND c.blk < ? ORDER BY c.blk DESC, c.rstart DESC LIMIT 1",
                                      (key, block[0])).fetchone()
            return found

        def same(row: tuple[int, int, int], shift: int) -> bool:
            start, end, rowid = row
            if start + shift < 0 or end + shift > len(text):
                return False
            (h,) = probe.execute("SELECT hash FROM chunks WHERE rowid = ?", (rowid,)).fetchone()
            return bool(h == chunk_hash(text[start + shift : end + shift]))

        def bisect(lo: int, hi: int, shift: int, found_right: bool) -> int | None:
            """Where in [lo, hi] the rows stop holding their text (``shift``ed) or start to; None: a gap."""
            while lo < hi:
                row = row_at((lo + hi) // 2)
                if row is None or row[1] <= lo:
                    return None  # a gap in the rows: not a tiling
                if same(row, shift) == found_right:
                    lo = row[1]
                else:
                    hi = row[0]
            return lo

        # the first row's start and the last one's end, from the index of places
        first = db.execute(f"SELECT b.off + c.rstart FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk, c.rstart LIMIT 1",
                           (key,)).fetchone()
        last = db.execute(f"SELECT b.off + c.rend FROM {_JOIN} WHERE c.path = ? ORDER BY c.blk DESC, c.rstart DESC"
                          " LIMIT 1", (key,)).fetchone()
        if first is None or last is None:
            return None
        (first_start,), (old_len,) = first, last  # the last row ends the old file (checked by the digest below)
        delta = len(text) - old_len
        if delta == 0:  # the rows after the edit hold their text in place too: no binary search finds it
            return None
        at = bisect(first_start, old_len, 0, True)  # the first changed row starts there
        end = None if at is None else bisect(at, old_len, delta, False)  # the rows after it hold their text shifted
        if at is None or end is None:
            return None
        if end <= at:  # text added between two rows (or at the end): every row holds its text
            if delta <= 0:
                return None
            old_mid = ""
            end = at
        else:
            changed = _rows_in(db, key, at, end, "b.off + c.rstart, b.off + c.rend, c.rowid")
            if (len(changed) > 500 or changed[0][0] != at or changed[-1][1] != end
                    or any(a[1] != b[0] for a, b in zip(changed, changed[1:], strict=False))):
                return None
            raws = dict(db.execute(f"SELECT rowid, raw FROM texts WHERE rowid IN ({','.join('?' * len(changed))})",
                                   [r for _s, _e, r in changed]).fetchall())
            if len(raws) != len(changed):
                return None
            old_mid = "".join(raws[r] for _s, _e, r in changed)
        edit = _Edit(text, at, old_mid, end + delta)
        if not _digest_around_is(text, data, bom, edit, old_digest):
            return None
        return old_len, edit

    def _window(self, db: sqlite3.Connection, key: str, old_len: int, text: str, edit: ChangedRegion | _Edit
                ) -> tuple[int, int] | None:
        """Re-index the entries of a memory file around an ``edit`` from the text indexed (``old_len`` long) to ``text``.

        The entries are re-read from the one before the edit until an entry start that did not move; unchanged
        chunks keep their rows, the rows after the edit move with their blocks.  Returns (inserted, deleted)
        rows, or None when it cannot (an edit in the preamble or the first entry, an unclosed fence).
        """
        delta = edit.z_new - edit.z_old
        # the file's rows near the edit: the two entries before it, up to 64 entry starts after it
        lo, hi = max(0, edit.line - 65_536), edit.z_old + 262_144
        near = _rows_in(db, key, lo, hi, "b.off + c.rstart, b.line + c.rline, c.rowid, c.hash, c.kind")
        around = [(st, ln) for st, ln, _r, _h, kind in near if kind != "preamble" and st <= edit.line][-2:][::-1]
        if len(around) < 2 and lo > 0:
            at = _block_at(db, key, edit.line)
            around = [] if at is None else db.execute(
                f"SELECT b.off + c.rstart, b.line + c.rline FROM {_JOIN} WHERE c.path = ? AND c.kind != 'preamble'"
                " AND (c.blk < ? OR c.blk = ? AND c.rstart <= ?) ORDER BY c.blk DESC, c.rstart DESC LIMIT 2",
                (key, at[0], at[0], edit.line - at[1])).fetchall()
        if len(around) < 2:
            return None
        start, first_line = around[1]
        after = [(st, ln) for st, ln, _r, _h, kind in near if kind != "preamble" and st >= max(edit.z_old, start + 1)][:64]
        # fences matter from the window on only (``entries._fence_iter``): not looked for in the text before it
        fences = text.find("```", start) >= 0 or text.find("~~~", start) >= 0
        middle, synced, failed = _parser()._scan(text, start, first_line, {s + delta for s, _l in after}, fences)
        if failed is not None or not middle or middle[0].start != start:
            return None
        if synced is None:
            middle[-1].end = len(text)
            end_old = old_len + 1
            shift_lines = 0
        else:
            end_old = synced - delta
            old_line = next(line for s, line in after if s == end_old)
            shift_lines = first_line + text.count("\n", start, synced) - old_line
        pool: dict[str, list[int]] = {}
        if start >= lo and end_old <= hi:
            between = [(r, h) for st, _l, r, h, _k in reversed(near) if start <= st < end_old]
        else:
            between = [(r, h) for _s, r, h in reversed(_rows_in(db, key, start, end_old,
                                                                 "b.off + c.rstart, c.rowid, c.hash"))]
        for rowid, h in between:
            pool.setdefault(h, []).append(rowid)
        pieces = [_entry_piece(text, e) for e in middle]
        # the window's rows go to the block of its first one (W); the rows after it move with their blocks
        w = _block_at(db, key, start)
        if w is None:
            return None
        wblk, woff, wline = w
        moved: list[tuple[int, int, int, int, int, int, int]] = []
        new: list[_Piece] = []
        hashes: list[str] = []
        for p in pieces:
            h = chunk_hash(text[p.start:p.end])
            same = pool.get(h)
            if same:
                moved.append((wblk, p.start - woff, p.end - woff, p.body_start - p.start, p.line - wline,
                              p.end_line - wline, same.pop()))
            else:
                new.append(p)
                hashes.append(h)
        gone = [r for lst in pool.values() for r in lst]
        self._delete_rows(db, key, gone)
        new_end = len(text) if synced is None else synced  # where the rows after the window begin now
        inside = db.execute("SELECT blk, off, line FROM blocks WHERE path = ? AND blk > ? AND off <= ?",
                            (key, wblk, end_old)).fetchall()  # blocks based inside the window
        if delta or shift_lines:
            db.execute("UPDATE chunks SET rstart = rstart + ?, rend = rend + ?, rline = rline + ?,"
                       " rend_line = rend_line + ? WHERE path = ? AND blk = ? AND rstart >= ?",
                       (delta, delta, shift_lines, shift_lines, key, wblk, end_old - woff))
            db.execute("UPDATE blocks SET off = off + ?, line = line + ? WHERE path = ? AND blk > ? AND off > ?",
                       (delta, shift_lines, key, wblk, end_old))
        for blk, off, line in inside:  # based where the rows after the window begin (theirs moved to W)
            db.execute("UPDATE blocks SET off = ?, line = ? WHERE blk = ?", (new_end, line + shift_lines, blk))
            if off + delta != new_end:
                db.execute("UPDATE chunks SET rstart = rstart + ?, rend = rend + ? WHERE path = ? AND blk = ?",
                           (off + delta - new_end, off + delta - new_end, key, blk))
        db.executemany("UPDATE chunks SET blk = ?, rstart = ?, rend = ?, body_off = ?, rline = ?, rend_line = ?"
                       " WHERE rowid = ?", moved)
        self._insert(db, key, text, new, hashes, [w] * len(new))
        return len(new), len(gone)
