"""Findings of the consistency check, one record each, and the repair suggestions they carry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .codes import CODES


@dataclass(frozen=True)
class Suggestion:
    """One way to repair a finding: ``action`` (rewrite, restore, reactivate, remove) to ``target``, and why."""

    action: str
    target: str
    why: str
    # where a rewrite goes: (line, first column, column past the end, new text); columns 1-based, in characters
    edit: tuple[int, int, int, str] | None = field(default=None, compare=False)
    kind: str = field(default="", compare=False)  # as repair.Candidate.kind: superseded, typo, file, remove…

    def to_json(self) -> dict[str, str]:
        return {"action": self.action, "target": self.target, "why": self.why}

    def hint(self) -> str:
        """The short phrase the text report adds to the finding's message."""
        if self.action == "rewrite" and (" was superseded by " in self.why or " was compacted into " in self.why):
            return f"{self.why}: use {self.target}"
        if self.action == "rewrite":
            return f"did you mean {self.target}? ({self.why})"
        if self.action == "restore":
            return f"restore {self.target} ({self.why})"
        if self.action == "reactivate":
            return f"make {self.target} active again ({self.why})"
        return f"remove the reference ({self.why})"


@dataclass(frozen=True)
class Finding:
    code: str
    profile: str  # the profile's name
    file: str  # relative to the profile folder, never empty
    line: int | None
    id: str | None
    message: str
    profile_path: str = "."  # the profile's path relative to the checked PATH
    suggestions: tuple[Suggestion, ...] = ()  # ways to repair it, best first (reference findings)
    level: str = ""  # a severity other than the code's own (sensitive-data: "error" for a credential)

    @property
    def severity(self) -> str:
        return self.level or CODES[self.code].severity

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "profile": self.profile,
            "file": self.file,
            "line": self.line,
            "id": self.id,
            "message": self.message,
        }
        if self.suggestions:  # an addition to the spec's shape, only where there is one
            d["suggestions"] = [s.to_json() for s in self.suggestions]
        return d

    @property
    def hint(self) -> str:
        """The best suggestion as a short phrase ("did you mean mem-0089? ..."), or ""."""
        return self.suggestions[0].hint() if self.suggestions else ""
