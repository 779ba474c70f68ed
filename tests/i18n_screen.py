"""Prints the demo's screen as plain text, in a language and a size, after pressing some keys:
``python -m tests.i18n_screen zh_CN 80 24 [KEY...]``.  A process of its own: the screens take their key labels from the language when they are
imported, so a language is chosen before any of them is (tests/test_i18n_ui.py runs it)."""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
import tempfile
from pathlib import Path


async def main_screen_text(lang: str, width: int, height: int, keys: tuple[str, ...] = ()) -> str:
    from openclaw_tui.core import i18n

    i18n.set_language(lang)
    from openclaw_tui.core.git.demo import build_demo
    from openclaw_tui.ui.app import OpenClawApp

    with tempfile.TemporaryDirectory() as tmp:
        root = build_demo(Path(tmp) / "demo")
        app = OpenClawApp(root, today=dt.date(2026, 6, 1), watch=False)
        async with app.run_test(size=(width, height)) as pilot:
            for key in ("", *keys):
                if key:
                    await pilot.press(key)
                for _ in range(4):
                    await pilot.app.workers.wait_for_complete()
                    await pilot.pause()
            strips = app.screen._compositor.render_strips()  # noqa: SLF001 - what is painted
            return "\n".join("".join(seg.text for seg in s).rstrip() for s in strips)


if __name__ == "__main__":
    lang, width, height, keys = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), tuple(sys.argv[4:])
    sys.stdout.write(asyncio.run(main_screen_text(lang, width, height, keys)) + "\n")
