"""Cheap repair suggestions for the check's reference findings (JSON ``suggestions``, SARIF ``fixes``).

Only what costs almost nothing: the entry's status and ``superseded_by`` chain, its compactors, ids
one keystroke away, the profile's file names.  ``repair.py`` adds git history and shared words.
"""

from __future__ import annotations

import bisect
import difflib
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import replace

from ..files.profile import ARCHIVE_REL, Profile
from ..format.entries import Entry, MemoryFile
from ..format.fields import ids_in_value
from .codes import REPAIRABLE
from .findings import Finding, Suggestion
from .refbytes import LONG_LINE, file_bytes, line_bounds, locate, order_candidates, removal, removal_why
from .refs import EntryLocator, Ref

_DIGITS = "0123456789"
_MERGED_RE = re.compile(r"\nmerged_from[ \t]*:")
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_WORD_BEFORE = _ASCII_WORD | frozenset("./")  # as ID_RE and the path scanner see a whole word
_WORD_AFTER = _ASCII_WORD | frozenset("/")


# --- ids -------------------------------------------------------------------------------


def id_variants(ident: str) -> Iterable[tuple[int, str, str]]:
    """(rank, id, how) of the strings one edit from ``ident``: rank 0 the likeliest slips (a swap, a zero
    added or dropped), rank 1 one digit replaced, added or dropped."""
    n = len(ident)
    for i in range(n - 1):
        a, b = ident[i], ident[i + 1]
        if a != b:
            yield 0, ident[:i] + b + a + ident[i + 2 :], "two characters swapped"
    for i in range(n):
        c = ident[i]
        if c.isdigit():
            for d in _DIGITS:
                if d != c:
                    yield 1, ident[:i] + d + ident[i + 1 :], "one digit different"
    for i in range(n):
        c = ident[i]
        if c.isdigit() or c in "-_":
            yield (0 if c == "0" else 1), ident[:i] + ident[i + 1 :], "one character dropped"
    for i in range(n + 1):
        for d in _DIGITS:
            yield (0 if d == "0" else 1), ident[:i] + d + ident[i:], "one digit added"


def near_ids(ident: str, ids: Container[str], two: bool = False) -> list[tuple[int, str, str]]:
    """Defined ids one edit away from ``ident`` (with ``two``: two when none is one away), likeliest
    first (rank, id, how); each id once.  The check asks for one (cheap), ``repair`` for two."""
    found: dict[str, tuple[int, str, str]] = {}
    firsts = list(id_variants(ident))
    for rank, other, how in firsts:
        if other != ident and other in ids and (other not in found or rank < found[other][0]):
            found[other] = (rank, other, how)
    if two and not found:  # two slips: thousands of look-ups, only for an id nothing is one slip from
        for rank, first, how in firsts:
            for rank2, other, how2 in id_variants(first):
                if other != ident and other in ids:
                    r = 2 + rank + rank2
                    if other not in found or r < found[other][0]:
                        found[other] = (r, other, f"two slips ({how}, then {how2})")
    return sorted(found.values(), key=lambda t: (t[0], _number_gap(ident, t[1]), t[1]))


def _number_gap(a: str, b: str) -> int:
    da, db = re.sub(r"\D", "", a), re.sub(r"\D", "", b)
    return abs(int(da) - int(db)) if da and db else 0


Lookup = Callable[[str], "Entry | None"]


def chain_end(start: Entry, get: Lookup, limit: int = 64) -> tuple[list[str], Entry | None]:
    """Follow ``superseded_by`` from ``start``: (the ids passed, the active entry at the end or None)."""
    path: list[str] = []
    seen = {start.id}
    e: Entry | None = start
    while e is not None and e.status != "active" and len(path) < limit:
        by = e.meta.get("superseded_by")
        nxt = by.strip() if isinstance(by, str) else ""
        if not nxt or nxt in seen:
            return path, None
        path.append(nxt)
        seen.add(nxt)
        e = get(nxt)
    return path, (e if e is not None and e.status == "active" else None)


