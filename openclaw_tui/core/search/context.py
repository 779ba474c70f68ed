"""What the agent sees: the parts it would load for a conversation topic, in prompt order, from the files alone.

Layout A (a profile): ``fixed`` (identity.md, state.yaml), ``memories`` (active entries of high importance or
with a tag the topic selects) and ``contexts`` (context files the query or state.yaml's current task names),
and what a tag or the query touches that is left out, with why.  Layout B (a workspace): the bootstrap files
as injected, the daily logs of the session start, then the ``search`` results among the files OpenClaw's
``memory_search`` indexes.  The rules are the spec's ("What the agent sees"); tokens are an estimate.

A loaded ``Profile`` is read as parsed, a ``Root`` (a folder: the CLI) through its search index, which reads
only the entries the topic can concern; both give the same answer.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Config, load_config
from ..files.profile import ARCHIVE_REL, NotMemory, Profile, TextFile
from ..i18n import N_, _, ngettext
from .context_model import AgentContext, LeftOut, Part, estimate_tokens
from .index import Index
from .index_files import files_of, roots_of
from .index_rows import tags_as_written
from .reader import Root
from .text import CJK_RUN, Query, QueryError, parse_query

if TYPE_CHECKING:
    from ..format.entries import Entry

SEARCH_RESULTS = 6  # OpenClaw's memory_search maxResults
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TASK_KEY_RE = re.compile(r"task|任务", re.IGNORECASE)


def _lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


# --- layout A -----------------------------------------------------------------------------------


def _word_re(word: str) -> re.Pattern[str]:
    return re.compile(f"(?<![A-Za-z0-9_-]){re.escape(word)}(?![A-Za-z0-9_-])", re.IGNORECASE)


def query_tags(query: str, given: Iterable[str], known: Iterable[str]) -> list[str]:
    """The tags the topic selects: those given (as given), and known tags whose name appears as a word in
    the query, as the files write them (the first in sorted order when entries write one in several ways)."""
    names = sorted(set(known))
    out = [t.strip() for t in given if t.strip()]
    if query.strip():
        # no letter with a case outside ASCII (CJK has none): an ASCII tag matches only its lower case in it
        ascii_query = all(c.isascii() or c.lower() == c.upper() for c in query)
        lower = query.lower()
        for tag in names:
            if not tag or (ascii_query and tag.isascii() and tag.lower() not in lower) or (
                    tag.lower() == tag.upper() and tag not in query):
                continue  # cannot match: no regex compiled
            if tag.casefold() not in {t.casefold() for t in out} and _word_re(tag).search(query):
                out.append(tag)
    return out


def _importance(e: Entry) -> str:
    v = e.meta.get("importance")
    return v if isinstance(v, str) and v in ("high", "medium", "low") else "medium"


def _whole(layer: str, f: TextFile, reason: str) -> Part:
    return Part(layer, f.rel, 1, max(1, _lines(f.text)), None, len(f.text), estimate_tokens(f.text), False, reason,
                f.text, f.path)


def _state_yaml(state: TextFile | None, needle: re.Pattern[str] | str) -> Any:
    """``state.yaml`` as YAML, or None when it is missing, invalid (the check reports it) or holds nothing
    ``needle`` finds (nor an escape that could spell it: YAML not even imported)."""
    if state is None or state.error is not None or not state.text.strip():
        return None
    found = needle.search(state.text) is not None if isinstance(needle, re.Pattern) else needle in state.text
    if not found and "\\" not in state.text:
        return None
    from ..format.yamlio import load_yaml

    try:
        return load_yaml(state.text)
    except Exception:
        return None


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted key, value) of every value of parsed YAML that is neither a mapping, a list nor null."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{key}.{k}" if key else str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key)
    elif value is not None:
        yield key, value


def _task_text(state: TextFile | None) -> str:
    data = _state_yaml(state, _TASK_KEY_RE)
    if not isinstance(data, dict):
        return ""
    return " ".join(str(x) for k, v in data.items() if _TASK_KEY_RE.search(str(k)) for _key, x in _leaves(v))


_CONTEXT_PATH_RE = re.compile(r"(?:\./)?(contexts/[^\s'\"`<>()\[\]]+?\.md)(?![^\s'\"`<>()\[\]])")


def _state_paths(state: TextFile | None) -> dict[str, str]:
    """The context files ``state.yaml`` names by their path, under whatever key (spec, "What the agent sees"):
    profile-relative path -> the key naming it (``plan``, or ``current_focus.plan``)."""
    out: dict[str, str] = {}
    for key, value in _leaves(_state_yaml(state, "contexts/")):
        if isinstance(value, str):
            for m in _CONTEXT_PATH_RE.finditer(value):
                out.setdefault(posixpath.normpath(m.group(1)), key or "state.yaml")
    return out


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
        if (len(w) >= 3 or CJK_RUN.search(w)) and _word_re(w).search(text):
            return w
    return None


# An entry as layer 2 reads it, parsed or from the index (``Index.relevant_entries``): (id, line, end_line,
# status, importance, tags ("|a|b|" or a tuple), superseded_by, key (rowid or place), raw, mentioned (None: not known)).
_Row = tuple[str, int, int, str, str | None, str | tuple[str, ...] | None, str | None, int, str | None, int | None]
_LEVELS = ("high", "medium", "low")
_HIGH = "importance: high (always carried)"


def _row_of_parsed(k: int, e: Entry) -> _Row:
    by = e.meta.get("superseded_by")
    last = e.line + e.raw.rstrip(" \t\r\n").count("\n")  # the last non-blank line, as search reports it
    return (str(e.id), e.line, last, e.status, _importance(e), tuple(e.tags), by if isinstance(by, str) else None,
            k, e.raw, None)


def _tag_matcher(wanted: set[str]) -> Any:
    """``match(tags) -> [the tags of an entry that are selected]``, in the entry's order."""
    if not wanted:
        return lambda tags: []
    keys = re.compile("|".join(re.escape(f"|{w}|") for w in sorted(wanted))).search

    def match(tags: str | tuple[str, ...] | None) -> list[str]:
        if not tags:
            return []
        if isinstance(tags, str):
            if keys(tags) is None:
                return []
            tags = tags_as_written(tags)
        return [t for t in tags if t.casefold() in wanted]

    return match


