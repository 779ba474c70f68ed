"""The references of a profile (spec: References): which entry ids and files are referenced, and where.

Ids: reference fields, ``state.yaml`` string values, whole-word ids in bodies, contexts, skills and
identity.md.  Files: relative Markdown link targets and ``state.yaml`` path values; one that leaves
the profile folder ``escapes`` and is never read.  ``RefIndex`` answers both ways per entry.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote

from ..files.profile import ARCHIVE_REL, Profile, TextFile, inside
from ..format.entries import Entry, MemoryFile
from ..format.fields import ID_RE, REFERENCE_FIELDS, ids_in_value, is_reference_field
from .scope import TEXT_SUFFIXES


@dataclass(frozen=True)
class Ref:
    file: str  # the file holding the reference, relative to the profile folder
    line: int | None
    kind: str  # conflict, superseded_by, merged_from, field:<name>, state, body, context, skill, identity, link, state-path, marker
    target_id: str | None  # the referenced entry id (id references)
    target_file: str | None  # the profile-relative path it resolves to (file references; None when it escapes)
    source_id: str | None  # the entry holding the reference, if any
    escapes: bool = False  # resolves outside the profile folder
    text: str = ""  # the reference as written (a link target, a path value, an id)
    missing: bool = False  # a file reference whose target does not exist


# reference-field key lines, found by their literal part (fast on big files)
_REF_FIELD_RES = tuple(
    re.compile(rx)
    for rx in (r"\nconflict[ \t]*:", r"\nsuperseded_by[ \t]*:", r"\nmerged_from[ \t]*:", r"_refs?[ \t]*:")
)
_KEY_AT_LINE_START = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:")
# ID_RE, but starting with its literal so that the engine can skip ahead quickly
FAST_ID_RE = re.compile(r"mem-(?<![A-Za-z0-9_-]mem-)[0-9]+(?![A-Za-z0-9_-])")
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# (an image's "!" is not matched: the same targets, and a pattern starting with "[" is quicker to search)
_INLINE_LINK_RE = re.compile(
    r"""\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]
        \([ \t]*(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)
        (?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)""",
    re.X,
)
# a CommonMark link reference definition: the target is followed by nothing but an optional title
# (``[Subagent Task]: Write a blog post`` is prose), and the line does not continue a paragraph
_REF_DEF_RE = re.compile(
    r"""^[ ]{0,3}\[(?!\s*\])[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$""",
    re.M,
)
_BLOCK_START_RE = re.compile(r"[ ]{0,3}(?:#{1,6}(?:[ \t]|$)|(?:[-*_][ \t]*){3,}$|\[[^\]\n]+\]:|```|~~~|$)")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.M)
_CODE_SPAN_RE = re.compile(r"(`+)(?!`)[^\n]*?(?<!`)\1(?!`)")
_PROMO_RE = re.compile(r"<!--[ \t]*openclaw-memory-promotion:[^\n]*?-->")
_SCORE_RE = re.compile(r"\[score=[^\]\n]*\]")
_TEMPLATE_RE = re.compile(r"YYYY|MM-DD|\{[^{}]*\}|<[^<>]*>|\$\{|(?:^|/)path/to/|(?:^|/)(?:x{3,}|\.\.\.)(?:/|\.|$)")
_MEMORY_PATH_RE = re.compile(r"(?<![A-Za-z0-9_./-])(memory/[^\s:\]>)]+?\.md)(?![A-Za-z0-9_])")


# --- small helpers ---------------------------------------------------------------------


class LineCounter:
    """1-based line numbers of offsets in a text, fast when asked in increasing order."""

    __slots__ = ("text", "pos", "line")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1

    def __call__(self, offset: int) -> int:
        if offset < self.pos:
            self.pos, self.line = 0, 1
        self.line += self.text.count("\n", self.pos, offset)
        self.pos = offset
        return self.line


class EntryLocator:
    """Which of some blocks of a memory file (in file order) holds a character offset."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.starts = [e.start for e in entries]

    def at(self, offset: int) -> Entry | None:
        i = bisect.bisect_right(self.starts, offset) - 1
        return self.entries[i] if i >= 0 else None


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks and inline code spans (links and paths inside are not references)."""
    ranges: list[tuple[int, int]] = []
    if "```" in text or "~~~" in text:
        fences = list(_FENCE_RE.finditer(text))
        i = 0
        while i < len(fences):
            run = fences[i].group(1)
            for k in range(i + 1, len(fences)):  # the closer: a run as long of the same character, nothing after
                m = fences[k]
                if m.group(1)[0] == run[0] and len(m.group(1)) >= len(run) and not m.group(2).strip():
                    ranges.append((fences[i].start(), m.end()))
                    i = k + 1
                    break
            else:  # an unclosed fence
                i += 1
    if "`" in text:
        ranges.extend((m.start(), m.end()) for m in _CODE_SPAN_RE.finditer(text))
    ranges.sort()
    merged: list[tuple[int, int]] = []  # disjoint, so that one bisect answers
    for a, b in ranges:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _in_ranges(ranges: list[tuple[int, int]], pos: int) -> bool:
    i = bisect.bisect_right(ranges, (pos, 1 << 62)) - 1
    return i >= 0 and ranges[i][0] <= pos < ranges[i][1]


def resolve_path(profile_path: Path, folder: str, target: str) -> tuple[str | None, bool, bool]:
    """(profile-relative path or None, escapes, missing) of a relative reference; the target is never opened."""
    joined = posixpath.normpath(posixpath.join(folder, target))
    full = profile_path / joined
    if (target.startswith(("/", "\\")) or re.match(r"[A-Za-z]:[\\/]", target) or joined == ".."
            or joined.startswith("../") or not inside(profile_path, full)):
        return None, True, False
    return joined, False, not os.path.lexists(full)


def _starts_block(text: str, pos: int) -> bool:
    """Whether the line at ``pos`` may start a link reference definition: it cannot interrupt a paragraph."""
    if pos == 0:
        return True
    prev_start = text.rfind("\n", 0, pos - 1) + 1
    prev = text[prev_start : pos - 1].rstrip("\r")
    return _BLOCK_START_RE.match(prev) is not None


def _link_base(root: Path, workspace: bool, folder: str, target: str) -> str:
    """The folder a link target resolves against: the linking file's, except that in a workspace a
    ``memory/…`` target missing there is workspace-relative (spec: References; ``memory_get`` paths)."""
    if workspace and folder and target.startswith("memory/"):
        if not os.path.lexists(root / posixpath.normpath(posixpath.join(folder, target))):
            return ""
    return folder


def resolve_link(root: Path, workspace: bool, linking_rel: str, target: str) -> tuple[str | None, bool, bool]:
    """(root-relative path or None, escapes, missing) of a link target written in ``linking_rel``: the
    rule of the check and of the UI's references."""
    folder = posixpath.dirname(linking_rel)
    return resolve_path(root, _link_base(root, workspace, folder, target), target)


def link_targets(text: str) -> Iterator[tuple[int, str]]:
    """(offset, target) of relative-looking Markdown link targets, outside code."""
    if "](" not in text and "]:" not in text:
        return
    code = code_ranges(text)
    found: list[tuple[int, str]] = []
    if "](" in text:
        found.extend((m.start(1), m.group(1)) for m in _INLINE_LINK_RE.finditer(text))
    if "]:" in text:
        found.extend((m.start(1), m.group(1)) for m in _REF_DEF_RE.finditer(text) if _starts_block(text, m.start()))
    found.sort()
    for pos, raw in found:
        if code and _in_ranges(code, pos):
            continue
        target = raw[1:-1] if raw.startswith("<") else raw
        target = target.split("#", 1)[0].split("?", 1)[0].strip()
        if not target or target.startswith("//") or (_SCHEME_RE.match(target) and not re.match(r"[A-Za-z]:[\\/]", target)):
            continue
        if target.startswith("/") and not unquote(target).lower().endswith(TEXT_SUFFIXES):
            continue  # a site path such as /concepts/soul (spec: References), not a file
        target = unquote(target)
        if _TEMPLATE_RE.search(target):
            continue  # a template's placeholder (memory/YYYY-MM-DD.md, path/to/file.md, {name}.md)
        yield pos, target


# --- the scan --------------------------------------------------------------------------


def _field_ref_line(entry: Entry, name: str, target: str) -> int | None:
    """The line of ``target`` in the field ``name`` (its item line for block lists)."""
    line = entry.key_lines.get(name)
    if line is None:
        return None
    rows = entry.frontmatter.split("\n")
    first = entry.line + 1
    i = line - first
    if 0 <= i < len(rows) and target in rows[i]:
        return line
    for k in range(i + 1, len(rows)):
        row = rows[k]
        if row[:1] not in (" ", "\t", "-", "") and not row.startswith("#"):
            break
        if target in row:
            return first + k
    return line


# What a memory file's text alone says about its references (``factcache`` stores it for big files):
# its id references as (line, kind, target id, source id, text), its links as (line, target, source id).
IdRefRow = tuple[int | None, str, str, str | None, str]
LinkRow = tuple[int | None, str, str | None]
MemoryRefFacts = tuple[list[IdRefRow], list[LinkRow]]


def _memory_refs(
    profile: Profile, rel: str, mf: MemoryFile, out: list[Ref], facts: dict[str, MemoryRefFacts] | None = None
) -> None:
    """The references of a memory file; ``facts[rel]``, when given, instead of reading its text (else set)."""
    found = facts.get(rel) if facts is not None else None
    if found is None:
        field_rows, body_rows, link_rows = memory_ref_parts(mf)
        found = field_rows + body_rows, link_rows
        if facts is not None:
            facts[rel] = found
    id_rows, link_rows = found
    total = len(id_rows) + len(link_rows)
    id_rows, link_rows = _once_per_line(id_rows, total), _once_per_line(link_rows, total)
    out.extend(Ref(rel, line, kind, target, None, source, text=written) for line, kind, target, source, written in id_rows)
    folder = posixpath.dirname(rel)
    for line, target, source in link_rows:
        _add_file_ref(profile, rel, line, "link", folder, target, source, out)


def memory_ref_parts(
    mf: MemoryFile, first: int = 0, stop: int | None = None, lo: int = 0, hi: int | None = None, line: int = 1,
    *, links: bool = True, ids: bool = True,
) -> tuple[list[IdRefRow], list[IdRefRow], list[LinkRow]]:
    """(reference-field rows, body id rows, link rows) of a memory file's text ``[lo, hi)`` (line ``line``):
    a part starting at a line start, holding entries ``[first, stop)`` and crossing no code fence."""
    text = mf.text
    entries = mf.entries
    stop = len(entries) if stop is None else stop
    hi = len(text) if hi is None else hi
    field_rows: list[IdRefRow] = []
    body_rows: list[IdRefRow] = []
    link_rows: list[LinkRow] = []
    if not entries:
        return field_rows, body_rows, link_rows
    # the blocks holding the text: those starting in it, and the one before (its body may reach in)
    first = max(0, first - 1) if first > 0 and entries[first - 1].end > lo else first
    own = entries[first:stop]
    at = EntryLocator(own).at

    # reference fields: find candidate key lines in the text, then read the entry's meta
    found: set[int] = set()
    for rx in _REF_FIELD_RES if ids else ():
        for m in rx.finditer(text, lo, hi):
            found.add(text.rfind("\n", 0, m.start() + 1) + 1)
    for pos in sorted(found):
        km = _KEY_AT_LINE_START.match(text, pos)
        if km is None or not is_reference_field(km.group(1)):
            continue
        name = km.group(1)
        e = at(pos)
        if e is None or e.error is not None or not (e.fm_start <= pos < e.fm_end):
            continue
        value = e.meta.get(name)
        kind = name if name in REFERENCE_FIELDS else f"field:{name}"
        for target in ids_in_value(value):
            field_rows.append((_field_ref_line(e, name, target), kind, target, e.id, target))
    # whole-word ids in bodies (entries and matches both come in file order: walk them together)
    lines = LineCounter(text)
    lines.pos, lines.line = lo, line
    if ids and "mem-" in text:
        n = len(own)
        k = -1
        nxt = own[0].start if own else hi + 1
        for m in FAST_ID_RE.finditer(text, lo, hi):
            pos = m.start()
            if pos >= nxt:
                while k + 1 < n and own[k + 1].start <= pos:
                    k += 1
                nxt = own[k + 1].start if k + 1 < n else hi + 1
            if k < 0 or pos < own[k].body_start:
                continue
            ident = m.group()
            body_rows.append((lines(pos), "body", ident, own[k].id, ident))
    # links in bodies (and the preamble)
    if links:
        lines.pos, lines.line = lo, line
        part = text if lo == 0 and hi == len(text) else text[lo:hi]
        for pos, target in link_targets(part):
            pos += lo
            e = at(pos)
            if e is not None and pos < e.body_start:
                continue
            link_rows.append((lines(pos), target, e.id if e else None))
    return field_rows, body_rows, link_rows


def _add_file_ref(
    profile: Profile, rel: str, line: int | None, kind: str, folder: str, target: str,
    source_id: str | None, out: list[Ref],
) -> None:
    resolved, escapes, missing = resolve_path(profile.path, folder, target)
    out.append(Ref(rel, line, kind, None, resolved, source_id, escapes, target, missing))


MAX_TEXT_REFS = 10_000  # references in one text file above which repeats on a line are dropped


_Row = TypeVar("_Row", bound=tuple[Any, ...])


def _once_per_line(rows: list[_Row], total: int) -> list[_Row]:
    """A hostile file (one 5 MB line of ids) would give a million identical references: when a file
    holds more than MAX_TEXT_REFS (``total``), the same row (line and reference) counts once."""
    return list(dict.fromkeys(rows)) if total > MAX_TEXT_REFS else rows


def _text_refs(profile: Profile, f: TextFile, kind: str, out: list[Ref], ids: bool = True) -> None:
    if f.error is not None or not f.utf8:
        return
    text = f.text
    lines = LineCounter(text)
    found: list[tuple[int, str | tuple[str, str]]] = []  # (offset, an id or (link kind, target))
    if ids and "mem-" in text:
        for m in FAST_ID_RE.finditer(text):
            found.append((m.start(), m.group()))
    for pos, target in link_targets(text):
        found.append((pos, ("link", target)))
    if profile.layout == "openclaw" and "memory/" in text:
        for m in (m for rx in (_PROMO_RE, _SCORE_RE) for m in rx.finditer(text)):
            for pm in _MEMORY_PATH_RE.finditer(m.group()):
                found.append((m.start() + pm.start(1), ("marker", pm.group(1))))
    found.sort(key=lambda t: t[0])
    folder = posixpath.dirname(f.rel)
    for line, item in _once_per_line([(lines(pos), item) for pos, item in found], len(found)):
        if isinstance(item, str):
            out.append(Ref(f.rel, line, kind, item, None, None, text=item))
        else:
            link_kind, target = item
            base = "" if link_kind == "marker" else _link_base(profile.path, profile.layout == "openclaw", folder, target)
            _add_file_ref(profile, f.rel, line, link_kind, base, target, None, out)


# --- state.yaml ------------------------------------------------------------------------


_STR_TAG = "tag:yaml.org,2002:str"


def state_values(text: str) -> list[tuple[int, str, int]] | None:
    """(1-based line, value, style-offset) of every scalar string value (not key) of a YAML text; None: not YAML."""
    import yaml  # imported here: a check with no state.yaml (a workspace) needs no YAML library

    from ..format.yamlio import compose_all_bounded

    try:
        docs = compose_all_bounded(text, getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # an alias bomb: YamlTooLarge
    except (yaml.YAMLError, RecursionError):
        return None
    values: list[tuple[int, str, int]] = []
    stack = [d for d in reversed(docs) if d is not None]  # depth first, in document order
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            stack.extend(v for _k, v in reversed(n.value))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(reversed(n.value))
        elif isinstance(n, yaml.ScalarNode) and n.tag == _STR_TAG and isinstance(n.value, str):
            skip = 1 if n.style in ("|", ">") else 0
            values.append((n.start_mark.line + 1 + skip, n.value, skip))
    return values


_COMMENT_RE = re.compile(r"(?:^|[ \t])#.*$", re.M)


def _state_values_fallback(text: str) -> list[tuple[int, str, int]]:
    """For a state.yaml that is not valid YAML: the text after ``key:`` / ``- `` on each line."""
    values = []
    for i, row in enumerate(text.split("\n"), start=1):
        row = _COMMENT_RE.sub("", row).strip()
        if not row:
            continue
        m = re.match(r"(?:-[ \t]+)?(?:[^:]+:[ \t]+|[^:]+:$)?(.*)$", row)
        value = (m.group(1) if m else row).strip().strip("'\"")
        if value:
            values.append((i, value, 0))
    return values


def is_path_value(value: str) -> bool:
    v = value.strip()
    return bool(v) and not any(c.isspace() for c in v) and "://" not in v and v.lower().endswith(TEXT_SUFFIXES)


def _state_refs(profile: Profile, f: TextFile, ids: set[str], out: list[Ref]) -> None:
    if f.error is not None or not f.utf8:
        return
    values = state_values(f.text)
    if values is None:
        values = _state_values_fallback(f.text)
    for line, value, block in values:
        v = value.strip()
        if v in ids and not ID_RE.fullmatch(v):
            out.append(Ref(f.rel, line, "state", v, None, None, text=v))
        elif "mem-" in value:
            for m in ID_RE.finditer(value):
                extra = value.count("\n", 0, m.start()) if block else 0
                out.append(Ref(f.rel, line + extra, "state", m.group(), None, None, text=m.group()))
        if is_path_value(v):
            _add_file_ref(profile, f.rel, line, "state-path", "", v, None, out)


# --- public API ------------------------------------------------------------------------


def scan_references(
    profile: Profile, ids: set[str] | None = None, memory_facts: dict[str, MemoryRefFacts] | None = None
) -> list[Ref]:
    """Every id and file reference of the profile, file by file, in line order (``memory_facts``:
    what memory files' texts say, used where held and filled in for the others)."""
    out: list[Ref] = []
    if profile.layout == "openclaw":
        for f in [*profile.bootstrap, *profile.other, *profile.daily_logs]:
            _text_refs(profile, f, "link", out, ids=False)
        return sorted(out, key=_ref_order)
    if ids is None:
        ids = {i for doc in (profile.memories, profile.archive) if doc is not None and doc.utf8 for i in doc.mf.ids()}
    for rel, doc in (("memories.md", profile.memories), (ARCHIVE_REL, profile.archive)):
        if doc is not None and doc.utf8:
            _memory_refs(profile, rel, doc.mf, out, memory_facts)
    if profile.identity is not None:
        _text_refs(profile, profile.identity, "identity", out)
    if profile.state is not None:
        _state_refs(profile, profile.state, ids, out)
    for f in profile.contexts:
        _text_refs(profile, f, "context", out)
    for f in profile.skills:
        _text_refs(profile, f, "skill", out)
    return sorted(out, key=_ref_order)


_FILE_ORDER = {"memories.md": 0, ARCHIVE_REL: 1}


def _ref_order(r: Ref) -> tuple[int, str, int]:
    return _FILE_ORDER.get(r.file, 2), r.file, r.line or 0


class RefIndex:
    """References both ways: ``outgoing(id)`` held by an entry, ``incoming(id)`` naming it."""

    def __init__(self, profile: Profile) -> None:
        self.refs = scan_references(profile)
        self._out: dict[str, list[Ref]] = {}
        self._in: dict[str, list[Ref]] = {}
        for r in self.refs:
            if r.source_id is not None:
                self._out.setdefault(r.source_id, []).append(r)
            if r.target_id is not None:
                self._in.setdefault(r.target_id, []).append(r)

    def outgoing(self, entry_id: str) -> list[Ref]:
        return list(self._out.get(entry_id, ()))

    def incoming(self, entry_id: str) -> list[Ref]:
        return list(self._in.get(entry_id, ()))

