"""The consistency check: every finding code of the spec, for both layouts.

``check_profile(profile)`` returns the findings of one profile, sorted by
file then line; ``check_discovery(discovery)`` those of every profile in
order.  The check only reads: it never writes, locks or creates a file.
"""

from __future__ import annotations

import datetime as dt
import gc
import re
from collections.abc import Callable, Iterable
from typing import Any

from .entries import KNOWN_FIELDS, Entry, MemoryFile
from .fields import field_error, ids_in_value, parse_date
from .findings import Finding
from .instructions import find_instructions
from .profile import ARCHIVE_REL, Discovery, Profile, TextFile
from .refs import EntryLocator, LineCounter, defined_ids, scan_references
from .secrets import KIND_LABEL, find_secrets

MEMORIES_REL = "memories.md"
DEFAULT_CAP = 200
DEFAULT_COLD_DAYS = 90
COMPACTION_MIN = 6  # "more than 5 active entries share a tag"
BOOTSTRAP_MAX_CHARS = 20_000
BOOTSTRAP_TOTAL_MAX_CHARS = 60_000
USER_MAX_CHARS = 4_000
STALE_LOG_DAYS = 30

_CONFLICT_MARK_RE = re.compile(r"^<{7}(?!<)", re.M)
_DAILY_LOG_RE = re.compile(r"memory/(\d{4}-\d{2}-\d{2})(?:-[^/]*)?\.md")
_KNOWN = frozenset(KNOWN_FIELDS)
_LEAVES = "leaves the profile"

Add = Callable[[str, str, "int | None", "str | None", str], None]


def check_discovery(
    discovery: Discovery,
    *,
    today: dt.date | None = None,
    cap: int = DEFAULT_CAP,
    cold_days: int = DEFAULT_COLD_DAYS,
    **limits: int,
) -> list[Finding]:
    """Findings of every profile of ``discovery``, profile by profile."""
    out: list[Finding] = []
    for profile in discovery.profiles:
        out.extend(check_profile(profile, today=today, cap=cap, cold_days=cold_days, **limits))
    return out


def check_profile(
    profile: Profile,
    *,
    today: dt.date | None = None,
    cap: int = DEFAULT_CAP,
    cold_days: int = DEFAULT_COLD_DAYS,
    bootstrap_max_chars: int = BOOTSTRAP_MAX_CHARS,
    bootstrap_total_max_chars: int = BOOTSTRAP_TOTAL_MAX_CHARS,
    user_max_chars: int = USER_MAX_CHARS,
) -> list[Finding]:
    """Findings of one profile, ordered by file, then line (file-level ones first)."""
    today = today or dt.date.today()
    found: list[Finding] = []

    def add(code: str, file: str, line: int | None, ident: str | None, message: str) -> None:
        found.append(Finding(code, profile.name, file, line, ident, message, profile.rel))

    was_enabled = gc.isenabled()
    gc.disable()  # many small objects, no cycles: the collector only costs time here
    try:
        if profile.layout == "openclaw":
            _check_workspace(profile, add, today, bootstrap_max_chars, bootstrap_total_max_chars, user_max_chars)
        else:
            _check_layout_a(profile, add, today, cap)
    finally:
        if was_enabled:
            gc.enable()
    found.sort(key=lambda f: (f.file, f.line or 0))
    return found


# --- shared pieces -----------------------------------------------------------------------


def _file_problem(add: Add, rel: str, error: str | None, utf8: bool) -> bool:
    """Report a file that cannot be used; True when its content must be skipped."""
    if error is not None:
        if _LEAVES in error:
            add("path-escape", rel, None, None, f"{rel} is a link that leaves the profile folder; it was not read")
        else:
            add("unreadable-file", rel, None, None, f"{rel} {error}" if error.startswith("cannot") else f"{rel}: {error}")
        return True
    if not utf8:
        add("unreadable-file", rel, None, None, f"{rel} is not valid UTF-8")
        return True
    return False


def _merge_conflicts(add: Add, rel: str, text: str, locate: EntryLocator | None = None) -> None:
    if "<<<<<<<" not in text:
        return
    lines = LineCounter(text)
    for m in _CONFLICT_MARK_RE.finditer(text):
        entry = locate.at(m.start()) if locate is not None else None
        ident = entry.id if entry is not None else None
        where = f" in {ident}" if ident else ""
        add("merge-conflict", rel, lines(m.start()), ident, f"unresolved git conflict markers{where} in {rel}")


def _secrets_by_block(
    add: Add, rel: str, text: str, locate: EntryLocator | None = None
) -> None:
    """One sensitive-data finding per entry (or the text outside entries) and kind."""
    if not text:
        return
    seen: set[tuple[int, str]] = set()
    lines = LineCounter(text)
    for s in find_secrets(text):
        entry = locate.at(s.start) if locate is not None else None
        key = (entry.start if entry is not None else -1, s.kind)
        if key in seen:
            continue
        seen.add(key)
        ident = entry.id if entry is not None else None
        where = ident if ident else rel
        add(
            "sensitive-data", rel, lines(s.start), ident,
            f"{where} holds an unredacted {KIND_LABEL[s.kind]} ({s.kind}); run `openclaw-tui redact`",
        )


