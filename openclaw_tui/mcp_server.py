"""``openclaw-tui mcp PATH``: the memory under PATH as an MCP server (stdio), on the official SDK.

The tools are the command line's own routines (search, get, context, check; with ``--allow-write`` add,
supersede and archive, or a daily-log line and a MEMORY.md item), with OpenClaw's field names where it has
them; every write goes through the write protocol and refuses a credential.  The memory files are read-only
resources.  Errors are tool errors carrying the CLI's one-line reason; every call's work is bounded.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from .core.check.secrets import find_secrets, is_credential
from .core.files.profile import NotMemory, Profile, discover, inside, resolve_profile
from .core.lifecycle.plan import apply_changes
from .core.search.index_feed import follow_writes

# Bounds on one call's work (a request bigger than these is refused with the reason, never half-done)
MAX_TEXT = 20_000  # characters of a body, a log line or an item
MAX_QUERY = 2_000  # characters of a query
MAX_RESULTS = 50  # memory_search's max_results
MAX_TAGS = 32
MAX_GET_LINES = 2_000  # lines memory_get returns at once (the rest: call again from next_from)
MAX_GET_BYTES = 256 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024  # a file memory_get reads at all (memory files are far smaller)
MAX_LIST = 1_000  # findings, parts and left-out entries returned (the rest counted)
MAX_RESOURCES = 500  # files listed as resources (all stay readable through the template)
MAX_RESOURCE_BYTES = 4 * 1024 * 1024

# The files a client is shown: the memory files of both layouts (no caches, no git, no locks)
_RESOURCE_SUFFIXES = (".md", ".yaml", ".yml")

Tags = Annotated[list[str] | str | None, Field(description="tags, as a list or comma-separated")]
T = TypeVar("T")


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def refuse_credentials(**texts: str | None) -> None:
    """Raise ToolError when a text holds a credential: the kind and where, never the value."""
    from .core.check.secrets import KIND_LABEL

    for name, text in texts.items():
        if not text:
            continue
        for match in find_secrets(text):
            if is_credential(match):
                kind = KIND_LABEL.get(match.kind, match.kind)
                raise ToolError(
                    f"refused: {name} holds a credential ({kind}, characters {match.start + 1}-{match.end}); "
                    "memory files are sent to the model provider and kept in git, so credentials never go "
                    "in them: keep it in a secret store and write where it is kept instead")


def check_size(name: str, text: str, limit: int = MAX_TEXT) -> None:
    if len(text) > limit:
        raise ToolError(f"{name} has {len(text):,} characters; at most {limit:,} are accepted")


def _tags(tags: list[str] | str | None) -> list[str]:
    if tags is None:
        return []
    items = tags.split(",") if isinstance(tags, str) else tags
    out = [t.strip() for t in items if t.strip()]
    if len(out) > MAX_TAGS or any(len(t) > 100 for t in out):
        raise ToolError(f"at most {MAX_TAGS} tags of at most 100 characters each")
    return out


def _capped(doc: dict[str, Any], key: str, limit: int = MAX_LIST) -> dict[str, Any]:
    """``doc`` with its list ``key`` cut to ``limit`` items; ``<key>_omitted`` counts the rest."""
    items = doc.get(key)
    if isinstance(items, list) and len(items) > limit:
        doc[key] = items[:limit]
        doc[f"{key}_omitted"] = len(items) - limit
    return doc


class Memory:
    """The folder the server was started on, and the calls' shared state (one writer at a time)."""

    def __init__(self, path: str, profile: str | None, allow_write: bool, commit: bool) -> None:
        self.path = path
        self.profile_name = profile
        self.allow_write = allow_write
        self.commit = commit
        self.write_lock = threading.Lock()  # (other processes are kept out by the files' locks)
        follow_writes()
        found = discover(path, lazy=True)  # NotMemory: the command says so and exits 2
        self.kind = found.kind
        self.layouts = {p.layout for p in found.profiles}
        if profile is not None and all(p.name != profile for p in found.profiles):
            raise NotMemory(f"{path}: no profile named {profile}")

    def target(self, layout: str) -> Profile:
        """The one profile (``layout`` "profile") or workspace ("openclaw") a write is for, read afresh."""
        profile = resolve_profile(self.path, self.profile_name, lazy=True)
        if profile.layout != layout:
            raise ToolError(f"{self.path}: an OpenClaw workspace has no memories.md entries to edit"
                            if layout == "profile" else
                            f"{self.path}: a profile keeps no daily logs or MEMORY.md; use memory_remember")
        return profile


