"""The entry list as the review UI sees it: rows, marks, filters, sorting (no Textual here).

An :class:`EntryRow` wraps one block of a memory file; its display fields and lowercase *haystack*
are computed once by :meth:`EntryRow.fill` (lazily, or for all rows in a background thread).  Status
marks come from the entry, problem marks from the check's findings (:func:`apply_findings`).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
import shlex
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.check.codes import CODES
from ..core.check.findings import Finding
from ..core.format.entries import Entry, MemoryFile
from ..core.i18n import _

STATUS_ORDER = ("active", "superseded", "cold", "archived")
IMPORTANCE_RANK = {"high": 0, "medium": 1, "low": 2}

# Problem marks, most serious first; which finding codes set each, and its label, are in check/codes.py
PROBLEM_MARKS = ("malformed", "merge-conflict", "duplicate", "dangling", "conflict", "expired", "invalid",
                 "sensitive", "suspicious", "inactive-ref")
STATUS_MARKS = ("superseded", "cold", "archived")
MARK_LABEL = {c.mark: c.label for c in CODES.values() if c.mark}
MARK_ORDER = {mark: i for i, mark in enumerate(PROBLEM_MARKS)}
CODE_TO_MARK = {code: c.mark for code, c in CODES.items() if c.mark}

# What each mark means, for the legend in help (mark -> explanation).
MARK_HELP: dict[str, str] = {
    "conflict": "unresolved conflict: both entries are active and contradict each other (⇄ names the partner)",
    "superseded": "superseded: replaced by a newer entry (dimmed, struck through, → names the replacement)",
    "cold": "cold: low importance and not used for a long time; kept but not loaded",
    "archived": "archived: moved out of memories.md (archive file)",
    "expired": "TTL expired: still active after its ttl date; gc will archive it",
    "invalid": "invalid field: a known field holds a value outside its type",
    "malformed": "malformed entry: the frontmatter could not be read; the raw text is shown",
    "sensitive": "sensitive data: an unredacted phone number, e-mail, ID, card number or key",
    "suspicious": "suspicious instruction: text that tries to instruct the agent",
    "dangling": "dangling reference: points to an id or file that does not exist",
    "duplicate": "duplicate id: the same id is defined more than once",
    "merge-conflict": "git conflict markers inside the entry",
    "inactive-ref": "referenced from state.yaml while not active",
}

_ID_NUM_RE = re.compile(r"(\d+)")


def _id_sort_key(ident: str) -> tuple[str, int, str]:
    m = _ID_NUM_RE.search(ident)
    if m is None:
        return (ident, -1, ident)
    return (ident[: m.start()], int(m.group(1)), ident[m.end() :])


def _ids_of(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value.strip(),) if value.strip() else ()
    if isinstance(value, list):
        return tuple(str(v).strip() for v in value if isinstance(v, (str, int)) and str(v).strip())
    return ()


def _first_line(text: str) -> str:
    for line in text.split("\n", 40):
        s = line.strip()
        if s:
            return s
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


_NO_FINDINGS: list[Finding] = []  # shared, never appended to (apply_findings sets a new list)


class EntryRow:
    """One entry (or malformed block) of a memory file, ready for display and filtering."""

    __slots__ = (
        "entry", "file", "order", "id", "line", "malformed", "error", "filled",
        "status", "importance", "tags", "timestamp", "source", "summary", "superseded_by", "conflict",
        "haystack", "marks", "problem", "partners", "messages",
    )

    # set by fill()
    status: str
    importance: str
    tags: tuple[str, ...]
    timestamp: str
    source: str
    summary: str
    superseded_by: str
    conflict: tuple[str, ...]
    haystack: str

    def __init__(self, entry: Entry, file: str, order: int) -> None:
        # Only what listing needs; the display fields arrive with fill() (100k rows are made at once).
        self.entry = entry
        self.file = file  # relative to the profile folder
        self.order = order  # position in the file
        self.id: str = entry.id or ""
        self.line: int = entry.line
        self.error: str | None = entry.error
        self.malformed: bool = self.error is not None
        self.filled = False
        self.marks: dict[str, str] = {"malformed": ""} if self.malformed else {}  # mark -> short detail
        self.problem = self.malformed
        self.partners: tuple[str, ...] = ()  # unresolved-conflict partners
        self.messages: list[Finding] = _NO_FINDINGS  # the findings attached to this row

    def __repr__(self) -> str:
        return f"<EntryRow {self.id or '?'} {self.file}:{self.line}>"

    def fill(self) -> EntryRow:
        """Compute the display fields and the haystack (idempotent, thread-safe enough)."""
        if self.filled:
            return self
        e = self.entry
        if self.malformed:
            meta: dict[str, Any] = {}
            raw = e.raw
            body = raw
            self.status = "malformed"
            self.summary = _first_line(e.body) or _first_line(e.frontmatter) or "(empty)"
        else:
            meta = e.peek_meta()  # not kept on the entry: 100k entries' dicts would be ~120 MB
            body = e.body
            status = meta.get("status")
            self.status = status if isinstance(status, str) and status else "active"
            self.summary = _first_line(body)
        imp = meta.get("importance")
        self.importance = imp if isinstance(imp, str) else ("" if imp is None else str(imp))
        tags = meta.get("tags")
        self.tags = ()
        if isinstance(tags, list):
            self.tags = tuple(str(t) for t in tags if t is not None)
        elif isinstance(tags, str):
            self.tags = (tags,)
        ts = meta.get("timestamp")
        self.timestamp = "" if ts is None else str(ts)
        src = meta.get("source")
        self.source = "" if src is None else str(src)
        sb = meta.get("superseded_by")
        self.superseded_by = sb.strip() if isinstance(sb, str) else ""
        self.conflict = _ids_of(meta.get("conflict"))
        refs = " ".join((*self.conflict, self.superseded_by, *_ids_of(meta.get("merged_from"))))
        self.haystack = "\n".join(
            (self.id, self.status, self.importance, " ".join(self.tags), self.source, self.timestamp, refs, body)
        ).lower()
        self.filled = True
        return self

    @property
    def end_line(self) -> int:
        return self.entry.end_line

    def sorted_marks(self) -> list[tuple[str, str]]:
        return sorted(self.marks.items(), key=lambda kv: MARK_ORDER.get(kv[0], 99))


def make_rows(mf: MemoryFile, file: str) -> list[EntryRow]:
    """Rows for every block of ``mf`` (cheap: nothing is read from the frontmatter yet)."""
    return [EntryRow(e, file, i) for i, e in enumerate(mf.entries)]


def fill_all(rows: Sequence[EntryRow]) -> None:
    for r in rows:
        if not r.filled:
            r.fill()


# --- marks from findings --------------------------------------------------------------


def _row_at_line(rows: Sequence[EntryRow], starts: list[int], line: int) -> EntryRow | None:
    i = bisect.bisect_right(starts, line) - 1
    if i < 0:
        return None
    row = rows[i]
    return row if line <= row.end_line else None


def _field_at(row: EntryRow, line: int | None) -> str:
    if line is None or row.malformed:
        return ""
    for name, at in row.entry.key_lines.items():
        if at == line:
            return name
    return ""


def apply_findings(files: Mapping[str, Sequence[EntryRow]], findings: Iterable[Finding]) -> None:
    """Attach each finding to the row it concerns (by file and line, else by id): ``files`` maps a file
    to its rows in file order.  Previous problem marks are replaced; malformed blocks keep their mark."""
    by_id: dict[str, EntryRow] = {}
    starts: dict[str, list[int]] = {}
    for file, rows in files.items():
        starts[file] = [r.line for r in rows]
        for r in rows:
            r.marks = {"malformed": ""} if r.malformed else {}
            r.messages = _NO_FINDINGS
            r.partners = ()
            r.problem = r.malformed
            if r.id and not r.malformed and r.id not in by_id:
                by_id[r.id] = r
    conflicts: list[EntryRow] = []
    for f in findings:
        mark = CODE_TO_MARK.get(f.code)
        if mark is None:
            continue
        row: EntryRow | None = None
        file_rows = files.get(f.file)
        if file_rows is not None and f.line is not None:
            row = _row_at_line(file_rows, starts[f.file], f.line)
        # a reference names its target: the mark goes on the referring row, except for a reference from
        # outside the memory files (state.yaml), whose target entry carries it (the legend's INACTIVE REF)
        if row is None and f.id is not None and (f.code not in ("dangling-ref", "inactive-ref") or file_rows is None):
            cand = by_id.get(f.id)
            if cand is not None and (file_rows is None or cand.file == f.file):
                row = cand
        if row is None:
            continue
        if row.messages is _NO_FINDINGS:
            row.messages = []
        row.messages.append(f)
        detail = ""
        if mark == "invalid":
            detail = _field_at(row, f.line)
        elif mark in ("dangling", "inactive-ref"):
            detail = (f.id or "") if file_rows is not None else f.file  # the target, or where it is named
        prev = row.marks.get(mark)
        if prev and detail and detail not in prev.split(","):
            detail = prev + "," + detail
        elif prev:
            detail = prev
        row.marks[mark] = detail
        row.problem = True
        if mark == "conflict":
            conflicts.append(row)
    for row in conflicts:
        row.fill()
        partners = []
        for pid in row.conflict:
            other = by_id.get(pid)
            if other is None:
                continue
            other.fill()
            if other.status == "active":
                partners.append(pid)
                if row.id not in other.partners:
                    other.partners = (*other.partners, row.id)
                other.marks["conflict"] = ",".join(other.partners)
                other.problem = True
        row.partners = tuple(dict.fromkeys((*row.partners, *partners)))
        row.marks["conflict"] = ",".join(row.partners)


# --- filtering ------------------------------------------------------------------------

_FACETS = {
    "status": "status", "s": "status",
    "importance": "importance", "imp": "importance", "i": "importance",
    "tag": "tag", "tags": "tag", "t": "tag",
    "is": "is", "has": "is",
    "id": "id",
}


@dataclass
class Query:
    """A parsed filter: ``status:a,b importance:high tag:x tag:y is:problem words…``: commas separate
    alternatives, repeated ``tag:`` terms and free words must all match (case-insensitive)."""

    statuses: set[str] = field(default_factory=set)
    importances: set[str] = field(default_factory=set)
    tag_groups: list[set[str]] = field(default_factory=list)
    marks: set[str] = field(default_factory=set)
    problems: bool = False
    ids: set[str] = field(default_factory=set)
    words: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.statuses or self.importances or self.tag_groups or self.marks or self.problems
                    or self.ids or self.words)


def parse_query(text: str) -> Query:
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    q = Query()
    for tok in tokens:
        if tok.startswith("#") and len(tok) > 1:
            q.tag_groups.append({tok[1:].lower()})
            continue
        key, sep, value = tok.partition(":")
        facet = _FACETS.get(key.lower()) if sep else None
        if facet is None or not value:
            if tok.strip():
                q.words.append(tok.lower())
            continue
        values = {v.strip().lower() for v in value.split(",") if v.strip()}
        if facet == "status":
            q.statuses |= values
        elif facet == "importance":
            q.importances |= values
        elif facet == "tag":
            q.tag_groups.append(values)
        elif facet == "id":
            q.ids |= values
        else:
            for v in values:
                if v in ("problem", "problems", "issue", "issues"):
                    q.problems = True
                else:
                    q.marks.add(_MARK_ALIASES.get(v, v))
    return q


_MARK_ALIASES = {
    "broken": "malformed", "expired-ttl": "expired", "ttl": "expired", "secret": "sensitive",
    "instruction": "suspicious", "dup": "duplicate", "unresolved-conflict": "conflict",
}

_PROBLEM_WORDS = ("problem", "problems", "issue", "issues")
FILTER_TERMS = "status: imp: tag: is: id: #tag"  # what the filter understands, for a hint


def query_problems(text: str) -> list[str]:
    """Why terms of a filter cannot match as meant (empty when every term is known), one line each:
    ``is:foo`` and ``imp:urgent`` name the values that exist, ``foo:bar`` the terms that exist."""
    from ..core.format.fields import IMPORTANCE, STATUSES

    known = {
        "status": STATUSES,
        "importance": IMPORTANCE,
        "is": ("problem", *PROBLEM_MARKS, *STATUS_MARKS),
    }
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    out: list[str] = []
    for tok in tokens:
        key, sep, value = tok.partition(":")
        if not sep or not key.isalpha():
            continue  # a plain word (or a time like 10:30)
        facet = _FACETS.get(key.lower())
        if facet is None:
            out.append(_("%(key)s: is not a filter term (terms: %(terms)s)") % {"key": key, "terms": FILTER_TERMS})
            continue
        allowed = known.get(facet)
        if allowed is None:
            continue
        for v in (v.strip().lower() for v in value.split(",") if v.strip()):
            if facet == "is" and (v in _PROBLEM_WORDS or v in _MARK_ALIASES):
                continue
            if v not in allowed:
                out.append(_("%(key)s:%(value)s matches nothing: %(key)s: takes %(values)s")
                           % {"key": key, "value": v, "values": ", ".join(allowed)})
    return out


def filter_rows(rows: Sequence[EntryRow], q: Query) -> list[EntryRow]:
    """Rows matching ``q`` in their current order (rows must be filled)."""
    out: Sequence[EntryRow] = rows
    if q.problems:
        out = [r for r in out if r.problem]
    if q.statuses:
        st = q.statuses
        out = [r for r in out if r.status in st]
    if q.importances:
        imps = q.importances
        out = [r for r in out if r.importance in imps]
    for group in q.tag_groups:
        out = [r for r in out if any(t.lower() in group for t in r.tags)]
    if q.marks:
        status_marks = q.marks & set(STATUS_MARKS)
        problem_marks = q.marks - status_marks
        out = [r for r in out if r.status in status_marks or any(m in r.marks for m in problem_marks)]
    if q.ids:
        ids = q.ids
        out = [r for r in out if r.id.lower() in ids]
    for w in q.words:
        out = [r for r in out if w in r.haystack]
    return list(out)


FOUND_KEPT = 4096  # blocks of a word remembered by RawText at least (more when the file has 8x more blocks)


class RawText:
    """A memory file's text, to find the rows a filter may match before they are filled.

    ``candidates(q)`` yields, in file order, every row the filter can match (a superset: the caller
    fills each and filters it with :func:`filter_rows`): the rows whose block contains the filter's
    longest word, and those whose frontmatter YAML read at parse time.  None when the text cannot
    answer: no words, a word with spaces or one a default value holds, rows of several texts, or a
    word with case when the text was not lowered (``lower=False``).
    """

    __slots__ = ("rows", "text", "low", "starts", "yaml", "found", "end")

    def __init__(self, rows: Sequence[EntryRow], *, lower: bool = True,
                 pause: Callable[[], None] | None = None) -> None:
        self.rows = rows
        text = rows[0].entry.text_ref if rows else ""
        self.text: str | None = text if rows and rows[-1].entry.text_ref is text else None
        low = lower_in_slices(text, pause=pause) if lower and self.text is not None else None
        self.low: str | None = low if low is not None and len(low) == len(text) else None  # offsets kept
        ok = self.text is not None
        self.starts = [r.entry.start for r in rows] if ok else []
        self.yaml = [i for i, r in enumerate(rows) if r.entry.meta_loaded] if ok else []
        self.found: dict[str, list[int]] = {}  # word -> every block it starts in (searches run to their end)
        self.end: int | None = None  # where the blocks known end (None: the end of the text)

    @classmethod
    def of_blocks(cls, rows: BlockRows) -> RawText:
        """The text of a file not parsed yet, over every one of its blocks (:class:`BlockRows`); not lowered
        (a worker may set ``low`` later: :func:`lower_in_slices`)."""
        raw = cls.__new__(cls)
        raw.rows, raw.text, raw.low, raw.starts = rows, rows.text, None, rows.starts
        raw.yaml = [i for i, r in enumerate(rows.first) if r.entry.meta_loaded]
        raw.found, raw.end = {}, rows.end  # (a run of the file's first blocks: the scan goes on)
        return raw

    def candidates(self, q: Query) -> Iterator[EntryRow] | None:
        if self.text is None or not q.words:
            return None
        word = max(q.words, key=len)
        if any(c.isspace() for c in word) or word in "active" or word in "malformed":
            return None
        hay = self.text if word == word.upper() else self.low  # digits, CJK...: no case to fold
        if hay is None:
            return None
        rows = self.rows
        blocks = itertools.groupby(heapq.merge(self._blocks_with(hay, word), self.yaml))  # each block once
        return (rows[i] for i, _run in blocks)

    def _blocks_with(self, hay: str, word: str) -> Iterator[int]:
        """The blocks ``word`` starts in, in order: remembered, else among those of a shorter word it
        starts with (a key typed on), else in the whole text."""
        known = self.found.get(word)
        if known is not None:
            return iter(known)
        base = max((w for w in self.found if word.startswith(w) and (w == w.upper()) == (word == word.upper())),
                   key=len, default=None)
        hits = self._hits(hay, word) if base is None else self._hits_among(hay, word, self.found[base])
        return self._remembered(word, hits)

    def _remembered(self, word: str, hits: Iterator[int]) -> Iterator[int]:
        seen: list[int] = []
        for i in hits:
            seen.append(i)
            yield i
        if self.end is None and len(seen) <= max(FOUND_KEPT, len(self.rows) // 8):  # (most blocks: it stops early)
            self.found[word] = seen  # only once the search got to the end of the text

    def _hits_among(self, hay: str, word: str, blocks: list[int]) -> Iterator[int]:
        """Those of ``blocks`` in which ``word`` starts (every block it starts in is among them: they hold the
        shorter word it starts with, at the same place)."""
        starts, n, find, reach = self.starts, len(self.rows), hay.find, len(word) - 1
        last = len(hay) if self.end is None else self.end + reach
        for i in blocks:
            end = starts[i + 1] + reach if i + 1 < n else last  # the word may run on past the block's end
            if find(word, starts[i], end) >= 0:
                yield i

    def _hits(self, hay: str, word: str) -> Iterator[int]:
        starts, n, find = self.starts, len(self.rows), hay.find
        last = len(hay) if self.end is None else self.end + len(word) - 1  # (a word starting in the last block)
        at = find(word, 0, last)
        while at >= 0:
            i = bisect.bisect_right(starts, at) - 1
            if i < 0:  # the preamble
                at = find(word, at + 1, last)
                continue
            yield i
            at = find(word, starts[i + 1], last) if i + 1 < n else -1


class BlockRows(Sequence[EntryRow]):
    """The rows of a memory file whose block starts are known before the file is parsed: row ``i`` is
    made when first asked for, its block parsed alone exactly as the whole file's parse reads it, and
    kept.  ``first`` are rows already made for the first blocks (the preview's).  With ``end``: the rows
    of a run of the file's first blocks, the scan going on."""

    __slots__ = ("text", "starts", "file", "first", "_made", "_lines", "end")

    def __init__(self, text: str, starts: list[int], file: str, first: Sequence[EntryRow] = (),
                 lines: list[int] | None = None, end: int | None = None) -> None:
        from ..core.format.spans import start_lines

        self.text, self.starts, self.file = text, starts, file
        self.end = end  # the start of the block after the last of ``starts`` (a run of the file's first blocks)
        self.first = list(first)
        self._made: dict[int, EntryRow] = {}
        self._lines = start_lines(text, starts) if lines is None else lines  # the line each block starts on

    def extends(self, rows: Sequence[EntryRow]) -> bool:
        """``rows`` are this file's first rows (those it was made with)."""
        return len(rows) == len(self.first) and all(a is b for a, b in zip(rows, self.first, strict=True))

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> EntryRow:  # type: ignore[override]  # an index, never a slice
        if i < 0:
            i += len(self.starts)
        if i < len(self.first):
            return self.first[i]
        row = self._made.get(i)
        if row is None:
            from ..core.format.spans import entry_at

            entry = entry_at(self.text, self.starts, i, self._lines[i], self.end)
            row = self._made[i] = EntryRow(entry, self.file, i)
        return row


LOWER_SLICE = 1 << 16  # characters lowered at a time by lower_in_slices


def lower_in_slices(text: str, size: int = LOWER_SLICE, pause: Callable[[], None] | None = None) -> str:
    """``text.lower()``, made a slice of whole lines at a time, ``pause()`` between slices (equal to
    ``text.lower()``: the final-sigma rule does not look across a newline)."""
    if len(text) <= size:
        return text.lower()
    parts: list[str] = []
    start, n = 0, len(text)
    while start < n:
        cut = text.find("\n", start + size)
        end = n if cut < 0 else cut + 1
        parts.append(text[start:end].lower())
        start = end
        if pause is not None:
            pause()
        time.sleep(0)  # another thread (the UI's) takes the lock here if it waits for it
    return "".join(parts)


def narrows(new: Query, old: Query) -> bool:
    """True when every row matching ``new`` matches ``old`` (filter ``old``'s result again)."""
    same = (new.statuses, new.importances, new.tag_groups, new.marks, new.problems, new.ids) == (
        old.statuses, old.importances, old.tag_groups, old.marks, old.problems, old.ids)
    if not same or len(new.words) < len(old.words):
        return False
    return all(o in n for o, n in zip(old.words, new.words, strict=False))


def toggle_token(query: str, token: str) -> str:
    """Add ``token`` to the query text, or remove it when present."""
    parts = query.split()
    if token in parts:
        return " ".join(p for p in parts if p != token)
    return " ".join([*parts, token]).strip()


# --- sorting and counting -------------------------------------------------------------


_STATUS_RANK = {s: i for i, s in enumerate(STATUS_ORDER)}
_SORT_KEYS: dict[str, Callable[[EntryRow], Any]] = {
    "order": lambda r: r.order,
    "id": lambda r: _id_sort_key(r.id),
    "status": lambda r: (_STATUS_RANK.get(r.status, 9), r.status),
    "importance": lambda r: (IMPORTANCE_RANK.get(r.importance, 9 if r.importance else 10), r.importance),
    "marks": lambda r: min((MARK_ORDER.get(m, 99) for m in r.marks), default=999),
    "tags": lambda r: (not r.tags, [t.lower() for t in r.tags]),
    "timestamp": lambda r: (not r.timestamp, r.timestamp),
    "summary": lambda r: r.summary.lower(),
}


def sort_rows(rows: Sequence[EntryRow], key: str, reverse: bool = False) -> list[EntryRow]:
    """Rows sorted by a column (stable; ``order`` is file order)."""
    if key not in _SORT_KEYS:
        raise ValueError(f"unknown sort key {key!r}")
    out = sorted(rows, key=_SORT_KEYS[key])
    if reverse:
        out.reverse()
    return out


def status_counts(rows: Iterable[EntryRow]) -> dict[str, int]:
    """Count per status, known statuses first (in their order), then others."""
    c = Counter(r.status for r in rows)
    out = {s: c.pop(s) for s in STATUS_ORDER if s in c}
    out.update(sorted(c.items()))
    return out


def problem_count(rows: Iterable[EntryRow]) -> int:
    return sum(1 for r in rows if r.problem)


def all_tags(rows: Iterable[EntryRow]) -> list[tuple[str, int]]:
    """Tags with their counts, most used first."""
    c: Counter[str] = Counter()
    for r in rows:
        c.update(r.tags)
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))