def _instructions_by_block(add: Add, rel: str, text: str, locate: EntryLocator | None = None) -> None:
    """One suspicious-instruction finding per entry (or the text outside entries)."""
    if not text:
        return
    seen: set[int] = set()
    lines = LineCounter(text)
    for kind, start, _end in find_instructions(text):
        entry = locate.at(start) if locate is not None else None
        key = entry.start if entry is not None else -1
        if key in seen:
            continue
        seen.add(key)
        ident = entry.id if entry is not None else None
        snippet = text[start:_end].replace("\n", " ")
        if len(snippet) > 40:
            snippet = snippet[:39] + "…"
        where = ident if ident else rel
        add(
            "suspicious-instruction", rel, lines(start), ident,
            f"{where} holds text that instructs the agent ({kind}: {snippet!r}) instead of recording a fact",
        )


# --- layout A ----------------------------------------------------------------------------


class _Field:
    """Memoised ``field_error`` for the hashable values that repeat across entries."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, Any], str | None] = {}

    def error(self, name: str, value: Any) -> str | None:
        key_value = tuple(value) if isinstance(value, list) else value
        try:
            key = (name, key_value)
            if key in self.cache:
                return self.cache[key]
        except TypeError:
            return field_error(name, value)
        err = field_error(name, value)
        if name != "timestamp":  # timestamps rarely repeat; do not grow the cache with them
            self.cache[key] = err
        return err


def _check_layout_a(profile: Profile, add: Add, today: dt.date, cap: int) -> None:
    mem = _memory_file(add, MEMORIES_REL, profile.memories, profile.memories_error)
    arc = _memory_file(add, ARCHIVE_REL, profile.archive, profile.archive_error)
    texts: list[TextFile] = [
        f for f in (profile.identity, profile.state, profile.secrets_refs) if f is not None
    ] + profile.contexts + profile.skills
    readable: list[TextFile] = [f for f in texts if not _file_problem(add, f.rel, f.error, f.utf8)]

    files: list[tuple[str, MemoryFile, EntryLocator]] = []
    if mem is not None:
        files.append((MEMORIES_REL, mem, EntryLocator(mem)))
    if arc is not None:
        files.append((ARCHIVE_REL, arc, EntryLocator(arc)))

    # every id definition; the kept copy of each id
    kept: dict[str, tuple[str, Entry]] = {}
    copies: dict[str, list[tuple[str, Entry]]] = {}
    for rel, mf, _loc in files:
        for e in mf.entries:
            if e.error is not None:
                add("malformed-entry", rel, e.line, e.id, f"malformed entry{' ' + e.id if e.id else ''}: {e.error}")
                continue
            assert e.id is not None
            copies.setdefault(e.id, []).append((rel, e))
    for ident, defs in copies.items():
        keep = defs[0]  # memories.md comes first, so this is its first copy when it has one
        kept[ident] = keep
        for rel, e in defs[1:]:
            add(
                "duplicate-id", rel, e.line, ident,
                f"{ident} is defined again here; the copy kept is at {keep[0]}:{keep[1].line}",
            )
    broken_ids = {e.id for _r, mf, _l in files for e in mf.entries if e.error is not None and e.id}

    fields = _Field()
    for rel, mf, _loc in files:
        in_memories = rel == MEMORIES_REL
        for e in mf.entries:
            if e.error is not None:
                continue
            meta = e.meta
            lines = e.key_lines
            for name, value in meta.items():
                if name in _KNOWN:
                    err = fields.error(name, value)
                    if err is not None:
                        add("invalid-field", rel, lines.get(name), e.id, f"{e.id}: {err}")
            if in_memories and "ttl" in meta and e.status == "active":
                ttl = parse_date(meta["ttl"])
                if ttl is not None and ttl < today:
                    add(
                        "expired-ttl", rel, lines.get("ttl"), e.id,
                        f"{e.id} is active past its ttl {meta['ttl']} and should move to the archive",
                    )

    _conflicts(add, files, kept)

    if mem is not None:
        count = sum(1 for e in mem.entries if e.error is None)
        if count > cap:
            add("over-capacity", MEMORIES_REL, None, None, f"memories.md holds {count} entries, over the cap of {cap}")
        _compaction(add, mem)

    # references
    ids = defined_ids(profile) if (mem is not None or arc is not None) else set()
    for r in scan_references(profile, ids):
        if r.target_id is not None:
            target = r.target_id
            if target not in kept:
                if target in broken_ids:
                    continue  # its own block is reported as malformed-entry
                add("dangling-ref", r.file, r.line, target, f"{r.file} references {target}, which no entry defines")
            elif r.kind == "state":
                holder = kept[target][1]
                status = holder.status
                if status != "active":
                    add(
                        "inactive-ref", r.file, r.line, target,
                        f"{r.file} references {target}, which is {status}" + _successor(holder),
                    )
        elif r.escapes:
            add("path-escape", r.file, r.line, None, f"{r.file} references {r.text!r}, which resolves outside the profile folder")
        elif r.missing:
            add("dangling-file", r.file, r.line, None, f"{r.file} references {r.target_file}, which does not exist")

    # merge conflicts, secrets, instructions
    for rel, mf, loc in files:
        _merge_conflicts(add, rel, mf.text, loc)
        _secrets_by_block(add, rel, mf.text, loc)
        _instructions_by_block(add, rel, mf.text, loc)
    contexts = {id(f) for f in profile.contexts}
    for f in readable:
        _merge_conflicts(add, f.rel, f.text)
        if f is profile.secrets_refs:
            continue
        _secrets_by_block(add, f.rel, f.text)
        if id(f) in contexts:
            _instructions_by_block(add, f.rel, f.text)


def _successor(entry: Entry) -> str:
    by = entry.meta.get("superseded_by")
    return f" (superseded by {by})" if isinstance(by, str) and by.strip() else ""


def _memory_file(add: Add, rel: str, doc: Any, error: str | None) -> MemoryFile | None:
    if error is not None and doc is None:
        _file_problem(add, rel, error, True)
        return None
    if doc is None:
        return None
    if not doc.utf8:
        add("unreadable-file", rel, None, None, f"{rel} is not valid UTF-8")
        return None
    mf: MemoryFile = doc.mf
    return mf


def _conflicts(add: Add, files: Iterable[tuple[str, MemoryFile, EntryLocator]], kept: dict[str, tuple[str, Entry]]) -> None:
    done: set[frozenset[str]] = set()
    for rel, mf, _loc in files:
        for e in mf.entries:
            if e.error is not None or e.id is None or kept.get(e.id, (None, None))[1] is not e:
                continue
            value = e.meta.get("conflict")
            if value is None or e.status != "active":
                continue
            for other in ids_in_value(value):
                if other == e.id or other not in kept:
                    continue
                pair = frozenset((e.id, other))
                if pair in done:
                    continue
                if kept[other][1].status != "active":
                    continue
                done.add(pair)
                add(
                    "unresolved-conflict", rel, e.key_lines.get("conflict"), e.id,
                    f"{e.id} conflicts with {other} and both are active: keep one, keep both, or supersede them",
                )


def _compaction(add: Add, mf: MemoryFile) -> None:
    by_tag: dict[str, list[str]] = {}
    seen: set[str] = set()
    for e in mf.entries:
        if e.error is not None or e.id is None or e.id in seen or e.status != "active":
            continue
        seen.add(e.id)
        for tag in dict.fromkeys(e.tags):
            by_tag.setdefault(tag, []).append(e.id)
    for tag, ids in by_tag.items():
        if len(ids) >= COMPACTION_MIN:
            add(
                "compaction-candidate", MEMORIES_REL, None, None,
                f"tag {tag} is on {len(ids)} active entries: {', '.join(ids)}",
            )


# --- layout B ----------------------------------------------------------------------------


def _check_workspace(
    profile: Profile, add: Add, today: dt.date, max_chars: int, total_max: int, user_max: int
) -> None:
    files = [*profile.bootstrap, *profile.other, *profile.daily_logs]
    readable = [f for f in files if not _file_problem(add, f.rel, f.error, f.utf8)]
    logs = {id(f) for f in profile.daily_logs}
    for f in readable:
        _merge_conflicts(add, f.rel, f.text)
        _secrets_by_block(add, f.rel, f.text)
        if f.rel in ("MEMORY.md", "memory.md", "USER.md") or id(f) in logs:
            _instructions_by_block(add, f.rel, f.text)
    for r in scan_references(profile, set()):
        if r.escapes:
            add("path-escape", r.file, r.line, None, f"{r.file} references {r.text!r}, which resolves outside the workspace")
        elif r.missing:
            add("dangling-file", r.file, r.line, None, f"{r.file} references {r.target_file}, which does not exist")
    # bootstrap sizes
    sized = [(f.rel, len(f.text)) for f in profile.bootstrap if f.error is None]
    for rel, size in sized:
        limit = user_max if rel == "USER.md" else max_chars
        if size > limit:
            add(
                "oversized-bootstrap", rel, None, None,
                f"{rel} has {size:,} characters, over the {limit:,}-character limit; the agent truncates it",
            )
    total = sum(size for _rel, size in sized)
    if total > total_max:
        running = 0
        for rel, size in sized:
            running += size
            if running > total_max:
                add(
                    "oversized-bootstrap", rel, None, None,
                    f"the bootstrap files hold {total:,} characters together, over the total of {total_max:,};"
                    f" the agent truncates from {rel} on",
                )
                break
    # stale daily logs
    for f in profile.daily_logs:
        m = _DAILY_LOG_RE.fullmatch(f.rel)
        if m is None:
            continue
        try:
            day = dt.date.fromisoformat(m.group(1))
        except ValueError:
            continue
        age = (today - day).days
        if age > STALE_LOG_DAYS:
            add(
                "stale-daily-log", f.rel, None, None,
                f"{f.rel} is {age} days old: distil it into MEMORY.md, then remove it",
            )