def _tags_of(tags: str | tuple[str, ...] | None) -> tuple[str, ...]:
    return tags if isinstance(tags, tuple) else tags_as_written(tags)


@dataclass
class _Source:
    """A profile's files as layers 1-3 read them: parsed (a loaded Profile) or through the index (the CLI)."""

    name: str
    path: Path
    identity: TextFile | None
    state: TextFile | None
    contexts: list[TextFile]
    has_memories: bool
    parsed: tuple[Sequence[_Row], Sequence[_Row]] | None = None  # (memories, archive) of a loaded profile
    index: Index | None = None

    def known_tags(self) -> set[str]:
        if self.parsed is not None:
            return {t for rows in self.parsed for r in rows for t in _tags_of(r[5])}
        assert self.index is not None
        return self.index.tag_names([self.path / "memories.md", self.path / ARCHIVE_REL])

    def select(self, wanted: set[str], q: Query | None) -> tuple[Sequence[_Row], Sequence[_Row]]:
        """(entries of memories.md worth looking at, archived ones); the index's rows say whether ``q`` is in them
        (a parsed entry's ``mentioned`` is left None)."""
        if self.parsed is not None:
            return self.parsed
        assert self.index is not None
        return (self.index.relevant_entries(self.path / "memories.md", sorted(wanted), q),
                self.index.relevant_entries(self.path / ARCHIVE_REL, sorted(wanted), None))

    def raw(self, key: int) -> str:
        """The text of an entry of memories.md read through the index (by rowid)."""
        assert self.index is not None
        return self.index.raws([key]).get(key, "")

    def statuses(self, ids: set[str]) -> dict[str, str]:
        if self.parsed is not None:
            return {r[0]: r[3] for r in self.parsed[0] if r[0] in ids}
        assert self.index is not None
        return self.index.statuses(self.path / "memories.md", sorted(ids)) if ids else {}

    def close(self) -> None:
        if self.index is not None:
            self.index.close()


