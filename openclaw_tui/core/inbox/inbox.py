"""The review inbox: what changed between a folder's review mark and the folder now.

Layout A: entries added, changed, superseded, archived, ...; layout B: MEMORY.md rows and USER.md
directives added, removed, rewritten or moved, lines appended to daily logs; other files by file.
Each change names its commit, or "not committed" with the file's time; a night of dreaming is a group.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import posixpath
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..diff.lines import unified_diff
from ..diff.words import similarity, word_diff
from ..format.entries import decode, parse
from ..format.places import is_profile_dir
from ..git.gitrepo import Repo, find_repo, head_sha, read_blob, run_git
from ..git.semantic_diff import ARCHIVE, MEMORIES, profile_diff
from ..workspace.model import OBSERVED_RE
from .mark import Mark, folder_files, read_mark
from .segments import Key, Segment, segments_of

ROW_FILES = ("MEMORY.md", "memory.md", "USER.md")
REWORD = 0.5  # two rows at least this alike (token similarity) are one row rewritten


@dataclass(frozen=True)
class Unit:
    """One file's part of a change: the mark's segment ``old`` became ``new`` (both None: the whole file)."""

    rel: str
    old: Key | None = None
    new: Key | None = None
    in_place: bool = True
    keep: bool = False  # a move only: the row keeps the bytes it has where it is moved

    @property
    def whole_file(self) -> bool:
        return self.old is None and self.new is None


@dataclass
class Change:
    id: str
    kind: str  # added, removed, changed, superseded, archived, restored, rewritten, moved, appended
    what: str  # entry, item, section, text, directive, preamble, malformed, log, file
    file: str  # folder-relative
    title: str
    detail: str = ""
    diff: list[str] = field(default_factory=list)
    units: tuple[Unit, ...] = ()
    committed: bool = False
    sha: str | None = None
    author: str | None = None
    date: str | None = None  # ISO 8601: the commit's, or the file's modification time
    subject: str | None = None
    group: str | None = None  # "dreaming 2026-04-27"
    dreaming: bool = False

    @property
    def who(self) -> str:
        if self.committed:
            return f"{self.author}, {self.date}, {self.sha[:8] if self.sha else ''} {self.subject or ''}".rstrip()
        return f"not committed, written at {self.date}" if self.date else "not committed"

    def to_json(self) -> dict[str, object]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("units", "dreaming")}
        return out | {"who": self.who}


@dataclass
class Inbox:
    folder: Path
    layout: str  # "profile" or "openclaw"
    mark: Mark
    current: dict[str, bytes]
    changes: list[Change]

    @property
    def count(self) -> int:
        return len(self.changes)

    @property
    def notes(self) -> list[str]:
        return [self.mark.note] if self.mark.note else []

    def get(self, change_id: str) -> Change | None:
        return next((c for c in self.changes if c.id == change_id), None)

    def groups(self) -> dict[str, list[Change]]:
        out: dict[str, list[Change]] = {}
        for c in self.changes:
            if c.group:
                out.setdefault(c.group, []).append(c)
        return out

    def to_json(self) -> dict[str, object]:
        return {"folder": str(self.folder), "layout": self.layout, "count": self.count,
                "mark": {"kind": self.mark.kind, "sha": self.mark.sha, "time": self.mark.time},
                "notes": self.notes, "groups": {g: [c.id for c in cs] for g, cs in self.groups().items()},
                "changes": [c.to_json() for c in self.changes]}


def _text(data: bytes | None) -> str:
    return decode(data or b"")[0]


def _cid(*parts: object) -> str:
    return hashlib.sha1(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()[:7]


def render_words(a: str, b: str) -> str:
    """A word diff on one line: ``[-removed-]{+added+}`` around what differs."""
    return "".join(r.a if r.op == "equal" else (f"[-{r.a}-]" if r.a else "") + (f"{{+{r.b}+}}" if r.b else "")
                   for r in word_diff(a, b))


MAX_DIFF = 1 << 20  # a file larger than this (or not text) is told by its sizes, not a line diff
MAX_LINES = 400  # a longer line diff is cut there (the file itself is one revert or approve away)


def _lines(before: str, after: str, rel: str) -> list[str]:
    return unified_diff(before, after, f"reviewed/{rel}", f"now/{rel}").splitlines()


def _file_lines(old_b: bytes | None, new_b: bytes | None, rel: str) -> list[str]:
    sizes = [len(x) if x is not None else 0 for x in (old_b, new_b)]
    if max(sizes) > MAX_DIFF or any(x is not None and (b"\0" in x or not decode(x)[2]) for x in (old_b, new_b)):
        return [f"(not text, or too large for a line diff: {sizes[0]} → {sizes[1]} bytes)"]
    lines = _lines(_text(old_b), _text(new_b), rel)
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES] + [f"… {len(lines) - MAX_LINES} more lines of diff"]
    return lines


# --- layout A -------------------------------------------------------------------------------------


def _entry_changes(mark: dict[str, bytes], now: dict[str, bytes]) -> list[Change]:
    d = profile_diff(mark.get(MEMORIES), mark.get(ARCHIVE), now.get(MEMORIES), now.get(ARCHIVE))
    out: list[Change] = []
    for ev in d.events:
        key: Key = ("entry", (), ev.id, 0)
        units = []
        for rel, sd in ((MEMORIES, d.memories), (ARCHIVE, d.archive)):
            ch_ = sd.get(ev.id)  # the entry's change in this file, if its bytes there changed
            if ch_ is not None:
                units.append(Unit(rel, key if ch_.kind != "added" else None, key if ch_.kind != "removed" else None))
        diff: list[str] = []
        ch = ev.change
        if ch is not None:
            diff += [f"{f.name}: {f.old!r} -> {f.new!r}" for f in ch.fields]
            if ch.body_changed and ch.old_raw is not None and ch.new_raw is not None:
                ob = parse(ch.old_raw).entries[0].body if parse(ch.old_raw).entries else ch.old_raw
                nb = parse(ch.new_raw).entries[0].body if parse(ch.new_raw).entries else ch.new_raw
                diff.append("body: " + render_words(ob.strip(), nb.strip()))
        raw = (ch.new_raw or ch.old_raw) if ch is not None else None
        first = parse(raw).entries[0].first_line() if raw and parse(raw).entries else ""
        if ev.kind in ("added", "removed") and ch is not None:
            diff += (ch.new_raw or ch.old_raw or "").splitlines()
        out.append(Change(ev.id, ev.kind, "entry", ev.file, f"{ev.id} {first}".strip(), ev.describe(), diff,
                          tuple(units)))
    # what no entry explains: the preamble and malformed blocks, as segments
    for rel, sd in ((MEMORIES, d.memories), (ARCHIVE, d.archive)):
        if sd.preamble_changed or sd.malformed_changed or sd.unexplained:
            out += _segment_changes(rel, mark.get(rel), now.get(rel), kinds=("preamble", "malformed"))
    return out


# --- layout B rows ------------------------------------------------------------------------------


def _remap(path: tuple[str, ...], renames: dict[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    for n in range(len(path), 0, -1):
        if path[:n] in renames:
            return renames[path[:n]] + path[n:]
    return path


Pair = tuple[str, Segment | None, Segment | None]  # kind of change, the mark's row, the folder's row


def _match(rel: str, old_b: bytes | None, new_b: bytes | None, kinds: tuple[str, ...] | None
           ) -> tuple[list[Segment], list[Segment], list[Pair], dict[tuple[str, ...], tuple[str, ...]]]:
    """The rows of two versions of one file, the pairs that differ, and the renamed headings."""
    old = [s for s in segments_of(rel, _text(old_b)) if kinds is None or s.kind in kinds]
    new = [s for s in segments_of(rel, _text(new_b)) if kinds is None or s.kind in kinds]
    new_by = {s.key: s for s in new}
    old_by = {s.key: s for s in old}
    pairs: list[Pair] = []
    for s in old:
        n = new_by.get(s.key)
        if n is not None and n.raw != s.raw:
            pairs.append(("changed", s, n))
    lo = [s for s in old if s.key not in new_by]
    ln = [s for s in new if s.key not in old_by]
    renames: dict[tuple[str, ...], tuple[str, ...]] = {}
    for s in [x for x in lo if x.kind == "section"]:  # a heading reworded in place
        best = max((n for n in ln if n.kind == "section" and n.path[:-1] == s.path[:-1]),
                   key=lambda n: similarity(s.text, n.text), default=None)
        if best is not None and similarity(s.text, best.text) >= REWORD:
            pairs.append(("rewritten", s, best))
            renames[s.path] = best.path
            lo.remove(s)
            ln.remove(best)
    for s in list(lo):  # under a renamed heading, unchanged: no change of its own
        mapped = (s.kind, _remap(s.path, renames), s.text, s.key[3])
        n = next((x for x in ln if x.key == mapped), None)
        if n is not None and renames and mapped != s.key:
            if n.raw != s.raw:
                pairs.append(("changed", s, n))
            lo.remove(s)
            ln.remove(n)
    for s in list(lo):  # the same text elsewhere: moved
        n = next((x for x in ln if x.kind == s.kind and x.text == s.text), None)
        if n is not None:
            pairs.append(("moved", s, n))
            lo.remove(s)
            ln.remove(n)
    # similar text in the same place: rewritten, the most alike pairs first
    alike = sorted(((-sim, i, j) for i, s in enumerate(lo) for j, x in enumerate(ln)
                    if x.kind == s.kind and _remap(s.path, renames) == x.path
                    for sim in [similarity(s.text, x.text)] if sim >= REWORD))
    done_o: set[int] = set()
    done_n: set[int] = set()
    for _sim, i, j in alike:
        if i not in done_o and j not in done_n:
            pairs.append(("rewritten", lo[i], ln[j]))
            done_o.add(i)
            done_n.add(j)
    lo = [s for i, s in enumerate(lo) if i not in done_o]
    ln = [x for j, x in enumerate(ln) if j not in done_n]
    pairs += [("removed", s, None) for s in lo] + [("added", None, n) for n in ln]
    return old, new, _reordered(old, new, pairs, renames), renames


def _parent(s: Segment, renames: dict[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    """The heading path a row sits under (a heading: the one above it), renamed headings followed."""
    return _remap(s.path[:-1] if s.kind == "section" else s.path, renames)


def row_pairs(rel: str, old_b: bytes | None, new_b: bytes | None) -> dict[Key, Key]:
    """Each row of ``old_b`` that ``new_b`` holds in the same section under another key (rewritten, or
    under a renamed heading)."""
    old, new, pairs, renames = _match(rel, old_b, new_b, None)
    new_keys = {s.key for s in new}
    out = {o.key: n.key for _k, o, n in pairs if o is not None and n is not None and o.key != n.key
           and o.kind != "entry" and _parent(o, renames) == _parent(n, {})}  # an entry is its id: never paired
    for o in old:
        mapped = (o.kind, _remap(o.path, renames), o.text, o.key[3])
        if mapped != o.key and mapped in new_keys:
            out.setdefault(o.key, mapped)
    return out


def _segment_changes(rel: str, old_b: bytes | None, new_b: bytes | None,
                     kinds: tuple[str, ...] | None = None) -> list[Change]:
    """Rows and directives added, removed, changed, rewritten (similar text) and moved between two
    versions of one file; a renamed section moves nothing."""
    old, new, pairs, renames = _match(rel, old_b, new_b, kinds)
    out = []
    for kind, o, n in pairs:
        seg = n or o
        assert seg is not None
        where = " › ".join(seg.path[:-1] if seg.kind == "section" else seg.path)
        title = seg.text if seg.kind != "preamble" else f"{rel}: text before the first entry"
        detail = kind
        in_place, keep, cid = kind != "moved", False, None
        if kind == "moved within":  # the row's place only: its text, if changed, is a change of its own
            # a swap of two rows reads either way: a move within a section is named by its section
            kind, detail, in_place, keep = "moved", f"moved within {where or 'the top'}", False, True
            cid = _cid(rel, "moved within", seg.path)
        elif kind == "moved" and o is not None and n is not None:
            detail = f"moved from {' › '.join(o.path) or 'the top'} to {' › '.join(n.path) or 'the top'}"
        elif where:
            detail = f"{kind} in {where}"
        if seg.kind == "directive" and o is not None and n is not None:
            was, now = OBSERVED_RE.match(o.raw.split("\n", 1)[0]), OBSERVED_RE.match(n.raw.split("\n", 1)[0])
            if was and now and was.group(2) != now.group(2):
                detail = f"status {was.group(2)} → {now.group(2)}" + ("" if kind == "changed" else f", {kind}")
        diff: list[str] = []
        if not keep and o is not None and n is not None and o.raw != n.raw:
            diff = [render_words(o.text, n.text)] if o.text != n.text else _lines(o.raw, n.raw, rel)[2:]
        elif kind != "moved":  # a move within (``keep``) is a "moved" too: no diff
            diff = [("+ " if n else "- ") + line for line in seg.raw.splitlines()]
        unit = Unit(rel, o.key if o else None, n.key if n else None, in_place, keep)
        out.append(Change(cid or _cid(rel, unit.old, unit.new), kind, seg.kind, rel, title, detail, diff, (unit,),
                          dreaming=bool(n is not None and n.promoted)))
    order = {s.key: i for i, s in enumerate(new)}  # in the file's order
    out.sort(key=lambda c: min((order.get(u.new, 0) for u in c.units if u.new), default=-1))
    return out


def _reordered(old: list[Segment], new: list[Segment], pairs: list[Pair],
               renames: dict[tuple[str, ...], tuple[str, ...]]) -> list[Pair]:
    """``pairs`` plus the rows whose place among the others of their section changed ("moved within").

    Rows both sides hold are tokens; each side also gets the other side's own rows where approve or
    revert would put them.  The tokens off the longest common order are the moved ones."""
    paired = {id(o): n for _k, o, n in pairs if o is not None and n is not None}
    new_by = {x.key: x for x in new}
    still = [(o, new_by.get((o.kind, _remap(o.path, renames), o.text, o.key[3]))) for o in old if o.kind != "section"]
    token: dict[int, tuple[object, ...]] = {}  # id(segment) -> token naming its row on both sides
    for o, n in still:
        n = paired.get(id(o), n)
        if n is not None and n.kind != "section" and _remap(o.path, renames) == n.path:
            token[id(o)] = token[id(n)] = ("row", o.key)
    for i, s in enumerate(old):
        token.setdefault(id(s), ("old", i))
    for i, s in enumerate(new):
        token.setdefault(id(s), ("new", i))

    def box(seq: list[Segment], mapped: bool) -> dict[tuple[str, ...], list[tuple[object, ...]]]:
        out: dict[tuple[str, ...], list[tuple[object, ...]]] = {}
        for s in seq:
            if s.kind != "section":
                out.setdefault(_remap(s.path, renames) if mapped else s.path, []).append(token[id(s)])
        return out

    def placed(side: list[tuple[object, ...]], other: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        """``side`` with the other side's rows it lacks where they would be put (after their predecessor)."""
        have = set(side)
        out = list(side)
        for i, t in enumerate(other):
            if t in have:
                continue
            before = next((p for p in reversed(other[:i]) if p in have), None)
            at = out.index(before) + 1 if before is not None else 0  # none: first under the heading
            while before is not None and at < len(out) and out[at] not in have:
                at += 1  # after the placeholders already put behind the same row, in their order
            out.insert(at, t)
        return out

    moved: set[tuple[object, ...]] = set()
    old_box, new_box = box(old, True), box(new, False)
    for where, a in old_box.items():
        b = new_box.get(where, [])
        common = set(a) & set(b)
        if len(common) < 2 or [t for t in a if t in common] == [t for t in b if t in common]:
            continue
        seq_a = placed(a, b)
        sm = difflib.SequenceMatcher(None, seq_a, placed(b, a), autojunk=False)
        kept = {t for blk in sm.get_matching_blocks() for t in seq_a[blk.a:blk.a + blk.size]}
        moved |= common - kept
    out = list(pairs)
    for o, n in still:
        n = paired.get(id(o), n)
        if n is not None and token[id(o)] in moved:
            out.append(("moved within", o, n))
    return out


