"""The consistency check: every finding code of the spec, for both layouts.

``check_profile`` returns one profile's findings, ``check_discovery`` those of every profile.  The
check never writes, locks or creates a file in the profile (``factcache`` keeps its own).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Limits
from ..files.profile import ARCHIVE_REL, Discovery, Profile, TextFile
from ..files.store import MemoryDoc
from ..format.entries import KNOWN_FIELDS, Entry, MemoryFile
from ..format.fields import field_error, ids_in_value
from ..lifecycle.policy import DEFAULTS, over_cap, ttl_passed
from ..workspace.injection import CURRENT_RELEASE
from .codes import REPAIRABLE
from .fieldscan import field_facts
from .findings import Finding
from .instructions import find_instructions
from .refs import EntryLocator, LineCounter, scan_references
from .secrets import CREDENTIAL_KINDS, KIND_LABEL, SecretMatch, TextView, find_secrets

if TYPE_CHECKING:
    from ..workspace.bootstrap import InjectedPart
    from . import factcache

MEMORIES_REL = "memories.md"
COMPACTION_MIN = 6  # "more than 5 active entries share a tag"

_CONFLICT_MARK_RE = re.compile(r"^<{7,}(?=[ \t]|\r?$)", re.M)
_DAILY_LOG_RE = re.compile(r"memory/(\d{4}-\d{2}-\d{2})(?:-[^/]*)?\.md")
_KNOWN = frozenset(KNOWN_FIELDS)
_LEAVES = "leaves the profile"


class Add(Protocol):
    def __call__(
        self, code: str, file: str, line: int | None, ident: str | None, message: str, severity: str = ""
    ) -> None: ...


def check_discovery(discovery: Discovery, **options: Any) -> list[Finding]:
    """Findings of every profile of ``discovery``, profile by profile (``options``: ``check_profile``'s)."""
    return [f for profile in discovery.profiles for f in check_profile(profile, **options)]


def check_profile(
    profile: Profile,
    *,
    today: dt.date | None = None,
    cap: int = DEFAULTS.cap,  # the limits' defaults are core.config.Limits'
    cold_days: int = DEFAULTS.cold_days,
    bootstrap_max_chars: int = DEFAULTS.bootstrap_max_chars,
    bootstrap_total_max_chars: int = DEFAULTS.bootstrap_total_max_chars,
    user_max_chars: int = DEFAULTS.user_max_chars,
    stale_log_days: int = DEFAULTS.stale_log_days,
    history: bool = False,
    release: str | None = None,
) -> list[Finding]:
    """Findings of one profile by file, then line (``history``: also secret-in-history; ``release``: whose
    rules size bootstrap files, None: the workspace's; ``cold_days``: accepted with the gc settings)."""
    today = today or dt.date.today()
    found: list[Finding] = []

    def add(code: str, file: str, line: int | None, ident: str | None, message: str, severity: str = "") -> None:
        found.append(Finding(code, profile.name, file, line, ident, message, profile.rel, level=severity))

    if profile.layout == "openclaw":
        _check_workspace(
            profile, add, today, bootstrap_max_chars, bootstrap_total_max_chars, user_max_chars,
            stale_days=stale_log_days, release=release,
        )
    else:
        _check_layout_a(profile, add, today, cap)
    if history:
        from .history import secrets_in_history

        for h in secrets_in_history(profile):
            add("secret-in-history", h.file, None, None, h.message())
    found.sort(key=lambda f: (f.file, f.line or 0))
    if not any(f.code in REPAIRABLE for f in found):
        return found
    from .suggest import attach  # only for reference findings: their suggestions

    return attach(profile, found)


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
    add: Add, rel: str, text: str, locate: EntryLocator | None = None, hits: list[SecretMatch] | None = None,
    personal: bool = True,
) -> None:
    """One sensitive-data finding per entry (or the text outside entries) and kind (``hits``: found before):
    an error for a credential, a warning for personal data (``personal=False``: credentials only)."""
    seen: set[tuple[int, str]] = set()
    lines = LineCounter(text)
    for s in hits if hits is not None else find_secrets(text, personal=personal):
        entry = locate.at(s.start) if locate is not None else None
        key = (entry.start if entry is not None else -1, s.kind)
        if key in seen:
            continue
        seen.add(key)
        ident = entry.id if entry is not None else None
        credential = s.kind in CREDENTIAL_KINDS
        advice = "run `openclaw-tui redact`" if personal else "move it to a secret store and rotate it"
        if credential and personal:
            advice += ", then rotate it"
        add(
            "sensitive-data", rel, lines(s.start), ident,
            f"{ident or rel} holds an unredacted {KIND_LABEL[s.kind]} ({s.kind}); {advice}",
            "error" if credential else "warning",
        )


