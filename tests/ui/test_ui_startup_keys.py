"""Keys typed while start-up work runs (issue 12): the filter typed on the first rows meets the full parse.

The answer is exactly ``filter_rows``' (a run of it while the view is partial), its rows are the full
parse's after the swap (never a preview row left on screen), and the work the swap brings is done off the
UI thread where it can be (the text positions the filter searches are made by the loader)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.ui.rows import RawText, fill_all, filter_rows, parse_query
from openclaw_tui.ui.session import ProfileData, Session
from tests.support import until
from tests.ui.test_ui_progressive import generate_profile, review, table_alone


def test_the_loader_makes_the_text_positions_a_filter_searches_before_the_index(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 3_000)
    data = Session.read([load_profile(prof)])[0]
    raw = data.raw["memories.md"]
    assert isinstance(raw, RawText) and raw.rows is data.files["memories.md"]
    assert raw.low is None and raw.text is not None  # not lowered: that is the index's (sliced) work
    rows = data.files["memories.md"]
    assert not any(r.filled for r in rows)
    q = parse_query("2999")
    cands = list(raw.candidates(q) or [])
    fill_all(cands)
    every = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(every)
    assert [r.id for r in filter_rows(cands, q)] == [r.id for r in filter_rows(every, q)]


@pytest.mark.slow
async def test_a_filter_typed_on_the_first_rows_meets_the_full_parse_with_exactly_its_rows(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 30_000)
    every = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(every)
    async with review(prof) as (app, pilot, m):
        table = m.table
        gate = threading.Event()  # the full parse waits until the keys are in (a fast machine parses 30k at once)
        read = m.session.read
        m.session.read = lambda profiles: (gate.wait(60), read(profiles))[1]  # type: ignore[method-assign]
        await until(lambda: bool(table.view), "the first rows")
        await pilot.press("slash", "1", "9")
        assert not m.loaded  # typed on the preview
        gate.set()
        preview = {id(r) for r in table.source}
        want = [r.id for r in filter_rows(every, parse_query("19"))]
        await until(lambda: m.loaded, "the full parse")
        assert not table.indexed  # the swap happened before the index: the view is the filter's partial answer
        assert [r.id for r in table.view] == want[: len(table.view)]
        source = {id(r) for r in table.source}
        assert all(id(r) in source and id(r) not in preview for r in table.view)  # no stale preview row
        assert table._raw is m.session.current.raw["memories.md"]  # type: ignore[union-attr]  # the loader's, reused
        await pilot.press("9")
        want = [r.id for r in filter_rows(every, parse_query("199"))]
        await until(lambda: not table.partial or len(table.view) >= 3, "the next key's rows")
        assert [r.id for r in table.view] == want[: len(table.view)]
        await until(lambda: table.indexed and not table.partial, "the index")
        await pilot.pause()
        assert [r.id for r in table.view] == want


def test_a_re_read_of_an_indexed_version_is_indexed_without_looking_at_every_row(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 2_000)
    session = Session(prof, watch=False)
    found = session.discover()
    session.adopt(found, session.read(found.profiles))
    path = session.order[0]
    mem = prof / "memories.md"
    text = mem.read_text(encoding="utf-8")
    mem.write_text(text.replace("importance: low", "importance: high", 1), encoding="utf-8")
    not_indexed = session.read_again(load_profile(prof), session.data[path])
    assert not not_indexed.indexed  # the previous version was not indexed: nor is this one
    assert session.index(session.data[path], lambda: False)
    mem.write_text(text, encoding="utf-8")
    again = session.read_again(load_profile(prof), session.data[path])
    assert again.indexed and all(r.filled for r in again.files["memories.md"])
    assert again.files["memories.md"][0] is session.data[path].files["memories.md"][0]  # rows were kept


async def test_a_key_fills_the_screen_first_and_the_rest_of_its_answer_follows_in_small_steps(tmp_path: Path) -> None:
    from openclaw_tui.ui.rows import make_rows

    async with table_alone(tmp_path, 20_000) as (table, mf, every):
        rows = make_rows(mf, "memories.md")
        table.load(rows, indexed=False)
        want = [r.id for r in filter_rows(every, parse_query("1"))]
        table.apply_query(parse_query("1"))  # nearly every row matches
        first = [r.id for r in table.view]
        assert 2 * table.size.height <= len(first) < len(want) // 4  # a screenful twice over, not the lot
        assert sum(r.filled for r in rows) < len(rows) // 4  # and only what that took was filled
        assert first == want[: len(first)]
        await until(lambda: not table.partial, "the rest of the answer", step=0.001)
        assert [r.id for r in table.view] == want


async def test_a_version_replaced_by_a_re_read_is_freed_without_waiting_for_a_full_collection(tmp_path: Path) -> None:
    import gc
    import weakref

    prof = generate_profile(tmp_path, 500)
    async with review(prof) as (app, pilot, m):
        await until(lambda: m.loaded and m.session.all_checked() and m.session.current is not None
                    and m.session.current.refs is not None, "the start")
        gc.collect()
        gc.disable()  # what is freed now is freed by its last reference going, not by the cycle collector
        try:
            old = weakref.ref(m.session.current)  # type: ignore[arg-type]
            m.reload_profile(m.session.current.path)  # type: ignore[union-attr]
            await until(lambda: m.session.current is not old(), "the re-read")
            await until(lambda: not any(w.is_running for w in app.workers) and m.session.all_checked()
                        and m.session.current is not None and m.session.current.refs is not None and not m.session.current.refs_stale,
                        "the background work of the new version")
            await pilot.pause()
            assert old() is None, [type(r).__name__ for r in gc.get_referrers(old())]
        finally:
            gc.enable()


@pytest.mark.slow
async def test_a_filter_typed_while_the_file_is_parsed_finds_its_rows_in_the_whole_file(tmp_path: Path) -> None:
    """Before the parse, the filter looks through every block of the file (not only the first rows shown):
    its answer is exactly ``filter_rows``' over the whole parse, rows past the first screenfuls included;
    after the parse the same answer is made of the parse's rows (none of the blocks read alone is left)."""
    prof = generate_profile(tmp_path, 30_000)
    every = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(every)
    async with review(prof) as (app, pilot, m):
        table = m.table
        gate = threading.Event()  # the full parse waits until the keys are answered
        read = m.session.read
        m.session.read = lambda profiles: (gate.wait(60), read(profiles))[1]  # type: ignore[method-assign]
        await until(lambda: m._blocks is not None and m._blocks.low is not None, "every block, lowered")
        first = len(table.source)
        await pilot.press("slash", *"29999")
        want = [r.id for r in filter_rows(every, parse_query("29999"))]
        assert want and every[first].order <= min(r.order for r in every if r.id in want)  # past the first rows
        await until(lambda: table._partial is None and len(table.view) == len(want), "the answer", step=0.001)
        assert not m.loaded and [r.id for r in table.view] == want
        await pilot.press("space", *"Peanuts")  # a word with case: the lowered text answers it
        want = [r.id for r in filter_rows(every, parse_query("29999 Peanuts"))]
        await until(lambda: table._partial is None, "the answer", step=0.001)
        assert not m.loaded and [r.id for r in table.view] == want
        await pilot.press(*["backspace"] * 9)  # "2999": rows all along the file, the first screenfuls first
        want = [r.id for r in filter_rows(every, parse_query("2999"))]
        await until(lambda: table._partial is None, "the whole answer", step=0.001)
        assert not m.loaded and [r.id for r in table.view] == want
        gate.set()
        await until(lambda: m.loaded, "the full parse")
        await until(lambda: table._partial is None, "the answer over the parse's rows", step=0.001)
        assert [r.id for r in table.view] == want
        source = {id(r) for r in table.source}
        assert all(id(r) in source for r in table.view)  # the parse's rows, no block read alone left on screen


