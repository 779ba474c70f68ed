"""Issue 24 point 5: the command palette lists only the app's actions, matched on names and descriptions."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from tests.ui_support import TODAY, settle


async def _palette_prompts(pilot, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The palette's offers for ``query``, as shown (each offer's first line)."""
    app = pilot.app
    if not isinstance(app.screen, CommandPalette):
        await pilot.press("ctrl+p")
        await pilot.pause()
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    palette.query_one("#--input").value = query  # type: ignore[attr-defined]
    await pilot.pause(0.6)  # the palette searches after a short debounce of its own
    await settle(pilot)
    options = palette.query_one(CommandList)
    return [str(options.get_option_at_index(i).prompt).splitlines()[0] for i in range(options.option_count)]


async def test_the_palette_offers_no_system_commands_and_finds_by_description(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        shown = await _palette_prompts(pilot, "")
        assert shown, "the palette offers the actions"
        for system in ("Keys", "Screenshot", "Quit the application", "Maximize", "Minimize", "Theme"):
            assert not any(s.startswith(system) for s in shown), (system, shown)
        for query in ("screenshot", "keys", "quit the application as soon"):
            assert not any("Screenshot" in s or "as soon as possible" in s or s == "Keys"
                           for s in await _palette_prompts(pilot, query)), query
        merge = await _palette_prompts(pilot, "merge")
        assert any("Resolve conflicts" in s for s in merge), merge
