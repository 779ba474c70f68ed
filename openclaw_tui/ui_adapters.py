"""What the review UI needs from the core, behind one small seam (no Textual here).

The UI calls these functions rather than the core modules directly, so it keeps
working (with less information) when one of them is missing or fails:
the consistency check (``core.check``), the reference index (``core.refs``),
the audit-log writer (``core.report``) and the demo builder (``core.demo``).
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .core.fields import ID_RE, is_reference_field
from .core.findings import Finding
from .core.profile import Profile


class RefLike(Protocol):
    file: str
    line: int | None
    kind: str
    target_id: str | None
    target_file: str | None
    source_id: str | None


class RefIndexLike(Protocol):
    def outgoing(self, entry_id: str) -> list[Any]: ...
    def incoming(self, entry_id: str) -> list[Any]: ...


def run_check(profile: Profile, today: dt.date | None = None) -> tuple[list[Finding], str | None]:
    """Findings for one profile and, when the check could not run fully, why."""
    try:
        from .core.check import check_profile
    except ImportError:
        return _fallback_findings(profile), "the full consistency check is not available; showing basic findings"
    try:
        return list(check_profile(profile, today=today)), None
    except Exception as exc:  # noqa: BLE001 - the UI must keep going and say what happened
        return _fallback_findings(profile), f"the consistency check failed: {type(exc).__name__}: {exc}"


def build_refs(profile: Profile) -> RefIndexLike:
    try:
        from .core.refs import RefIndex
    except ImportError:
        return SimpleRefIndex(profile)
    try:
        return RefIndex(profile)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001
        return SimpleRefIndex(profile)


def write_audit_log(profile: Profile, findings: list[Finding]) -> Path:
    """Append the findings to the profile's audit.log (through the core's safe writer)."""
    from .core.report import append_audit_log

    append_audit_log(profile, findings)
    return profile.audit_log_path


def samples_dir() -> Path | None:
    import openclaw_tui

    here = Path(openclaw_tui.__file__).parent
    for cand in (here.parent / "sample_profiles", here / "_samples"):
        if cand.is_dir():
            return cand
    return None


def build_demo(dest: Path) -> Path:
    """A throwaway demo repository in ``dest``; returns the folder to open."""
    try:
        from .core.demo import build_demo as core_build_demo
    except ImportError:
        core_build_demo = None
    if core_build_demo is not None:
        result = core_build_demo(dest)
        return Path(result) if isinstance(result, (str, Path)) else dest
    src = samples_dir()
    if src is None:
        raise FileNotFoundError("the bundled sample profiles are missing")
    shutil.copytree(src, dest, dirs_exist_ok=True)
    return dest


# --- fallbacks ------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    file: str
    line: int | None
    kind: str
    target_id: str | None = None
    target_file: str | None = None
    source_id: str | None = None
    escapes: bool = False


_LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


class SimpleRefIndex:
    """Id references of a profile, found with the spec's whole-word rule (fallback)."""

    def __init__(self, profile: Profile) -> None:
        self._out: dict[str, list[Ref]] = defaultdict(list)
        self._in: dict[str, list[Ref]] = defaultdict(list)
        known: set[str] = set()
        for rel, doc in (("memories.md", profile.memories), ("contexts/archive/memories.md", profile.archive)):
            if doc is None:
                continue
            known.update(doc.mf.ids())
            for e in doc.mf.well_formed():
                for name, value in e.meta.items():
                    if not is_reference_field(name):
                        continue
                    values = value if isinstance(value, list) else [value]
                    for v in values:
                        if isinstance(v, str) and v.strip():
                            self._add(Ref(rel, e.key_lines.get(name), name, v.strip(), None, e.id))
                body = e.body
                if "mem-" in body:
                    for m in ID_RE.finditer(body):
                        line = e.body_line + body.count("\n", 0, m.start())
                        self._add(Ref(rel, line, "body", m.group(0), None, e.id))
        for f in profile.text_files():
            if f.rel == "secrets_refs.yaml" or f.error:
                continue
            for i, line in enumerate(f.text.split("\n"), 1):
                if f.rel == "state.yaml":
                    stripped = line.lstrip()
                    if stripped.startswith("#"):
                        continue
                    value = line.split(" #", 1)[0]
                    value = value.split(":", 1)[1] if ":" in value and not stripped.startswith("- ") else value
                    value = value.strip().lstrip("- ").strip().strip("'\"")
                    ids = set(ID_RE.findall(value))
                    if value in known:
                        ids.add(value)
                    for ident in sorted(ids):
                        self._add(Ref(f.rel, i, "state", ident))
                else:
                    for m in ID_RE.finditer(line):
                        self._add(Ref(f.rel, i, "text", m.group(0)))

    def _add(self, ref: Ref) -> None:
        if ref.source_id:
            self._out[ref.source_id].append(ref)
        if ref.target_id:
            self._in[ref.target_id].append(ref)

    def outgoing(self, entry_id: str) -> list[Ref]:
        return list(self._out.get(entry_id, ()))

    def incoming(self, entry_id: str) -> list[Ref]:
        return list(self._in.get(entry_id, ()))


def _fallback_findings(profile: Profile) -> list[Finding]:
    """A few findings the UI can compute itself when the check is missing."""
    from .core.fields import field_error

    out: list[Finding] = []
    name, pp = profile.name, profile.rel

    def add(code: str, file: str, line: int | None, ident: str | None, msg: str) -> None:
        out.append(Finding(code, name, file, line, ident, msg, pp))

    defined: dict[str, str] = {}
    for rel, doc in (("memories.md", profile.memories), ("contexts/archive/memories.md", profile.archive)):
        if doc is None:
            continue
        for e in doc.mf.entries:
            if e.error:
                add("malformed-entry", rel, e.line, e.id, f"malformed entry: {e.error}")
                continue
            assert e.id is not None
            defined.setdefault(e.id, e.status)
            for fname, value in e.meta.items():
                err = field_error(fname, value)
                if err:
                    add("invalid-field", rel, e.key_lines.get(fname), e.id, err)
    if profile.memories is not None:
        for e in profile.memories.mf.well_formed():
            if e.status != "active":
                continue
            value = e.meta.get("conflict")
            for other in value if isinstance(value, list) else [value]:
                if isinstance(other, str) and defined.get(other.strip()) == "active":
                    add("unresolved-conflict", "memories.md", e.key_lines.get("conflict"), e.id,
                        f"{e.id} conflicts with {other.strip()}, and both are active")
    refs = SimpleRefIndex(profile)
    for target, items in refs._in.items():  # noqa: SLF001 - same module
        if target not in defined:
            for r in items:
                add("dangling-ref", r.file, r.line, target, f"{r.file} references {target}, which no entry defines")
    return out


def iter_findings_sorted(findings: Iterable[Finding]) -> list[Finding]:
    from .core.findings import SEVERITY_RANK

    return sorted(findings, key=lambda f: (SEVERITY_RANK.get(f.severity, 9), f.file, f.line or 0, f.code))
