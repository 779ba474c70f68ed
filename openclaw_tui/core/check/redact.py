"""Redaction: replace secrets by ``{{secret:KIND-N}}`` placeholders (spec: Lifecycle, Redaction).

``plan_redaction`` finds what ``sensitive-data`` reports and numbers a placeholder per secret and
kind after those already used (the same value: the same placeholder).  ``apply_redaction`` writes
the files and a record per placeholder and entry in ``secrets_refs.yaml`` (SHA-256 of the value,
never the value) in one compare-and-swap write; in YAML a placeholder is quoted where it must be.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..files.profile import ARCHIVE_REL, Profile, TextFile
from ..files.safe_write import ConcurrentModification, read_bytes
from ..format.entries import BOM, Entry, MemoryFile
from ..format.yamlio import compose_all_bounded, safe_load_bounded
from ..lifecycle.plan import FileChange, Plan, apply_changes, now_iso
from .refs import EntryLocator, LineCounter
from .secrets import PLACEHOLDER_RE, TextView, find_secrets

SECRETS_REFS = "secrets_refs.yaml"


class RedactError(ValueError):
    """The redaction cannot be made (for instance secrets_refs.yaml is not a YAML list)."""


@dataclass(frozen=True)
class Redaction:
    file: str  # relative to the profile folder
    entry: str | None  # the entry holding the secret, if any
    line: int  # 1-based line of the secret
    kind: str
    placeholder: str
    sha256: str  # of the raw value (UTF-8)
    start: int = field(default=0, compare=False)  # char offsets of the value in the file's text (no BOM)
    end: int = field(default=0, compare=False)
    value: str = field(default="", repr=False, compare=False)  # kept in memory only, never written or shown
    new: bool = field(default=True, compare=False)  # False when the placeholder is already recorded

    def describe(self) -> str:
        """``file:line kind placeholder`` (never the value)."""
        return f"{self.file}:{self.line} {self.kind} {self.placeholder}"


@dataclass
class RedactResult:
    redactions: list[Redaction]
    plan: Plan


# --- planning --------------------------------------------------------------------------------


@dataclass
class _Source:
    rel: str
    path: Path
    data: bytes | None
    text: str
    bom: bool
    mf: MemoryFile | None = None  # memory files: the parsed blocks
    yaml_whole: bool = False  # state.yaml: the whole text is YAML


def _sources(profile: Profile) -> list[_Source]:
    """The files redaction (and sensitive-data) scans, readable ones only."""
    out: list[_Source] = []
    if profile.layout == "profile":
        for rel, doc in (("memories.md", profile.memories), (ARCHIVE_REL, profile.archive)):
            if doc is not None and doc.utf8 and doc.data is not None:
                out.append(_Source(rel, doc.path, doc.data, doc.mf.text, doc.mf.bom, mf=doc.mf))
        files: list[TextFile] = [f for f in (profile.identity, profile.state) if f is not None]
        files += profile.contexts + profile.skills
    else:
        files = [*profile.bootstrap, *profile.other, *profile.daily_logs]
    for f in files:
        if f.error is None and f.utf8 and f.data is not None:
            out.append(
                _Source(f.rel, f.path, f.data, f.text, f.data.startswith(BOM.encode()), yaml_whole=f is profile.state)
            )
    return out


def _sha(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()


def _recorded(profile: Profile) -> tuple[str, list[dict[str, Any]]]:
    """The text of secrets_refs.yaml ("" when absent) and its records."""
    f = profile.secrets_refs
    if f is None:
        path = profile.path / SECRETS_REFS
        if not path.exists():
            return "", []
        f = TextFile.read(profile.path, path)
    if f.error is not None or not f.utf8:
        raise RedactError(f"{SECRETS_REFS}: {f.error or 'not valid UTF-8'}")
    try:
        data = safe_load_bounded(f.text) if f.text.strip() else None
    except yaml.YAMLError as exc:
        raise RedactError(f"{SECRETS_REFS} is not valid YAML: {str(exc).splitlines()[0]}") from None
    if data is None:
        return f.text, []
    if not isinstance(data, list):
        raise RedactError(f"{SECRETS_REFS} is not a YAML list; records cannot be appended to it")
    return f.text, [r for r in data if isinstance(r, dict)]


def plan_redaction(profile: Profile) -> list[Redaction]:
    """Every secret of the profile with the placeholder it gets. Writes nothing."""
    refs_text, records = _recorded(profile)
    sources = _sources(profile)
    top: dict[str, int] = {}
    for text in [refs_text, *(s.text for s in sources)]:
        if "{{secret:" in text:
            for m in PLACEHOLDER_RE.finditer(text):
                top[m.group(1)] = max(top.get(m.group(1), 0), int(m.group(2)))
    by_sha: dict[tuple[str, str], str] = {}
    recorded_pairs: set[tuple[str, str | None]] = set()
    for r in records:
        kind, sha, ph = r.get("kind"), r.get("sha256"), r.get("placeholder")
        if isinstance(kind, str) and isinstance(sha, str) and isinstance(ph, str):
            by_sha.setdefault((kind, sha), ph)
            entry = r.get("entry")
            recorded_pairs.add((ph, entry if isinstance(entry, str) else None))
    out: list[Redaction] = []
    for src in sources:
        matches = find_secrets(src.text, view=TextView(src.text))
        if not matches:
            continue
        locate = EntryLocator(src.mf.entries) if src.mf is not None else None
        lines = LineCounter(src.text)
        for s in matches:
            entry = locate.at(s.start) if locate is not None else None
            ident = entry.id if entry is not None else None
            sha = _sha(s.value)
            placeholder = by_sha.get((s.kind, sha))
            if placeholder is None:
                top[s.kind] = top.get(s.kind, 0) + 1
                placeholder = by_sha[(s.kind, sha)] = f"{{{{secret:{s.kind}-{top[s.kind]}}}}}"
            new = (placeholder, ident) not in recorded_pairs
            recorded_pairs.add((placeholder, ident))
            out.append(Redaction(src.rel, ident, lines(s.start), s.kind, placeholder, sha, s.start, s.end, s.value, new))
    return out


# --- rewriting -------------------------------------------------------------------------------


Edit = tuple[int, int, str]  # replace text[start:end] by the string


def _yaml_scalars(text: str) -> list[tuple[int, int, Any, bool]] | None:
    """(start, end, style, in_flow) of every scalar node of a YAML text; None when it is not YAML."""
    try:
        docs = compose_all_bounded(text, yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    out: list[tuple[int, int, Any, bool]] = []
    stack: list[tuple[Any, bool]] = [(d, False) for d in docs if d is not None]
    while stack:
        node, in_flow = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            out.append((node.start_mark.index, node.end_mark.index, node.style, in_flow))
        elif isinstance(node, (yaml.SequenceNode, yaml.MappingNode)):
            flow = in_flow or bool(node.flow_style)
            items = node.value if isinstance(node, yaml.SequenceNode) else [x for pair in node.value for x in pair]
            stack.extend((v, flow) for v in items)
    return out


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _yaml_edits(text: str, base: int, reds: Sequence[Redaction]) -> list[Edit]:
    """Edits of a YAML region ``text`` (starting at ``base`` in the file) that keep it valid YAML."""
    scalars = _yaml_scalars(text)
    plain = [(r.start - base, r.end - base, r.placeholder) for r in reds]
    if scalars is None:
        return [(s + base, e + base, p) for s, e, p in plain]
    edits: list[Edit] = []
    grouped: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
    for s, e, p in plain:
        node = next((n for n in scalars if n[0] <= s < n[1]), None)
        if node is None:
            edits.append((s + base, e + base, p))  # a comment: anything goes
            continue
        start, end, style, in_flow = node
        if style is None and (s == start or in_flow):
            grouped.setdefault((start, end), []).append((s, e, p))
        else:
            edits.append((s + base, e + base, p))
    for (start, end), parts in grouped.items():
        raw = text[start:end]
        for s, e, p in sorted(parts, reverse=True):
            raw = raw[: s - start] + p + raw[e - start :]
        value = " ".join(line.strip() for line in raw.split("\n")) if "\n" in raw else raw
        edits.append((start + base, end + base, _quote(value)))
    return edits


def _file_edits(src: _Source, reds: Sequence[Redaction]) -> list[Edit]:
    """Every edit of one file, non-overlapping, sorted."""
    for r in reds:
        if src.text[r.start : r.end] != r.value:
            raise ConcurrentModification(src.path, "it changed since the redaction was planned")
    edits: list[Edit] = []
    if src.yaml_whole:
        edits = _yaml_edits(src.text, 0, reds)
    elif src.mf is not None:
        locate = EntryLocator(src.mf.entries)
        by_block: dict[Entry, list[Redaction]] = {}  # secrets in a frontmatter: edited as YAML
        for r in reds:
            e = locate.at(r.start)
            if e is not None and e.fm_start <= r.start < e.fm_end:
                by_block.setdefault(e, []).append(r)
            else:
                edits.append((r.start, r.end, r.placeholder))
        for e, group in by_block.items():
            edits += _yaml_edits(src.text[e.fm_start : e.fm_end], e.fm_start, group)
    else:
        edits = [(r.start, r.end, r.placeholder) for r in reds]
    edits.sort()
    for (_s1, e1, _), (s2, _e2, _) in zip(edits, edits[1:], strict=False):
        if s2 < e1:
            raise RedactError(f"{src.rel}: overlapping secrets")
    return edits


def _apply(text: str, edits: Iterable[Edit]) -> str:
    parts: list[str] = []
    pos = 0
    for s, e, new in edits:
        parts.append(text[pos:s])
        parts.append(new)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def _records_text(existing: str, reds: Sequence[Redaction], when: str) -> str:
    nl = "\r\n" if "\r\n" in existing else "\n"
    lines: list[str] = []
    seen: set[tuple[str, str | None]] = set()
    for r in reds:
        if not r.new or (r.placeholder, r.entry) in seen:
            continue
        seen.add((r.placeholder, r.entry))
        lines += [
            f"- placeholder: {_quote(r.placeholder)}",
            f"  kind: {r.kind}",
            f"  entry: {r.entry if r.entry else 'null'}",
            f"  file: {_quote(r.file)}",
            f"  sha256: {r.sha256}",
            f"  redacted_at: {when}",
        ]
    if not lines:
        return existing
    head = existing
    if head and not head.endswith("\n"):
        head += nl
    return head + nl.join(lines) + nl


def redaction_plan(profile: Profile, redactions: Sequence[Redaction], when: str | None = None) -> Plan:
    """The files' bytes before and after the redactions (nothing written)."""
    plan = Plan(title=f"redact {len(redactions)} secret{'s' if len(redactions) != 1 else ''}")
    if not redactions:
        return plan
    when = when or now_iso()
    refs_path = profile.path / SECRETS_REFS
    refs_before = read_bytes(refs_path) if profile.secrets_refs is None else profile.secrets_refs.data
    refs_text, _records = _recorded(profile)
    refs_bom = refs_before is not None and refs_before.startswith(BOM.encode())
    new_refs = _records_text(refs_text, redactions, when)
    if new_refs != refs_text:
        after = ((BOM if refs_bom else "") + new_refs).encode("utf-8", "surrogateescape")
        plan.changes.append(FileChange(refs_path, refs_before, after))
    by_file: dict[str, list[Redaction]] = {}
    for r in redactions:
        by_file.setdefault(r.file, []).append(r)
    for src in _sources(profile):
        reds = by_file.pop(src.rel, None)
        if not reds:
            continue
        text = _apply(src.text, _file_edits(src, reds))
        after = ((BOM if src.bom else "") + text).encode("utf-8", "surrogateescape")
        plan.changes.append(FileChange(src.path, src.data, after))
        if src.mf is not None:
            ids = frozenset(r.entry for r in reds if r.entry)
            plan.touched[src.path] = ids
            for ident in sorted(ids):
                plan.changed.setdefault(ident, []).append("redacted")
    if by_file:
        raise RedactError(f"no such file to redact: {', '.join(sorted(by_file))}")
    return plan


