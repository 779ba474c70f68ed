"""The Inbox screen and the status bar's count under Pilot, at 80x24 and 160x48, on real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from openclaw_tui.core.files.safe_write import atomic_write
from openclaw_tui.core.inbox import actions
from openclaw_tui.core.inbox.inbox import load_inbox
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.inbox.inbox_screen import InboxScreen
from openclaw_tui.ui.widgets.status_bar import StatusBar
from tests.inbox_helpers import agent_commit, replace, repo_with
from tests.support import until
from tests.ui_support import TODAY, notices, settle

SIZES = [(80, 24), (160, 48)]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = repo_with(tmp_path, "workspace")
    actions.approve_all(ws)
    replace(ws / "MEMORY.md", "\n## ", "\n- the agent learned this\n\n## ")
    agent_commit(ws, "agent: learned")
    (ws / "TOOLS.md").write_bytes((ws / "TOOLS.md").read_bytes() + b"- jq\n")
    return ws


def status_text(app: OpenClawApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


async def open_inbox(pilot) -> InboxScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("ctrl+t")  # out of the filter box: keys are commands in the file tree
    await pilot.press("I")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, InboxScreen)
    return screen


def listed(screen: InboxScreen) -> list[str]:
    ol = screen.query_one("#inbox-list", OptionList)
    return [o.id for o in (ol.get_option_at_index(i) for i in range(ol.option_count)) if o.id]


@pytest.mark.parametrize("size", SIZES)
async def test_counts_agree_and_revert_one_then_undo(ws: Path, size: tuple[int, int]) -> None:
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        api_count = load_inbox(ws).count
        assert api_count == 2
        assert "2 changes since your review" in status_text(app)
        screen = await open_inbox(pilot)
        assert screen.count == 2 and len(listed(screen)) == 2
        head = screen.query_one("#inbox-head", Static).render()
        assert str(head).startswith("2 changes since your review")
        tools = next(c for c in screen.inbox.changes if c.file == "TOOLS.md")
        screen.query_one("#inbox-list", OptionList).highlighted = [
            o.id for o in (screen.query_one("#inbox-list", OptionList).get_option_at_index(i)
                           for i in range(screen.query_one("#inbox-list", OptionList).option_count))].index(tools.id)
        before = (ws / "TOOLS.md").read_bytes()
        await pilot.press("v")
        await settle(pilot)
        assert (ws / "TOOLS.md").read_bytes() == before.removesuffix(b"- jq\n")
        assert screen.count == 1 and listed(screen) == [c.id for c in load_inbox(ws).changes]
        await pilot.press("u")
        await settle(pilot)
        assert (ws / "TOOLS.md").read_bytes() == before and screen.count == 2
        await pilot.press("escape")
        await settle(pilot)
        assert "2 changes since your review" in status_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_approve_and_approve_all(ws: Path, size: tuple[int, int]) -> None:
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=size) as pilot:
        screen = await open_inbox(pilot)
        first = listed(screen)[0]
        await pilot.press("a")
        await settle(pilot)
        assert first not in listed(screen) and screen.count == 1 == load_inbox(ws).count
        await pilot.press("A")
        await settle(pilot)
        assert screen.count == 0 and load_inbox(ws).count == 0
        await pilot.press("escape")
        await settle(pilot)
        assert "0 changes since your review" in status_text(app)


async def test_refreshes_when_the_agent_writes_while_open(ws: Path) -> None:
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_inbox(pilot)
        assert screen.count == 2
        log = ws / "memory" / "2026-12-01.md"
        atomic_write(log, b"# 2026-12-01\n\n- the agent wrote while the inbox was open\n")
        await until(lambda: screen.count == 3, "the agent's new log", pilot=pilot)  # it looks once a second
        assert screen.count == 3 and "memory/2026-12-01.md" in listed(screen)
        assert log.read_bytes().endswith(b"open\n")  # the write was not lost


async def test_memory_text_is_not_markup(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace")
    replace(ws / "MEMORY.md", "\n## ", "\n- [bold]not bold[/bold] [@click=app.quit]x[/]\n\n## ")
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_inbox(pilot)
        detail = screen.query_one("#inbox-detail", Static).render()
        assert "[bold]not bold[/bold] [@click=app.quit]x[/]" in str(detail)


async def test_the_palette_offers_the_inbox(ws: Path) -> None:
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+t", "ctrl+p")
        await settle(pilot)
        await pilot.press(*"inbox")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, InboxScreen) and app.screen.count == 2


async def test_a_count_that_arrives_after_the_status_bar_is_gone_is_dropped(ws: Path) -> None:
    # the counting thread can outlive the screen's widgets when the app closes meanwhile
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.screen
        await main.query_one(StatusBar).remove()
        main._inbox_counted(main.session.current.path, 3)  # type: ignore[attr-defined]
        await pilot.pause()
    assert app.return_code in (None, 0)


def test_the_status_bar_refuses_a_segment_it_does_not_have() -> None:
    bar = StatusBar()
    with pytest.raises(TypeError, match="inbx"):
        bar.show(inbx=3)  # a typo would otherwise set an attribute nothing draws
    assert not hasattr(bar, "inbx")


async def test_an_editor_that_cannot_start_is_a_notice(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", str(ws / "no-such-editor"))
    monkeypatch.delenv("VISUAL", raising=False)
    app = OpenClawApp(ws, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_inbox(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert app.screen is screen  # still open: no crash
        assert any("no-such-editor" in text for text in notices(app))