def short_timestamp(ts: str) -> str:
    """``2025-06-01T14:32:00+08:00`` -> ``2025-06-01 14:32`` (as written, no time-zone math)."""
    if len(ts) >= 16 and ts[10] in "Tt ":
        return ts[:10] + " " + ts[11:16]
    return ts


# --- places a reference or finding points at --------------------------------------------

MEMORY_FILES = ("memories.md", "contexts/archive/memories.md")


@dataclass(frozen=True)
class Location:
    """Where to jump: an entry (by id), a file line, or both (file of the profile)."""

    file: str | None = None
    line: int | None = None
    id: str | None = None
    profile: str | None = None  # the profile folder, when it is not the current one

    @property
    def in_memory_file(self) -> bool:
        return self.file is None or self.file in MEMORY_FILES

    def label(self) -> str:
        where = self.file or ""
        if self.line is not None and where:
            where += f":{self.line}"
        if self.id and self.in_memory_file:
            return f"{self.id} ({where})" if where else self.id
        return where or (self.id or "")


def finding_location(f: Finding, profile: str | None = None) -> Location:
    """Where a finding sends the reviewer: the entry, or the file line it is about."""
    if f.code in ("dangling-ref", "inactive-ref", "path-escape", "dangling-file"):
        return Location(f.file, f.line, None, profile)  # the id is the missing target, not the place
    return Location(f.file, f.line, f.id if f.file in MEMORY_FILES else None, profile)