async def test_a_filter_key_repaints_without_laying_the_screen_out_again(tmp_path: Path) -> None:
    """Textual's Input re-lays out the whole screen on every key (its scrollable width is a layout
    reactive): 10-50 ms a key at 160x50.  The filter line does not, and still scrolls to its cursor."""
    prof = generate_profile(tmp_path, 300)
    async with review(prof) as (app, pilot, m):
        await until(lambda: m.loaded and m.session.all_indexed() and m.session.all_checked()
                    and not any(w.is_running for w in app.workers), "the start-up work")
        await pilot.press("slash")
        await pilot.pause(0.3)  # (the status line and the audit list have settled)
        laid_out: list[object] = []  # the widgets each layout was asked for (the entry pane's own may come)
        real = m._refresh_layout

        def counted(size: object = None, scroll: bool = False) -> None:
            asked = m._layout_widgets
            laid_out.extend([*asked, *(w for ws in asked.values() for w in ws)] or [m])
            real(size, scroll)  # type: ignore[arg-type]

        m._refresh_layout = counted  # type: ignore[method-assign]
        await pilot.press(*"mem-0002")
        await pilot.pause()
        inp = m.filter_input
        every = ProfileData(load_profile(prof)).files["memories.md"]
        fill_all(every)
        assert inp.value == "mem-0002"
        assert [r.id for r in m.table.view] == [r.id for r in filter_rows(every, parse_query("mem-0002"))]
        assert m.filter_input not in laid_out and m not in laid_out  # the keys laid nothing out
        await pilot.press(*("x" * (inp.size.width + 20)))
        await pilot.pause()
        assert inp.scroll_offset.x > 0  # the long text scrolled: the cursor stays in view
        assert inp.region.x <= inp.cursor_screen_offset.x <= inp.region.right  # (as with Textual's Input)


