"""The footer's keys at start-up: built once, not again while they stay the same."""

from __future__ import annotations

from pathlib import Path

from tests.ui_support import copy_samples


async def test_the_footer_is_not_rebuilt_when_its_keys_stay_the_same(tmp_path: Path) -> None:
    from openclaw_tui.app import OpenClawApp
    from openclaw_tui.widgets.footer import KeysFooter
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