def compactor_index(files: Sequence[MemoryFile]) -> dict[str, list[Entry]]:
    """id -> the well-formed entries whose ``merged_from`` names it (found by their key line, quickly)."""
    out: dict[str, list[Entry]] = {}
    for mf in files:
        text = mf.text
        if "merged_from" not in text:
            continue
        locate = EntryLocator(mf.entries)
        for m in _MERGED_RE.finditer(text):
            e = locate.at(m.start() + 1)
            if e is not None and e.error is None and e.fm_start <= m.start() + 1 < e.fm_end:
                for named in dict.fromkeys(ids_in_value(e.meta.get("merged_from"))):
                    out.setdefault(named, []).append(e)
    return out


class IdFacts:
    """What the suggestions need to know about a profile's entries, loaded once."""

    def __init__(self, profile: Profile) -> None:
        docs = [(rel, d) for rel, d in (("memories.md", profile.memories), (ARCHIVE_REL, profile.archive))
                if d is not None and d.utf8]
        self.files: list[MemoryFile] = [d.mf for _rel, d in docs]
        self.rels: list[str] = [rel for rel, _d in docs]
        self._by_id: dict[str, Entry] | None = None
        self._archived: set[str] = set()  # ids whose copy that counts is in the archive
        self._compactors: dict[str, list[Entry]] | None = None

    @property
    def by_id(self) -> dict[str, Entry]:
        """id -> the copy that counts (memories.md first), built once (no tuples: no gc work)."""
        if self._by_id is None:
            found: dict[str, Entry] = {}
            for rel, mf in zip(self.rels, self.files, strict=True):
                for e in mf.entries:
                    ident = e.id
                    if ident is not None and e.error is None and ident not in found:
                        found[ident] = e
                        if rel == ARCHIVE_REL:
                            self._archived.add(ident)
            self._by_id = found
        return self._by_id

    def get(self, ident: str) -> Entry | None:
        return self.by_id.get(ident)

    def where(self, ident: str) -> str | None:
        if ident not in self.by_id:
            return None
        return ARCHIVE_REL if ident in self._archived else "memories.md"

    def compactors(self, ident: str) -> list[Entry]:
        if self._compactors is None:
            self._compactors = compactor_index(self.files)
        return self._compactors.get(ident, [])


def superseded_why(ident: str, path: list[str]) -> str:
    """``mem-0001 was superseded by mem-0002 (then mem-0003)``."""
    return f"{ident} was superseded by {path[0]}" + (f" (then {' → '.join(path[1:])})" if len(path) > 1 else "")


def chain_why(ident: str, path: list[str], facts: IdFacts) -> str:
    """Why the end of a superseded chain with no active entry is offered (and why it is only a choice)."""
    last = path[-1]
    e = facts.get(last)
    if e is not None:
        state = f"is {e.status}"
    elif any(b.id == last for mf in facts.files for b in mf.malformed()):  # rare: only on this path
        state = "is a malformed block (fix it first)"
    else:
        state = "is not defined"
    return f"{superseded_why(ident, path)}; {last} {state}"