def _instructions_by_block(
    add: Add, rel: str, text: str, locate: EntryLocator | None = None, hits: list[tuple[str, int, int]] | None = None,
) -> None:
    """One suspicious-instruction finding per entry (or the text outside entries) (``hits``: found before)."""
    seen: set[int] = set()
    lines = LineCounter(text)
    for kind, start, end in hits if hits is not None else find_instructions(text):
        entry = locate.at(start) if locate is not None else None
        key = entry.start if entry is not None else -1
        if key in seen:
            continue
        seen.add(key)
        ident = entry.id if entry is not None else None
        snippet = text[start:end].replace("\n", " ")
        if len(snippet) > 40:
            snippet = snippet[:39] + "…"
        add(
            "suspicious-instruction", rel, lines(start), ident,
            f"{ident or rel} holds text that instructs the agent ({kind}: {snippet!r}) instead of recording a fact",
        )


# --- layout A ----------------------------------------------------------------------------

_CONFLICT_LINE_RE = re.compile(r"\nconflict[ \t]*:")


class _FieldScan:
    """What the check needs from every entry's frontmatter (``field_facts``, or the cache's copy)."""

    def __init__(self, mf: MemoryFile, cached: factcache.Facts | None = None) -> None:
        exact, self.by_tag = (cached.exact, cached.by_tag) if cached is not None else field_facts(mf)
        entries = mf.entries
        self.exact_indices = exact
        self.exact: dict[int, Entry] = {entries[i].start: entries[i] for i in exact}  # entry.start -> entry

    def status(self, e: Entry) -> str:
        return e.status if e.start in self.exact else "active"


Located = tuple[str, Entry]  # (file, entry)