async def test_the_key_bar_follows_the_focus_and_is_not_rebuilt_when_its_keys_did_not_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/`` announced the bindings two or three times for one change; each rebuilt the key bar (~50 ms)."""
    from textual.widgets._footer import FooterKey

    from openclaw_tui.ui.widgets import footer as footer_module
    from openclaw_tui.ui.widgets.footer import KeysFooter

    prof = generate_profile(tmp_path, 50)
    async with review(prof) as (app, pilot, m):
        await until(lambda: m.loaded, "the load")
        footer = m.query_one(KeysFooter)
        await until(lambda: bool(footer.query(FooterKey)), "the key bar's keys (built after the first rows)")
        await pilot.pause(0.2)
        on_table = [k.action for k in footer.query(FooterKey)]
        # while the keys come the typing never pauses (however slow the machine), then it is over at once
        monkeypatch.setattr(footer_module, "TYPING_WAIT", 3600.0)
        await pilot.press("slash", "1")
        await pilot.pause(0.1)
        # "/" then keys: the filter's keys wait until the typing pauses (the rebuild held the first key)
        assert [k.action for k in footer.query(FooterKey)] == on_table
        monkeypatch.setattr(footer_module, "TYPING_WAIT", 0.0)  # the keys pause
        footer.call_later(footer.recompose)  # (the rebuild due in an hour, asked now, on the footer's loop)
        await until(lambda: [k.action for k in footer.query(FooterKey)] != on_table, "the filter's keys",
                    pilot=pilot)
        on_filter = [k.action for k in footer.query(FooterKey)]
        assert on_filter and on_filter != on_table  # the filter's keys are shown
        shown = list(footer.query(FooterKey))
        m.refresh_bindings()  # the same keys announced again
        await pilot.pause(0.2)
        assert list(footer.query(FooterKey)) == shown  # the same widgets: not rebuilt
        m.table.focus()
        await pilot.pause(0.2)
        assert [k.action for k in footer.query(FooterKey)] == on_table  # rebuilt for the table's keys (no typing)