def id_suggestions(
    ident: str, facts: IdFacts, *, inactive: bool,
    tags: frozenset[str] = frozenset(), words: frozenset[str] = frozenset(), near: int = 3, two: bool = False,
) -> list[Suggestion]:
    """Restore/chain/reactivate for an inactive entry; compactors and ``near`` near ids for a missing one."""
    out: list[Suggestion] = []
    if inactive:
        e = facts.get(ident)
        if e is None:
            return out
        path, end = chain_end(e, facts.get)
        if end is not None and end.id is not None and path:
            out.append(Suggestion("rewrite", end.id, superseded_why(ident, path), kind="superseded"))
        elif path:
            out.append(Suggestion("rewrite", path[-1], chain_why(ident, path, facts), kind="chain"))
        if facts.where(ident) == ARCHIVE_REL:
            out.append(Suggestion("restore", ident, f"{ident} is in the archive ({e.status})", kind="archive"))
        elif e.status != "active":
            out.append(Suggestion("reactivate", ident, f"{ident} is {e.status}", kind="cold"))
        return out
    for c in facts.compactors(ident):
        assert c.id is not None
        path, end = chain_end(c, facts.get)
        target = end.id if end is not None and end.id is not None else c.id
        out.append(Suggestion("rewrite", target, f"{ident} was compacted into {c.id}", kind="merged"))
    for other, why in near_id_reasons(ident, facts, tags, words, two)[:near]:
        out.append(Suggestion("rewrite", other, why, kind="typo"))
    return out


def near_id_reasons(
    ident: str, facts: IdFacts, tags: frozenset[str] = frozenset(), words: frozenset[str] = frozenset(),
    two: bool = False,
) -> list[tuple[str, str]]:
    """Near ids, best first, each with why: active before inactive, the likeliest slip, then what
    each shares with the reference's context (``tags``, ``words``); "one of N" when N are as good."""
    scored = []
    for rank, other, how in near_ids(ident, facts.by_id, two):
        e = facts.get(other)
        state = e.status if e is not None else "?"
        score, labels = shared(e, tags, words) if e is not None and (tags or words) else (0, [])
        scored.append(((state != "active", rank, -score), other, how, state, labels))
    scored.sort(key=lambda t: t[0])  # stable: near_ids' order (closest number) among equals
    ties = Counter(key for key, *_rest in scored)
    out = []
    for key, other, how, state, labels in scored:
        bits = [f"{how} from {ident}"]
        if state != "active":
            bits.append(f"it is {state}")
        if labels:
            bits.append("shares " + ", ".join(labels[:3]))
        if ties[key] > 1:
            bits.append(f"one of {ties[key]} as near")
        out.append((other, "; ".join(bits)))
    return out


_LATIN_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_STOP = frozenset({"the", "and", "for", "with", "that", "this", "from", "mem", "user", "md"})


def tokens(text: str) -> frozenset[str]:
    """Words of a text for context matching: Latin words (3+ letters) and CJK character pairs."""
    out = {w.lower() for w in _LATIN_RE.findall(text)} - _STOP
    for run in _CJK_RE.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


def shared(e: Entry, tags: frozenset[str], words: frozenset[str]) -> tuple[int, list[str]]:
    """How much ``e`` shares with a context (3 a tag, 1 a word), and what, tags first."""
    st = tags & frozenset(e.tags)
    sw = words & tokens(e.body) if words else frozenset()
    return 3 * len(st) + len(sw), [f"tag {t}" for t in sorted(st)] + [f"“{w}”" for w in sorted(sw)]


def entry_context(facts: IdFacts, rel: str, line: int | None) -> tuple[frozenset[str], frozenset[str]]:
    """Tags and words of the entry of memory file ``rel`` that holds ``line`` (empty elsewhere)."""
    if line is None or rel not in facts.rels:
        return frozenset(), frozenset()
    mf = facts.files[facts.rels.index(rel)]
    i = bisect.bisect_right(mf.entries, line, key=lambda e: e.line) - 1
    if i < 0 or mf.entries[i].error is not None:
        return frozenset(), frozenset()
    return frozenset(mf.entries[i].tags), tokens(mf.entries[i].body)


# --- files -----------------------------------------------------------------------------


def profile_files(profile: Profile) -> list[str]:
    """Profile-relative paths of the files a reference may point to."""
    rels = [f.rel for f in profile.text_files()]
    for doc, rel in ((profile.memories, "memories.md"), (profile.archive, ARCHIVE_REL)):
        if doc is not None and doc.data is not None:
            rels.append(rel)
    return sorted(dict.fromkeys(rels))


