"""What the agent sees: the parts it would load for a conversation topic, in prompt order, from the files alone.

Layout A (a profile), three layers:

1. ``fixed``: ``identity.md`` and ``state.yaml``, always, whole;
2. ``memories``: the ``active`` entries of ``memories.md`` that are
   ``importance: high`` (always carried) or share a tag with the query (the
   ``--tags`` given, or tags whose name appears as a word in the query);
   ``low`` ones only on a tag match;
3. ``contexts``: the context files (``contexts/``, not the archive) that the
   query or ``state.yaml``'s current task (values under a key naming a task:
   ``current_task``, ``task``, ``当前任务``...) names by date
   (``2024-06-01``) or by name (``planning``).

Left out, each with its reason: entries a tag matched that are
``superseded`` (by whom), ``cold``, of another status, or ``archived`` (in
the archive); active entries that a part of the query finds but no tag
matched (``low without a match``, ``no tag match``): a part as the index's
FTS5 matches it (``on-call`` is the phrase "on call", a CJK run a substring;
``Query.mentions`` on a loaded profile), so both paths agree; archived
context files the query names.

Layout B (an OpenClaw workspace): the bootstrap files as injected
(``workspace.bootstrap.inject_preview``: truncation, the running total,
USER.md's cap, MEMORY.md only in the main session), today's and yesterday's
daily logs, then the ``search`` results for the query among the files
OpenClaw's ``memory_search`` indexes (MEMORY.md, USER.md, ``memory/``; its
``maxResults``, 6).  Limits come from the workspace's ``openclaw.json`` when
found, else our config (``[limits]``), else the defaults; the output says which.

Tokens are an estimate (no tokenizer is run): a CJK character counts as one
token, any other character as a quarter of one.

A loaded ``Profile`` is read as parsed; a ``Root`` (a folder, not loaded: the
CLI and the agent view) through its persistent search index, which reads only
the entries the topic can concern.  Both give the same answer (tested).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Config, Limits, load_config
from ..format.entries import Entry
from ..format.profile import ARCHIVE_REL, NotMemory, Profile, TextFile
from ..format.yamlio import load_yaml
from .index import Index, Root, roots_of
from .text import CJK, Query, QueryError, parse_query

SEARCH_RESULTS = 6  # OpenClaw's memory_search maxResults
_CJK_CHAR_RE = re.compile(f"[{CJK}]")
_CJK_RUNS_RE = re.compile(f"[{CJK}]+")
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TASK_KEY_RE = re.compile(r"task|任务", re.IGNORECASE)
LAYOUT_NAMES = {"profile": "A", "openclaw": "B"}


def estimate_tokens(text: str) -> int:
    """A rough token count (labelled as an estimate wherever shown): CJK 1 per character, else 1 per 4."""
    cjk = 0 if text.isascii() else sum(map(len, _CJK_RUNS_RE.findall(text)))
    return math.ceil(cjk + (len(text) - cjk) / 4)


def _lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


@dataclass
class Part:
    """One piece of what the agent loads."""

    layer: str  # A: "fixed", "memories", "contexts"; B: "bootstrap", "daily", "search"
    file: str  # relative to the profile or workspace folder
    start_line: int
    end_line: int
    id: str | None
    chars: int
    tokens_est: int
    truncated: bool
    reason: str
    text: str = ""  # the text as the agent gets it (injected copy for truncated files)
    path: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {"layer": self.layer, "file": self.file, "start_line": self.start_line, "end_line": self.end_line,
                "id": self.id, "chars": self.chars, "tokens_est": self.tokens_est, "truncated": self.truncated,
                "reason": self.reason}


@dataclass
class LeftOut:
    """Something the topic touches that the agent will not load, and why."""

    id: str | None
    reason: str
    file: str
    line: int
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "reason": self.reason, "file": self.file, "line": self.line}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass
class AgentContext:
    layout: str  # "A" or "B"
    session: str
    profile: str  # the profile or workspace name
    path: Path
    query: str
    tags: list[str]
    limits: dict[str, Any]
    parts: list[Part] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total_chars(self) -> int:
        return sum(p.chars for p in self.parts)

    @property
    def total_tokens(self) -> int:
        return sum(p.tokens_est for p in self.parts)

    @property
    def budget_chars(self) -> int:
        return int(self.limits.get("bootstrap_total_max_chars") or 0)

    def layers(self) -> list[tuple[str, list[Part]]]:
        out: list[tuple[str, list[Part]]] = []
        for p in self.parts:
            if not out or out[-1][0] != p.layer:
                out.append((p.layer, []))
            out[-1][1].append(p)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            # the layout names of ``check --format json`` ("profile", "openclaw"); the text says A/B
            "layout": {"A": "profile", "B": "openclaw"}.get(self.layout, self.layout),
            "session": self.session,
            "limits": self.limits,
            "parts": [p.to_json() for p in self.parts],
            "left_out": [x.to_json() for x in self.left_out],
            "total": {"chars": self.total_chars, "tokens_est": self.total_tokens},
            "profile": self.profile,
            "query": self.query,
            "tags": self.tags,
            "notes": self.notes,
        }


# --- layout A -----------------------------------------------------------------------------------


def _word_re(word: str) -> re.Pattern[str]:
    return re.compile(f"(?<![A-Za-z0-9_-]){re.escape(word)}(?![A-Za-z0-9_-])", re.IGNORECASE)


def query_tags(query: str, given: Iterable[str], known: Iterable[str]) -> list[str]:
    """The tags the topic selects: those given, and known tags whose name appears as a word in the query."""
    out = [t.strip() for t in given if t.strip()]
    if query.strip():
        # no letter with a case outside ASCII (CJK has none): an ASCII tag matches only its lower case in it
        ascii_query = all(c.isascii() or c.lower() == c.upper() for c in query)
        lower = query.lower()
        for tag in sorted(set(known)):
            if not tag or (ascii_query and tag.isascii() and tag.lower() not in lower) or (
                    tag.lower() == tag.upper() and tag not in query):
                continue  # cannot match (no letter with a case, or ASCII): no regex compiled for each tag
            if tag.casefold() not in {t.casefold() for t in out} and _word_re(tag).search(query):
                out.append(tag)
    return out


def _importance(e: Entry) -> str:
    v = e.meta.get("importance")
    return v if isinstance(v, str) and v in ("high", "medium", "low") else "medium"


def _whole(layer: str, f: TextFile, reason: str) -> Part:
    return Part(layer, f.rel, 1, max(1, _lines(f.text)), None, len(f.text), estimate_tokens(f.text), False, reason,
                f.text, f.path)


def _task_text(state: TextFile | None) -> str:
    if state is None or state.error is not None or not state.text.strip():
        return ""
    try:
        data = load_yaml(state.text)
    except Exception:  # an invalid state.yaml names no task (the check reports it)
        return ""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif value is not None:
            out.append(str(value))

    if isinstance(data, dict):
        for k, v in data.items():
            if _TASK_KEY_RE.search(str(k)):
                walk(v)
    return " ".join(out)


def _names(rel: str) -> tuple[str | None, list[str]]:
    """(date, name words) of a context file: ``contexts/2024-06-01_todo.md`` -> ("2024-06-01", ["todo"])."""
    stem = Path(rel).stem
    m = _DATE_RE.match(stem)
    date = m.group(0) if m else None
    rest = stem[m.end():] if m else stem
    words = [w for w in re.split(r"[_\-\s.]+", rest) if w]
    if len(words) > 1:
        words.append(rest.strip("_-. "))
    return date, words


def _named_by(rel: str, text: str) -> str | None:
    if not text.strip():
        return None
    date, words = _names(rel)
    if date and date in text:
        return date
    for w in words:
        if (len(w) >= 3 or _CJK_CHAR_RE.search(w)) and _word_re(w).search(text):
            return w
    return None


@dataclass(slots=True)
class _Entry:
    """What layer 2 needs of an entry, from a parsed file or from the index."""

    key: int  # the index rowid, or the place in the parsed file
    id: str
    line: int
    end_line: int
    status: str
    importance: str
    tags: tuple[str, ...]
    superseded_by: str | None
    raw: str = ""  # filled only for the entries that are loaded (the index path reads no other text)


def _from_parsed(k: int, e: Entry) -> _Entry:
    by = e.meta.get("superseded_by")
    last = e.line + e.raw.rstrip(" \t\r\n").count("\n")  # the last non-blank line, as search reports it
    return _Entry(k, str(e.id), e.line, last, e.status, _importance(e), tuple(e.tags),
                  by if isinstance(by, str) else None, e.raw)


def _from_index(row: tuple[str, int, int, str, str | None, str | None, str | None, int, str, bool]) -> _Entry:
    ident, line, end_line, status, imp, tags, by, rowid, raw, _m = row
    importance = imp if imp in ("high", "medium", "low") else "medium"
    return _Entry(rowid, ident, line, end_line, status, importance,
                  tuple(filter(None, (tags or "").split("|"))), by, raw)


@dataclass
class _Source:
    """A profile's files as layers 1-3 read them: parsed (a loaded Profile) or through the index (the CLI).

    Through the index only the entries the topic can concern are read (high, tagged with a
    selected tag, or holding a word of the query), so a 100k-entry profile is not walked in Python.
    """

    name: str
    path: Path
    identity: TextFile | None
    state: TextFile | None
    contexts: list[TextFile]
    has_memories: bool
    parsed: tuple[list[_Entry], list[_Entry]] | None = None  # (memories, archive) of a loaded profile
    index: Index | None = None

    def known_tags(self) -> set[str]:
        if self.parsed is not None:
            return {t for e in self.parsed[0] + self.parsed[1] for t in e.tags}
        assert self.index is not None
        return self.index.tag_names([self.path / "memories.md", self.path / ARCHIVE_REL])

    def select(self, wanted: set[str], q: Query | None) -> tuple[list[_Entry], set[int], list[_Entry]]:
        """(entries of memories.md worth looking at, keys of those holding a word of the query, archived ones)."""
        if self.parsed is not None:
            entries, archived = self.parsed
            # what the index's ``relevant_entries`` finds with FTS5: any phrase of the query, on active entries
            mentioned = set() if q is None else {e.key for e in entries if e.status == "active" and q.mentions(e.raw)}
            return entries, mentioned, archived
        assert self.index is not None
        rows = self.index.relevant_entries(self.path / "memories.md", sorted(wanted), q)
        archived = [_from_index(r) for r in self.index.relevant_entries(self.path / ARCHIVE_REL, sorted(wanted), None)]
        return [_from_index(r) for r in rows], {r[7] for r in rows if r[9]}, archived

    def statuses(self, entries: list[_Entry], ids: set[str]) -> dict[str, str]:
        if self.parsed is not None or self.index is None:
            return {e.id: e.status for e in entries if e.id in ids}
        return self.index.statuses(self.path / "memories.md", sorted(ids))

    def close(self) -> None:
        if self.index is not None:
            self.index.close()


def _source_of_profile(profile: Profile) -> _Source:
    entries = [_from_parsed(k, e) for k, e in enumerate(profile.memories.mf.well_formed())] \
        if profile.memories is not None else []
    archived = [_from_parsed(k, e) for k, e in enumerate(profile.archive.mf.well_formed())] \
        if profile.archive is not None else []
    return _Source(profile.name, profile.path, profile.identity, profile.state, profile.contexts,
                   profile.memories is not None, parsed=(entries, archived))


def _source_of_root(root: Root) -> _Source:
    """The index brought up to date (only changed files are read), small files read as they are."""
    from .index import files_of

    idx = Index.for_folder(root.path)
    try:
        idx.refresh([root])
    except BaseException:
        idx.close()
        raise
    files = {rel: path for rel, path in files_of(root)}
    read = {rel: TextFile.read(root.path, path) for rel, path in files.items()
            if rel in ("identity.md", "state.yaml") or (rel.startswith("contexts/") and rel != ARCHIVE_REL)}
    contexts = [f for rel, f in read.items() if rel.startswith("contexts/")]
    return _Source(root.name, root.path, read.get("identity.md"), read.get("state.yaml"), contexts,
                   "memories.md" in files, index=idx)


def profile_context(profile: Profile | Root, query: str = "", tags: Sequence[str] = (), *,
                    config: Config | None = None, today: dt.date | None = None) -> AgentContext:
    """Layout A: the three layers and what was left out (see the module docstring).

    A loaded ``Profile`` is read as parsed; a ``Root`` (a folder not loaded) through its
    persistent index, which makes a 100k-entry profile answer in well under a second.
    """
    src = _source_of_profile(profile) if isinstance(profile, Profile) else _source_of_root(profile)
    try:
        return _profile_context(src, query, tags, config or load_config())
    finally:
        src.close()


def _profile_context(src: _Source, query: str, tags: Sequence[str], config: Config) -> AgentContext:
    limits = {"bootstrap_total_max_chars": config.limits.bootstrap_total_max_chars,
              "source": str(config.path) if config.found else "defaults"}
    ctx = AgentContext("A", "main", src.name, src.path, query, [], limits)
    try:
        q: Query | None = parse_query(query) if query.strip() else None
    except QueryError:
        q = None
    # 1. fixed payload
    for f, name in ((src.identity, "identity.md"), (src.state, "state.yaml")):
        if f is None:
            ctx.notes.append(f"{name}: none in this profile")
        elif f.error is not None:
            ctx.notes.append(f"{name}: {f.error}")
        else:
            ctx.parts.append(_whole("fixed", f, "always loaded"))
    # 2. memories
    chosen = query_tags(query, tags, src.known_tags())
    ctx.tags = chosen
    wanted = {t.casefold() for t in chosen}
    entries, mentioned, archived = src.select(wanted, q)
    targets = {e.superseded_by for e in entries if e.status == "superseded" and e.superseded_by}
    status_of = src.statuses(entries, targets)
    memories_path = src.path / "memories.md"
    loaded: list[tuple[_Entry, str]] = []
    by_tags: dict[tuple[str, ...], list[str]] = {}  # entries share few tag sets: each set checked once
    for e in entries:
        matched = by_tags.get(e.tags)
        if matched is None:
            matched = by_tags[e.tags] = [t for t in e.tags if t.casefold() in wanted]
        imp = e.importance
        status = e.status
        if status == "active":
            if imp == "high" or matched:
                if imp == "high":
                    reason = "importance: high (always carried)"
                    if matched:
                        reason += f"; tag {', '.join(matched)}"
                else:
                    reason = f"tag {', '.join(matched)}" + (" (low: loaded only on a tag match)" if imp == "low" else "")
                loaded.append((e, reason))
            elif e.key in mentioned:
                ctx.left_out.append(LeftOut(e.id, "low without a match" if imp == "low" else "no tag match",
                                            "memories.md", e.line,
                                            f"the query's words are in its text, but no tag of [{', '.join(e.tags)}] "
                                            f"is selected (importance {imp})"))
            continue
        if not matched:
            continue
        if status == "superseded":
            by = e.superseded_by
            detail = f"superseded by {by}" if by else "superseded"
            if by and by in status_of:
                detail += f" (status {status_of[by]})"
            ctx.left_out.append(LeftOut(e.id, "superseded", "memories.md", e.line, detail))
        elif status == "cold":
            ctx.left_out.append(LeftOut(e.id, "cold", "memories.md", e.line,
                                        "cold: not hit for a long time; set it active to load it"))
        else:
            ctx.left_out.append(LeftOut(e.id, status, "memories.md", e.line,
                                        f"status {status}: only active entries are loaded"))
    for e, reason in loaded:
        ctx.parts.append(Part("memories", "memories.md", e.line, e.end_line, e.id, len(e.raw),
                              estimate_tokens(e.raw), False, reason, e.raw, memories_path))
    for e in archived:
        matched = [t for t in e.tags if t.casefold() in wanted]
        if matched:
            ctx.left_out.append(LeftOut(e.id, "archived", ARCHIVE_REL, e.line,
                                        f"in the archive (tag {', '.join(matched)}); restore it to load it"))
    # 3. contexts
    task = _task_text(src.state)
    for f in src.contexts:
        if f.error is not None:
            continue
        by_query = _named_by(f.rel, query)
        by_task = None if by_query else _named_by(f.rel, task)
        if not (by_query or by_task):
            continue
        if f.rel.startswith("contexts/archive/"):
            ctx.left_out.append(LeftOut(None, "archived", f.rel, 1,
                                        f"archived context file named by the query ({by_query or by_task})"))
            continue
        reason = f"named by the query ({by_query})" if by_query else f"named by state.yaml's current task ({by_task})"
        ctx.parts.append(_whole("contexts", f, reason))
    if not src.has_memories:
        ctx.notes.append("memories.md: none in this profile")
    return ctx


# --- layout B -----------------------------------------------------------------------------------


def workspace_context(profile: Profile | Root, query: str = "", session: str = "main", *, config: Config | None = None,
                      today: dt.date | None = None, openclaw_config: Path | None = None,
                      results: int = SEARCH_RESULTS) -> AgentContext:
    """Layout B: the bootstrap injection, the daily logs at session start, then the search results."""
    from ..workspace.bootstrap import inject_preview
    from ..workspace.openclaw_config import load_openclaw_config

    config = config or load_config()
    today = today or dt.date.today()
    oc = load_openclaw_config(profile.path, openclaw_config, base=config.limits)
    lim: Limits = oc.limits
    source = oc.source if oc.found else (str(config.path) if config.found else "defaults")
    limits = {"bootstrap_max_chars": lim.bootstrap_max_chars,
              "bootstrap_total_max_chars": lim.bootstrap_total_max_chars,
              "user_max_chars": lim.user_max_chars, "source": source}
    ctx = AgentContext("B", session, profile.name, profile.path, query, [], limits)
    for ip in inject_preview(profile.path, lim, session, today=today, truncation=oc.truncation):
        if not ip.loaded:
            ctx.left_out.append(LeftOut(None, ip.reason, ip.file, 1))
            continue
        layer = "bootstrap" if ip.kind == "bootstrap" else "daily"
        ctx.parts.append(Part(layer, ip.file, 1, max(1, ip.lines_raw), None, ip.chars_injected,
                              estimate_tokens(ip.text), ip.truncated,
                              ip.reason if not ip.truncated else f"{ip.reason}; {ip.chars_raw:,} on disk",
                              ip.text, profile.path / ip.file))
    days = {p.file for p in ctx.parts if p.layer == "daily"}
    for day, which in ((today, "today's"), (today - dt.timedelta(days=1), "yesterday's")):
        if not any(f.startswith(f"memory/{day.isoformat()}") for f in days):
            ctx.notes.append(f"no daily log for {day.isoformat()} ({which})")
    if query.strip():
        from .search import search_path

        try:
            found, _stats = search_path(profile.path, query, results * 4, today=today, config=config)
        except QueryError as exc:
            ctx.notes.append(f"search: {exc}")
        else:
            ctx.notes.append(f"search: {found.note}; memory_search covers MEMORY.md, USER.md and memory/")
            for h in [h for h in found.hits if memory_search_file(h.file)][:results]:
                text = _slice_lines(profile.path / h.file, h.start_line, h.end_line)
                why = f"search score {h.score:.2f} ({h.explain()})"
                ctx.parts.append(Part("search", h.file, h.start_line, h.end_line, h.id, len(text),
                                      estimate_tokens(text), False, why, text, h.path))
    return ctx


def memory_search_file(rel: str) -> bool:
    """Whether OpenClaw's memory_search indexes a workspace file (MEMORY.md, USER.md, memory/*.md)."""
    return rel in ("MEMORY.md", "memory.md", "USER.md") or (rel.startswith("memory/") and rel.endswith(".md"))


