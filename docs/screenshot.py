"""Writes docs/screenshot.svg: the app on the demo repository, as ``openclaw-tui --demo`` opens it.

Run from the repository's root: ``python docs/screenshot.py`` (Textual's own SVG screenshot, 120x34).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import tempfile
from pathlib import Path

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp

OUT = Path(__file__).resolve().parent / "screenshot.svg"
TODAY = dt.date(2026, 11, 30)  # the samples' dates, so the marks shown do not depend on the day it runs


async def shoot(folder: Path) -> str:
    app = OpenClawApp(Path(build_demo(folder)), today=TODAY, watch=False)
    async with app.run_test(size=(120, 34)) as pilot:
        for _ in range(5):  # the loading and check workers, and what they post
            await app.workers.wait_for_complete()
            await pilot.pause()
        await pilot.press("ctrl+t", "home", "down", "down", "enter", "ctrl+e")  # atlas/memories.md: English text
        for _ in range(5):
            await app.workers.wait_for_complete()
            await pilot.pause()
        return app.export_screenshot(title="openclaw-tui --demo")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="openclaw-shot-") as tmp:
        OUT.write_text(asyncio.run(shoot(Path(tmp) / "demo")), encoding="utf-8")
    print(OUT)


if __name__ == "__main__":
    main()
