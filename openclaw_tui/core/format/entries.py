"""Lossless parsing of ``memories.md`` (and the archive, same grammar).

A file is a *preamble* followed by *blocks*: well-formed entries (``---`` / YAML mapping with an
``id`` / ``---`` / body) or malformed ones, kept byte for byte.  ``MemoryFile.text`` is exactly the
preamble plus every block's raw text, so an unedited parse gives back the very same bytes.
Delimiter and fence lines are found by regular expressions over the whole text and frontmatter
is read by a line scanner; PyYAML only reads blocks the scanner does not understand.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

BOM = "\ufeff"

KNOWN_FIELDS: tuple[str, ...] = (
    "id",
    "timestamp",
    "source",
    "importance",
    "ttl",
    "status",
    "tags",
    "conflict",
    "superseded_by",
    "merged_from",
    "last_hit",
    "archived_at",
)
_KNOWN = frozenset(KNOWN_FIELDS)

_DELIM_RE = re.compile(r"^---[ \r]*$", re.M)
_NL_DELIM_RE = re.compile(r"\n---[ \r]*$", re.M)  # starts with a literal: quicker to search
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.M)
_FIRST_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|$)")
_STEP = 1 << 15  # characters compared at once by common_prefix / common_suffix


@dataclass(slots=True, eq=False, repr=False)
class Entry:
    """One block of a memory file, well-formed or malformed: character offsets into ``text_ref`` (the
    whole text, shared); ``meta`` and ``key_lines`` are read from the frontmatter on first use."""

    start: int  # the opening ``---`` line
    end: int  # just past the block (next block or EOF)
    line: int  # 1-based line number of the opening ``---``
    fm_start: int  # first frontmatter char
    fm_end: int  # the closing ``---`` line
    body_start: int  # just past the closing ``---`` line
    id: str | None
    text_ref: str
    _meta: dict[str, Any] | None = None
    _key_lines: dict[str, int] | None = None  # relative: 1 = the first frontmatter line
    error: str | None = None  # set on malformed blocks

    def __repr__(self) -> str:
        kind = "Malformed" if self.error else "Entry"
        return f"<{kind} {self.id!r} line {self.line}>"

    def _load(self) -> None:
        self._meta, self._key_lines = self._read()

    def _read(self) -> tuple[dict[str, Any], dict[str, int]]:
        block = self.frontmatter
        scanned = _scan_frontmatter(block, 1)
        if scanned is not None:
            return scanned
        import yaml  # only for a frontmatter the line scanner cannot read

        from .yamlio import load_yaml

        try:
            loaded = load_yaml(block)
        except (yaml.YAMLError, RecursionError, UnicodeEncodeError):  # the last: non-UTF-8 bytes
            loaded = None
        return ({str(k): v for k, v in loaded.items()} if isinstance(loaded, dict) else {},
                _key_lines_by_regex(block, 1))

    def peek_meta(self) -> dict[str, Any]:
        """The field values, read without keeping them when they were not read yet."""
        return self._meta if self._meta is not None else self._read()[0]

    @property
    def meta(self) -> dict[str, Any]:
        if self._meta is None:
            self._load()
        assert self._meta is not None
        return self._meta

    @property
    def meta_loaded(self) -> bool:
        """The field values are read (a block YAML read at parse time, or one read since)."""
        return self._meta is not None

    @property
    def key_lines(self) -> dict[str, int]:
        """Field -> 1-based line number in the file."""
        if self._key_lines is None:
            self._load()
        assert self._key_lines is not None
        base = self.line
        return {k: base + v for k, v in self._key_lines.items()}

    @property
    def malformed(self) -> bool:
        return self.error is not None

    @property
    def raw(self) -> str:
        return self.text_ref[self.start : self.end]

    @property
    def frontmatter(self) -> str:
        return self.text_ref[self.fm_start : self.fm_end]

    @property
    def body(self) -> str:
        return self.text_ref[self.body_start : self.end]

    @property
    def body_line(self) -> int:
        """1-based line number of the first body line."""
        return self.line + self.text_ref.count("\n", self.start, self.body_start)

    @property
    def end_line(self) -> int:
        """1-based number of the block's last line."""
        n = self.text_ref.count("\n", self.start, self.end)
        if self.end > self.start and self.text_ref[self.end - 1] == "\n":
            n -= 1
        return self.line + n

    @property
    def status(self) -> str:
        value = self.meta.get("status")
        return value if isinstance(value, str) else "active"

    @property
    def tags(self) -> list[str]:
        value = self.meta.get("tags")
        if isinstance(value, list):
            return [str(v) for v in value if v is not None]
        if isinstance(value, str):
            return [value]
        return []

    def first_line(self) -> str:
        return next((s for line in self.body.splitlines() if (s := line.strip())), "")