def guarded(fn: Callable[..., T]) -> Callable[..., T]:
    """Turn every error a call can meet into a ToolError with the CLI's one-line reason."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        from .core.files.safe_write import ConcurrentModification
        from .core.git.gitrepo import GitError

        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except (ValueError, ConcurrentModification, GitError, TimeoutError) as exc:
            raise ToolError(one_line(exc)) from None
        except OSError as exc:
            name = getattr(exc, "filename", None)
            raise ToolError(one_line(f"{name}: {exc.strerror}" if name and exc.strerror else exc)) from None
        except RecursionError:
            raise ToolError("the input nests too deeply to be read") from None
        except MemoryError:
            raise ToolError("the input is too large to be read") from None

    return wrapper


def locate_file(mem: Memory, path: str) -> Path:
    """The file ``path`` names as ``memory_search`` does, by ``get``'s rules (nothing outside the profile folder)."""
    from .core.files.lines import pick_profile, resolve_file

    profiles = discover(mem.path, lazy=True).profiles
    posix = path.replace(os.sep, "/")
    for p in profiles:
        prefix = p.rel.rstrip("/") + "/"
        if p.rel not in (".", "") and posix.startswith(prefix):
            return resolve_file(p, posix[len(prefix):])
    if len(profiles) > 1 and mem.profile_name is not None:
        return resolve_file(pick_profile(profiles, mem.profile_name, path)[0], path)
    profile, rel = pick_profile(profiles, None, path)
    return resolve_file(profile, rel)


def _commit(mem: Memory, profile: Profile, summary: str | None) -> dict[str, Any]:
    """With --commit: commit the profile folder's change (``commit``: the short sha); a failed commit is told as
    ``commit_error``, the write stands."""
    if not mem.commit:
        return {"commit": None}
    from .core.git.commitmsg import NothingToCommit, commit_profile
    from .core.git.gitrepo import GitError

    for attempt in range(5):
        try:
            return {"commit": commit_profile(profile, summary)[:12]}
        except NothingToCommit:
            return {"commit": None}  # another writer's commit took this change with its own
        except GitError as exc:
            if "index.lock" not in str(exc) or attempt == 4:
                return {"commit": None, "commit_error": one_line(exc)}
            time.sleep(0.05 * (attempt + 1))  # another process is committing in the same repository
    return {"commit": None}


def _written(mem: Memory, plan: Any, profile: Profile, summary: str | None = None) -> dict[str, Any]:
    return {"written": True, "title": plan.title, "files": [os.path.relpath(p, profile.path) for p in plan.files],
            "changes": [line.removeprefix("- ") for line in plan.commit_lines()], **_commit(mem, profile, summary)}


def _section_key(path: Path, section: str) -> str:
    """The key of the MEMORY.md section named ``section`` (its title, or its heading path with › or /)."""
    from .core.workspace.edits import _read
    from .core.workspace.model import parse_memory_text

    _data, text, _bom = _read(path)
    sections = [r for r in parse_memory_text(text) if r.kind == "section"]
    want = [p.strip().casefold() for p in section.replace("›", "/").split("/") if p.strip()]
    for exact in (True, False):
        found = [r for r in sections
                 if [h.strip().casefold() for h in (r.heading_path if exact else r.heading_path[-len(want):])] == want]
        if len(found) == 1:
            return found[0].key
        if len(found) > 1:
            names = "; ".join(" / ".join(r.heading_path) for r in found[:10])
            raise ToolError(f"section {section!r} is ambiguous: {names}; give its heading path")
    names = "; ".join(" / ".join(r.heading_path) for r in sections[:30]) or "(none)"
    raise ToolError(f"MEMORY.md has no section {section!r}; its sections: {names}")


# --- resources ------------------------------------------------------------------------------------


def memory_files(mem: Memory, limit: int = MAX_RESOURCES) -> Iterator[str]:
    """The memory files under the folder, as ``memory_get`` names them (no hidden folders, no links leaving it)."""
    root = Path(mem.path)
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            file = Path(folder, name)
            if name.endswith(_RESOURCE_SUFFIXES) and not name.startswith(".") and inside(root, file):
                yield PurePosixPath(file.relative_to(root)).as_posix()
                count += 1
                if count >= limit:
                    return