def _check_layout_a(profile: Profile, add: Add, today: dt.date, cap: int) -> None:
    from . import factcache  # memories.md's cache: a workspace has none

    cached: dict[str, factcache.Facts | None] = {}
    docs: dict[str, MemoryDoc] = {}
    mem = _memory_file(add, MEMORIES_REL, profile.memories, profile.memories_error, cached, docs)
    arc = _memory_file(add, ARCHIVE_REL, profile.archive, profile.archive_error, cached, docs)
    texts: list[TextFile] = [
        f for f in (profile.identity, profile.state, profile.secrets_refs) if f is not None
    ] + profile.contexts + profile.skills
    readable: list[TextFile] = [f for f in texts if not _file_problem(add, f.rel, f.error, f.utf8)]
    for f in readable:  # an alias bomb is refused unread (its text is still scanned line by line)
        if f.rel.endswith((".yaml", ".yml")):
            from ..format.yamlio import alias_problem  # the YAML library only when a profile holds YAML files

            bomb = alias_problem(f.text)
            if bomb:
                add("unreadable-file", f.rel, None, None, f"{f.rel}: {bomb}")

    files = [(rel, mf) for rel, mf in ((MEMORIES_REL, mem), (ARCHIVE_REL, arc)) if mf is not None]

    # every id definition, and the copy of each id that counts (memories.md first)
    kept: dict[str, Located] = {}
    broken_ids: set[str] = set()
    unique_in_mem = True  # no id is defined twice in memories.md
    for rel, mf in files:
        for e in mf.entries:
            if e.error is not None:
                add("malformed-entry", rel, e.line, e.id, f"malformed entry{' ' + e.id if e.id else ''}: {e.error}")
                if e.id:
                    broken_ids.add(e.id)
                continue
            ident = e.id
            assert ident is not None
            keep = kept.get(ident)
            if keep is None:
                kept[ident] = (rel, e)
                continue
            if rel == MEMORIES_REL:
                unique_in_mem = False
            add(
                "duplicate-id", rel, e.line, ident,
                f"{ident} is defined again here; the copy that counts is at {keep[0]}:{keep[1].line}",
            )

    scans = {rel: _FieldScan(mf, cached.get(rel)) for rel, mf in files}

    def status(located: Located) -> str:
        return scans[located[0]].status(located[1])

    for rel, _mf in files:
        for e in sorted(scans[rel].exact.values(), key=lambda x: x.start):
            _check_fields(add, rel, e, today)
    _conflicts(add, files, kept, status, scans)
    if mem is not None:
        count = profile.entry_count()
        if over_cap(count, cap):
            add("over-capacity", MEMORIES_REL, None, None, f"memories.md holds {count} entries, over the cap of {cap}")
        _compaction(add, mem, scans[MEMORIES_REL], unique_in_mem)

    ref_facts = {rel: facts.refs for rel, facts in cached.items() if facts is not None}
    for r in scan_references(profile, set(kept), ref_facts):
        if r.target_id is not None:
            target = r.target_id
            if target not in kept:
                if target not in broken_ids:  # a broken definition is reported as malformed-entry
                    add("dangling-ref", r.file, r.line, target, f"{r.file} references {target}, which no entry defines")
            elif r.kind == "state":
                state = status(kept[target])
                if state != "active":
                    by = kept[target][1].meta.get("superseded_by")
                    successor = f" (superseded by {by})" if isinstance(by, str) and by.strip() else ""
                    add("inactive-ref", r.file, r.line, target, f"{r.file} references {target}, which is {state}{successor}")
        elif r.escapes:
            add("path-escape", r.file, r.line, None, f"{r.file} references {r.text!r}, which resolves outside the profile folder")
        elif r.missing:
            add("dangling-file", r.file, r.line, None, f"{r.file} references {r.target_file}, which does not exist")

    for rel, mf in files:
        locate = EntryLocator(mf.entries)
        _merge_conflicts(add, rel, mf.text, locate)
        facts = cached.get(rel)
        if facts is not None:
            secrets, instructions = facts.secrets, facts.instructions
        else:
            view = TextView(mf.text)
            secrets = find_secrets(mf.text, view=view)
            instructions = find_instructions(mf.text, view=view)
        _secrets_by_block(add, rel, mf.text, locate, hits=secrets)
        _instructions_by_block(add, rel, mf.text, locate, hits=instructions)
        doc = docs.get(rel)
        if facts is not None and facts.fresh and doc is not None and doc.data is not None:
            factcache.store(doc.path, doc.data, facts)
    contexts = {id(f) for f in profile.contexts}
    for f in readable:
        _merge_conflicts(add, f.rel, f.text)
        if f is profile.secrets_refs:
            continue
        _secrets_by_block(add, f.rel, f.text)
        if id(f) in contexts:
            _instructions_by_block(add, f.rel, f.text)


def _check_fields(add: Add, rel: str, e: Entry, today: dt.date) -> None:
    """invalid-field and expired-ttl for one entry read exactly."""
    meta = e.meta
    lines = e.key_lines
    for name, value in meta.items():
        if name in _KNOWN:
            err = field_error(name, value)
            if err is not None:
                add("invalid-field", rel, lines.get(name), e.id, f"{e.id}: {err}")
    # the TTL rule is the one gc applies (lifecycle/policy.py)
    if rel == MEMORIES_REL and "ttl" in meta and ttl_passed(e, today) is not None:
        add(
            "expired-ttl", rel, lines.get("ttl"), e.id,
            f"{e.id} is active past its ttl {meta['ttl']} and should move to the archive",
        )


def _memory_file(
    add: Add, rel: str, doc: MemoryDoc | None, error: str | None,
    cached: dict[str, factcache.Facts | None], docs: dict[str, MemoryDoc],
) -> MemoryFile | None:
    """The parsed memory file (from the cache when its bytes were checked before, ``cached[rel]``)."""
    if doc is None:
        if error is not None:
            _file_problem(add, rel, error, True)
        return None
    if not doc.utf8:
        add("unreadable-file", rel, None, None, f"{rel} is not valid UTF-8")
        return None
    facts = None
    if not doc.parsed and doc.data is not None:  # a document parsed before (the UI's) is never cached
        docs[rel] = doc
        from . import factcache

        facts = factcache.facts(doc.path, doc.data, doc.text, doc.bom)  # None: a small file
        if facts is not None:
            doc.adopt(facts.mf)
    cached[rel] = facts
    return doc.mf