def _file_change(rel: str, old_b: bytes | None, new_b: bytes | None) -> Change:
    name = rel.rsplit("/", 1)[-1]
    is_log = rel.startswith("memory/") and name[:4].isdigit() and rel.count("/") == 1
    if old_b is None:
        kind, detail = "added", "new file"
    elif new_b is None:
        kind, detail = "removed", "file removed"
    elif is_log and new_b.startswith(old_b):
        added = _text(new_b)[len(_text(old_b)):].splitlines()
        n = len([x for x in added if x.strip()])
        kind, detail = "appended", f"{n} line{'' if n == 1 else 's'} appended"
    else:
        kind, detail = "changed", "changed"
    diff = ["+ " + x for x in added] if kind == "appended" else _file_lines(old_b, new_b, rel)
    dreaming = rel == "DREAMS.md" or rel.startswith("memory/.dreams/")
    return Change(rel, kind, "log" if is_log else "file", rel, rel, detail, diff, (Unit(rel),), dreaming=dreaming)


# --- who and when --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Commit:
    sha: str
    author: str
    date: str
    subject: str
    files: frozenset[str]  # folder-relative


def _commits(repo: Repo, folder: Path, base: str | None, paths: list[str] | None = None,
             limit: int | None = None) -> list[_Commit]:
    """Commits after ``base`` up to HEAD that touched the folder (or ``paths``), newest first."""
    prefix = repo.rel(folder)
    rng = f"{base}..HEAD" if base else "HEAD"
    more = [f"-{limit}"] if limit else []
    proc = run_git(["log", "--no-renames", *more, "--format=%x01%H%x00%an%x00%aI%x00%s", "--name-only", rng, "--",
                    *(paths or [prefix or "."])], repo.root, check=False)
    out = []
    cut = len(prefix) + 1 if prefix else 0
    for rec in proc.stdout.decode("utf-8", "surrogateescape").split("\x01")[1:]:
        head, _, names = rec.partition("\n")
        sha, author, date, subject = head.split("\0", 3)
        files = frozenset(n[cut:] for n in names.split("\n") if n.strip())
        out.append(_Commit(sha, author, date, subject, files))
    return out