def _source_of_profile(profile: Profile) -> _Source:
    entries, archived = ([_row_of_parsed(k, e) for k, e in enumerate(doc.mf.well_formed())] if doc is not None else []
                         for doc in (profile.memories, profile.archive))
    return _Source(profile.name, profile.path, profile.identity, profile.state, profile.contexts,
                   profile.memories is not None, parsed=(entries, archived))


def _source_of_root(root: Root) -> _Source:
    """The index brought up to date (only changed files are read), small files read as they are."""
    idx = Index.for_folder(root.path)
    try:
        idx.refresh([root])
    except BaseException:
        idx.close()
        raise
    files = dict(files_of(root))
    read = {rel: TextFile.read(root.path, path) for rel, path in files.items()
            if rel in ("identity.md", "state.yaml") or (rel.startswith("contexts/") and rel != ARCHIVE_REL)}
    contexts = [f for rel, f in read.items() if rel.startswith("contexts/")]
    return _Source(root.name, root.path, read.get("identity.md"), read.get("state.yaml"), contexts,
                   "memories.md" in files, index=idx)


def _profile_context(src: _Source, query: str, tags: Sequence[str], config: Config) -> AgentContext:
    """Layout A: the three layers and what was left out."""
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
    match = _tag_matcher(wanted)
    entries, archived = src.select(wanted, q)
    memories_path = src.path / "memories.md"
    parts, left_out = ctx.parts, ctx.left_out
    superseded: list[tuple[LeftOut, str]] = []  # (left out, by whom): the detail says that one's status
    for ident, line, end_line, status, imp, tg, by, key, raw, mentioned in entries:
        matched = match(tg)
        if status == "active":
            if imp == "high":
                reason = f"{_HIGH}; tag {', '.join(matched)}" if matched else _HIGH
            elif matched:
                reason = f"tag {', '.join(matched)}" + (" (low: loaded only on a tag match)" if imp == "low" else "")
            else:
                if mentioned is None:  # a parsed entry: what the index's FTS5 finds (``Query.mentions``)
                    mentioned = q is not None and raw is not None and q.mentions(raw)
                if mentioned:
                    level = imp if imp in _LEVELS else "medium"
                    left_out.append(LeftOut(ident, "low without a match" if imp == "low" else "no tag match",
                                            "memories.md", line,
                                            f"the query's words are in its text, but no tag of "
                                            f"[{', '.join(_tags_of(tg))}] is selected (importance {level})"))
                continue
            if raw is None:
                raw = src.raw(key)
            parts.append(Part("memories", "memories.md", line, end_line, ident, len(raw), estimate_tokens(raw), False,
                              reason, raw, memories_path))
            continue
        if not matched:
            continue
        if status == "superseded":
            detail = f"superseded by {by}" if by else "superseded"
        elif status == "cold":
            detail = "cold: not hit for a long time; set it active to load it"
        else:
            detail = f"status {status}: only active entries are loaded"
        left_out.append(x := LeftOut(ident, status, "memories.md", line, detail))
        if status == "superseded" and by:
            superseded.append((x, by))
    status_of = src.statuses({by for _x, by in superseded})
    for x, by in superseded:
        if by in status_of:
            x.detail += f" (status {status_of[by]})"
    for ident, line, _end, _status, _imp, tg, _by, _key, _raw, _m in archived:
        if matched := match(tg):
            left_out.append(LeftOut(ident, "archived", ARCHIVE_REL, line,
                                    f"in the archive (tag {', '.join(matched)}); restore it to load it"))
    # 3. contexts
    task: str | None = None  # read only when a context file is not named by the query
    by_path = _state_paths(src.state)  # a path in state.yaml is the current task naming that file
    for f in src.contexts:
        if f.error is not None:
            continue
        by_query = _named_by(f.rel, query)
        by_task = None
        if not by_query:
            if f.rel in by_path:
                by_task = f"{by_path[f.rel]}: {f.rel}"
            else:
                if task is None:
                    task = _task_text(src.state)
                by_task = _named_by(f.rel, task)
        if not (by_query or by_task):
            continue
        named = f"the query ({by_query})" if by_query else f"state.yaml's current task ({by_task})"
        if f.rel.startswith("contexts/archive/"):
            left_out.append(LeftOut(None, "archived", f.rel, 1, f"archived context file named by {named}"))
        else:
            parts.append(_whole("contexts", f, f"named by {named}"))
    if not src.has_memories:
        ctx.notes.append("memories.md: none in this profile")
    return ctx


