"""What an OpenClaw agent receives from its workspace, from the files alone (never touched).

``inject_preview`` lists the parts in the agent's order, each as injected: by the current release's
rules (``injection``) or, for a workspace whose openclaw.json is of the older generation, the older
ones (TOOLS.md and HEARTBEAT.md injected, the 70/20 cut, today's and yesterday's logs whole).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..config import Limits
from ..files.profile import inside
from ..format.entries import decode
from .injection import (
    CURRENT_RELEASE,
    JS_SPACE,
    MIN_FILE_BUDGET,
    RETIRED_FILES,
    SESSIONS,
    USER_MAX_CHARS,
    Settings,
    StartupSettings,
    bootstrap,
    clamp_to_budget,
    exact_name,
    from_js,
    js_sha256,
    js_utf8,
    kept_spans,
    load_reason,
    startup_block,
    to_js,
)

# the agent's order in older releases (they inject TOOLS.md and HEARTBEAT.md)
BOOTSTRAP_ORDER = (
    "AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md",
)
MEMORY_NAMES = ("MEMORY.md", "memory.md")
CRON_FILES = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md")  # what a cron run keeps (filterBootstrapFilesForSession)


def _py(js: str) -> str:
    """A JS string as Python text (a lone surrogate, as JavaScript encodes it, as U+FFFD)."""
    return js_utf8(js).decode("utf-8")


def _cut_js(js: str, name: str, limit: int) -> tuple[str, int | None, int, int]:
    """The older releases' cut of the JS string ``js``, the first 70% and last 20% of ``limit`` around a marker
    (docs/openclaw-truncation.md): (the injected copy, offset of its marker or None, units of head and of
    tail kept), all in UTF-16 units."""
    trimmed = js.rstrip(JS_SPACE)
    if len(trimmed) <= limit:
        return trimmed, None, len(trimmed), 0
    head, tail = int(limit * 0.7), int(limit * 0.2)
    kept_tail = trimmed[-tail:]  # as the agent slices: a tail of 0 keeps everything (limits under 5)
    marker = f"\n[...truncated, read {name} for full content...]\n…(truncated {name}: kept {head}+{tail} chars of {len(trimmed)})…\n"
    return trimmed[:head] + "\n" + marker + "\n" + kept_tail, len(trimmed[:head]), len(trimmed[:head]), len(kept_tail)


def own_limit(name: str, limits: Limits, release: str = CURRENT_RELEASE) -> int:
    """The per-file limit of ``name`` by the release's rules: USER.md's cap (the current release's
    fixed 4,000, an older one's ``user_max_chars``) within ``bootstrap_max_chars``."""
    if name != "USER.md":
        return limits.bootstrap_max_chars
    cap = USER_MAX_CHARS if release != "older" else limits.user_max_chars
    return min(cap, limits.bootstrap_max_chars)


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
    over_total: bool  # cut or left out because the total was reached
    loaded: bool
    reason: str  # why it is (not) loaded, in words
    lines_raw: int = 0
    missing: bool = False  # injected as "[MISSING] Expected at: PATH"
    sha256: str = ""  # of the injected copy's UTF-8 (as OpenClaw's JS string encodes)
    kept: tuple[tuple[int, int], ...] = ()  # spans of the file (UTF-16 offsets) the agent receives

    def received(self, text: str, start: int, end: int) -> str:
        """Whether the agent receives the characters [start, end) of the file's decoded ``text`` (Python
        offsets): "received", "partly", "not received" or "not loaded"."""
        if not self.loaded:
            return "not loaded"
        if not self.truncated:
            return "received"
        a, b = utf16_offset(text, start), min(utf16_offset(text, end), self.chars_raw)  # trailing space: trimmed
        if b <= a:
            return "received"
        inside = sum(max(0, min(b, y) - max(a, x)) for x, y in self.kept)
        return "received" if inside >= b - a else "partly" if inside else "not received"


def utf16_offset(text: str, index: int) -> int:
    """The UTF-16 offset of Python offset ``index`` in ``text``."""
    head = text[:index]
    return index if head.isascii() else len(head.encode("utf-16-le", "surrogatepass")) // 2


def _read_text(root: Path, path: Path) -> str | None:
    if not path.is_file() or not inside(root, path):
        return None
    try:
        return decode(path.read_bytes())[0]
    except OSError:
        return None


def bootstrap_files(workspace: Path) -> list[str]:
    """The bootstrap file names present in the workspace, in the agent's order."""
    names = []
    for name in BOOTSTRAP_ORDER:
        if name == "MEMORY.md":
            found = next((n for n in MEMORY_NAMES if (workspace / n).is_file() and exact_name(workspace, n)), None)
            if found:
                names.append(found)
        elif (workspace / name).is_file():
            names.append(name)
    return names


def daily_logs_at_start(workspace: Path, today: dt.date) -> list[str]:
    """Today's and yesterday's daily logs that exist (``YYYY-MM-DD.md`` and ``YYYY-MM-DD-<slug>.md``)."""
    folder = workspace / "memory"
    names = sorted(p.name for p in folder.iterdir() if p.suffix == ".md") if folder.is_dir() else []
    stems = [(today - dt.timedelta(days=1)).isoformat(), today.isoformat()]
    return [f"memory/{n}" for stem in stems for n in names if n == stem + ".md" or n.startswith(stem + "-")]


def inject_preview(
    workspace_path: Path | str,
    limits: Limits | None = None,
    session: str = "main",
    *,
    today: dt.date | None = None,
    include_daily: bool = True,
    release: str = "older",
    startup: StartupSettings | None = None,
    utc_today: dt.date | None = None,
) -> list[InjectedPart]:
    """The parts the agent receives, in order, each as injected.

    ``release``: "older" or ``injection.CURRENT_RELEASE`` (``OpenClawConfig.release``).
    ``include_daily``: a session's first run (with the session-start block), not a later turn."""
    if release != "older":
        return _current_preview(Path(workspace_path), limits or Limits(), session, today or dt.date.today(),
                                include_daily, startup, utc_today)
    if session not in SESSIONS:
        raise ValueError(f"session must be one of {', '.join(SESSIONS)}, not {session!r}")
    root = Path(workspace_path)
    limits = limits or Limits()
    parts: list[InjectedPart] = []
    running = 0

    def left_out(reason: str, limit: int = 0, over_total: bool = False) -> None:
        parts.append(InjectedPart(name, name, "bootstrap", raw, 0, False, "", None, limit,
                                  "total" if over_total else "file", over_total, False, reason, nlines))

    for name in bootstrap_files(root):
        text = _read_text(root, root / name)
        if text is None:
            continue
        remaining = limits.bootstrap_total_max_chars - running
        js = to_js(text)  # sizes in UTF-16 units, as JavaScript counts them
        raw = len(js.rstrip(JS_SPACE))
        nlines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        skip = ("sub-agent sessions get AGENTS.md only" if session == "subagent" and name != "AGENTS.md"
                else "cron runs get AGENTS.md, SOUL.md, IDENTITY.md and USER.md only"
                if session == "cron" and name not in CRON_FILES
                else "MEMORY.md is loaded only in the main, private session" if name in MEMORY_NAMES and session != "main"
                else "blank files are skipped" if not text.strip() else None)
        if skip:
            left_out(skip)
            continue
        limit, kind = own_limit(name, limits, "older"), ("user" if name == "USER.md" else "file")
        if remaining < limit:
            limit, kind = max(remaining, 0), "total"
        if remaining < MIN_FILE_BUDGET:
            left_out(f"left out: the bootstrap total of {limits.bootstrap_total_max_chars:,} is used up", limit, True)
            continue
        cut, marker_at, head, tail = _cut_js(js, name, limit)
        injected = clamp_to_budget(cut, remaining)
        copy = len(injected) - (1 if len(injected) < len(cut) and remaining > 3 else 0)  # the clamp's "…"
        kept = kept_spans(raw, len(cut), head, tail, copy)
        if marker_at is None and injected != cut:
            marker_at = len(injected) - 1  # no marker: the clamp's "…" is where it cuts
        elif marker_at is not None and marker_at > len(injected):
            marker_at = len(injected)
        running += len(injected)
        truncated = marker_at is not None
        if truncated and injected != cut:
            kind = "total"
        parts.append(InjectedPart(name, name, "bootstrap", raw, len(injected), truncated, _py(injected),
                                  None if marker_at is None else len(_py(injected[:marker_at])), limit, kind,
                                  truncated and kind == "total", True, load_reason(name, truncated, limit, kind), nlines,
                                  False, js_sha256(injected), kept))
    if include_daily and session not in ("subagent", "cron"):  # the prelude follows a /new or /reset only
        today = today or dt.date.today()
        for rel in daily_logs_at_start(root, today):
            text = _read_text(root, root / rel)
            if text is None:
                continue
            nlines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
            which = "today's" if rel[7:17] == today.isoformat() else "yesterday's"
            size = len(to_js(text))
            parts.append(InjectedPart(rel, rel, "daily", size, size, False, text, None, 0, "file",
                                      False, True, f"{which} log, loaded at session start", nlines))
    return parts


def bootstrap_sizes(workspace_path: Path | str, limits: Limits, release: str = CURRENT_RELEASE) -> list[InjectedPart]:
    """The bootstrap files as ``context`` counts them by ``release``'s rules in the main session, no daily
    logs (the check and the charts read this, so every view states the same sizes)."""
    return [p for p in inject_preview(workspace_path, limits, include_daily=False, release=release)
            if p.kind == "bootstrap"]


def _lines_of(path: Path) -> int:
    try:
        data = path.read_bytes()
    except OSError:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _current_preview(root: Path, limits: Limits, session: str, today: dt.date, session_start: bool,
                     startup: StartupSettings | None, utc_today: dt.date | None = None) -> list[InjectedPart]:
    """The current release (``injection``): sizes in UTF-16 units, its files, cut and session-start block."""
    parts: list[InjectedPart] = []
    for it in bootstrap(root, session, Settings(limits.bootstrap_max_chars, limits.bootstrap_total_max_chars)):
        if not it.present and not it.injected and it.name in ("USER.md", "MEMORY.md", "BOOTSTRAP.md"):
            if it.name == "MEMORY.md" and (root / "memory.md").is_file():
                parts.append(InjectedPart("memory.md", "memory.md", "retired", 0, 0, False, "", None, 0, "file",
                                          False, False, it.reason, _lines_of(root / "memory.md")))
            continue
        at = it.marker_at
        text = from_js(it.text)
        parts.append(InjectedPart(
            it.name, it.name, "bootstrap", it.raw_chars, it.chars, it.truncated or it.clamped, text,
            None if at is None else len(from_js(it.text[:at])), it.limit, "total" if it.clamped else it.limit_kind,
            it.clamped or (it.limit_kind == "total" and it.truncated) or (not it.injected and "total" in it.reason),
            it.injected, it.reason, _lines_of(Path(it.path)) if it.present else 1, not it.present, it.sha256, it.kept))
    for name in RETIRED_FILES:
        if (root / name).is_file():
            parts.append(InjectedPart(name, name, "retired", 0, 0, False, "", None, 0, "file", False, False,
                                      f"not injected by the current release ({CURRENT_RELEASE}); "
                                      + ("`openclaw doctor` folds TOOLS.md into AGENTS.md" if name == "TOOLS.md"
                                         else "`openclaw doctor` leaves it: HEARTBEAT.md is a no-op"),
                                      _lines_of(root / name)))
    if not session_start or session == "subagent":
        return parts
    if any(p.name == "BOOTSTRAP.md" and p.loaded for p in parts):
        return parts  # no session-start block while BOOTSTRAP.md is pending
    block = startup_block(root, today, startup, utc_today)
    for b in block.blocks:
        day = b.file[7:17]
        which = "today's" if day == today.isoformat() else \
            "yesterday's" if day == (today - dt.timedelta(days=1)).isoformat() else f"{day}'s"
        parts.append(InjectedPart(
            b.file, b.file, "daily", b.size_bytes, len(b.block), b.truncated, from_js(b.block), None, 0, "file", False,
            b.loaded, f"{which} log, {b.reason} (session start)" if b.loaded else b.reason,
            _lines_of(root / b.file), False, ""))
    return parts