def apply_redaction(profile: Profile, redactions: Sequence[Redaction]) -> RedactResult:
    """Write the redactions (one compare-and-swap write of every file involved); files that changed
    meanwhile get every secret they hold now redacted."""
    return _write(profile, redactions, plan_redaction)


def _write(profile: Profile, reds: Sequence[Redaction], replan: Callable[[Profile], list[Redaction]]) -> RedactResult:
    done = list(reds)
    plan = redaction_plan(profile, done)

    def rebuild() -> Plan:  # the files changed meanwhile: ``replan`` on what they hold now
        fresh = profile.reload()
        done[:] = replan(fresh)
        return redaction_plan(fresh, done)

    plan.rebuild = rebuild
    written = apply_changes(plan)
    return RedactResult(done, written)


def redact_profile(profile: Profile, *, dry_run: bool = False, skip: Iterable[int] = ()) -> RedactResult:
    """Plan and (unless ``dry_run``) apply the redactions of the profile, but for the 1-based
    numbers in ``skip`` (of ``plan_redaction``'s list, which the CLI prints and checks before it writes)."""
    left_out = set(skip)
    reds = [r for n, r in enumerate(plan_redaction(profile), 1) if n not in left_out]
    if dry_run or not left_out:
        return RedactResult(reds, redaction_plan(profile, reds)) if dry_run else apply_redaction(profile, reds)
    keys = {_key(r) for r in reds}

    def same_choice(fresh: Profile) -> list[Redaction]:
        again = [r for r in plan_redaction(fresh) if _key(r) in keys]
        if len(again) != len(reds):
            raise RedactError("the secrets changed on disk since they were listed; run redact again")
        return again

    return _write(profile, reds, same_choice)


def _key(r: Redaction) -> tuple[str, str | None, str, str, int]:
    return (r.file, r.entry, r.kind, r.sha256, r.line)