# --- layout B -----------------------------------------------------------------------------------


def workspace_context(profile: Profile | Root, query: str = "", session: str = "main", *, config: Config | None = None,
                      today: dt.date | None = None, openclaw_config: Path | None = None,
                      results: int = SEARCH_RESULTS, session_start: bool = True) -> AgentContext:
    """Layout B: the bootstrap injection, the session-start block of daily logs, then the search results."""
    from .context_openclaw import workspace_parts

    config = config or load_config()
    ctx = workspace_parts(profile, query, session, config=config, today=today, openclaw_config=openclaw_config,
                          session_start=session_start)
    today = today or dt.date.fromisoformat(ctx.extra["rules"]["today"])
    if query.strip():
        from .api import search_path

        try:
            found, _stats = search_path(profile.path, query, results * 4, today=today, config=config)
        except QueryError as exc:
            ctx.notes.append(f"search: {exc}")
        else:
            ctx.notes.append(f"search: {found.note}; memory_search covers MEMORY.md, USER.md and memory/")
            lines_of = cache(_file_lines)  # each file read once
            for h in [h for h in found.hits if memory_search_file(h.file)][:results]:
                lines = lines_of(profile.path / h.file)
                text = "" if lines is None else "\n".join(lines[h.start_line - 1 : h.end_line])
                why = f"search score {h.score:.2f} ({h.explain()})"
                ctx.parts.append(Part("search", h.file, h.start_line, h.end_line, h.id, len(text),
                                      estimate_tokens(text), False, why, text, h.path))
    return ctx


def memory_search_file(rel: str) -> bool:
    """Whether OpenClaw's memory_search indexes a workspace file (MEMORY.md, USER.md, memory/*.md)."""
    return rel in ("MEMORY.md", "memory.md", "USER.md") or (rel.startswith("memory/") and rel.endswith(".md"))


def _file_lines(path: Path) -> list[str] | None:
    from ..format.entries import decode

    try:
        return decode(path.read_bytes())[0].split("\n")
    except OSError:
        return None


def agent_context(profile: Profile | Root, query: str = "", tags: Sequence[str] = (), session: str = "main", *,
                  config: Config | None = None, today: dt.date | None = None,
                  openclaw_config: Path | None = None, session_start: bool = True) -> AgentContext:
    """What the agent loads for a topic, for either layout (a ``Root`` is read through the index)."""
    if profile.layout == "openclaw":
        ctx = workspace_context(profile, query, session, config=config, today=today, openclaw_config=openclaw_config,
                                session_start=session_start)
        if tags:
            ctx.notes.append("--tags: a workspace has no tags (only layout A selects entries by tag)")
        return ctx
    src = _source_of_profile(profile) if isinstance(profile, Profile) else _source_of_root(profile)
    try:
        ctx = _profile_context(src, query, tags, config or load_config())
    finally:
        src.close()
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


