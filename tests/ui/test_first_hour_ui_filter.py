"""Issue 24 point 6: an unknown filter term says which terms exist; the placeholder's terms find something."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import parse_query, query_problems
from tests.ui_support import TODAY, settle, widget_text


def test_unknown_terms_name_the_ones_that_exist() -> None:
    assert query_problems("words tag:x status:active imp:high is:problem is:dup id:mem-0001 10:30 #x") == []
    [is_foo] = query_problems("is:foo")
    assert "is:foo" in is_foo and "problem" in is_foo and "conflict" in is_foo and "superseded" in is_foo
    [urgent] = query_problems("imp:urgent")
    assert "imp:urgent" in urgent and "high, medium, low" in urgent
    [term] = query_problems("colour:red")
    assert "colour:" in term and "status:" in term and "tag:" in term


async def test_the_status_line_says_it_and_the_placeholder_finds_entries(tmp_path: Path) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        main = app.main_screen
        box = main.query_one("#filter", Input)
        await pilot.press("slash", *"is:foo")
        await settle(pilot)
        status = widget_text(main.status)
        assert "is:foo matches nothing" in status and "is: takes problem" in status
        await pilot.press("ctrl+u", *"is:conflict")
        await settle(pilot)
        assert "matches nothing" not in widget_text(main.status)
        # every term the placeholder suggests finds at least one entry of the demo's first profile
        terms = [t.strip() for t in box.placeholder.removeprefix("Filter:").split("(")[0].split("·")]
        rows = main.table.rows if hasattr(main.table, "rows") else None
        assert rows is None or rows
        for term in terms:
            if ":" not in term:
                continue
            assert query_problems(term) == [], term
            await pilot.press("ctrl+u", *term)
            await settle(pilot)
            assert main.table.row_count > 0, (term, parse_query(term), main.session.current.path)