@dataclass(slots=True)
class MemoryFile:
    """A parsed memory file. ``bom + text`` encoded as UTF-8 is the file."""

    text: str
    bom: bool
    preamble_end: int
    entries: list[Entry]
    newline: str = "\n"
    failed_fence: int | None = None  # first fence opener with no closer (incremental re-parse starts there)

    def to_bytes(self) -> bytes:
        return ((BOM if self.bom else "") + self.text).encode("utf-8", "surrogateescape")

    @property
    def preamble(self) -> str:
        return self.text[: self.preamble_end]

    def well_formed(self) -> Iterator[Entry]:
        return (e for e in self.entries if e.error is None)

    def malformed(self) -> Iterator[Entry]:
        return (e for e in self.entries if e.error is not None)

    def by_id(self) -> dict[str, Entry]:
        """First well-formed entry for every id."""
        found: dict[str, Entry] = {}
        for e in self.entries:
            if e.id is not None and e.error is None and e.id not in found:
                found[e.id] = e
        return found

    def get(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id and e.error is None), None)

    def ids(self) -> list[str]:
        return [e.id for e in self.entries if e.id is not None and e.error is None]


def decode(data: bytes) -> tuple[str, bool, bool]:
    """(text without BOM, had_bom, is_valid_utf8); invalid bytes survive as surrogate escapes."""
    bom = data.startswith(b"\xef\xbb\xbf")
    if bom:
        data = data[3:]
    try:
        return data.decode("utf-8"), bom, True
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), bom, False


def parse_bytes(data: bytes) -> MemoryFile:
    text, bom, _ok = decode(data)
    return parse(text, bom=bom)


def parse(text: str, bom: bool = False) -> MemoryFile:
    """Parse the text of a memory file (without its BOM)."""
    if not bom and text.startswith(BOM):  # a second BOM after the first one is text
        text, bom = text[1:], True
    return _parse(text, bom)


def _newline_of(text: str, default: str = "\n") -> str:
    """The line ending of ``text``'s first line (``default`` when it has none)."""
    i = text.find("\n")
    if i < 0:
        return default
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


# --- block classification ------------------------------------------------------------


_BOOLISH = r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)"
_DATE = r"\d{4}-\d\d-\d\d(?:[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?"
_PLAIN = rf"(?:(?!{_BOOLISH}[ ]*\r?$)[^\W\d](?:[^\n\r:#\[\]{{}}, ]++|[ ]++(?!\#)|:(?=[^\s,\]])|\#)*+|{_DATE})"
_FLOW_ITEM = rf"(?:(?!{_BOOLISH}[ ]*[,\]])[^\W\d](?:[^\n\r:#\[\]{{}}, ]++|[ ]++(?![\#,\]])|:(?=[^\s,\]])|\#)*+|{_DATE})"
_QUOTED = r"""(?:"[^"\\\n]*"|'[^'\n]*')"""
_SIMPLE_LINE_RE = re.compile(
    rf"""^(?:
      ([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(?:({_PLAIN})|({_QUOTED})|(\[[ ]*(?:{_FLOW_ITEM}(?:[ ]*,[ ]*{_FLOW_ITEM})*)?[ ]*\])))?
     |[ ]*-[ ]+(?:({_PLAIN})|({_QUOTED}))
     |\#[^\n]*
     |
    )[ ]*\r?$""",
    re.M | re.X,
)