def file_suggestions(missing: str, files: Sequence[str], exclude: str = "") -> list[Suggestion]:
    """The three files closest to ``missing`` by name (then by folder), best first (not ``exclude``)."""
    base = posixpath.basename(missing)
    folder = posixpath.dirname(missing)
    scored: list[tuple[float, str]] = []
    for rel in files:
        if rel == missing or rel == exclude:
            continue
        name_ratio = difflib.SequenceMatcher(None, base, posixpath.basename(rel), autojunk=False).ratio()
        if name_ratio >= 0.6:
            scored.append((name_ratio + (0.1 if posixpath.dirname(rel) == folder else 0.0), rel))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [
        Suggestion("rewrite", rel, f"closest existing file name ({round(score * 100)}% alike)", kind="file")
        for score, rel in scored[:3]
    ]


# --- attaching to findings --------------------------------------------------------------


def attach(profile: Profile, findings: list[Finding]) -> list[Finding]:
    """``findings`` with suggestions on every reference finding that has one (cheap; no git)."""
    if not any(f.code in REPAIRABLE for f in findings):
        return findings
    facts = IdFacts(profile)
    files: list[str] | None = None
    memo: dict[tuple[str, str, str, int], tuple[Suggestion, ...]] = {}
    texts = _Texts(profile)
    nth: dict[tuple[str, int | None, str], int] = {}
    out: list[Finding] = []
    for f in findings:
        found: tuple[Suggestion, ...] = ()
        if f.code in ("dangling-ref", "inactive-ref") and f.id:
            # an id in an entry: its tags and words rank the near ids (a few entries read, no more)
            # elsewhere the words of its line and the line before do (as in ``repair``)
            in_entry = f.code == "dangling-ref" and f.file in facts.rels
            key = (f.code, f.id, f.file, f.line or 0) if f.code == "dangling-ref" else (f.code, f.id, "", 0)
            if key not in memo:
                tags: frozenset[str] = frozenset()
                words: frozenset[str] = frozenset()
                if in_entry:
                    tags, words = entry_context(facts, f.file, f.line)
                elif f.code == "dangling-ref" and f.line is not None:
                    around = [texts.line(f.file, f.line - 1) if f.line > 1 else None, texts.line(f.file, f.line)]
                    words = tokens("\n".join(t for t in around if t is not None))
                memo[key] = tuple(id_suggestions(f.id, facts, inactive=f.code == "inactive-ref",
                                                 tags=tags, words=words))
            found = tuple(_with_edit(s, texts.line(f.file, f.line), f.line, f.id, s.target) for s in memo[key])
            written_as = f.id
        elif f.code == "dangling-file":
            missing = missing_file(f)
            if files is None:
                files = profile_files(profile)
            written_as = ""
            if missing:
                row = texts.line(f.file, f.line)
                written_as = written_forms(f.file, missing, missing, row)[0]
                found = tuple(
                    _with_edit(s, row, f.line, *written_forms(f.file, missing, s.target, row))
                    for s in file_suggestions(missing, files, f.file)
                )
        else:
            out.append(f)
            continue
        k = (f.file, f.line, written_as)
        n = nth[k] = nth.get(k, -1) + 1
        cut = _removal(profile, facts, f, written_as, n)
        found = tuple(order_candidates([*found, cut] if cut is not None else list(found)))
        out.append(replace(f, suggestions=found) if found else f)
    return out


