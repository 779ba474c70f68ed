"""Start-up and external writes at scale: rows before the full parse, filters before the index,
an agent's write re-reading only what changed (issue 12, the UI part)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.files.safe_write import atomic_write, locked
from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.format.entries import parse
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import RawText, fill_all, filter_rows, make_rows, parse_query
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.session import ProfileData, Session
from openclaw_tui.ui.session.profiles import preview_rows
from tests.ui_support import SIZE, TODAY, widget_text, write_profile

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from openclaw_tui.core.format.entries import MemoryFile
    from openclaw_tui.ui.rows import EntryRow
    from openclaw_tui.ui.widgets.entry_table import EntryTable

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import write_profile as generate_profile  # noqa: E402

from tests.support import until


def full_rows(prof: Path) -> list[tuple[str, str, str, int]]:
    """(id, status, importance, line) of every row, from a plain non-progressive load."""
    rows = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(rows)
    return [(r.id, r.status, r.importance, r.line) for r in rows]


def shown(rows: list) -> list[tuple[str, str, str, int]]:  # type: ignore[type-arg]
    return [(r.fill().id, r.status, r.importance, r.line) for r in rows]


def entry(n: int, importance: str = "medium", body: str | None = None) -> str:
    return (f"---\nid: mem-{n:04d}\ntimestamp: 2026-11-0{1 + n % 9}T10:00:00+08:00\nimportance: {importance}\n"
            f"status: active\ntags: [live]\n---\n{body or f'Fact number {n}.'}\n\n")


# --- the core pieces, exact against a full parse -------------------------------------------


def test_preview_rows_are_the_first_rows_of_the_whole_parse(tmp_path: Path) -> None:
    fence_open = "---\nid: f-1\n---\nA code block that closes far away:\n```\n" + "".join(
        f"---\nid: hidden-{i}\n---\n" for i in range(3))
    text = "# preamble\n\n" + "".join(entry(n) for n in range(1, 40)) + fence_open + "x\n" * 50 + "```\n" + \
        "".join(entry(n) for n in range(40, 60))
    path = tmp_path / "memories.md"
    path.write_text(text, encoding="utf-8")
    doc = MemoryDoc.load(path)
    whole = [(r.id, r.line, r.entry.raw) for r in make_rows(doc.mf, "memories.md")]
    for chars in (10, 300, 2000, len(text) // 2, len(text) - 30, len(text), 10 * len(text)):
        got = [(r.id, r.line, r.entry.raw) for r in preview_rows(doc, "memories.md", chars)]
        assert got == whole[: len(got)], chars
        assert all(r.filled for r in preview_rows(doc, "memories.md", chars))
    # the part that ends inside the fence stops before the block holding its opener
    inside = text.index("hidden-1")
    got = preview_rows(doc, "memories.md", inside)
    assert [r.id for r in got] == [f"mem-{n:04d}" for n in range(1, 40)]
    assert len(preview_rows(doc, "memories.md", 10 * len(text))) == len(whole)


def test_reread_keeps_the_rows_of_unchanged_blocks_and_equals_a_full_parse(tmp_path: Path) -> None:
    base = "".join(entry(n) for n in range(1, 30))
    prof = write_profile(tmp_path, "p", base)
    mem = prof / "memories.md"
    data = ProfileData(load_profile(prof))
    fill_all(data.files["memories.md"])
    data.indexed = True
    edits: list[Callable[[str], str]] = [  # one change at a time, each on the version before
        lambda t: t.replace("id: mem-0007\ntimestamp: 2026-11-08T10:00:00+08:00\nimportance: medium",
                            "id: mem-0007\ntimestamp: 2026-11-08T10:00:00+08:00\nimportance: high"),
        lambda t: t + entry(99, "low"),  # appended
        lambda t: entry(0) + t,  # prepended: every line moves
        lambda t: t.replace("Fact number 12.", "Fact number 12 again."),
        lambda t: t.replace("Fact number 15.", "Fact number 15.\n```\nan unclosed fence hides what follows"),
        lambda t: "",
    ]
    versions = []
    for edit in edits:
        versions.append(edit(versions[-1] if versions else base))
    for text in versions:
        with locked(mem):
            atomic_write(mem, text.encode())
        before = {id(r): r for r in data.files["memories.md"]}
        new = Session.read_again(data.profile, data)
        new.adopt_rows()
        rows = new.files.get("memories.md", [])
        assert shown(rows) == full_rows(prof)  # the same as reading everything again
        assert [r.entry.raw for r in rows] == [e.raw for e in parse(text).entries]
        assert [r.order for r in rows] == list(range(len(rows)))
        kept = [r for r in rows if id(r) in before]
        if text and "unclosed" not in text:
            assert len(kept) >= len(rows) - 2  # only the blocks around the change are new rows
        assert new.indexed == all(r.filled for r in rows)
        data = new


def test_raw_text_candidates_hold_every_match(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 3000)
    rows = make_rows(load_profile(prof).memories.mf, "memories.md")
    raw, fast = RawText(rows), RawText(rows, lower=False)
    every = list(rows)
    fill_all(every)
    for words in ("9", "299", "peanuts", "PEANUTS", "咖啡", "mem-0012", "tag01", "chat#1299 2025"):
        q = parse_query(words)
        want = filter_rows(every, q)
        for text in (raw, fast):
            cands = text.candidates(q)
            if cands is None:
                continue
            assert filter_rows(list(cands), q) == want, words
    assert fast.candidates(parse_query("peanuts")) is None  # letters with case need the lowered text
    assert raw.candidates(parse_query("act")) is None  # the default status holds it


# --- the app ---------------------------------------------------------------------------


@pytest.mark.slow
async def test_rows_show_before_the_full_parse_and_end_as_a_plain_load(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 40_000)
    expected = full_rows(prof)
    async with review(prof) as (app, pilot, m):
        table = m.table
        await until(lambda: bool(table.view) and table.view[0].id, "the first rows")
        assert not m.loaded and not table.complete  # the preview: the file is still being parsed
        first = shown(table.view)
        assert 0 < len(first) < len(expected)
        assert first == expected[: len(first)]
        assert "mem-000001" in widget_text(table)
        await pilot.press("j", "j")  # the cursor moves on the preview...
        await until(lambda: m.loaded and table.complete and m.session.current is not None and m.session.current.indexed, "the load")
        await pilot.pause()
        assert table.cursor == 2 and table.cursor_row is not None and table.cursor_row.id == "mem-000003"
        assert table.scroll_offset.y == 0  # ...and stays when the whole file arrives: no jump
        assert shown(table.view) == expected


@pytest.mark.slow
async def test_a_filter_typed_during_start_up_gives_the_right_rows(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 60_000)
    every = ProfileData(load_profile(prof)).files["memories.md"]
    fill_all(every)
    async with review(prof) as (app, pilot, m):
        table = m.table
        await until(lambda: bool(table.view), "the first rows")
        started_before_index = not table.indexed
        await pilot.press("slash", "5")
        for text in ("5", "59", "599", "5999", "59999"):
            if text != "5":
                await pilot.press(text[-1])
            want = [r.id for r in filter_rows(every, parse_query(text))]
            await until(lambda w=want: [r.id for r in table.view] == w or (  # type: ignore[misc]
                table.partial and [r.id for r in table.view] == w[: len(table.view)] and len(table.view) >= 3),
                f"the rows of {text!r}")
            assert [r.id for r in table.view] == want[: len(table.view)]  # never a row that does not match
        assert started_before_index  # typing began while the rows were being read
        await until(lambda: table.indexed and not table.partial, "the index")
        await pilot.pause()
        assert [r.id for r in table.view] == [r.id for r in filter_rows(every, parse_query("59999"))]


async def test_an_external_write_updates_just_that_row(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "p", "".join(entry(n) for n in range(1, 200)))
    mem = prof / "memories.md"
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = app.screen
        assert isinstance(m, MainScreen)
        await until(lambda: m.session.watcher is not None and m.session.watcher.running and m.session.all_checked()
                    and m.session.current is not None and m.session.current.refs is not None, "the start")
        await pilot.pause()
        m.table.select_row("mem-0005")
        before = list(m.table.view)
        data = m.session.current
        with locked(mem):
            text = mem.read_bytes()
            atomic_write(mem, text.replace(b"id: mem-0003\ntimestamp: 2026-11-04T10:00:00+08:00\nimportance: medium",
                                           b"id: mem-0003\ntimestamp: 2026-11-04T10:00:00+08:00\nimportance: high"))
        await until(lambda: m.session.current is not data, "the reload")
        await pilot.pause()
        after = m.table.view
        assert [r.id for r in after] == [r.id for r in before]
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a is not b]
        assert changed == [2]  # one new row; the 198 others are the same objects, still filled
        assert after[2].fill().importance == "high" and before[2].importance == "medium"
        assert all(r.entry.text_ref is after[0].entry.text_ref for r in after)  # re-pointed at the new text
        assert m.table.cursor_row is not None and m.table.cursor_row.id == "mem-0005"
        assert shown(after) == full_rows(prof)
        assert any("mem-0003" in line and "high" in line for line in widget_text(m.table).splitlines())
        await until(lambda: m.session.all_checked(), "the re-check")
        assert not m.session.current.findings_stale


@asynccontextmanager
async def review(prof: Path) -> AsyncIterator[tuple[OpenClawApp, Pilot[object], MainScreen]]:
    """The app on ``prof`` (no watcher) in a test terminal, and its review screen."""
    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        m = app.screen
        assert isinstance(m, MainScreen)
        yield app, pilot, m


@asynccontextmanager
async def table_alone(tmp_path: Path, n: int) -> AsyncIterator[tuple[EntryTable, MemoryFile, list[EntryRow]]]:
    """An ``EntryTable`` alone in an app (the test drives it), a generated profile's parse of ``n`` entries
    and its rows, all filled (what a filter must give, by ``filter_rows``)."""
    from textual.app import App, ComposeResult

    from openclaw_tui.ui.widgets.entry_table import EntryTable

    prof = generate_profile(tmp_path, n)
    mf = load_profile(prof).memories.mf  # type: ignore[union-attr]
    every = make_rows(mf, "memories.md")
    fill_all(every)

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield EntryTable(id="t")

    async with Host().run_test(size=SIZE) as pilot:
        yield pilot.app.query_one(EntryTable), mf, every


async def test_the_table_filters_rows_not_yet_filled_in_steps_that_only_grow(tmp_path: Path) -> None:
    async with table_alone(tmp_path, 20_000) as (table, mf, every):
        for words in ("peanuts", "19", "咖啡", "tag00"):
            rows = make_rows(mf, "memories.md")  # nothing filled: the index has not run
            table.load(rows, indexed=False)
            want = [r.id for r in filter_rows(every, parse_query(words))]
            table.apply_query(parse_query(words))
            sizes = [len(table.view)]
            assert [r.id for r in table.view] == want[: len(table.view)]
            await until(lambda: not table.partial, f"the rest of {words!r}", step=0.001)
            sizes.append(len(table.view))
            assert [r.id for r in table.view] == want, words
            assert sizes == sorted(sizes)
            if words in ("19", "咖啡"):  # no letter case: found in the text as read, only candidates filled
                assert sum(r.filled for r in rows) < len(rows) // 2
            table.apply_query(parse_query(""))
