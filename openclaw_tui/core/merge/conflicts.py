"""Files left with git conflict markers, and resolving them.

``parse_conflicts`` reads regions of any marker size and style; ``analyze`` turns them into items to
decide (one per entry id for memories.md, one per region elsewhere); ``render_resolution`` builds the
resolved text from the choices.  Pure: nothing here writes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from ..format.edit import set_fields
from ..format.entries import MemoryFile, decode, parse, split_trailing
from ..format.fields import ids_in_value, next_id
from ..git.threeway import entry_contents, typical_separator

OURS = "ours"
THEIRS = "theirs"
BOTH = "both"
Side = Literal["ours", "base", "theirs"]


@dataclass(frozen=True)
class Edited:
    """A resolution typed by the user: the exact text to put in place."""

    text: str


Choice = str | Edited  # OURS, THEIRS, BOTH or Edited(...)


class ResolutionError(ValueError):
    """The choices do not give a usable file (unresolved items, malformed result...)."""


# --- parsing the markers ------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """One conflict region of the conflicted file."""

    index: int
    marker_size: int
    ours: str
    base: str | None  # None in the default style (no ``|||||||`` section)
    theirs: str
    ours_label: str
    base_label: str | None
    theirs_label: str
    start_line: int  # the ``<<<<<<<`` line

    def section(self, which: Side) -> str:
        return self.ours if which == "ours" else self.theirs if which == "theirs" else self.base or ""


@dataclass(frozen=True)
class ConflictText:
    text: str
    parts: tuple[str | Region, ...]

    @property
    def regions(self) -> tuple[Region, ...]:
        return tuple(p for p in self.parts if isinstance(p, Region))

    def side(self, which: Side) -> str | None:
        """The whole file as that side had it (None for base when a region lacks its base)."""
        if which == "base" and any(r.base is None for r in self.regions):
            return None
        return "".join(p if isinstance(p, str) else p.section(which) for p in self.parts)


_OPEN_RE = re.compile(r"(<+)(?:[ \t](.*?))?[ \t]*\r?\n?")


def _marker(line: str, char: str, size: int) -> tuple[bool, str]:
    """Is ``line`` a marker of exactly ``size`` ``char``s? Returns (yes, label)."""
    if not line.startswith(char * size) or line[size : size + 1] == char:
        return False, ""
    rest = line[size:].rstrip("\r\n")
    if rest and rest[0] not in " \t":
        return False, ""
    return True, rest.strip(" \t")


def has_markers(text: str, min_size: int = 7) -> bool:
    return bool(parse_conflicts(text, min_size).regions)


def parse_conflicts(text: str, min_size: int = 7) -> ConflictText:
    """Split ``text`` into plain text and conflict regions (unterminated markers stay text).

    A region opens with N >= ``min_size`` ``<`` and closes with ``=`` and ``>`` lines of exactly N.
    """
    lines = text.splitlines(keepends=True)
    parts: list[str | Region] = []
    plain: list[str] = []
    i = count = 0
    while i < len(lines):
        m = _OPEN_RE.fullmatch(lines[i]) if lines[i].startswith("<" * min_size) else None
        region = _read_region(lines, i, len(m.group(1)), count) if m else None
        if region is None:
            plain.append(lines[i])
            i += 1
            continue
        if plain:
            parts.append("".join(plain))
            plain = []
        parts.append(region[0])
        i, count = region[1], count + 1
    if plain:
        parts.append("".join(plain))
    return ConflictText(text, tuple(parts))


def _read_region(lines: list[str], start: int, size: int, index: int) -> tuple[Region, int] | None:
    """The region whose ``<`` marker is line ``start`` (0-based), and the line after it; None: not closed."""
    sections: dict[str, list[str]] = {"ours": []}
    labels: dict[str, str] = {"ours": _marker(lines[start], "<", size)[1]}
    current = "ours"
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if current == "ours":
            ok, label = _marker(line, "|", size)
            if ok:
                current, labels["base"], sections["base"] = "base", label, []
                continue
        if current in ("ours", "base"):
            ok, label = _marker(line, "=", size)
            if ok and not label:
                current, sections["theirs"] = "theirs", []
                continue
        if current == "theirs":
            ok, label = _marker(line, ">", size)
            if ok:
                base = "".join(sections["base"]) if "base" in sections else None
                return Region(index, size, "".join(sections["ours"]), base, "".join(sections["theirs"]),
                              labels["ours"], labels.get("base"), label, start + 1), i + 1
        if _marker(line, "<", size)[0]:
            return None  # a new region opens before this one closed: not a region
        sections[current].append(line)
    return None


# --- what to decide ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConflictItem:
    """One decision: an entry (by id) of memories.md, its preamble, or a region of another file."""

    key: str  # the entry id, "preamble", or "region-N"
    kind: Literal["entry", "text"]
    ours: str | None  # that side's text (None: absent on that side)
    base: str | None
    theirs: str | None
    base_known: bool  # False in the default style: ``base`` is then None for lack of information
    line: int  # the ``<<<<<<<`` line of the region holding it (1-based)
    region: int  # index of that region
    # an id both sides added for two different entries (not in the base): both are kept, theirs renumbered
    collision: bool = False

    @property
    def situation(self) -> str:
        """both-changed, deleted-by-ours, deleted-by-theirs, added-by-both, added-by-ours, added-by-theirs."""
        o, b, t = self.ours, self.base, self.theirs
        if o is not None and t is not None:
            return "added-by-both" if self.collision or self.base_known and b is None else "both-changed"
        if o is None:
            return "deleted-by-ours" if b is not None else "added-by-theirs"
        return "deleted-by-theirs" if b is not None else "added-by-ours"

    @property
    def description(self) -> str:
        what = {
            "both-changed": "changed on both sides",
            "deleted-by-ours": "deleted by ours, changed by theirs",
            "deleted-by-theirs": "deleted by theirs, changed by ours",
            "added-by-both": "two different entries added on both sides under this id: "
                             "both kept, theirs under the next free id",
            "added-by-ours": "only in ours",
            "added-by-theirs": "only in theirs",
        }[self.situation]
        return f"{self.key}: {what}"


@dataclass(frozen=True)
class Conflicts:
    name: str  # the file's name or path, as given
    conflict: ConflictText
    mode: Literal["entries", "hunks"]
    items: tuple[ConflictItem, ...]
    reason: str | None = None  # why a memories file is resolved region by region
    bom: bool = False
    data: bytes | None = None  # the bytes it was read from (for ``save``)
    _ours: MemoryFile | None = field(default=None, repr=False, compare=False)
    _theirs: MemoryFile | None = field(default=None, repr=False, compare=False)

    def item(self, key: str) -> ConflictItem:
        return {it.key: it for it in self.items}[key]


def is_memory_file(name: str) -> bool:
    return Path(name).name.lower() == "memories.md"


def analyze(text: str, name: str = "memories.md", min_size: int = 7, base_ids: set[str] | None = None) -> Conflicts:
    """The decisions a conflicted file asks for (by entry id for memories.md, else by region).

    ``base_ids``: the base version's ids when known (git's stage 1), to tell an id both sides added.
    """
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    ct = parse_conflicts(text, min_size)
    if not ct.regions:
        return Conflicts(name, ct, "entries" if is_memory_file(name) else "hunks", (), bom=bom)
    if is_memory_file(name):
        reason = _entries_blocker(ct)
        if reason is None:
            return _analyze_entries(name, ct, bom, base_ids)
    else:
        reason = None
    items = tuple(
        ConflictItem(f"region-{r.index + 1}", "text", r.ours, r.base, r.theirs, r.base is not None, r.start_line, r.index)
        for r in ct.regions
    )
    return Conflicts(name, ct, "hunks", items, reason, bom)


def _entries_blocker(ct: ConflictText) -> str | None:
    """Why the file cannot be resolved entry by entry (None when it can): malformed blocks or
    repeated ids that differ between the two sides."""
    sides = {side: parse(ct.side(side) or "") for side in ("ours", "theirs")}
    for side, mf in sides.items():
        if has_markers(mf.text):
            return f"the {side} version holds nested conflict markers"
    o, t = sides["ours"], sides["theirs"]
    if [e.raw for e in o.entries if e.error] != [e.raw for e in t.entries if e.error]:
        return "a malformed block differs between the two versions"
    for mf in (o, t):
        for dup in [i for i, n in Counter(mf.ids()).items() if n > 1]:
            versions = [[e.raw for e in m.entries if e.id == dup and not e.error] for m in (o, t)]
            if versions[0] != versions[1]:
                return f"{dup} is defined twice and differs between the two versions"
    return None


def _region_spans(ct: ConflictText, which: Side) -> list[tuple[int, int, int]]:
    """(start, end, region index) offsets of each region's section in that side's full text."""
    spans: list[tuple[int, int, int]] = []
    pos = 0
    for p in ct.parts:
        if isinstance(p, str):
            pos += len(p)
            continue
        chunk = p.section(which)
        spans.append((pos, pos + len(chunk), p.index))
        pos += len(chunk)
    return spans


def _region_of(spans: list[tuple[int, int, int]], start: int, end: int) -> int | None:
    for a, b, idx in spans:
        if a < end and start < b or (a == b and start <= a <= end):
            return idx
    return None


def _analyze_entries(name: str, ct: ConflictText, bom: bool, base_ids: set[str] | None = None) -> Conflicts:
    o_mf = parse(ct.side("ours") or "")
    t_mf = parse(ct.side("theirs") or "")
    base_text = ct.side("base")
    b_mf = parse(base_text) if base_text is not None else None
    base_ok = b_mf is not None
    o_c, t_c = entry_contents(o_mf), entry_contents(t_mf)
    b_c = entry_contents(b_mf) if b_mf is not None else {}
    regions = {r.index: r for r in ct.regions}
    o_spans, t_spans = _region_spans(ct, "ours"), _region_spans(ct, "theirs")

    def where(key: str) -> int:
        for mf, spans in ((o_mf, o_spans), (t_mf, t_spans)):
            e = mf.get(key)
            if e is not None:
                idx = _region_of(spans, e.start, e.end)
                if idx is not None:
                    return idx
        return 0

    items: list[ConflictItem] = []
    if o_mf.preamble != t_mf.preamble:
        idx = _region_of(o_spans, 0, len(o_mf.preamble)) or 0
        items.append(ConflictItem(
            "preamble", "text", o_mf.preamble, b_mf.preamble if b_mf is not None else None,
            t_mf.preamble, base_ok, regions[idx].start_line, idx,
        ))
    keys = list(o_c) + [k for k in t_c if k not in o_c]
    for key in keys:
        o, t = o_c.get(key), t_c.get(key)
        if o == t:
            continue
        idx = where(key)
        collision = o is not None and t is not None and (
            (base_ok and key not in b_c) or (base_ids is not None and key not in base_ids)
        )
        items.append(ConflictItem(key, "entry", o, b_c.get(key), t, base_ok, regions[idx].start_line, idx, collision))
    items.sort(key=lambda it: (it.line, 0 if it.key == "preamble" else 1))
    return Conflicts(name, ct, "entries", tuple(items), None, bom, None, o_mf, t_mf)


def suggestion(item: ConflictItem) -> Choice | None:
    """The obvious choice when the base shows only one side changed (None: a person must decide)."""
    if item.collision:
        return BOTH
    if item.base_known and item.ours == item.base:
        return THEIRS
    return OURS if item.base_known and item.theirs == item.base else None


def remaining(conflicts: Conflicts, choices: Mapping[str, Choice]) -> int:
    """How many items have no choice yet."""
    return sum(1 for it in conflicts.items if it.key not in choices)


# --- building the result ---------------------------------------------------------------------------


def validate_edit(item: ConflictItem, text: str) -> str | None:
    """Why an edited resolution of ``item`` is not acceptable (None when it is)."""
    if has_markers(text):
        return "the text still holds conflict markers"
    if item.kind != "entry":
        return None
    mf = parse(text)
    if mf.preamble.strip():
        return "text before the first entry's ---"
    bad = [e for e in mf.entries if e.error]
    if bad:
        return f"malformed block at line {bad[0].line}: {bad[0].error}"
    return None


def _as_both(ours_key: str, theirs_text: str, taken: set[str]) -> str:
    """Theirs' version under a new id, with a ``conflict:`` link to ours' entry."""
    mf = parse(theirs_text)
    entry = mf.entries[0] if mf.entries else None
    if entry is None or entry.id is None or entry.error:
        return theirs_text
    new = next_id(taken)
    taken.add(new)
    links = [x for x in ids_in_value(entry.meta.get("conflict")) if x != ours_key] + [ours_key]
    return set_fields(mf, entry.id, {"id": new, "conflict": links[0] if len(links) == 1 else links})


def _renumbered(old: str, theirs_text: str, taken: set[str], renames: dict[str, str] | None) -> str:
    """Theirs' addition under the next free id (its own mentions of the id follow it)."""
    from ..git.threeway import id_word

    new = renames[old] if renames is not None and old in renames else next_id(taken)
    taken.add(new)
    if renames is not None:
        renames[old] = new
    return id_word(old).sub(new, theirs_text)