_KEY = r"[A-Za-z_][A-Za-z0-9_-]*:"
_SIMPLE_BLOCK_RE = re.compile(
    rf"""(?:
       {_KEY}[ ]+(?:{_PLAIN}|{_QUOTED}|\[[ ]*(?:{_FLOW_ITEM}(?:[ ]*,[ ]*{_FLOW_ITEM})*)?[ ]*\])[ ]*\r?\n
     | {_KEY}[ ]*\r?\n(?:[ ]*-[ ]+(?:{_PLAIN}|{_QUOTED})[ ]*\r?\n)*
     | \#[^\n]*\n
     | [ ]*\r?\n
    )*+""",
    re.X,
)
_ID_LINE_RE = re.compile(r"^id:[ ]+(\"[^\"\n]*\"|'[^'\n]*'|[^\s#][^\n]*?)[ ]*\r?$", re.M)


def _scan_frontmatter(block: str, first_line: int) -> tuple[dict[str, Any], dict[str, int]] | None:
    """Read a block of simple ``key: value`` lines. None means: ask YAML."""
    rows = _SIMPLE_LINE_RE.findall(block)
    if len(rows) != block.count("\n") + 1:
        return None  # some line is not simple: let YAML read the block
    meta: dict[str, Any] = {}
    lines: dict[str, int] = {}
    list_key: str | None = None
    items: list[Any] = []
    i = first_line - 1
    for key, plain, quoted, flow, iplain, iquoted in rows:
        i += 1
        if key:
            if list_key is not None:
                meta[list_key] = items if items else None
                list_key = None
            if key in meta:
                return None  # duplicate keys: let YAML decide
            lines[key] = i
            if plain:
                meta[key] = plain.rstrip(" ")
            elif flow:
                inner = flow[1:-1].strip()
                meta[key] = [x.strip() for x in inner.split(",")] if inner else []
            elif quoted:
                meta[key] = quoted[1:-1]
            else:
                meta[key] = None
                list_key = key
                items = []
        elif iplain or iquoted:
            if list_key is None:
                return None
            items.append(iplain.rstrip(" ") if iplain else iquoted[1:-1])
    if list_key is not None:
        meta[list_key] = items if items else None
    return meta, lines


def _key_lines_by_regex(block: str, first_line: int) -> dict[str, int]:
    lines: dict[str, int] = {}
    for i, row in enumerate(block.split("\n")):
        m = _FIRST_KEY_RE.match(row)
        if m and m.group(1) not in lines:
            lines[m.group(1)] = first_line + i
    return lines


def looks_like_frontmatter(block: str) -> bool:
    for row in block.split("\n"):
        s = row.strip(" \t\r")
        if not s or s.startswith("#"):
            continue
        m = _FIRST_KEY_RE.match(row.rstrip("\r"))
        return m is not None and m.group(1) in _KNOWN
    return False


def _id_text(value: Any) -> str | None:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value).strip() or None
    return None


def _simple_id(block: str) -> str | None:
    m = _ID_LINE_RE.search(block)
    if m is None:
        return None
    value = m.group(1)
    if value[0] in "'\"":
        value = value[1:-1]
    elif value[0] == "[":
        return None
    value = value.strip()
    return value or None


