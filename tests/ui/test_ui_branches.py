"""The branches screen under Pilot: list, compare by entry, create, switch (and the refusal when dirty)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList

from openclaw_tui.ui.screens.git.branches_screen import BranchesScreen, BranchName
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.semantic_diff_view import SemanticDiffView
from tests.cli.test_git_helpers import commit_all, git
from tests.support import app_for
from tests.ui_support import SIZE, settle
from tests.unit.test_ui_git_support import ATLAS, atlas_repo, edit_entry

NEW_ENTRY = (
    "\n---\nid: mem-0300\ntimestamp: 2026-11-10T09:00:00+00:00\nsource: chat#930\nimportance: medium\n"
    "status: active\ntags: [oncall]\n---\nThe on-call rotation moves to Opsgenie schedules in December.\n"
)


def branch_repo(tmp_path: Path) -> Path:
    root = atlas_repo(tmp_path)
    git(root, "checkout", "-q", "-b", "feature")
    mem = root / ATLAS / "memories.md"
    mem.write_text(mem.read_text(encoding="utf-8") + NEW_ENTRY, encoding="utf-8")
    edit_entry(mem, "mem-0005", {"importance": "high"})
    commit_all(root, "feature: mem-0300, mem-0005", "2026-11-10T10:00:00+00:00")
    git(root, "checkout", "-q", "main")
    return root


async def open_branches(pilot) -> BranchesScreen:
    await settle(pilot)
    await pilot.press("B")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, BranchesScreen)
    return screen


async def test_compare_lists_the_entries_that_differ(tmp_path: Path) -> None:
    root = branch_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        assert [b.name for b in screen.branches] == ["feature", "main"]
        assert screen.current_name() == "main"
        assert screen.query_one("#branches", OptionList).highlighted == 0
        await pilot.press("c")
        await settle(pilot)
        result = screen.comparison
        assert result is not None and (result.base, result.other) == ("main", "feature")
        assert sorted(e.id for e in result.diff.events) == ["mem-0005", "mem-0300"]
        text = screen.query_one("#branch-compare", SemanticDiffView).text.plain
        assert "main → feature" in text and "2 entries differ" in text
        assert "+ mem-0300  added" in text and "~ mem-0005" in text and "importance: medium → high" in text
        assert "only on feature: 1 commit" in text and "only on main: 0 commits" in text
        # the other way round: mark feature as the base, compare with main
        await pilot.press("m", "down", "c")
        await settle(pilot)
        text = screen.query_one("#branch-compare", SemanticDiffView).text.plain
        assert "feature → main" in text and "− mem-0300  removed" in text


async def test_create_and_switch_branches(tmp_path: Path) -> None:
    root = branch_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, BranchName)
        app.screen.query_one(Input).value = "review-2"
        await pilot.press("enter")
        await settle(pilot)
        assert "review-2" in [b.name for b in screen.branches]
        assert git(root, "branch", "--list", "review-2").strip() == "review-2"
        assert screen.current_name() == "main"
        # switch to feature (clean work tree): the main screen shows its entries afterwards
        screen.query_one("#branches", OptionList).highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert git(root, "symbolic-ref", "--short", "HEAD").strip() == "feature"
        assert screen.current_name() == "feature"
        await pilot.press("escape")
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        assert "mem-0300" in main.known_ids()
        assert "feature" in str(main.status.render())


async def test_switch_is_refused_with_uncommitted_changes(tmp_path: Path) -> None:
    root = branch_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    mem.write_text(mem.read_text(encoding="utf-8") + "\n<!-- a note not committed -->\n", encoding="utf-8")
    before = mem.read_bytes()
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        await pilot.press("enter")  # feature
        await settle(pilot)
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("Cannot switch to feature" in m and "uncommitted changes" in m for m in messages)
        assert screen.current_name() == "main"
    assert git(root, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert mem.read_bytes() == before