def _choose_text(item: ConflictItem, choice: Choice, taken: set[str], renames: dict[str, str] | None = None) -> str:
    o, t = item.ours or "", item.theirs or ""
    if isinstance(choice, Edited):
        reason = validate_edit(item, choice.text)
        if reason:
            raise ResolutionError(f"{item.key}: {reason}")
        return choice.text
    if choice == OURS:
        return o
    if choice == THEIRS:
        return t
    if choice == BOTH:
        if item.kind == "entry" and item.collision:
            return _join(o, _renumbered(item.key, t, taken, renames), blank=True)
        if item.kind == "entry" and item.ours is not None and item.theirs is not None:
            return _join(o, _as_both(item.key, t, taken), blank=True)
        return _join(o, t)
    raise ResolutionError(f"{item.key}: unknown choice {choice!r}")


def _join(first: str, second: str, blank: bool = False) -> str:
    """``first`` then ``second`` on the next line (after a blank line when ``blank``: two entries)."""
    if first and second:
        nl = "\r\n" if first.endswith("\r\n") else "\n"
        if not first.endswith("\n"):
            first += nl
        if blank and first.strip("\r\n") and not first.endswith(nl + nl):
            first += nl
    return first + second


def render_resolution(
    conflicts: Conflicts, choices: Mapping[str, Choice], *, extra_ids: Iterable[str] = (),
    theirs_added: Iterable[str] = (), renames: dict[str, str] | None = None,
) -> str:
    """The resolved file's text (without BOM). Every item needs a choice.

    ``extra_ids``: ids defined elsewhere (the archive) that a kept entry must not take.  An id both
    sides added kept with ``BOTH`` gives theirs the next free id, and the references theirs added
    (in the regions and in the entries ``theirs_added`` names) follow; ``renames`` receives each pair.
    """
    missing = [it.key for it in conflicts.items if it.key not in choices]
    if missing:
        raise ResolutionError(f"{len(missing)} conflict(s) left: {', '.join(missing)}")
    if conflicts.mode == "hunks":
        out = _render_hunks(conflicts, choices)
    else:
        out = _render_entries(conflicts, choices, set(extra_ids), set(theirs_added), renames)
    if is_memory_file(conflicts.name):
        _check_memory_result(conflicts, out)
    return out