def classify_block(block: str, first_line: int) -> tuple[str, str | None, dict[str, Any] | None, dict[str, int] | None, str | None]:
    """(kind, id, meta, key_lines, error), kind entry/malformed/text; meta and key_lines are None for
    simple blocks (the entry reads them on first use)."""
    if _SIMPLE_BLOCK_RE.fullmatch(block):
        ident = _simple_id(block)
        if ident is not None:
            return "entry", ident, None, None, None
        if looks_like_frontmatter(block):
            return "malformed", None, {}, _key_lines_by_regex(block, 1), (
                "the frontmatter has no id" if _ID_LINE_RE.search(block) is None else "the id is empty or not a string"
            )
        return "text", None, None, None, None
    if ":" not in block:  # no mapping with an id (and no key line): text, whatever YAML makes of it
        return "text", None, None, None, None
    import yaml  # only for a block the line scanner cannot read

    from .yamlio import load_yaml

    try:
        loaded = load_yaml(block)
    except (yaml.YAMLError, UnicodeEncodeError) as exc:  # UnicodeEncodeError: bytes that are not UTF-8
        if looks_like_frontmatter(block):
            mark = getattr(exc, "problem_mark", None)
            where = f" (frontmatter line {mark.line + 1})" if mark is not None else ""
            problem = getattr(exc, "problem", None) or (
                "bytes that are not UTF-8" if isinstance(exc, UnicodeEncodeError) else str(exc).splitlines()[0]
            )
            return "malformed", _guess_id(block), {}, _key_lines_by_regex(block, 1), (
                f"invalid YAML{where}: {problem}"
            )
        return "text", None, None, None, None
    except RecursionError:
        loaded = None
    if isinstance(loaded, dict):
        ident = _id_text(loaded.get("id"))
        if ident is not None:
            meta = {str(k): v for k, v in loaded.items()}
            return "entry", ident, meta, _key_lines_by_regex(block, 1), None
    if looks_like_frontmatter(block):
        if isinstance(loaded, dict):
            reason = "the frontmatter has no id" if "id" not in loaded else "the id is empty or not a string"
        else:
            reason = "the frontmatter is not a YAML mapping"
        return "malformed", _guess_id(block), {}, _key_lines_by_regex(block, 1), reason
    return "text", None, None, None, None


_GUESS_ID_RE = re.compile(r"^id[ \t]*:[ \t]*['\"]?([^\s'\"#]+)", re.M)


def _guess_id(block: str) -> str | None:
    m = _GUESS_ID_RE.search(block)
    return m.group(1) if m else None


# --- the scan -------------------------------------------------------------------------




class _Lazy:
    """A list filled from an iterator on demand (delimiters/fences past the edit)."""

    __slots__ = ("items", "it")

    def __init__(self, it: Iterator[Any]) -> None:
        self.items: list[Any] = []
        self.it = it

    def get(self, i: int) -> Any:
        items = self.items
        while len(items) <= i:
            nxt = next(self.it, None)
            if nxt is None:
                return None
            items.append(nxt)
        return items[i]


def _delims_from(text: str, start: int) -> Iterator[int]:
    if start == 0:
        if _DELIM_RE.match(text):
            yield 0
        pos = 0
    else:
        pos = start - 1  # the newline that ends the previous line
    for m in _NL_DELIM_RE.finditer(text, pos):
        yield m.start() + 1


def _fence_iter(text: str, start: int) -> Iterator[tuple[int, str, int, bool]]:
    for m in _FENCE_RE.finditer(text, start):
        run, info = m.group(1), m.group(2)
        if run[0] == "`" and "`" in info:
            continue
        yield (m.start(), run[0], len(run), not info.strip(" \t\r"))


