"""Repository awareness on the review screen: status bar, disabled actions without git, pull and push."""

from __future__ import annotations

import shutil
from pathlib import Path

from openclaw_tui.core.merge.conflicts import has_markers
from openclaw_tui.ui.screens.git.history_screen import HistoryScreen
from openclaw_tui.ui.screens.merge.merge_screen import MergeScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.dialogs import Ask
from tests.cli.test_git_helpers import commit_all, git
from tests.support import app_for
from tests.ui_support import SIZE, copy_samples, settle
from tests.unit.test_ui_git_support import ATLAS, atlas_repo, edit_entry, parents, unmerged


def main_of(app) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def test_status_bar_shows_branch_uncommitted_files_and_merge(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    state = root / ATLAS / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8") + "note: new\n", encoding="utf-8")
    (root / ATLAS / "contexts" / "new.md").write_text("# new\n", encoding="utf-8")
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main_of(app)
        status = str(m.status.render())
        assert "⎇ main" in status and "2 uncommitted" in status
        assert "MERGE" not in status and "conflicted" not in status
        assert m.check_action("git", ("history",)) is True
        assert m.check_action("git", ("merge",)) is False  # nothing to resolve: hidden
        assert not [n for n in app._notifications if "merge conflicts" in n.message]  # noqa: SLF001


async def test_without_a_repository_nothing_is_shown_and_git_actions_are_disabled(tmp_path: Path) -> None:
    root = copy_samples(tmp_path)
    assert git(root, "rev-parse", "--is-inside-work-tree", check=False).strip() != "true"
    app = app_for(root / "atlas")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main_of(app)
        status = str(m.status.render())
        assert "⎇" not in status and "uncommitted" not in status
        for action in ("history", "entry_history", "branches", "pull", "push"):
            assert m.check_action("git", (action,)) is None, action  # dimmed, with a tooltip saying why
        await pilot.press("H")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # nothing opened
        binding = next(b for b in m._bindings  # noqa: SLF001
                       .key_to_bindings["H"] if b.id == "git.history")
        assert binding.tooltip


async def test_conflict_markers_outside_a_merge_are_resolvable_too(tmp_path: Path) -> None:
    """An agent copied a conflicted file in (no git operation): m still resolves it; nothing is staged."""
    root = copy_samples(tmp_path)
    state = root / "atlas" / "state.yaml"
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace("focus: mem-0017\n", "<<<<<<< mine\nfocus: mem-0017\n=======\nfocus: mem-0015\n"
                                  ">>>>>>> theirs\n"), encoding="utf-8")
    app = app_for(root / "atlas")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main_of(app)
        assert m.git.conflicted == ("state.yaml",)
        assert "conflicted file" in str(m.status.render())
        await pilot.press("m")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MergeScreen)
        await pilot.press("t", "c")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    out = state.read_text(encoding="utf-8")
    assert not has_markers(out) and "focus: mem-0015\n" in out and "focus: mem-0017" not in out


def clone(origin: Path, dest: Path) -> Path:
    git(origin.parent, "clone", "-q", str(origin), str(dest))
    git(dest, "config", "user.name", dest.name)
    git(dest, "config", "user.email", f"{dest.name}@example.invalid")
    return dest


async def test_pull_with_conflicts_lands_in_the_resolution_screen_then_push(tmp_path: Path) -> None:
    seed = atlas_repo(tmp_path)
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(origin))
    shutil.rmtree(seed)
    a, b = clone(origin, tmp_path / "alice"), clone(origin, tmp_path / "bob")
    edit_entry(b / ATLAS / "memories.md", "mem-0005", {"importance": "low"}, "BOB: the upgrade is postponed.")
    commit_all(b, "bob: mem-0005")
    git(b, "push", "-q", "origin", "main")
    edit_entry(a / ATLAS / "memories.md", "mem-0005", {"importance": "high"}, "ALICE: the upgrade is done.")
    commit_all(a, "alice: mem-0005")
    app = app_for(a / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MergeScreen)
        assert screen.session is not None
        f = screen.session.files[0]
        assert f.display == f"{ATLAS}/memories.md" and [it.key for it in f.items] == ["mem-0005"]
        assert f.conflicts.mode == "entries"  # the id-aware driver wrapped the entry alone
        await pilot.press("b", "c")
        await settle(pilot)
        assert isinstance(app.screen, Ask)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert unmerged(a) == [] and len(parents(a)) == 2
        await pilot.press("P")
        await settle(pilot)
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("pushed main" in msg for msg in messages)
    assert git(origin, "rev-parse", "main").strip() == git(a, "rev-parse", "HEAD").strip()
    text = (a / ATLAS / "memories.md").read_text(encoding="utf-8")
    assert "ALICE: the upgrade is done." in text and "BOB: the upgrade is postponed." in text


async def test_history_screen_opens_from_the_main_screen(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        selected = main_of(app).selected_profile()
        assert selected is not None
        await pilot.press("H")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert app.screen.profile == selected.path.absolute()
        assert [c.subject for c in app.screen.commits] == ["import the samples"]