def _conflicts(
    add: Add, files: Iterable[tuple[str, MemoryFile]], kept: dict[str, Located], status: Callable[[Located], str],
    scans: dict[str, _FieldScan],
) -> None:
    """One unresolved-conflict per pair of active entries, at the earlier entry holding ``conflict``."""
    done: set[frozenset[str]] = set()
    for rel, mf in files:
        if "conflict" not in mf.text:
            continue
        # a conflict line in a frontmatter makes its entry one the field scan reads exactly: look there
        exact = EntryLocator([mf.entries[i] for i in scans[rel].exact_indices])
        holders: dict[int, Entry] = {}
        for m in _CONFLICT_LINE_RE.finditer(mf.text):
            pos = m.start() + 1
            e = exact.at(pos)
            if e is not None and e.error is None and e.fm_start <= pos < e.fm_end:
                holders[e.start] = e
        for e in holders.values():
            if e.id is None or kept[e.id][1] is not e or status((rel, e)) != "active":
                continue
            for other in ids_in_value(e.meta.get("conflict")):
                if other == e.id or other not in kept:
                    continue
                pair = frozenset((e.id, other))
                if pair in done or status(kept[other]) != "active":
                    continue
                done.add(pair)
                add(
                    "unresolved-conflict", rel, e.key_lines.get("conflict"), e.id,
                    f"{e.id} conflicts with {other} and both are active: keep one, keep both, or supersede one",
                )


def _compaction(add: Add, mf: MemoryFile, scan: _FieldScan, unique_ids: bool = False) -> None:
    """One compaction-candidate per tag shared by more than 5 active entries."""
    entries = mf.entries
    by_tag = {tag: list(where) for tag, where in scan.by_tag.items()}  # tag -> entry indices
    for i in scan.exact_indices:
        e = entries[i]
        if e.error is None and e.id is not None and e.status == "active":
            for tag in dict.fromkeys(e.tags):
                by_tag.setdefault(tag, []).append(i)
    found: list[tuple[int, str, list[str]]] = []
    ids_of: list[str] | None = None
    for tag, where in by_tag.items():
        if len(where) < COMPACTION_MIN:
            continue
        where.sort()
        if ids_of is None:
            ids_of = [e.id or "" for e in entries]  # one walk over the entries, then indexing
        named = itemgetter(*where)(ids_of)  # each entry once (field_facts lists a tag's entry once)
        ids = list(named) if unique_ids else list(dict.fromkeys(named))
        if len(ids) >= COMPACTION_MIN:
            found.append((entries[where[0]].start, tag, ids))
    for _start, tag, ids in sorted(found, key=lambda t: t[0]):
        add(
            "compaction-candidate", MEMORIES_REL, None, None,
            f"tag {tag} is on {len(ids)} active entries: {', '.join(ids)}",
        )


# --- layout B ----------------------------------------------------------------------------


def _check_workspace(
    profile: Profile, add: Add, today: dt.date, max_chars: int, total_max: int, user_max: int,
    stale_days: int, release: str | None,
) -> None:
    files = [*profile.bootstrap, *profile.other, *profile.daily_logs]
    readable = [f for f in files if not _file_problem(add, f.rel, f.error, f.utf8)]
    logs = {id(f) for f in profile.daily_logs}
    for f in readable:
        _merge_conflicts(add, f.rel, f.text)
        _secrets_by_block(add, f.rel, f.text)
        if f.rel in ("MEMORY.md", "memory.md", "USER.md") or id(f) in logs:
            _instructions_by_block(add, f.rel, f.text, hits=find_instructions(f.text, rel=f.rel))
    from .scope import extra_text_files

    for f in extra_text_files(profile):  # every other text file: credentials only (spec: Secrets)
        if f.error is None and f.utf8:
            _secrets_by_block(add, f.rel, f.text, personal=False)
    for r in scan_references(profile, set()):
        if r.escapes:
            add("path-escape", r.file, r.line, None, f"{r.file} references {r.text!r}, which resolves outside the workspace")
        elif r.missing:
            add("dangling-file", r.file, r.line, None, f"{r.file} references {r.target_file}, which does not exist")
    _bootstrap_sizes(profile, add, Limits(bootstrap_max_chars=max_chars, bootstrap_total_max_chars=total_max,
                                          user_max_chars=user_max), release)
    _rewritten_logs(profile, add)
    from .workspace import check_workspace_extra

    check_workspace_extra(profile, add)
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
        if age > stale_days:
            add(
                "stale-daily-log", f.rel, None, None,
                f"{f.rel} is {age} days old: distil it into MEMORY.md, then remove it",
            )


