"""The agent view on a profile that loads many parts: each layer shows a page and a "more" row, the headings count
everything, the topic given at opening is computed once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App
from textual.widgets import OptionList, Static

from openclaw_tui.ui.screens.workspace import agent_screen
from openclaw_tui.ui.screens.workspace.agent_screen import PAGE, AgentScreen
from tests.search_corpus import entry, write
from tests.support import until
from tests.ui.test_ui_search_agent import DAY
from tests.ui_support import SIZE

HIGH = 2 * PAGE + 30


def big_profile(root: Path) -> Path:
    """``HIGH`` high entries (all loaded), one tagged low entry, and ``PAGE + 5`` cold ones with the topic's tag."""
    text = "".join(entry(f"mem-{i:04d}", f"fact {i}", importance="high") for i in range(HIGH))
    text += entry("mem-5000", "the 咖啡 low one", importance="low", tags="[咖啡]")
    text += "".join(entry(f"mem-{6000 + i}", f"old {i}", status="cold", tags="[咖啡]") for i in range(PAGE + 5))
    return write(root / "p" / "memories.md", text).parent


class Host(App[None]):
    def __init__(self, screen: AgentScreen) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def _ids(screen: AgentScreen) -> list[str]:
    options = screen.query_one("#agent-parts", OptionList)
    return [o.id for o in options.options if o.id is not None]


async def test_a_layer_shows_a_page_then_more_on_enter(tmp_path: Path) -> None:
    prof = big_profile(tmp_path)
    screen = AgentScreen(prof, query="咖啡", today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.computed >= 1, pilot=pilot)
        assert screen.context is not None and len(screen.context.parts) == HIGH + 1
        listing = "\n".join(str(o.prompt) for o in screen.query_one("#agent-parts", OptionList).options)
        assert f"2 · memories  ({HIGH + 1:,}, " in listing and f"left out ({PAGE + 5:,})" in listing
        assert f"… {HIGH + 1 - PAGE:,} more parts in this layer" in listing and "… 5 more left out" in listing
        ids = _ids(screen)
        assert ids.count("more:memories") == 1 and ids.count("more:left out") == 1
        assert len(screen.rows) == PAGE + PAGE  # a page of parts, a page left out (the fixed layer: none here)
        # enter on the "more" row shows the next page there, the highlight on the first of them
        options = screen.query_one("#agent-parts", OptionList)
        options.focus()
        options.highlighted = next(k for k, o in enumerate(options.options) if o.id == "more:memories")
        await pilot.press("enter")
        await until(lambda: len(screen.rows) == 3 * PAGE, pilot=pilot)
        row = screen._row(options.options[options.highlighted or 0])
        assert getattr(row, "id", None) == f"mem-{PAGE:04d}"
        await until(lambda: f"mem-{PAGE:04d}" in str(screen.query_one("#agent-detail", Static).render()), pilot=pilot)
        options.highlighted = next(k for k, o in enumerate(options.options) if o.id == "more:memories")
        await pilot.press("enter")
        await until(lambda: "more:memories" not in _ids(screen), pilot=pilot)
        assert [getattr(r, "id", None) for r in screen.rows[: HIGH + 1]] == \
            [f"mem-{i:04d}" for i in range(HIGH)] + ["mem-5000"]
        assert screen.app.screen is screen  # "more" never dismissed the view


async def test_the_opening_topic_is_computed_once(tmp_path: Path) -> None:
    """The input's first value (set at mount) must not start a second computation of the same topic
    (at 100k entries that doubled the wait and showed the list twice)."""
    screen = AgentScreen(big_profile(tmp_path), query="咖啡", today=DAY)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await until(lambda: screen.computed >= 1, pilot=pilot)
        await asyncio.sleep(agent_screen.DEBOUNCE * 3)
        await pilot.pause()
        assert screen.computed == 1
