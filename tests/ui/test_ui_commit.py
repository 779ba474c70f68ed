"""Committing from the app: the spec's message generated from what changed, editable, in a real git repo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import TextArea

from openclaw_tui.ui.screens.git.commit_screen import CommitScreen
from tests.cli.test_git_helpers import git, make_repo
from tests.ui.test_ui_edit_support import XIAOYU, notifications, opened, press, select, type_text


@pytest.fixture
def repo_prof(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "memory")
    prof = repo / "profiles" / "xiaoyu"
    shutil.copytree(XIAOYU, prof)
    (repo / "notes.txt").write_text("not memory\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    return prof


async def test_commit_message_lists_what_changed_and_can_be_edited(repo_prof: Path) -> None:
    repo = repo_prof.parent.parent
    (repo / "notes.txt").write_text("changed outside the profile\n", encoding="utf-8")
    async with opened(repo_prof) as (pilot, app, main):
        await select(pilot, main, "mem-0012")
        await press(pilot, "r", "l")  # conflict: keep right (mem-0007 superseded by mem-0012)
        await press(pilot, "y")
        await select(pilot, main, "mem-0043")
        await press(pilot, "A")
        await press(pilot, "y")
        assert main.check_action("ops", ("commit",)) is True
        await press(pilot, "C")
        screen = app.screen
        assert isinstance(screen, CommitScreen)
        area = screen.query_one("#commit-message", TextArea)
        assert area.has_focus
        assert area.text == (
            "feat(mem): xiaoyu: 1 superseded, 1 archived\n\n"
            "- mem-0007: superseded by mem-0012\n"
            "- mem-0043: archived\n"
        )
        area.select_line(0)
        await type_text(pilot, "feat(mem): resolve coffee conflict, archive Shenzhen trip")
        await press(pilot, "ctrl+s")
        assert app.screen is main
        assert any(n.startswith("Committed ") for n in notifications(app))
    message = git(repo, "log", "-1", "--format=%B")
    assert message == (
        "feat(mem): resolve coffee conflict, archive Shenzhen trip\n\n"
        "- mem-0007: superseded by mem-0012\n"
        "- mem-0043: archived\n\n"
    )
    files = sorted(git(repo, "show", "--name-only", "--format=", "HEAD").split())
    assert files == ["profiles/xiaoyu/contexts/archive/memories.md", "profiles/xiaoyu/memories.md"]
    assert "notes.txt" in git(repo, "status", "--porcelain")  # outside the profile: left alone


async def test_commit_of_a_new_entry_and_nothing_left_to_commit(repo_prof: Path) -> None:
    repo = repo_prof.parent.parent
    async with opened(repo_prof) as (pilot, app, main):
        await press(pilot, "C")
        assert app.screen is main
        assert any("Nothing to commit" in n for n in notifications(app))
        await press(pilot, "plus")
        app.screen.query_one("#edit-body", TextArea).text = "用户报名了明年的无锡马拉松。"
        await press(pilot, "ctrl+s")  # no similar entry: straight to the preview
        await press(pilot, "y")
        await press(pilot, "C")
        await press(pilot, "ctrl+s")
    assert git(repo, "log", "-1", "--format=%B") == "feat(mem): xiaoyu: mem-0054 added\n\n- mem-0054: added\n\n"
    left = git(repo, "status", "--porcelain", "--", "profiles").splitlines()
    assert left == []  # the lock file stays (spec), never committed, and out of git status (info/exclude)
    assert (repo_prof / "memories.md.lock").exists()


async def test_commit_is_unavailable_outside_git_with_a_hint(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(XIAOYU, prof)
    async with opened(prof) as (pilot, app, main):
        assert main.check_action("ops", ("commit",)) is None  # shown disabled
        active = main.active_bindings.get("C")
        assert active is not None and active.binding.action == "ops('commit')" and not active.enabled
        await press(pilot, "C")
        assert app.screen is main
        assert any("not in a git repository" in n and "git init" in n for n in notifications(app))