def render_json(ctx: AgentContext) -> str:
    """``openclaw-tui context --json``: the parts and left-out entries as indented JSON and a newline."""
    return json.dumps(ctx.to_json(), ensure_ascii=False, indent=2) + "\n"


def render_text(ctx: AgentContext) -> str:
    """The plain-text report of ``openclaw-tui context``, in the reader's language (its JSON stays English)."""
    from ..phrases import localize as say

    out: list[str] = []
    head = (_("layout A (profile) %(name)s") if ctx.layout == "A"
            else _("layout B (OpenClaw workspace) %(name)s")) % {"name": ctx.profile}
    if ctx.layout == "B":
        head += _(", %(session)s session") % {"session": _(ctx.session)}
        if "rules" in ctx.extra:
            head += _(", ") + say(ctx.extra["rules"]["moment"])
    if ctx.query:
        head += _(", query %(query)s") % {"query": repr(ctx.query)}
    if ctx.tags:
        head += _(", tags %(tags)s") % {"tags": ", ".join(ctx.tags)}
    out.append(head)
    lim = _(", ").join(f"{k} {v:,}" for k, v in ctx.limits.items() if isinstance(v, int))
    out.append(_("limits: %(limits)s (from %(source)s)") % {"limits": lim,
                                                           "source": say(ctx.limits.get("source", "defaults"))})
    if "rules" in ctx.extra:
        out.append(_("rules: %(rules)s; sizes in UTF-16 units") % {"rules": say(ctx.extra["rules"]["label"])})
    titles = {"fixed": N_("1. fixed payload"), "memories": N_("2. memories"), "contexts": N_("3. context files"),
              "bootstrap": N_("bootstrap files (as injected)"), "daily": N_("daily logs (session-start block)"),
              "search": N_("search results")}
    truncated = _("TRUNCATED")
    for layer, parts in ctx.layers():
        chars = sum(p.chars for p in parts)
        out.append(_("%(layer)s: %(parts)s, %(chars)s chars, ~%(tokens)s tokens")
                   % {"layer": _(titles[layer]) if layer in titles else layer,
                      "parts": ngettext("%(count)d part", "%(count)d parts", len(parts)) % {"count": len(parts)},
                      "chars": f"{chars:,}", "tokens": f"{sum(p.tokens_est for p in parts):,}"})
        out += [f"  {p.file}:{p.start_line if p.start_line == p.end_line else f'{p.start_line}-{p.end_line}'}  "
                f"{p.id or '-'}  "
                + _("%(chars)s chars  ~%(tokens)s tokens") % {"chars": f"{p.chars:,}", "tokens": f"{p.tokens_est:,}"}
                + ("  " + truncated if p.truncated else "") + f"  {say(p.reason)}" for p in parts]
    if not ctx.parts:
        out.append(_("nothing is loaded"))
    if ctx.left_out:
        out.append(_("left out: %(count)s") % {"count": len(ctx.left_out)})
        for x in ctx.left_out:
            out.append(f"  {x.id or x.file}  {say(x.reason)}" + (f"  ({say(x.detail)})" if x.detail else "")
                       + (f"  {x.file}:{x.line}" if x.id else ""))
    for n in ctx.notes:
        out.append(_("note: %(note)s") % {"note": say(n)})
    budget = ctx.budget_chars
    total = {"chars": f"{ctx.total_chars:,}", "tokens": f"{ctx.total_tokens:,}"}
    if budget:
        out.append(_("total: %(chars)s chars, ~%(tokens)s tokens (estimate) of a %(budget)s-character budget "
                     "(%(percent)s%%)") % {**total, "budget": f"{budget:,}",
                                           "percent": f"{100 * ctx.total_chars / budget:.0f}"})
    else:
        out.append(_("total: %(chars)s chars, ~%(tokens)s tokens (estimate)") % total)
    return "\n".join(out) + "\n"