def _content(raw: str | None) -> str | None:
    """A segment's bytes without the blank lines after it (an entry appended after it changes those)."""
    return raw.rstrip() if raw is not None else None


def _signature(change: Change, seg: Callable[[str], dict[Key, str]], whole: Callable[[str], bytes | None]
               ) -> tuple[object, ...]:
    """What of the change's files a version holds: the bytes of its segments (or whole files)."""
    sig: list[object] = []
    for u in change.units:
        if u.whole_file:
            sig.append(whole(u.rel))
            continue
        by = seg(u.rel)
        sig.append((_content(by.get(u.old)) if u.old else None, _content(by.get(u.new)) if u.new else None))
        here = u.new if u.new in by else u.old
        if u.keep and here in by:  # moved within its section: the row before it tells the place
            keys = list(by)
            sig.append(keys[keys.index(here) - 1] if keys.index(here) else None)
    return tuple(sig)


def _attribute(changes: list[Change], folder: Path, mark: Mark, now: dict[str, bytes]) -> None:
    repo = find_repo(folder)
    head = head_sha(repo) if repo is not None else None
    if repo is None or head is None:  # nothing committed to tell: the files' times
        for c in changes:
            _written_at(c, folder)
        return
    commits = _commits(repo, folder, mark.base)
    prefix = repo.rel(folder)
    blobs: dict[tuple[str, str], bytes | None] = {}
    segs: dict[tuple[str, str], dict[Key, str]] = {}

    def whole_at(sha: str | None) -> Callable[[str], bytes | None]:
        def get(rel: str) -> bytes | None:
            if sha is None:
                return mark.files.get(rel)
            if sha == "":
                return now.get(rel)
            if (sha, rel) not in blobs:
                blobs[(sha, rel)] = read_blob(repo, sha, posixpath.join(prefix, rel))
            return blobs[(sha, rel)]
        return get

    def segs_at(sha: str | None) -> Callable[[str], dict[Key, str]]:
        whole = whole_at(sha)

        def get(rel: str) -> dict[Key, str]:
            k = (sha if sha is not None else "\0mark", rel)
            if k not in segs:  # each version of each file parsed once, whatever the number of changes
                segs[k] = {s.key: s.raw for s in segments_of(rel, _text(whole(rel)))}
            return segs[k]
        return get

    def sig_at(c: Change, sha: str | None) -> tuple[object, ...]:
        return _signature(c, segs_at(sha), whole_at(sha))

    for c in changes:
        cur = sig_at(c, "")
        rels = {u.rel for u in c.units}
        if sig_at(c, head) != cur:
            _written_at(c, folder)
            continue
        touching = [k for k in commits if k.files & rels]
        found = next((k for i, k in enumerate(touching)
                      if sig_at(c, touching[i + 1].sha if i + 1 < len(touching) else mark.base) != cur), None)
        if found is None:  # committed before the mark's base (a mark made from older bytes): the last commit touching it
            found = next(iter(_commits(repo, folder, None, [posixpath.join(prefix, r) for r in sorted(rels)], 1)), None)
        if found is not None:
            c.committed, c.sha, c.author, c.date, c.subject = True, found.sha, found.author, found.date, found.subject


