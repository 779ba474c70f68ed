"""What many tests share: waiting for a condition (``until``) and an app on a folder (``app_for``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from openclaw_tui.app import OpenClawApp

from .ui_support import TODAY


async def until(cond: Callable[[], object], what: str = "the condition", *, pilot: Pilot[Any] | None = None,
                timeout: float = 120.0, step: float = 0.02) -> None:
    """Wait until ``cond()`` is true, letting the app run (``pilot.pause`` when given, else the event loop);
    fail naming ``what`` when it never is (the timeout only stops a hang: no test's verdict depends on it)."""
    try:
        async with asyncio.timeout(timeout):
            while not cond():
                if pilot is not None:
                    await pilot.pause(step)
                else:
                    await asyncio.sleep(step)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def app_for(path: Path) -> OpenClawApp:
    """The app on ``path`` with the samples' date as today."""
    return OpenClawApp(path, today=TODAY)