def _render_hunks(conflicts: Conflicts, choices: Mapping[str, Choice]) -> str:
    by_region = {it.region: it for it in conflicts.items}
    out: list[str] = []
    taken: set[str] = set()
    parts = conflicts.conflict.parts
    for i, p in enumerate(parts):
        if isinstance(p, str):
            out.append(p)
            continue
        text = _choose_text(by_region[p.index], choices[by_region[p.index].key], taken)
        if text and not text.endswith("\n") and i + 1 < len(parts):
            text += "\n"
        out.append(text)
    return "".join(out)


def _render_entries(
    conflicts: Conflicts, choices: Mapping[str, Choice], taken: set[str],
    theirs_added: set[str] | None = None, renames: dict[str, str] | None = None,
) -> str:
    from ..git.threeway import id_word

    o_mf, t_mf = conflicts._ours, conflicts._theirs
    assert o_mf is not None and t_mf is not None
    taken |= set(o_mf.ids()) | set(t_mf.ids())
    renames = {} if renames is None else renames
    for item in conflicts.items:  # first the renumberings, so that theirs' references can follow them
        if item.collision and choices.get(item.key) == BOTH:
            _renumbered(item.key, item.theirs or "", taken, renames)
    theirs_added = set(theirs_added or ())

    def follow(raw: str, base: str | None) -> str:
        for old, new in renames.items():
            if base is None or not id_word(old).search(base):
                raw = id_word(old).sub(new, raw)
        return raw

    nl = o_mf.newline
    text = o_mf.text
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in ours' text
    appended: list[str] = []
    if renames:  # theirs' additions outside the conflict regions (git merged them in as text)
        for e in o_mf.entries:
            if e.id in theirs_added and e.id not in renames:
                content = split_trailing(e.raw)[0]
                moved = follow(content, None)
                if moved != content and not any(it.key == e.id for it in conflicts.items):
                    edits.append((e.start, e.start + len(content), moved))
    for item in conflicts.items:
        chosen = _choose_text(item, choices[item.key], taken, renames)
        if renames and item.kind == "entry" and not item.collision and choices[item.key] == THEIRS:
            chosen = follow(chosen, item.base if item.base_known else (None if item.ours is None else item.ours))
        if item.key == "preamble":
            edits.append((0, o_mf.preamble_end, chosen if not chosen or chosen.endswith("\n") else chosen + nl))
            continue
        entry = o_mf.get(item.key)
        if entry is not None:
            content, _trailing = split_trailing(entry.raw)
            if not chosen:  # dropped: its separator goes with it
                edits.append((entry.start, entry.end, ""))
                continue
            if not chosen.endswith("\n") and entry.start + len(content) < len(text):
                chosen += nl
            edits.append((entry.start, entry.start + len(content), chosen))
        elif chosen:
            appended.append(chosen)
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    sep = typical_separator(o_mf, t_mf)
    for chunk in appended:
        if text and not text.endswith("\n"):
            text += nl
        if o_mf.entries and not text.endswith("\n" + sep):
            text += sep
        text += chunk if chunk.endswith("\n") else chunk + nl
    return text


