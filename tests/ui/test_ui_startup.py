"""The footer's keys at start-up: built once, not again while they stay the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.ui_support import copy_samples

# not needed to paint the first rows (each one is imported later, on first use or by the loader thread)
DEFERRED = (
    "openclaw_tui.ui.screens.review.entry_ops",  # entry actions: editing screens, lifecycle operations
    "openclaw_tui.ui.screens.edit.edit_screen",
    "openclaw_tui.ui.screens.review.git_panel",  # the git state, started once the rows are shown
    "openclaw_tui.core.git.entry_history",
    "openclaw_tui.core.merge.merge_session",
    "openclaw_tui.ui.screens.review.help_screen",
    "openclaw_tui.ui.palette",
    "openclaw_tui.ui.widgets.dialogs",
    "rich.markdown",  # the entry pane's Markdown, rendered after the rows
    "markdown_it",
    "pygments",  # the file view's highlighting (rich.syntax), when a file is first shown
    "openclaw_tui.core.check.redact",  # its error class, when a write is first made
)
# imported by the loader thread right after the first rows (so the UI thread never pays for them)
WARMED = ("openclaw_tui.ui.screens.review.entry_ops", "openclaw_tui.ui.screens.review.git_panel")

PROBE = r"""
import asyncio, json, sys
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review import main_loading
from openclaw_tui.ui.screens.review.main_screen import MainScreen

# the loader's wait for the first paint never runs out here, however loaded the machine: the order is tested
main_loading.PREVIEW_WAIT = 600.0
from openclaw_tui.ui.widgets.footer import KeysFooter

seen = {}
first_rows_shown = MainScreen._first_rows_shown

def probe(self):
    if "modules" not in seen:
        seen["modules"] = sorted(sys.modules)
        seen["rows"] = self.table.row_count
        seen["loaded"] = self.loaded
        seen["footer_keys"] = len(self.query_one(KeysFooter).children)
    first_rows_shown(self)

MainScreen._first_rows_shown = probe

async def main():
    app = OpenClawApp(sys.argv[1], watch=False)
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(400):
            await pilot.pause(0.05)
            screen = app.screen
            if "modules" in seen and all(m in sys.modules for m in sys.argv[2:]) and screen.loaded:
                break
        await pilot.pause(0.2)
        seen["footer_keys_after"] = len(screen.query_one(KeysFooter).children)
    seen["after"] = sorted(sys.modules)

asyncio.run(main())
print(json.dumps(seen))
"""


def test_first_rows_are_painted_before_what_they_do_not_need(tmp_path: Path) -> None:
    profile = copy_samples(tmp_path) / "xiaoyu"
    out = subprocess.run([sys.executable, "-c", PROBE, str(profile), *WARMED], capture_output=True, text=True,
                         timeout=120, check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    at_first_rows = set(seen["modules"])
    assert seen["rows"] > 0  # the probe ran when rows were on screen...
    assert not seen["loaded"]  # ... the preview's, before the whole file was parsed
    assert "openclaw_tui.ui.widgets.entry_table" in at_first_rows
    assert [m for m in DEFERRED if m in at_first_rows] == []
    assert seen["footer_keys"] == 0  # the footer's keys came after the rows...
    assert seen["footer_keys_after"] > 5  # ... and did come
    after = set(seen["after"])
    assert [m for m in WARMED if m not in after] == []


async def test_the_footer_is_not_rebuilt_when_its_keys_stay_the_same(tmp_path: Path) -> None:
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.widgets.footer import KeysFooter
    from tests.ui_support import settle

    app = OpenClawApp(copy_samples(tmp_path) / "xiaoyu", watch=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        keys = list(footer.children)
        assert len(keys) > 5
        for _ in range(3):  # Textual's footer rebuilds every key widget on each of these
            app.screen.refresh_bindings()
        await pilot.pause(0.2)
        assert list(footer.children) == keys and all(k.is_attached for k in keys)
        footer.held = True  # a footer still held rebuilds nothing ...
        app.screen.refresh_bindings()
        await pilot.pause(0.1)
        assert list(footer.children) == keys
        footer._built = None  # ... and once released, what it shows is rebuilt (once, whatever changed)
        footer.release()
        await pilot.pause(0.3)
        rebuilt = list(footer.children)
        assert len(rebuilt) == len(keys) and not any(k in keys for k in rebuilt)
