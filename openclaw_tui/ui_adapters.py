"""What the review UI needs from the core, behind one small seam (no Textual here).

The UI calls these functions rather than the core modules directly, so a
failure in one of them (a bug, an unreadable file) degrades the UI instead of
crashing it: the check reports why it could not run, the reference index is
simply absent.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Protocol

from .core.check.findings import Finding
from .core.config import Limits
from .core.format.profile import Profile


class RefIndexLike(Protocol):
    def outgoing(self, entry_id: str) -> list[Any]: ...
    def incoming(self, entry_id: str) -> list[Any]: ...


def run_check(
    profile: Profile, today: dt.date | None = None, limits: Limits | None = None
) -> tuple[list[Finding], str | None]:
    """Findings for one profile and, when the check could not run, why.

    ``limits`` default to the config file's, as for ``openclaw-tui check``.
    """
    from dataclasses import asdict

    from .core.check.check import check_profile
    from .core.config import load_config

    try:
        if limits is None:
            limits = load_config().limits
        return list(check_profile(profile, today=today, **asdict(limits))), None
    except Exception as exc:  # noqa: BLE001 - the UI must keep going and say what happened
        return [], f"the consistency check failed: {type(exc).__name__}: {exc}"


class NoRefs:
    """Stands in when the reference index cannot be built: no references either way."""

    def outgoing(self, entry_id: str) -> list[Any]:
        return []

    def incoming(self, entry_id: str) -> list[Any]:
        return []


def build_refs(profile: Profile) -> RefIndexLike:
    """The profile's reference index (empty when it cannot be built)."""
    from .core.check.refs import RefIndex

    try:
        return RefIndex(profile)
    except Exception:  # noqa: BLE001 - the detail pane then lists no references
        return NoRefs()


def write_audit_log(profile: Profile, findings: list[Finding]) -> Path:
    """Append the findings to the profile's audit.log (the core writes it safely)."""
    from .core.check.report import append_audit_log

    append_audit_log(profile, findings)
    return profile.audit_log_path


def build_demo(dest: Path) -> Path:
    """A throwaway demo repository in ``dest``; returns the folder to open."""
    from .core.git.demo import build_demo as core_build_demo

    return Path(core_build_demo(dest))
