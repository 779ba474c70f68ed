"""The demo in Chinese, screen by screen (Pilot): main, help, edit, merge, history, search, repair, inbox and
workspace at 80x24 and 160x48; it fails when an English word is on screen that is not memory text, a file
name, a key name, a finding code or the product name (tests/i18n_english.py says which)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

from openclaw_tui.core import i18n
from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.edit.repair_screen import RepairScreen
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.i18n_english import Memory, english
from tests.ui_support import TODAY, settle

SIZES = [(80, 24), (160, 48)]


@pytest.fixture
def chinese() -> Iterator[None]:
    i18n.set_language("zh_CN")
    try:
        yield
    finally:
        i18n.set_language("en")
        i18n.catalog()


def painted(app: OpenClawApp) -> str:
    """What the terminal shows: every line of the screen, the toasts and the footer included."""
    strips = app.screen._compositor.render_strips()  # noqa: SLF001 - what is painted
    return "\n".join("".join(seg.text for seg in s).rstrip() for s in strips)


async def walk(pilot, demo: Path) -> AsyncIterator[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(what, screen text) for each stop of the demo's stories."""
    app = pilot.app
    seen: set[int] = set()

    async def stop(what: str, *keys: str) -> tuple[str, str]:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settle(pilot)
        # the notices since the last stop too (a toast may have faded, or be covered by a dialog)
        new = [n for n in app.notices if id(n) not in seen]
        seen.update(id(n) for n in app.notices)
        return what, painted(app) + "".join(f"\n{n.title} {n.message}" for n in new)

    yield await stop("main")
    yield await stop("fix: the write's preview", "c")
    yield await stop("fix: written", "y")
    yield await stop("fix: undone", "u")
    yield await stop("audit", "a", "j", "j")
    yield await stop("help", "escape", "a", "question_mark")
    yield await stop("edit", "escape", "e")
    yield await stop("merge", "escape", "m")
    yield await stop("merge: leave?", "escape")
    yield await stop("history", "y", "H")
    yield await stop("search", "escape", "ctrl+k", *"咖啡")
    yield await stop("inbox", "escape", "I")
    await pilot.press("escape")
    profile = load_profile(demo / "profiles" / "xiaoyu", ".", "profile")
    finding = next(f for f in check_profile(profile, today=TODAY) if f.code == "inactive-ref")
    await app.push_screen(RepairScreen(profile, finding, session=app.session, today=TODAY, history=False))
    yield await stop("repair")
    await pilot.press("escape")
    await app.push_screen(WorkspaceScreen(demo / "workspace-zh", today=TODAY))
    for tab in "123456":
        yield await stop(f"workspace tab {tab}", tab)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_no_english_on_the_demo_screens(chinese: None, tmp_path: Path, width: int, height: int) -> None:
    demo = build_demo(tmp_path / "demo")
    memory = Memory(demo)
    app = OpenClawApp(demo, today=TODAY, watch=False)
    left: dict[str, list[str]] = {}
    async with app.run_test(size=(width, height)) as pilot:
        async for what, text in walk(pilot, demo):
            lines = text.splitlines()[:height]  # the painted screen (the notices since the last stop follow it)
            assert all(cell_len(line) <= width for line in lines), (what, [ln for ln in lines if cell_len(ln) > width])
            assert "\ufffd" not in text, what
            words = english(text, memory)
            if words:
                left[what] = words
                import os
                if os.environ.get("I18N_DUMP"):
                    with open(os.environ["I18N_DUMP"], "a") as f:
                        f.write(f"== {what} {words}\n" + "\n".join(ln for ln in text.splitlines() if any(w in ln for w in words)) + "\n")
    assert left == {}
