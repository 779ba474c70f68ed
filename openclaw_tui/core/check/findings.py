"""Findings of the consistency check: stable codes, severities, one record each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .suggest import Suggestion

SEVERITY: dict[str, str] = {
    "unreadable-file": "error",
    "malformed-entry": "error",
    "duplicate-id": "error",
    "dangling-ref": "error",
    "merge-conflict": "error",
    "path-escape": "error",
    "dangling-file": "warning",
    "inactive-ref": "warning",
    "unresolved-conflict": "warning",
    "invalid-field": "warning",
    "expired-ttl": "warning",
    "over-capacity": "warning",
    "sensitive-data": "warning",
    "secret-in-history": "warning",
    "suspicious-instruction": "warning",
    "oversized-bootstrap": "warning",
    "daily-log-rewritten": "warning",
    "compaction-candidate": "info",
    "stale-daily-log": "info",
}
# the reference findings ``repair`` can fix (``suggest`` attaches its suggestions to them)
REPAIRABLE = frozenset({"dangling-ref", "inactive-ref", "dangling-file"})
SEVERITY_ORDER = ("error", "warning", "info")
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITY_ORDER)}


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
        return self.level or SEVERITY[self.code]

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