def _kept(part: InjectedPart) -> str:
    """"kept H+T of N" (UTF-16 units of the file's head and tail the agent receives)."""
    head = sum(b - a for a, b in part.kept if a == 0)
    tail = sum(b - a for a, b in part.kept if a > 0)
    return f"kept {head:,}+{tail:,} of {part.chars_raw:,}"


def _bootstrap_sizes(profile: Profile, add: Add, limits: Limits, release: str | None) -> None:
    """oversized-bootstrap, from ``bootstrap_sizes`` (what ``context`` and the workspace view show)."""
    from ..workspace.bootstrap import bootstrap_sizes, own_limit
    from ..workspace.openclaw_config import OpenClawConfigError, load_openclaw_config

    if release is None:
        try:
            release = load_openclaw_config(profile.path).release
        except OpenClawConfigError:
            release = CURRENT_RELEASE
    rules = f"OpenClaw {CURRENT_RELEASE}" if release == CURRENT_RELEASE else "an older OpenClaw release"
    parts = [p for p in bootstrap_sizes(profile.path, limits, release) if not p.missing]
    for p in parts:
        own = own_limit(p.name, limits, release)
        if p.chars_raw > own:
            gets = (f"the agent receives a cut copy of {p.chars_injected:,} ({_kept(p)})" if p.loaded
                    else "the agent receives none of it (the bootstrap total is used up)")
            add("oversized-bootstrap", p.file, None, None,
                f"{p.name} has {p.chars_raw:,} characters as OpenClaw counts them (UTF-16 units), over its "
                f"{own:,}-character limit ({rules}); {gets}")
    over = [p for p in parts if p.over_total or (not p.loaded and "total" in p.reason)]
    if over:
        first, rest = over[0], [p.name for p in over[1:]]
        gets = (f"{first.name} is cut to {first.chars_injected:,} ({_kept(first)})" if first.loaded
                else f"{first.name} is left out")
        if rest:
            gets += f", then {', '.join(rest)} left out" if all(not p.loaded for p in over[1:]) else \
                f", then {', '.join(rest)} cut or left out"
        add("oversized-bootstrap", first.file, None, None,
            f"the bootstrap files reach the total of {limits.bootstrap_total_max_chars:,} characters as OpenClaw "
            f"counts them (UTF-16 units, {rules}): {gets}")


def _rewritten_logs(profile: Profile, add: Add) -> None:
    """daily-log-rewritten: a commit changed or removed earlier lines of a daily log still present
    (appending, also to a last line without a newline, and deleting a whole log are not rewrites)."""
    logs = {f.rel for f in profile.daily_logs if _DAILY_LOG_RE.fullmatch(f.rel)}
    if not logs:
        return
    from .history import log_hunks

    found: dict[str, tuple[int, str, str]] = {}  # rel -> (line, commit, date) of the latest rewrite
    for commit, date, path, new_file, start, removed, added in log_hunks(profile.path, "--relative", "--", "memory/"):
        if path in logs and not new_file and removed and added[: len(removed)] != removed and path not in found:
            found[path] = (start, commit, date)
    for rel in sorted(found):
        line, sha, when = found[rel]
        add(
            "daily-log-rewritten", rel, line or None, None,
            f"commit {sha[:10]}{' (' + when + ')' if when else ''} changed or removed earlier lines of {rel},"
            " which is append-only",
        )
