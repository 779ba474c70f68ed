"""Memory text is shown literally: never markup, never live escapes, never clickable actions."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual.geometry import Region
from textual.widget import Widget

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.safe_text import SafeMarkdown, clean, clean_line
from tests.ui_support import SIZE, TODAY, settle, widget_text, write_profile

EVIL_BODY = (
    "Click [@click=app.quit]x[/] now and [bold red]LOUD[/] text.\n"
    "Escape \x1b[31mred\x1b[0m and \x9b31m and bell\x07, bidi \u202eevil\u202c.\n"
    "A [link](https://example.com/steal) and <https://example.com/auto>.\n"
)
MEMORIES = (
    "---\nid: mem-0001\nstatus: active\nimportance: high\ntags: ['[@click=app.quit]tag[/]', '[b]x[/b]']\n---\n"
    + EVIL_BODY
    + "\n---\nid: mem-0002\nstatus: active\n---\n[@click=app.quit]first line is markup[/]\n"
)


def _segments(widget: Widget):
    for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)):
        yield from strip


def _no_actions(widget: Widget) -> None:
    for seg in _segments(widget):
        style = seg.style
        if style is None:
            continue
        assert not style.link, f"a link in {widget}: {seg.text!r}"
        assert "@click" not in style.meta, f"an action in {widget}: {seg.text!r}"


@pytest.mark.slow  # clicks every cell of the lines with markup
async def test_markup_in_memory_text_is_shown_literally_and_clicks_do_nothing(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "evil", MEMORIES,
                         {"state.yaml": "focus: '[@click=app.quit]mem-0001[/]'\n",
                          "contexts/[bold]x[/bold].md": "See [@click=app.quit]mem-0002[/].\n"})
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert m.table.cursor_row.id == "mem-0001"
        body = m.detail.query_one("#detail-body")
        text = widget_text(body)
        assert "[@click=app.quit]x[/]" in text
        assert "[bold red]LOUD[/]" in text
        assert "\x1b" not in text and "␛[31mred" in text
        assert "\\x9b31m" in text and "␇" in text and "<U+202E>" in text
        assert "https://example.com/steal" in text  # a link is shown as its text, not followed
        for w in (body, m.detail.query_one("#detail-title"), m.detail.query_one("#detail-meta"), m.table):
            _no_actions(w)
        table_text = widget_text(m.table)
        assert "[@click=app.quit]first line is markup[/]" in table_text
        assert "[@click=app.quit]tag[/]" in widget_text(m.detail.query_one("#detail-meta"))
        # click everywhere on the body, the meta and the table: nothing quits
        for widget in (body, m.detail.query_one("#detail-meta"), m.table):
            region = widget.region
            lines = widget_text(widget).split("\n")
            hot = [y for y, line in enumerate(lines) if "@click" in line and y < region.height]
            assert hot, f"no markup text visible in {widget}"
            for y in hot:
                for x in range(region.width):
                    await pilot.click(offset=(region.x + x, region.y + y))
            await pilot.pause()
            assert app.is_running
        # file names and file text with markup are literal too
        def labels_of(node):
            for child in node.children:
                yield str(child.label)
                yield from labels_of(child)

        labels = list(labels_of(m.files_tree.root))
        assert any("[bold]x[/bold].md" in label for label in labels)
        assert m.open_file("contexts/[bold]x[/bold].md")
        await settle(pilot)
        src = m.file_view.source
        assert "[@click=app.quit]mem-0002[/]" in widget_text(src)
        _no_actions(src)
        for x in range(0, src.region.width, 2):
            await pilot.click(offset=(src.region.x + x, src.region.y))
        await pilot.pause()
        assert app.is_running
        # the id inside the markup is still a followable reference (by our own handling)
        assert any(s.label == "mem-0002" for spans in src.refs.values() for s in spans)
        assert m.open_file("state.yaml")
        await settle(pilot)
        assert "[@click=app.quit]mem-0001[/]" in widget_text(m.file_view.source)
    assert app.return_value is None or app.return_value == 0


async def test_palette_shows_tags_with_markup_literally(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "evil", MEMORIES)
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        names = [name for name, _help, _cb in app.screen.palette_commands()]
        assert "Filter: tag [@click=app.quit]tag[/]" in names
        await pilot.press("ctrl+p")
        for ch in "click":
            await pilot.press(ch)
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert "tag:[@click=app.quit]tag[/]" in app.screen.filter_input.value


def test_clean_makes_controls_visible() -> None:
    assert clean("a\x1b[2Jb\tc\nd") == "a␛[2Jb\tc\nd"
    assert clean("x\r\ny\rz") == "x\ny␍z"
    assert clean("\x00\x7f\x85") == "␀␡\\x85"
    assert clean("\udcff") == "\\xff"  # a byte that was not UTF-8
    assert clean_line("a\tb\nc") == "a b␤c"


def test_safe_markdown_has_no_links_or_actions() -> None:
    console = Console(width=80, force_terminal=True, color_system="truecolor")
    md = SafeMarkdown("[go](https://x.test) [@click=app.quit]y[/] <https://auto.test>\n\n# T\x1b]8;;http://e\x1b\\")
    segments = list(console.render(md))
    text = "".join(s.text for s in segments)
    assert "[@click=app.quit]y[/]" in text and "https://x.test" in text
    assert "\x1b" not in text
    for s in segments:
        assert s.style is None or (not s.style.link and not s.style.meta)



async def test_notifications_never_read_memory_text_as_markup(tmp_path: Path) -> None:
    """Messages name ids, files and branches from the memory: any notify() keeps brackets literal."""
    from textual.widgets._toast import Toast

    prof = write_profile(tmp_path, "evil", MEMORIES)
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.screen.notify("[@click=app.quit]x[/] [bold red]LOUD[/]")  # a widget's notify asks for markup
        await settle(pilot)
        toasts = list(app.screen.query(Toast))
        assert toasts
        shown = " ".join(str(getattr(t.render(), "plain", t.render())) for t in toasts)
        assert "[@click=app.quit]x[/] [bold red]LOUD[/]" in shown