def read_resource(mem: Memory, path: str) -> str | bytes:
    """A memory file's bytes (text when UTF-8), by the same rules as memory_get."""
    from .core.files.lines import Refused

    try:
        file = locate_file(mem, path)
        if file.stat().st_size > MAX_RESOURCE_BYTES:
            raise ResourceError(f"{path}: over {MAX_RESOURCE_BYTES:,} bytes; read it in parts with memory_get")
        data = file.read_bytes()
    except (Refused, NotMemory) as exc:
        raise ResourceNotFoundError(one_line(exc)) from None
    except OSError as exc:
        raise ResourceError(one_line(f"{path}: cannot be read ({exc.strerror or exc})")) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # not UTF-8: the exact bytes, as a blob


def _mime(path: str) -> str:
    return "text/markdown" if path.endswith(".md") else "application/yaml"


# --- the server -----------------------------------------------------------------------------------

INSTRUCTIONS = (
    "Long-term memory of an AI agent, kept as plain files{where}. Search it with memory_search, read exact "
    "lines with memory_get, see what the agent loads for a topic with memory_context, and the consistency "
    "findings with memory_check. {writes}"
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


async def one_line_errors(ctx: Any, call_next: Any) -> Any:
    """Middleware: a tool error's text on one line (the SDK's argument-validation errors span several)."""
    result = await call_next(ctx)
    if isinstance(result, CallToolResult) and result.is_error:
        for block in result.content:
            if isinstance(block, TextContent):
                block.text = _error_line(block.text)
    elif isinstance(result, dict) and result.get("isError"):
        for block in result.get("content") or ():
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                block["text"] = _error_line(block["text"])
    return result


def _error_line(text: str) -> str:
    return one_line(" ".join(ln for ln in text.splitlines() if not ln.strip().startswith("For further information")))

def build_server(mem: Memory) -> MCPServer[Any]:
    """The MCP server over ``mem``: its tools (writes only with --allow-write) and its files as resources."""
    from . import __version__

    if not mem.allow_write:
        writes = "Read-only: the server was started without --allow-write."
    elif "profile" in mem.layouts:
        writes = ("memory_remember adds an entry (duplicates are returned instead of written unless force=true), "
                  "memory_supersede and memory_archive change one; every write is reviewed by a person later.")
    else:
        writes = ("memory_append_log appends to today's daily log; memory_add_item adds a MEMORY.md item; "
                  "every write is reviewed by a person later.")
    layout = "an OpenClaw workspace" if mem.kind == "workspace" else "Markdown entries with YAML frontmatter"
    server: MCPServer[Any] = MCPServer("openclaw-tui", version=__version__, log_level="WARNING",
                                       instructions=INSTRUCTIONS.format(where=f" ({layout})", writes=writes))
    server.middleware.append(one_line_errors)

    def tool(fn: Callable[..., Any], name: str, annotations: ToolAnnotations) -> None:
        server.add_tool(guarded(fn), name=name, annotations=annotations, structured_output=True)

    def memory_search(query: Annotated[str, Field(description="words and/or Chinese text; tag:x filters")],
                      max_results: int = 6, tags: Tags = None) -> dict[str, Any]:
        """Ranked search over the memory files, as `openclaw-tui search --json`: each result has path,
        startLine, endLine, snippet, score, id (the entry's, or null) and why (text score, vector score,
        decay)."""
        from .core.search.api import search_path

        check_size("query", query, MAX_QUERY)
        if not 1 <= max_results <= MAX_RESULTS:
            raise ToolError(f"max_results must be between 1 and {MAX_RESULTS} (got {max_results})")
        results = search_path(mem.path, query, max_results, tags=_tags(tags))[0]
        hits = [{"path": h.openclaw_path, "startLine": h.start_line, "endLine": h.end_line, "snippet": h.snippet,
                 "score": round(h.score, 4), "id": h.id, "citation": h.citation, "why": h.explain()}
                for h in results.hits]
        return {"query": query, "results": hits, "provider": results.provider, "note": results.note}

    def _memory_get(path: Annotated[str, Field(description="a file as memory_search names it")],
                    from_: Annotated[int | None, Field(alias="from", description="first line, 1-based")] = None,
                    lines: Annotated[int | None, Field(description="number of lines (default: to the end)")] = None,
                    ) -> dict[str, Any]:
        """Exact lines of one memory file, as `openclaw-tui get PATH FILE --from N --lines M`; a path that
        leaves the memory folder is refused. Long reads are cut: call again from next_from."""
        from .core.files.lines import Refused, split_lines

        start = 1 if from_ is None else from_
        if start < 1:
            raise ToolError(f"from must be at least 1 (got {start})")
        if lines is not None and lines < 1:
            raise ToolError(f"lines must be at least 1 (got {lines})")
        if "\0" in path:
            raise ToolError("path holds a NUL character")
        try:
            file = locate_file(mem, path)
            if file.stat().st_size > MAX_FILE_BYTES:
                raise ToolError(f"{path}: over {MAX_FILE_BYTES // 2**20} MB, too big to be memory; read it another way")
            data = file.read_bytes()
        except Refused as exc:
            raise ToolError(one_line(exc)) from None
        all_lines = split_lines(data)
        if start > max(1, len(all_lines)):
            n = len(all_lines)
            raise ToolError(f"{path} has {n} line{'' if n == 1 else 's'}; from {start} is past its end")
        wanted_end = len(all_lines) if lines is None else min(len(all_lines), start - 1 + lines)
        end = min(wanted_end, start - 1 + MAX_GET_LINES)
        size = 0
        for i in range(start - 1, end):  # at most MAX_GET_BYTES (but always the first line asked for)
            size += len(all_lines[i])
            if size > MAX_GET_BYTES and i > start - 1:
                end = i
                break
        chunk = b"".join(all_lines[start - 1 : end])
        text = chunk.decode("utf-8", "replace")
        doc: dict[str, Any] = {"path": path, "from": start, "lines": end - start + 1 if chunk else 0, "text": text,
                               "total_lines": len(all_lines)}
        if end < wanted_end:
            doc["truncated"] = True
            doc["next_from"] = end + 1
        if text.encode("utf-8") != chunk:
            doc["note"] = "the file is not valid UTF-8 here: invalid bytes are shown as U+FFFD (the file is unchanged)"
        return doc

    @functools.wraps(_memory_get)
    def memory_get(**arguments: Any) -> dict[str, Any]:  # ("from" is a Python keyword: taken by its alias)
        return _memory_get(arguments["path"], arguments.get("from"), arguments.get("lines"))

    def memory_context(query: str | None = None, tags: Tags = None,
                       session: Literal["main", "shared", "subagent", "cron"] = "main") -> dict[str, Any]:
        """What the agent loads before it answers on a topic, in prompt order, as `openclaw-tui context
        --json`: parts (layer, file, lines, chars, tokens_est, truncated, reason), left_out and the total."""
        from .core.search.context import agent_context, resolve_root

        query = query or ""
        check_size("query", query, MAX_QUERY)
        root = resolve_root(mem.path, mem.profile_name)
        doc = agent_context(root, query, _tags(tags), session).to_json()
        return _capped(_capped(doc, "parts"), "left_out")

    def memory_check() -> dict[str, Any]:
        """The consistency findings, as `openclaw-tui check --format json`: profiles, findings (code,
        severity, file, line, id, message) and the summary by severity."""
        from dataclasses import asdict, replace

        from .core.check.report import to_json
        from .core.check.rules import check_discovery
        from .core.config import load_config

        limits = load_config().limits
        discovery = discover(mem.path, lazy=True)
        if discovery.kind == "workspace":
            from .core.workspace.openclaw_config import load_openclaw_config

            oc = load_openclaw_config(discovery.root)
            limits = replace(limits, **{n: getattr(oc.limits, n) for n in oc.overridden})
        findings = check_discovery(discovery, **asdict(limits))
        return _capped(to_json(discovery, findings, mem.path), "findings")

    tool(memory_search, "memory_search", READ_ONLY)
    tool(memory_get, "memory_get", READ_ONLY)
    tool(memory_context, "memory_context", READ_ONLY)
    tool(memory_check, "memory_check", READ_ONLY)

    if mem.allow_write and "profile" in mem.layouts:

        def memory_remember(body: str, tags: Tags = None,
                            importance: Literal["high", "medium", "low"] | None = None, source: str = "agent",
                            conflict: Annotated[str | list[str] | None,
                                                Field(description="ids of entries this one contradicts")] = None,
                            force: bool = False) -> dict[str, Any]:
            """Remember one fact as a new entry of memories.md, as `openclaw-tui add`: returns the active
            entries that say the same or nearly the same (duplicates) and those sharing a tag (conflicts:
            candidates for `conflict`). Nothing is written while there is a duplicate, unless force=true.
            A credential (password, API key, token) is refused."""
            from .core.lifecycle.remember import plan_remember

            check_size("body", body)
            check_size("source", source or "", 500)
            wanted = _tags(tags)
            refuse_credentials(body=body, tags=",".join(wanted), source=source)
            with mem.write_lock:
                profile = mem.target("profile")
                result = plan_remember(profile, body, tags=wanted, importance=importance, source=source or None,
                                       conflict=conflict)
                doc = result.to_json()
                if result.duplicates and not force:
                    doc.update(written=False, id=None,
                               reason="not written: an active entry says the same or nearly the same "
                                      f"({', '.join(d.id for d in result.duplicates[:5])}); supersede it, or call "
                                      "again with force=true to keep both")
                    return doc
                plan = apply_changes(result.plan)
                doc["id"] = plan.new_id or result.id
                doc.update(_written(mem, plan, profile))
                return doc

        def memory_supersede(old: str, new: str) -> dict[str, Any]:
            """Mark entry `old` superseded by entry `new` (which must be active), as `openclaw-tui supersede`."""
            from .core.lifecycle.operations import plan_supersede

            with mem.write_lock:
                profile = mem.target("profile")
                plan = apply_changes(plan_supersede(profile, old, new))
                if plan.empty:
                    return {"written": False, "reason": f"{old}: already superseded by {new}"}
                return _written(mem, plan, profile)

        def memory_archive(id: str) -> dict[str, Any]:
            """Move one entry to contexts/archive/memories.md, as `openclaw-tui archive`."""
            from .core.lifecycle.archive import plan_archive

            with mem.write_lock:
                profile = mem.target("profile")
                return _written(mem, apply_changes(plan_archive(profile, [id])), profile)

        tool(memory_remember, "memory_remember", WRITES)
        tool(memory_supersede, "memory_supersede", WRITES)
        tool(memory_archive, "memory_archive", WRITES)

    if mem.allow_write and "openclaw" in mem.layouts:

        def memory_append_log(text: str) -> dict[str, Any]:
            """Append `- HH:MM text` to today's daily log, memory/YYYY-MM-DD.md (append-only; created with its
            heading when missing). A credential is refused."""
            from .core.workspace.logappend import append_log

            check_size("text", text)
            refuse_credentials(text=text)
            with mem.write_lock:
                ws = mem.target("openclaw")
                plan = apply_changes(append_log(ws.path, text))
                return _written(mem, plan, ws, plan.title)

        def memory_add_item(section: Annotated[str, Field(description="a MEMORY.md heading, or its path "
                                                                      "such as 'Work / Housing'")],
                            text: str) -> dict[str, Any]:
            """Add a list item at the end of a MEMORY.md section (the rest of the file is left as it is).
            A credential is refused."""
            from .core.workspace.edits import append_items

            check_size("text", text)
            check_size("section", section, 500)
            refuse_credentials(section=section, text=text)
            with mem.write_lock:
                ws = mem.target("openclaw")
                path = ws.path / "MEMORY.md"
                key = _section_key(path, section)
                plan = apply_changes(append_items(path, key, [text], title=f"add an item to {section}"))
                return _written(mem, plan, ws, plan.title)

        tool(memory_append_log, "memory_append_log", WRITES)
        tool(memory_add_item, "memory_add_item", WRITES)

    for rel in memory_files(mem):
        server.add_resource(FunctionResource.from_function(
            functools.partial(read_resource, mem, rel), uri=f"memory:///{rel}", name=rel, mime_type=_mime(rel),
            description="a memory file (read-only)"))

    @server.resource("memory:///{+path}", name="memory file", mime_type="text/markdown",
                     description="any memory file under the folder, by its path (read-only)")
    def memory_file(path: str) -> str | bytes:
        return read_resource(mem, path)

    return server


def serve(path: str, *, profile: str | None = None, allow_write: bool = False, commit: bool = False) -> None:
    """Run the server on stdio until the client closes it (NotMemory: ``path`` is no memory)."""
    build_server(Memory(path, profile, allow_write, commit)).run("stdio")


__all__ = ["Memory", "build_server", "serve"]