def _slice_lines(path: Path, start: int, end: int) -> str:
    from ..format.entries import decode

    try:
        text = decode(path.read_bytes())[0]
    except OSError:
        return ""
    lines = text.split("\n")
    return "\n".join(lines[start - 1 : end])


def agent_context(profile: Profile | Root, query: str = "", tags: Sequence[str] = (), session: str = "main", *,
                  config: Config | None = None, today: dt.date | None = None,
                  openclaw_config: Path | None = None) -> AgentContext:
    """What the agent loads for a topic, for either layout (a ``Root`` is read through the index)."""
    if profile.layout == "openclaw":
        ctx = workspace_context(profile, query, session, config=config, today=today, openclaw_config=openclaw_config)
        if tags:
            ctx.notes.append("--tags: a workspace has no tags (only layout A selects entries by tag)")
        return ctx
    ctx = profile_context(profile, query, tags, config=config, today=today)
    ctx.session = session
    return ctx


def resolve_root(path: Path | str, name: str | None = None) -> Root:
    """The one profile or workspace under ``path`` (``--profile NAME`` for a root), without reading it (NotMemory)."""
    roots = roots_of(path)
    if name is not None:
        for r in roots:
            if r.name == name:
                return r
        raise NotMemory(f"{path}: no profile named {name}")
    if len(roots) != 1:
        raise NotMemory(f"{path}: holds several profiles ({', '.join(r.name for r in roots)}); "
                        "choose one with --profile NAME")
    return roots[0]


