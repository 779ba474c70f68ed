"""What an OpenClaw agent receives from its workspace, from the files alone.

``inject_preview(workspace, limits)`` lists the bootstrap files in the agent's order, each as
injected: a file over its limit keeps its first 70% and last 20% of that limit around a
truncation marker (the file on disk is untouched); the running total is held against
``bootstrapTotalMaxChars`` (each file gets at most what is left of it); ``USER.md`` has its own
cap; ``MEMORY.md`` is loaded only in the main (private) session, and sub-agent sessions get
``AGENTS.md`` alone.  Today's and yesterday's daily logs follow ("loaded at session start", a
one-shot block of a new session that does not count against the bootstrap total).

Characters are Python characters (code points); OpenClaw counts UTF-16 units, which differ only
for characters outside the Basic Multilingual Plane (most emoji).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..config import Limits
from ..format.entries import decode
from ..format.profile import inside

# The agent's order (older releases; the current one no longer injects TOOLS.md / HEARTBEAT.md,
# which `doctor --fix` folds away, so a workspace that still has them gets them injected here).
BOOTSTRAP_ORDER = (
    "AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md",
)
MEMORY_NAMES = ("MEMORY.md", "memory.md")
HEAD_RATIO = 0.7
TAIL_RATIO = 0.2
MIN_FILE_BUDGET = 64  # less than this left of the total: the file is not injected at all
SESSIONS = ("main", "shared", "subagent")


def truncation_marker(name: str, head: int, tail: int, raw: int) -> str:
    """The text put between head and tail of an over-limit file (newlines included)."""
    return (
        f"\n[...truncated, read {name} for full content...]\n"
        f"…(truncated {name}: kept {head}+{tail} chars of {raw})…\n"
    )


def truncate(text: str, name: str, limit: int) -> tuple[str, int | None]:
    """(injected copy, offset of the marker in it or None) for ``text`` under ``limit``."""
    if len(text) <= limit:
        return text, None
    head = int(limit * HEAD_RATIO)
    tail = int(limit * TAIL_RATIO)
    kept_head = text[:head]
    kept_tail = text[len(text) - tail:] if tail > 0 else ""
    marker = truncation_marker(name, head, tail, len(text))
    return kept_head + "\n" + marker + "\n" + kept_tail, len(kept_head)


@dataclass
class InjectedPart:
    name: str  # file name as the agent shows it ("MEMORY.md", "memory/2026-03-14.md")
    file: str  # workspace-relative path
    kind: str  # "bootstrap" or "daily"
    chars_raw: int
    chars_injected: int
    truncated: bool
    text: str  # the injected copy ("" when not loaded)
    marker_at: int | None  # offset of the truncation marker in ``text``
    limit: int  # the characters this file could have had (its own limit, or what the total left)
    limit_kind: str  # "file" (bootstrapMaxChars), "user" (USER.md cap) or "total" (what was left)
    running_total: int  # bootstrap characters injected up to and including this one
    over_total: bool  # cut or left out because the total was reached
    loaded: bool
    reason: str  # why it is (not) loaded, in words
    lines_raw: int = 0

    @property
    def start_line(self) -> int:
        return 1

    @property
    def end_line(self) -> int:
        return self.lines_raw


def _read_text(root: Path, path: Path) -> str | None:
    if not path.is_file() or not inside(root, path):
        return None
    try:
        text, _bom, _ok = decode(path.read_bytes())
    except OSError:
        return None
    return text


def bootstrap_files(workspace: Path) -> list[str]:
    """The bootstrap file names present in the workspace, in the agent's order."""
    names = []
    for name in BOOTSTRAP_ORDER:
        if name == "MEMORY.md":
            found = next((n for n in MEMORY_NAMES if (workspace / n).is_file() and _exact(workspace, n)), None)
            if found:
                names.append(found)
        elif (workspace / name).is_file():
            names.append(name)
    return names