def _scan(
    text: str, start: int = 0, first_line: int = 1, sync: set[int] | None = None, fences: bool | None = None
) -> tuple[list[Entry], int | None, int | None]:
    """Find the blocks of ``text`` from ``start`` (a line start with no fence open).

    Returns (entries, synced_at, failed_fence): with ``sync``, the scan stops at (and does not
    return) the first entry starting at a position in ``sync``.  ``fences``: whether the text has a
    fence-like run, when the caller knows.  ``failed_fence``: the first fence opener with no closer.
    """
    if sync is None and start == 0:
        full = [m.start() + 1 for m in _NL_DELIM_RE.finditer(text)]
        if _DELIM_RE.match(text):
            full.insert(0, 0)
        nd_full = len(full)

        def dget(i: int) -> int | None:
            return full[i] if i < nd_full else None
    else:
        dget = _Lazy(_delims_from(text, start)).get
    has_fences = ("```" in text or "~~~" in text) if fences is None else fences  # None: look
    fget = _Lazy(_fence_iter(text, start)).get if has_fences else (lambda i: None)

    entries: list[Entry] = []
    fi = 0  # next fence candidate index
    di = 0  # next delimiter index
    scan_from = start  # body scanning resumes here (fences before it are irrelevant)
    failed_open: dict[str, int] = {}  # char -> smallest run length known to have no closer
    failed_fence: int | None = None
    line_no = first_line
    line_pos = start
    n_text = len(text)
    find, count = text.find, text.count
    simple, id_search = _SIMPLE_BLOCK_RE.fullmatch, _ID_LINE_RE.search
    synced_at: int | None = None

    while True:
        d = dget(di)
        if d is None:
            break
        hidden = False
        if has_fences:
            while True:
                f = fget(fi)
                if f is None or f[0] >= scan_from:
                    break
                fi += 1
            while True:
                f = fget(fi)
                if f is None or f[0] >= d:
                    break
                pos, ch, length, _ = f
                if length >= failed_open.get(ch, 1 << 30):
                    fi += 1
                    continue
                closer = -1
                k = fi + 1
                while True:
                    g = fget(k)
                    if g is None:
                        break
                    if g[3] and g[1] == ch and g[2] >= length:
                        closer = k
                        break
                    k += 1
                if closer < 0:
                    failed_open[ch] = min(length, failed_open.get(ch, 1 << 30))
                    if failed_fence is None or pos < failed_fence:
                        failed_fence = pos
                    fi += 1
                    continue
                close_pos = fget(closer)[0]  # type: ignore[index]  # closer < 0 was handled above
                fi = closer + 1
                if close_pos > d:
                    hidden = True  # this delimiter sits inside the fence
                    scan_from = close_pos
                    break
        if hidden:
            while True:
                dd = dget(di)
                if dd is None or dd >= scan_from:
                    break
                di += 1
            continue
        if sync is not None and d in sync and d > start:
            synced_at = d  # an unchanged entry start: the rest of the file parses as before
            break
        close = dget(di + 1)
        if close is None:
            break
        nl = find("\n", d)
        fm_start = close if nl < 0 else nl + 1
        line_no += count("\n", line_pos, d)
        line_pos = d
        ident: str | None = None
        if simple(text, fm_start, close):  # pos/endpos: no copy of the block
            m = id_search(text, fm_start, close)
            if m is not None and m.group(1)[0] not in "'\"[":
                ident = m.group(1)  # the common case: a plain id in a simple block
        if ident is not None:
            meta: dict[str, Any] | None = None
            key_lines: dict[str, int] | None = None
            error: str | None = None
        else:
            block = text[fm_start:close]
            kind, ident, meta, key_lines, error = classify_block(block, line_no + 1)
            if kind == "text":
                di += 1
                scan_from = d + 1
                continue
        nl = find("\n", close)
        body_start = n_text if nl < 0 else nl + 1
        entries.append(Entry(d, n_text, line_no, fm_start, close, body_start, ident, text, meta, key_lines, error))
        di += 2
        scan_from = body_start
    for prev, nxt in zip(entries, entries[1:], strict=False):
        prev.end = nxt.start
    if entries and synced_at is not None:
        entries[-1].end = synced_at
    return entries, synced_at, failed_fence


def _parse(text: str, bom: bool) -> MemoryFile:
    entries, _, failed = _scan(text)
    preamble_end = entries[0].start if entries else len(text)
    return MemoryFile(text=text, bom=bom, preamble_end=preamble_end, entries=entries,
                      newline=_newline_of(text), failed_fence=failed)


def _clone(e: Entry) -> Entry:
    n = Entry.__new__(Entry)
    n.start, n.end, n.line, n.fm_start, n.fm_end, n.body_start = e.start, e.end, e.line, e.fm_start, e.fm_end, e.body_start
    n.id, n.error, n.text_ref, n._meta, n._key_lines = e.id, e.error, e.text_ref, e._meta, e._key_lines
    return n


@dataclass(slots=True)
class Rescanned:
    """Where a re-parse re-read the text (everything outside is the old parse, moved): new
    entries ``[first, first + count)`` replace old ``[first, old_end)``; the text re-read is ``[start,
    stop)``, from line ``line``; the entries after it moved by ``shift`` chars, ``line_shift`` lines."""

    first: int
    count: int
    old_end: int
    start: int
    stop: int
    shift: int
    line: int
    line_shift: int


