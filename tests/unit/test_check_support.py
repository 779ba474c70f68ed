"""Builders shared by the check tests: small real profiles in tmp_path (no tests in here)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openclaw_tui.core.check.findings import Finding
from openclaw_tui.core.check.rules import check_discovery
from openclaw_tui.core.files.profile import discover

TODAY = dt.date(2026, 11, 30)


def entry(ident: str, body: str = "A fact.", *, raw_fields: str = "", **fields: str) -> str:
    """One entry; ``fields`` are written as ``key: value`` lines in order, ``raw_fields`` verbatim."""
    lines = ["---", f"id: {ident}"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    if raw_fields:
        lines.append(raw_fields.rstrip("\n"))
    lines += ["---", body, ""]
    return "\n".join(lines) + "\n"


def active(ident: str, body: str = "A fact.", **fields: str) -> str:
    base = {"timestamp": "2025-06-01T14:32:00+08:00", "source": "chat#1", "importance": "medium", "status": "active"}
    base.update(fields)
    return entry(ident, body, **base)


def make_profile(
    root: Path,
    *,
    name: str = "p",
    memories: str | bytes | None = "",
    archive: str | bytes | None = None,
    state: str | bytes | None = None,
    identity: str | bytes | None = None,
    contexts: dict[str, str | bytes] | None = None,
    skills: dict[str, str | bytes] | None = None,
    secrets_refs: str | None = None,
) -> Path:
    prof = root / name
    prof.mkdir(parents=True, exist_ok=True)

    def put(rel: str, content: str | bytes) -> None:
        path = prof / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))

    if memories is not None:
        put("memories.md", memories)
    if archive is not None:
        put("contexts/archive/memories.md", archive)
    if state is not None:
        put("state.yaml", state)
    if identity is not None:
        put("identity.md", identity)
    for rel, content in (contexts or {}).items():
        put(f"contexts/{rel}", content)
    for rel, content in (skills or {}).items():
        put(f"skills/{rel}", content)
    if secrets_refs is not None:
        put("secrets_refs.yaml", secrets_refs)
    return prof


def check(path: Path, **kw: object) -> list[Finding]:
    kw.setdefault("today", TODAY)
    return check_discovery(discover(path), **kw)  # type: ignore[arg-type]


def of(findings: list[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


def where(findings: list[Finding], code: str) -> list[tuple[str, int | None, str | None]]:
    """(file, line, id) of each finding with ``code``."""
    return [(f.file, f.line, f.id) for f in of(findings, code)]


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line containing ``needle``."""
    count = 0
    for i, row in enumerate(text.split("\n"), start=1):
        if needle in row:
            count += 1
            if count == nth:
                return i
    raise AssertionError(f"{needle!r} not found")