def _exact(folder: Path, name: str) -> bool:
    """``name`` exists with exactly that case (case-insensitive file systems)."""
    try:
        return name in {p.name for p in folder.iterdir()}
    except OSError:
        return False


def daily_logs_at_start(workspace: Path, today: dt.date) -> list[str]:
    """Today's and yesterday's daily logs that exist (``YYYY-MM-DD.md`` and ``YYYY-MM-DD-<slug>.md``)."""
    folder = workspace / "memory"
    out: list[str] = []
    if not folder.is_dir():
        return out
    names = sorted(p.name for p in folder.iterdir() if p.suffix == ".md")
    for day in (today - dt.timedelta(days=1), today):
        stem = day.isoformat()
        out.extend(f"memory/{n}" for n in names if n == stem + ".md" or n.startswith(stem + "-"))
    return out


def inject_preview(
    workspace_path: Path | str,
    limits: Limits | None = None,
    session: str = "main",
    *,
    today: dt.date | None = None,
    include_daily: bool = True,
) -> list[InjectedPart]:
    """The parts the agent receives, in order, each as injected (see the module docstring)."""
    if session not in SESSIONS:
        raise ValueError(f"session must be one of {', '.join(SESSIONS)}, not {session!r}")
    root = Path(workspace_path)
    limits = limits or Limits()
    parts: list[InjectedPart] = []
    remaining = limits.bootstrap_total_max_chars
    running = 0
    for name in bootstrap_files(root):
        text = _read_text(root, root / name)
        if text is None:
            continue
        raw = len(text)
        nlines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        if session == "subagent" and name != "AGENTS.md":
            parts.append(InjectedPart(name, name, "bootstrap", raw, 0, False, "", None, 0, "file", running,
                                      False, False, "sub-agent sessions get AGENTS.md only", nlines))
            continue
        if name in MEMORY_NAMES and session != "main":
            parts.append(InjectedPart(name, name, "bootstrap", raw, 0, False, "", None, 0, "file", running,
                                      False, False, "MEMORY.md is loaded only in the main, private session", nlines))
            continue
        if not text.strip():
            parts.append(InjectedPart(name, name, "bootstrap", raw, 0, False, "", None, 0, "file", running,
                                      False, False, "blank files are skipped", nlines))
            continue
        own, kind = (limits.user_max_chars, "user") if name == "USER.md" else (limits.bootstrap_max_chars, "file")
        if name == "USER.md":
            own = min(own, limits.bootstrap_max_chars)
        limit = own
        if remaining < own:
            limit, kind = max(remaining, 0), "total"
        if remaining < MIN_FILE_BUDGET:
            parts.append(InjectedPart(name, name, "bootstrap", raw, 0, False, "", None, limit, "total", running,
                                      True, False, f"left out: the bootstrap total of {limits.bootstrap_total_max_chars:,} is used up", nlines))
            continue
        injected, marker_at = truncate(text, name, limit)
        remaining -= len(injected)
        running += len(injected)
        truncated = marker_at is not None
        if truncated:
            why = {"user": "USER.md's cap", "file": "bootstrapMaxChars", "total": "what the bootstrap total left"}[kind]
            reason = f"truncated to {limit:,} characters ({why})"
        else:
            reason = "loaded in full" + (" (main session only)" if name in MEMORY_NAMES else "")
        parts.append(InjectedPart(name, name, "bootstrap", raw, len(injected), truncated, injected, marker_at,
                                  limit, kind, running, truncated and kind == "total", True, reason, nlines))
    if include_daily and session != "subagent":
        today = today or dt.date.today()
        for rel in daily_logs_at_start(root, today):
            text = _read_text(root, root / rel)
            if text is None:
                continue
            nlines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
            which = "today's" if rel[7:17] == today.isoformat() else "yesterday's"
            parts.append(InjectedPart(rel, rel, "daily", len(text), len(text), False, text, None, 0, "file",
                                      running, False, True, f"{which} log, loaded at session start", nlines))
    return parts
