"""Layout B of ``context``: what OpenClaw injects from a workspace, by the rules of the release its
configuration selects (``injection.CURRENT_RELEASE`` unless an older one is); sizes in UTF-16 code units.
``--json`` adds ``rules`` (the release, the limits' source), ``injected`` (each bootstrap file's UTF-16 size
and the sha256 of its UTF-8) and ``session_start`` (the daily logs' block: size, sha256, files, settings).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..workspace.injection import CURRENT_RELEASE, js_sha256, now_dates, startup_block, to_js
from .context_model import AgentContext, LeftOut, Part, estimate_tokens

if TYPE_CHECKING:
    from ..files.profile import Profile
    from .reader import Root


def workspace_parts(profile: Profile | Root, query: str, session: str, *, config: Config, today: dt.date | None,
                    openclaw_config: Path | None, session_start: bool) -> AgentContext:
    """The bootstrap files and the session-start block as parts of an ``AgentContext`` (no search).

    ``today`` None: now, as OpenClaw dates it (the user's time zone, ``agents.defaults.userTimezone``,
    and UTC's date too when it differs); a given date is the user's today."""
    from ..workspace.bootstrap import inject_preview, own_limit
    from ..workspace.openclaw_config import load_openclaw_config

    oc = load_openclaw_config(profile.path, openclaw_config, base=config.limits)
    lim = oc.limits
    source = oc.source if oc.found else (str(config.path) if config.found else "defaults")
    release = oc.release
    limits = {"bootstrap_max_chars": lim.bootstrap_max_chars,
              "bootstrap_total_max_chars": lim.bootstrap_total_max_chars,
              "user_max_chars": own_limit("USER.md", lim, release),  # the cap the release applies
              "source": source}
    ctx = AgentContext("B", session, profile.name, profile.path, query, [], limits)
    startup = oc.startup_settings()
    utc_today = None
    if today is None:
        today, utc_today = now_dates(oc.user_timezone)
    ctx.extra["rules"] = {
        "release": release,
        "label": (f"OpenClaw {CURRENT_RELEASE} (current release)" if release == CURRENT_RELEASE
                  else "an older OpenClaw release (TOOLS.md and HEARTBEAT.md injected, 70/20 cut), "
                       "as the workspace's openclaw.json selects"),
        "agent": oc.agent_id or "main",
        "limits_from": source,
        "moment": "session start" if session_start else "a later turn",
        "today": today.isoformat(),
    }
    if release == "older" and session == "cron":
        raise ValueError("--session cron: older releases had no cron session kind")
    parts = inject_preview(profile.path, lim, session, today=today, include_daily=session_start,
                           release=release, startup=startup, utc_today=utc_today)
    injected: list[dict[str, Any]] = []
    for ip in parts:
        if not ip.loaded:
            ctx.left_out.append(LeftOut(None, ip.reason, ip.file, 1))
            continue
        layer = "bootstrap" if ip.kind == "bootstrap" else "daily"
        reason = ip.reason if not ip.truncated or ip.kind != "bootstrap" else f"{ip.reason}; {ip.chars_raw:,} on disk"
        ctx.parts.append(Part(layer, ip.file, 1, max(1, ip.lines_raw), None, ip.chars_injected,
                              estimate_tokens(ip.text), ip.truncated, reason, ip.text, profile.path / ip.file))
        if ip.kind == "bootstrap":
            injected.append({"file": ip.file, "chars": ip.chars_injected, "raw_chars": ip.chars_raw,
                             "sha256": ip.sha256 or js_sha256(to_js(ip.text)), "truncated": ip.truncated,
                             "missing": ip.missing})
    ctx.extra["injected"] = injected
    if release != CURRENT_RELEASE:
        return ctx
    ctx.extra["session_start"] = None
    if not session_start:
        ctx.notes.append("a later turn: the daily logs are given only at a session's first run (--session-start)")
    elif session == "subagent":
        ctx.notes.append("sub-agents get no session-start block of daily logs")
    elif any(p.file == "BOOTSTRAP.md" for p in ctx.parts):
        ctx.notes.append("no session-start block while BOOTSTRAP.md is pending")
    else:
        block = startup_block(profile.path, today, startup, utc_today)
        if not block.text:
            ctx.notes.append(f"no session-start block: {block.reason}")
        else:
            ctx.extra["session_start"] = {"chars": block.chars, "sha256": js_sha256(block.text),
                                          "files": [b.file for b in block.blocks if b.loaded],
                                          "settings": startup.as_dict()}
            header = block.chars - sum(len(b.block) for b in block.blocks if b.loaded)
            ctx.notes.append(f"session-start block: {block.chars:,} chars in all ({header:,} of them the "
                             f"runtime's header and separators), within maxTotalChars {startup.max_total_chars:,}")
    return ctx
