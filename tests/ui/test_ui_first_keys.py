"""The first keys of a filter typed while start-up work runs: the entry pane waits for them (issue 12)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support import until
from tests.ui.test_ui_progressive import generate_profile, review

PROBE = r"""
import sys
from pathlib import Path
from openclaw_tui.ui.screens.review.main_screen import MainScreen

screen = MainScreen(Path(sys.argv[1]))
before = "openclaw_tui.ui.screens.review.entry_ops" in sys.modules
assert screen.check_action("focus_filter", ()) is not False
after_slash = "openclaw_tui.ui.screens.review.entry_ops" in sys.modules
screen.check_action("ops", ("edit_entry",))  # an entry action: its piece answers (and is imported for it)
print(before, after_slash, "openclaw_tui.ui.screens.review.entry_ops" in sys.modules)
"""


def test_a_key_that_is_not_an_entry_action_does_not_import_the_entry_actions(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 20)
    out = subprocess.run([sys.executable, "-c", PROBE, str(prof)], capture_output=True, text=True, timeout=120,
                         check=True)
    assert out.stdout.split() == ["False", "False", "True"]


async def test_the_entry_pane_waits_while_keys_go_into_the_filter(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from openclaw_tui.ui.screens.review import main_screen

    # while the keys come the pause never ends (however slow the machine), then it is over at once
    monkeypatch.setattr(main_screen, "DETAIL_TYPING_PAUSE", 3600.0)
    prof = generate_profile(tmp_path, 300)
    async with review(prof) as (_app, pilot, m):
        # the check done first: its marks landing before '/' re-render the pane, as they should
        await until(lambda: m.loaded and m.table.indexed and m.session.current.findings is not None
                    and m.session.current.refs is not None, "the rows, the check and the references")
        await pilot.pause(0.5)
        shown: list[object] = []
        refresh = m._refresh_detail
        m._refresh_detail = lambda: (shown.append(m.table.cursor_row), refresh())[1]  # type: ignore[method-assign]
        await pilot.press("slash", "7")  # the cursor moves to the first row with a 7: the pane waits for the keys
        first = m.table.cursor_row
        assert first is not None and first is not m.table.source[0]
        for _ in range(10):  # keys that leave the cursor's row where it is (the filter focused: typing)
            await asyncio.sleep(0.1)
            assert shown == [], "the entry pane was rendered while the person was typing"
            m.session.user_typed()
        monkeypatch.setattr(main_screen, "DETAIL_TYPING_PAUSE", 0.0)  # the keys pause
        m._detail_after_typing()  # (the timer due in an hour, asked now)
        await until(lambda: bool(shown), "the entry pane once the keys pause", timeout=30)
        assert shown == [first]


async def test_a_check_or_references_arriving_while_keys_go_into_the_filter_do_not_render_the_entry_pane(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openclaw_tui.ui.screens.review import main_screen
    from openclaw_tui.ui.widgets.messages import Checked, RefsReady

    prof = generate_profile(tmp_path, 300)
    async with review(prof) as (_app, pilot, m):
        await until(lambda: m.loaded and m.table.indexed and m.session.current.findings is not None
                    and m.session.current.refs is not None, "the rows, the check and the references")
        await until(lambda: not m._detail_due, "the entry pane of the first row")
        await pilot.pause(0.5)
        monkeypatch.setattr(main_screen, "DETAIL_TYPING_PAUSE", 3600.0)  # from now on the keys never pause
        shown: list[object] = []
        refresh = m._refresh_detail
        m._refresh_detail = lambda: (shown.append(m.table.cursor_row), refresh())[1]  # type: ignore[method-assign]
        await pilot.press("slash")  # the filter has the focus: the person is about to type
        await until(lambda: m.filter_input.has_focus, "the filter's focus")
        m.post_message(Checked(m.session.current))  # the background check lands before the first key
        await pilot.pause(0.3)
        assert shown == [], "the entry pane was rendered while the filter had the focus"
        await pilot.press("7")
        m.post_message(Checked(m.session.current))  # ... and the check and references while the person types
        m.post_message(RefsReady(m.session.current))
        await pilot.pause(0.3)
        assert shown == [], "the entry pane was rendered while the person was typing"
        monkeypatch.setattr(main_screen, "DETAIL_TYPING_PAUSE", 0.0)
        m._detail_after_typing()
        await until(lambda: bool(shown), "the entry pane once the keys pause", timeout=30)


async def test_the_entry_pane_waits_for_the_loaders_imports_while_the_filter_is_focused_on_the_first_rows(
        tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 3_000)  # more than the preview reads: the loader goes on after it
    async with review(prof) as (_app, pilot, m):
        gate = threading.Event()  # the loader stops before its imports (a fast machine is through them at once)
        lower = m.session.lower
        m.session.lower = lambda raw: (gate.wait(60), lower(raw))[1]  # type: ignore[method-assign]
        shown: list[object] = []
        refresh = m._refresh_detail
        m._refresh_detail = lambda: (shown.append(m.table.cursor_row), refresh())[1]  # type: ignore[method-assign]
        await until(lambda: bool(m.table.view), "the first rows")
        await pilot.press("slash")
        await pilot.pause(0.8)  # well past the pause after a key: the '/' alone does not show the entry
        assert not m.loaded and shown == [], "the entry pane was rendered before the loader's imports"
        gate.set()
        await until(lambda: bool(shown), "the entry pane once the loader has imported what it renders with")
        assert shown[0] is m.table.source[0] or m.loaded


async def test_the_app_as_its_own_process_freezes_what_start_up_built_out_of_the_cycle_collector(
        tmp_path: Path) -> None:
    import gc

    from openclaw_tui.ui.app import OpenClawApp
    from tests.ui_support import SIZE, TODAY

    prof = generate_profile(tmp_path, 300)
    gc.collect()
    before = gc.get_freeze_count()
    try:
        for own in (False, True):
            app = OpenClawApp(prof, today=TODAY, watch=False)
            app.freeze_heap = own  # launch sets it; a test's app (many in one process) never freezes
            async with app.run_test(size=SIZE):
                m = app.screen
                await until(lambda m=m: m._preview_shown.is_set() or m.loaded, "the first rows")  # type: ignore[misc]
                assert (gc.get_freeze_count() > before) is own
    finally:
        gc.unfreeze()  # (this process runs other tests)


async def test_a_filter_typed_while_the_blocks_are_found_shows_the_rows_of_each_run_then_of_the_whole_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.core.format import spans
    from openclaw_tui.ui.rows import fill_all, filter_rows, parse_query
    from openclaw_tui.ui.session import ProfileData
    from tests.ui_support import widget_text

    monkeypatch.setattr(spans, "PART", 150_000)  # runs of ~800 blocks (the preview reads ~700)
    prof = generate_profile(tmp_path, 4_000)
    every = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(every)
    async with review(prof) as (_app, pilot, m):
        gate = threading.Event()  # the scan stops after its first run until the test has typed
        runs: list[int] = []
        found_part = m._found_part

        def part(raw: object) -> None:
            found_part(raw)  # type: ignore[arg-type]
            runs.append(len(raw.rows))  # type: ignore[attr-defined]
            gate.wait(60)

        m._found_part = part  # type: ignore[method-assign]
        table = m.table
        await until(lambda: bool(runs), "the first run of blocks")
        preview = len(table.source)
        assert preview < runs[0] < len(every)
        beyond = every[(preview + runs[0]) // 2]  # a row after the preview's, in the first run
        word = beyond.id.split("-")[-1]
        await pilot.press("slash", *word)
        want = [r.id for r in filter_rows(every, parse_query(word))]
        first = [i for i in want if int(i.split("-")[-1]) < runs[0]]
        await until(lambda: [r.id for r in table.view] == first, "the rows of the first run")
        await pilot.pause()
        assert beyond.id in widget_text(table)
        version = table._data_version  # the strips on screen are cached by their rows' id()
        gate.set()
        await until(lambda: [r.id for r in table.view] == want[: len(table.view)] and len(table.view) == len(want)
                    or m.loaded, "the whole file's rows")
        await pilot.pause()
        shown = widget_text(table)
        assert all(i in shown for i in want[:10])  # the lines on screen are those rows' (no strip of another)
        assert [r.id for r in table.view] == want
        # rows made anew by the longer run (or the parse): strips cached for the run's rows, which may be freed
        # and their ids taken by new rows, are never shown again (the screen showed other entries' lines)
        assert table._data_version > version