def render_text(ctx: AgentContext) -> str:
    """The plain-text report of ``openclaw-tui context``."""
    out: list[str] = []
    head = f"layout {ctx.layout} ({'profile' if ctx.layout == 'A' else 'OpenClaw workspace'}) {ctx.profile}"
    if ctx.layout == "B":
        head += f", {ctx.session} session"
    if ctx.query:
        head += f", query {ctx.query!r}"
    if ctx.tags:
        head += f", tags {', '.join(ctx.tags)}"
    out.append(head)
    lim = ", ".join(f"{k} {v:,}" for k, v in ctx.limits.items() if isinstance(v, int))
    out.append(f"limits: {lim} (from {ctx.limits.get('source', 'defaults')})")
    titles = {"fixed": "1. fixed payload", "memories": "2. memories", "contexts": "3. context files",
              "bootstrap": "bootstrap files (as injected)", "daily": "daily logs at session start",
              "search": "search results"}
    for layer, parts in ctx.layers():
        chars = sum(p.chars for p in parts)
        out.append(f"{titles.get(layer, layer)}: {len(parts)} part{'s' if len(parts) != 1 else ''}, "
                   f"{chars:,} chars, ~{sum(p.tokens_est for p in parts):,} tokens")
        for p in parts:
            span = f"{p.start_line}" if p.start_line == p.end_line else f"{p.start_line}-{p.end_line}"
            cut = "  TRUNCATED" if p.truncated else ""
            out.append(f"  {p.file}:{span}  {p.id or '-'}  {p.chars:,} chars  ~{p.tokens_est:,} tokens{cut}  {p.reason}")
    if not ctx.parts:
        out.append("nothing is loaded")
    if ctx.left_out:
        out.append(f"left out: {len(ctx.left_out)}")
        for x in ctx.left_out:
            out.append(f"  {x.id or x.file}  {x.reason}" + (f"  ({x.detail})" if x.detail else "")
                       + (f"  {x.file}:{x.line}" if x.id else ""))
    for n in ctx.notes:
        out.append(f"note: {n}")
    budget = ctx.budget_chars
    against = f" of a {budget:,}-character budget ({100 * ctx.total_chars / budget:.0f}%)" if budget else ""
    out.append(f"total: {ctx.total_chars:,} chars, ~{ctx.total_tokens:,} tokens (estimate){against}")
    return "\n".join(out) + "\n"
