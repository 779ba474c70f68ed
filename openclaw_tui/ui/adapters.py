"""What the review UI needs from the core, behind one seam (no Textual here): a failure in one of
these functions degrades the UI instead of crashing it (the check says why it could not run)."""

from __future__ import annotations

import contextlib
import datetime as dt
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..core.check.findings import Finding
from ..core.config import Limits
from ..core.files.profile import Profile

CHECK_NICE = 10  # the check's child process runs this much nicer than the UI


class RefIndexLike(Protocol):
    def outgoing(self, entry_id: str) -> list[Any]: ...
    def incoming(self, entry_id: str) -> list[Any]: ...


def run_check(
    profile: Profile, today: dt.date | None = None, limits: Limits | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[list[Finding], str | None]:
    """Findings for one profile and, when the check could not run, why.

    ``limits`` default to the config file's.  With ``cancelled`` (a worker's ``is_cancelled``) the check
    runs in a child process (the UI keeps the interpreter; quitting kills it), else here.
    """
    from dataclasses import asdict

    from ..core.config import ConfigError, load_config

    try:
        values = asdict(limits if limits is not None else load_config().limits)
    except ConfigError as exc:
        return [], f"the consistency check could not run: {exc}"
    if cancelled is not None:
        try:
            return _check_in_child(profile, today, values, cancelled)
        except OSError:
            pass  # no process could be started: check in this thread
    from ..core.check.rules import check_profile

    try:
        return list(check_profile(profile, today=today, **values)), None
    except Exception as exc:  # noqa: BLE001 - the UI must keep going and say what happened
        return [], f"the consistency check failed: {type(exc).__name__}: {exc}"


def _check_child(
    path: str, rel: str, layout: str, today: dt.date | None, limits: dict[str, Any], conn: Any
) -> None:
    """In the child process, at a lower priority: load the profile from disk, check it, send back
    (findings, note)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(CHECK_NICE)
    from ..core.check.rules import check_profile
    from ..core.files.profile import load_profile

    try:
        result: tuple[list[Finding], str | None] = (
            list(check_profile(load_profile(Path(path), rel, layout), today=today, **limits)), None,
        )
    except Exception as exc:  # noqa: BLE001 - reported in the audit pane
        result = ([], f"the consistency check failed: {type(exc).__name__}: {exc}")
    conn.send(result)
    conn.close()


def _context() -> Any:
    """Forkserver: the child is forked from a small clean server, not from this threaded UI."""
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["openclaw_tui.core.check.rules", "openclaw_tui.core.files.profile"])
        return ctx
    except ValueError:
        return multiprocessing.get_context("spawn")


@contextlib.contextmanager
def _real_stderr() -> Any:
    """multiprocessing hands its helpers ``sys.stderr.fileno()``; the UI has replaced stderr meanwhile."""
    import sys

    saved = sys.stderr
    try:
        fd = saved.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    if fd >= 0 or sys.__stderr__ is None:
        yield
        return
    sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


def _check_in_child(
    profile: Profile, today: dt.date | None, limits: dict[str, Any], cancelled: Callable[[], bool]
) -> tuple[list[Finding], str | None]:
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_check_child, args=(str(profile.path), profile.rel, profile.layout, today, limits, send), daemon=True,
        name="openclaw-tui-check",
    )
    with _real_stderr():
        proc.start()
    send.close()
    try:
        while True:
            if cancelled():
                return [], "the check was stopped"
            if receive.poll(0.05):
                try:
                    findings, note = receive.recv()
                except EOFError:
                    return [], "the consistency check stopped without a result"
                return findings, note
            if not proc.is_alive() and not receive.poll(0):
                return [], f"the consistency check stopped without a result (exit status {proc.exitcode})"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(1)
        with contextlib.suppress(OSError):
            receive.close()


class NoRefs:
    """Stands in when the reference index cannot be built: no references either way."""

    def outgoing(self, entry_id: str) -> list[Any]:
        return []

    def incoming(self, entry_id: str) -> list[Any]:
        return []


def build_refs(profile: Profile) -> RefIndexLike:
    """The profile's reference index (empty when it cannot be built)."""
    from ..core.check.refs import RefIndex

    try:
        return RefIndex(profile)
    except Exception:  # noqa: BLE001 - the detail pane then lists no references
        return NoRefs()


def build_demo(dest: Path) -> Path:
    """A throwaway demo repository in ``dest``; returns the folder to open."""
    from ..core.git.demo import build_demo as core_build_demo

    return Path(core_build_demo(dest))