def _removal(profile: Profile, facts: IdFacts, f: Finding, written_as: str, nth: int) -> Suggestion | None:
    """"remove the reference" when ``repair`` can cut it out cleanly (the same rule: ``refbytes.removal``)."""
    if not written_as or f.line is None:
        return None
    if f.file == "state.yaml":
        kind = "state-path" if f.code == "dangling-file" else "state"
    elif f.file in facts.rels:
        kind = "link" if f.code == "dangling-file" else "body"
        mf = facts.files[facts.rels.index(f.file)]
        i = bisect.bisect_right(mf.entries, f.line, key=lambda e: e.line) - 1
        if i >= 0 and mf.entries[i].error is None and f.line < mf.entries[i].body_line:
            kind = "field:"
    else:
        kind = "link" if f.code == "dangling-file" else "context"
    if kind in ("body", "context"):
        return None  # an id in prose is never cut out
    data = file_bytes(profile, f.file)
    if data is None:
        return None
    a, b = line_bounds(data, f.line)
    if b - a > LONG_LINE:
        return None  # a hostile line (megabytes of links): no cut offered (refbytes.removal says the same)
    span = locate(data, f.line, [written_as], nth)
    ref = Ref(f.file, f.line, kind, f.id if f.code != "dangling-file" else None, None, None, text=written_as)
    if span is None or removal(profile, ref, span) is None:
        return None
    return Suggestion("remove", "", removal_why(ref), kind="remove")


class _Texts:
    """Single lines of the profile's files: a memory file's from the entry holding it, others split once."""

    def __init__(self, profile: Profile) -> None:
        self.by_rel: dict[str, str] = {f.rel: f.text for f in profile.text_files() if f.error is None}
        self.memory: dict[str, MemoryFile] = {
            rel: doc.mf for doc, rel in ((profile.memories, "memories.md"), (profile.archive, ARCHIVE_REL)) if doc is not None
        }
        self.rows: dict[str, list[str]] = {}

    def line(self, rel: str, line: int | None) -> str | None:
        if line is None or line < 1:
            return None
        mf = self.memory.get(rel)
        if mf is not None:  # walk from the entry that holds the line: no split of a big file
            i = bisect.bisect_right(mf.entries, line, key=lambda e: e.line) - 1
            text = mf.text
            pos, at = (mf.entries[i].start, mf.entries[i].line) if i >= 0 else (0, 1)
            for _ in range(line - at):
                nl = text.find("\n", pos)
                if nl < 0:
                    return None
                pos = nl + 1
            end = text.find("\n", pos)
            return text[pos : len(text) if end < 0 else end]
        if rel not in self.by_rel:
            return None
        rows = self.rows.get(rel)
        if rows is None:
            rows = self.rows[rel] = self.by_rel[rel].split("\n")
        return rows[line - 1] if line <= len(rows) else None


def written_forms(rel: str, missing: str, target: str, row: str | None) -> tuple[str, str]:
    """(the missing path as written on ``row``, ``target`` written the same way: relative to the file's
    folder, or to the profile folder)."""
    folder = posixpath.dirname(rel)
    if folder and row is not None:
        relative = posixpath.relpath(missing, folder)
        if _find_word(row, relative) is not None:
            return relative, posixpath.relpath(target, folder)
    return missing, target


def _find_word(row: str, needle: str) -> tuple[int, int] | None:
    """The first place of ``needle`` in ``row`` not inside a longer id or path."""
    start = 0
    while True:
        i = row.find(needle, start)
        if i < 0:
            return None
        j = i + len(needle)
        before = row[i - 1] if i > 0 else " "
        after = row[j] if j < len(row) else " "
        if before not in _WORD_BEFORE and after not in _WORD_AFTER:
            return i, j
        start = i + 1


def _with_edit(s: Suggestion, row: str | None, line: int | None, old: str, new: str) -> Suggestion:
    if s.action != "rewrite" or row is None or line is None:
        return s
    span = _find_word(row, old)
    if span is None:
        return s
    return replace(s, edit=(line, span[0] + 1, span[1] + 1, new))


_MISSING_RE = re.compile(r" references (.+), which does not exist$", re.S)


def missing_file(f: Finding) -> str | None:
    """The profile-relative path a dangling-file finding names."""
    m = _MISSING_RE.search(f.message)
    return m.group(1) if m else None
