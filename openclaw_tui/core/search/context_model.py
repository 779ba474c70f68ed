"""The answer of ``context``: the parts the agent loads, what it leaves out, and their sizes (both layouts)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields
from itertools import groupby
from pathlib import Path
from typing import Any

from .text import CJK

_OTHER_NON_ASCII = f"[^\x00-\x7f{CJK}]"  # a character neither ASCII nor CJK (compiled by re when first used)


def estimate_tokens(text: str) -> int:
    """A rough token count (labelled as an estimate wherever shown): CJK 1 per character, else 1 per 4."""
    if text.isascii():
        cjk = 0
    else:
        cjk = len(text) - len(text.encode("ascii", "ignore")) - len(re.findall(_OTHER_NON_ASCII, text))
    return math.ceil(cjk + (len(text) - cjk) / 4)


@dataclass(slots=True)
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
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("text", "path")}


@dataclass(slots=True)
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
    extra: dict[str, Any] = field(default_factory=dict)  # layout B: the release's rules, injected bytes

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
        return [(layer, list(parts)) for layer, parts in groupby(self.parts, key=lambda p: p.layer)]

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
            **self.extra,
        }