def _written_at(c: Change, folder: Path) -> None:
    """Not committed: the newest modification time of the change's files."""
    times = []
    for r in {u.rel for u in c.units}:
        try:
            times.append((folder / r).stat().st_mtime)
        except OSError:
            continue
    when = max(times) if times else None
    c.date = dt.datetime.fromtimestamp(when).astimezone().replace(microsecond=0).isoformat() if when else None


def _group_dreaming(changes: list[Change]) -> None:
    """A night of dreaming is one group: its promoted rows, DREAMS.md and memory/.dreams/, by day."""
    for c in changes:
        if c.dreaming:
            c.group = f"dreaming {(c.date or '')[:10] or 'now'}"


# --- the inbox ------------------------------------------------------------------------------------


def compute(folder: Path, mark: Mark, now: dict[str, bytes], layout: str) -> list[Change]:
    if mark.kind == "empty":  # nothing reviewed to compare with: every file is new, said file by file
        return [_file_change(rel, None, data) for rel, data in sorted(now.items())]
    changes: list[Change] = []
    rels = sorted(set(mark.files) | set(now))
    for rel in rels:
        o, n = mark.files.get(rel), now.get(rel)
        if o == n:
            continue
        if layout == "profile" and rel in (MEMORIES, ARCHIVE):
            continue  # below, both together
        if layout == "openclaw" and rel in ROW_FILES and o is not None and n is not None:
            changes += _segment_changes(rel, o, n)
            continue
        changes.append(_file_change(rel, o, n))
    if layout == "profile" and any(mark.files.get(r) != now.get(r) for r in (MEMORIES, ARCHIVE)):
        changes[:0] = _entry_changes(mark.files, now)
    seen: Counter[str] = Counter()
    for c in changes:  # ids unique within the inbox (a row that repeats, a file named like an entry)
        seen[c.id] += 1
        if seen[c.id] > 1:
            c.id = f"{c.id}~{seen[c.id] - 1}"
    return changes


def layout_of(folder: Path) -> str:
    return "profile" if is_profile_dir(folder) else "openclaw"


def load_inbox(folder: Path | str) -> Inbox:
    """The inbox of a profile or workspace folder (read-only)."""
    folder = Path(folder).absolute()
    mark = read_mark(folder)
    repo = find_repo(folder)
    now = folder_files(folder, repo)
    layout = layout_of(folder)
    changes = compute(folder, mark, now, layout)
    _attribute(changes, folder, mark, now)
    _group_dreaming(changes)
    return Inbox(folder, layout, mark, now, changes)