def _check_memory_result(conflicts: Conflicts, out: str) -> None:
    mf = parse(out)
    bad = [e for e in mf.entries if e.error]
    if not bad:
        return
    # a malformed block both sides already had (outside the conflict) may stay; no other
    sides = [{e.raw for e in parse(conflicts.conflict.side(side) or "").entries if e.error}
             for side in ("ours", "theirs")]
    allowed = sides[0] & sides[1]
    new_bad = [e for e in bad if e.raw not in allowed]
    if new_bad:
        raise ResolutionError(f"the result has a malformed block at line {new_bad[0].line}: {new_bad[0].error}")


# --- files --------------------------------------------------------------------------------------------


def _attribute_marker_size(path: Path) -> int:
    """The ``conflict-marker-size`` git gives ``path`` when it is below the default 7 (else 7)."""
    from ..git.gitrepo import GitError, find_repo, git_text

    repo = find_repo(path)
    if repo is None:
        return 7
    try:
        out = git_text(["check-attr", "conflict-marker-size", "--", repo.rel(path)], repo.root)
    except (GitError, ValueError):
        return 7
    value = out.rsplit(": ", 1)[-1].strip()
    return int(value) if value.isdigit() and 0 < int(value) < 7 else 7


def load(path: Path | str) -> Conflicts:
    """Read a conflicted file and analyze it (by id when it is a memories.md)."""
    p = Path(path)
    data = p.read_bytes()
    text, bom, _ok = decode(data)
    return replace(analyze(text, p.name, _attribute_marker_size(p)), bom=bom, data=data)
