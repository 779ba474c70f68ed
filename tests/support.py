"""What many tests share: waiting for a condition (``until``) and an app on a folder (``app_for``)."""

from __future__ import annotations

import asyncio
import os
import select
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from openclaw_tui.ui.app import OpenClawApp
from tests.ui_support import TODAY


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


def pty_reader(fd: int, out: bytearray) -> Callable[[Callable[[], object], float], bool]:
    """``read_until(pred, seconds)``: read what a program writes to its pseudo-terminal into ``out``
    until ``pred()`` holds (True) or the time is up or the program closed it (``pred()`` then)."""
    def read_until(pred: Callable[[], object], seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if pred():
                return True
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out.extend(os.read(fd, 65536))
                except OSError:
                    break
        return bool(pred())
    return read_until