def rescan_start(
    starts: list[int], fm_start: Callable[[int], int], line: Callable[[int], int], preamble_end: int,
    failed_fence: int | None, a: int,
) -> tuple[int, int, int]:
    """(index, offset, line) of the first block a change of the text from offset ``a`` on may alter
    (``fm_start(k)``, ``line(k)``: block ``k``'s frontmatter start and line)."""
    # the block holding ``a`` (or one holding an unclosed fence before it)
    lo = a if failed_fence is None else min(a, failed_fence)
    i = bisect.bisect_right(starts, lo) - 1
    if i >= 0 and lo < fm_start(i):
        i -= 1  # the opening line itself changed: a "---" in the block before may now pair differently
    if i < 0 or lo < preamble_end:
        return 0, 0, 1
    return i, starts[i], line(i)


def reparse(old: MemoryFile, new_text: str) -> MemoryFile:
    """Parse ``new_text`` incrementally from ``old``, re-reading only what can have changed; equals
    ``parse(new_text)`` (``old`` is left intact)."""
    if new_text == old.text:
        return old
    a = common_prefix(old.text, new_text)
    b_old = len(old.text) - common_suffix(old.text, new_text, min(len(old.text), len(new_text)) - a)
    delta = len(new_text) - len(old.text)
    entries = [_clone(e) for e in old.entries]
    starts = [e.start for e in entries]
    i, start, first_line = rescan_start(
        starts, lambda k: entries[k].fm_start, lambda k: entries[k].line, old.preamble_end, old.failed_fence, a
    )
    # unchanged entry starts after the edit, and where they are now
    j = bisect.bisect_left(starts, b_old)
    sync = {e.start + delta for e in entries[j:]}
    middle, synced_at, failed = _scan(new_text, start, first_line, sync)
    if synced_at is None:
        tail: list[Entry] = []
    else:
        k = next(idx for idx in range(j, len(entries)) if entries[idx].start + delta == synced_at)
        tail = entries[k:]
        new_line = first_line + new_text.count("\n", start, synced_at)
        line_shift = new_line - tail[0].line
        for e in tail:
            e.start += delta
            e.end += delta
            e.fm_start += delta
            e.fm_end += delta
            e.body_start += delta
            e.line += line_shift
            e.text_ref = new_text
    head = entries[:i]
    for e in head:
        e.text_ref = new_text
    if head and middle:
        head[-1].end = middle[0].start
    elif head and tail:
        head[-1].end = tail[0].start
    elif head:
        head[-1].end = len(new_text)
    result = head + middle + tail
    if middle and not tail:
        middle[-1].end = len(new_text)
    preamble_end = result[0].start if result else len(new_text)
    if failed is None and old.failed_fence is not None and old.failed_fence < start:
        failed = old.failed_fence
    return MemoryFile(text=new_text, bom=old.bom, preamble_end=preamble_end, entries=result,
                      newline=_newline_of(new_text), failed_fence=failed)


def common_prefix(x: Sequence[object], y: Sequence[object]) -> int:
    n = min(len(x), len(y))
    a = 0
    while a + _STEP <= n and x[a : a + _STEP] == y[a : a + _STEP]:
        a += _STEP
    lo, hi = a, min(n, a + _STEP)  # x[:lo] == y[:lo]; find the first difference in [lo, hi)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[lo:mid] == y[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(x: Sequence[object], y: Sequence[object], limit: int) -> int:
    lx, ly = len(x), len(y)
    k = 0
    while k + _STEP <= limit and x[lx - k - _STEP : lx - k] == y[ly - k - _STEP : ly - k]:
        k += _STEP
    lo, hi = k, min(limit, k + _STEP)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[lx - mid : lx - lo] == y[ly - mid : ly - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def split_trailing(raw: str) -> tuple[str, str]:
    """(content, trailing): content runs to the end of the last non-blank line, newline included
    (the blank lines after it separate entries; merges and diffs compare ``content``)."""
    k = len(raw.rstrip(" \t\r\n"))
    if k == len(raw):
        return raw, ""
    nl = raw.find("\n", k)
    if nl < 0:
        return raw, ""
    return raw[: nl + 1], raw[nl + 1 :]
