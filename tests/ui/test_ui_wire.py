"""The feature screens opened from the review screen: search (ctrl+k), the agent view (i), the
workspace view of an opened workspace (W), repair from the audit list (f, undone with u), and results that jump back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.palette import ScreenCommands, _binding_commands
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.edit.repair_screen import RepairScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.screens.search.search_screen import SearchScreen
from openclaw_tui.ui.screens.workspace.agent_screen import AgentScreen
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.support import until
from tests.ui_support import SIZE, TODAY, copy_samples, samples, settle


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)


def main(app: OpenClawApp) -> MainScreen:
    assert isinstance(app.screen, MainScreen)
    return app.screen


def select(m: MainScreen, name: str) -> None:
    path = next(p for p in m.session.order if m.session.data[p].profile.name == name)
    assert m.jump(Location("memories.md"), path)


def palette(m: MainScreen) -> dict[str, str]:
    return {name: help_text for name, help_text, _cb in _binding_commands(ScreenCommands(m, None))}


async def test_the_new_keys_open_each_screen_and_the_palette_lists_them(root: Path) -> None:
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        select(m, "xiaoyu")
        await settle(pilot)
        m.table.focus()
        commands = palette(m)
        assert "key: ^k" in commands["Search"] and "Search every file" in commands["Search"]
        assert "key: i" in commands["Agent view"]
        assert "key: f" in commands["Repair"]
        assert "Workspace" not in commands  # xiaoyu is a profile, not a workspace
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is m
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, AgentScreen) and app.screen.profile_path == m.session.current.path
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is m
        await pilot.press("W")  # not a workspace: nothing opens
        await pilot.pause()
        assert app.screen is m
async def test_a_workspace_shows_its_memory_md_not_a_memories_md(tmp_path: Path) -> None:
    shutil.copytree(samples() / "workspace", tmp_path / "ws")
    app = OpenClawApp(tmp_path / "ws", today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        title = str(m.query_one("#entries-pane").border_title)
        assert title.endswith("/MEMORY.md") and "memories.md" not in title
        assert m.file_view.rel == "MEMORY.md"
        m.files_tree.focus()
        await pilot.pause()
        assert "key: W" in palette(m)["Workspace"]
        await pilot.press("W")
        await settle(pilot)
        assert isinstance(app.screen, WorkspaceScreen) and app.screen.path == (tmp_path / "ws").absolute()
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is m


async def test_repair_from_the_audit_list_then_undo_on_the_main_screen(root: Path) -> None:
    state = root / "xiaoyu" / "state.yaml"
    old = state.read_bytes()
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        select(m, "xiaoyu")
        await settle(pilot)
        await pilot.press("f")  # no audit list shown: nothing to repair yet
        await pilot.pause()
        assert app.screen is m
        await pilot.press("a")
        await pilot.pause()
        assert m.audit.has_focus
        for _ in range(80):
            hit = m.audit.highlighted_finding()
            if hit is not None and (hit[1].code, hit[1].file, hit[1].line) == ("inactive-ref", "state.yaml", 22):
                break
            await pilot.press("down")
        hit = m.audit.highlighted_finding()
        assert hit is not None and (hit[1].code, hit[1].line) == ("inactive-ref", 22)
        await pilot.press("f")
        await settle(pilot)
        repair = app.screen
        assert isinstance(repair, RepairScreen)
        await until(lambda: repair.plan is not None, pilot=pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert state.read_bytes() == old.replace("婚礼筹备: mem-0048".encode(), "婚礼筹备: mem-0051".encode())
        assert len(app.session.undo_stack)  # written through the session
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is m
        # the reload after the write dropped the finding
        data = m.session.current
        assert data is not None and data.findings is not None
        assert not any((f.code, f.file, f.line) == ("inactive-ref", "state.yaml", 22) for f in data.findings)
        await pilot.press("u")
        await settle(pilot)
        assert state.read_bytes() == old
        assert not len(app.session.undo_stack)


async def test_search_enter_jumps_to_the_entry(root: Path) -> None:
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        select(m, "atlas")
        await settle(pilot)
        m.table.focus()
        await pilot.press("ctrl+k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await until(lambda: screen.ready, pilot=pilot)
        await pilot.press(*"蜜月去了京都")
        await until(lambda: screen.last_query == "蜜月去了京都" and bool(screen.hits), pilot=pilot)
        assert screen.hits[0].id == "mem-0051"
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen is m
        assert m.session.current is not None and m.session.current.profile.name == "xiaoyu"
        row = m.selected_entry()
        assert row is not None and row.id == "mem-0051"
        assert m.table.has_focus


async def test_agent_view_enter_opens_the_part(root: Path) -> None:
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        select(m, "xiaoyu")
        await settle(pilot)
        m.table.focus()
        await pilot.press("i")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgentScreen)
        await until(lambda: screen.computed > 0, pilot=pilot)
        part = next(p for p in screen.rows if getattr(p, "id", None) and p.file == "memories.md")
        options = screen.query_one("#agent-parts")
        index = next(k for k, o in enumerate(options.options) if o.id == str(screen.rows.index(part)))
        options.focus()
        options.highlighted = index
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is m
        row = m.selected_entry()
        assert row is not None and row.id == part.id


async def test_w_reopens_the_start_view_of_a_workspace_with_its_settings(tmp_path: Path) -> None:
    shutil.copytree(samples() / "workspace", tmp_path / "ws")
    made: list[WorkspaceScreen] = []

    def start() -> WorkspaceScreen:
        made.append(WorkspaceScreen(tmp_path / "ws", today=TODAY, session="shared"))
        return made[-1]

    app = OpenClawApp(tmp_path / "ws", today=TODAY, watch=False)
    app.start_screen = start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen is made[0]
        await pilot.press("escape")
        await settle(pilot)
        m = main(app)
        m.files_tree.focus()
        await pilot.press("W")
        await settle(pilot)
        assert len(made) == 2 and app.screen is made[1] and made[1].session == "shared"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is m and not app.session._own  # the view's own-write bracket is closed
