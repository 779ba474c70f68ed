"""Findings of the consistency check: stable codes, severities, one record each."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

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
    "suspicious-instruction": "warning",
    "oversized-bootstrap": "warning",
    "daily-log-rewritten": "warning",
    "promotion-residue": "warning",
    "compaction-candidate": "info",
    "stale-daily-log": "info",
}
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

    @property
    def severity(self) -> str:
        return SEVERITY[self.code]

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("profile_path")
        return {
            "code": self.code,
            "severity": self.severity,
            "profile": d["profile"],
            "file": d["file"],
            "line": d["line"],
            "id": d["id"],
            "message": d["message"],
        }
