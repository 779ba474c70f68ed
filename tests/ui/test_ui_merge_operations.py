"""Conflicts that are not a merge: a cherry-pick, a rebase that stops twice, a ``git stash pop``.

The merge screen resolves them the same way; what follows differs: a
cherry-pick is committed with its own message, a rebase continues (and may
stop again at its next commit), a stash pop has nothing to conclude and
git keeps the stash entry.  Real repositories, real git, the app under Pilot.
"""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.merge.conflicts import has_markers
from openclaw_tui.ui.screens.merge.merge_screen import MergeScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.dialogs import Ask
from tests.cli.test_git_helpers import commit_all, git
from tests.support import app_for
from tests.ui_support import SIZE, settle
from tests.unit.test_ui_git_support import ATLAS, MAIN_LINE, THEIRS_LINE, atlas_repo, edit_entry, unmerged

MAIN_7 = "Main: the 1:1 moved to Wednesdays."
THREAD_7 = "Thread: the 1:1 is now fortnightly."


def body(root: Path, ident: str) -> str:
    e = parse((root / ATLAS / "memories.md").read_text(encoding="utf-8")).get(ident)
    assert e is not None
    return e.body


async def resolve_all(pilot, key: str) -> MergeScreen:  # type: ignore[no-untyped-def]
    """Open the merge screen, take ``key`` (o / t) for every conflict, and press c."""
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MergeScreen) and screen.session is not None
    while screen.session.remaining:
        await pilot.press(key)
        await settle(pilot)
    assert screen.check_action("complete", ()) is True
    await pilot.press("c")
    await settle(pilot)
    return screen


async def conclude(pilot) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(pilot.app.screen, Ask)
    await pilot.press("y")
    await settle(pilot)
    assert isinstance(pilot.app.screen, MainScreen)


async def test_a_cherry_pick_conflict_is_resolved_and_committed_with_its_message(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    git(root, "checkout", "-q", "-b", "thread")
    edit_entry(mem, "mem-0005", {"source": "chat#999"}, THEIRS_LINE)
    commit_all(root, "thread: mem-0005 postponed")
    git(root, "checkout", "-q", "main")
    edit_entry(mem, "mem-0005", {"importance": "high"}, MAIN_LINE)
    before = commit_all(root, "review: mem-0005 upgraded")
    git(root, "cherry-pick", "thread", check=False)
    assert (root / ".git" / "CHERRY_PICK_HEAD").exists()
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        await resolve_all(pilot, "t")
        await conclude(pilot)
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "Cherry-pick committed" in shown
    assert not (root / ".git" / "CHERRY_PICK_HEAD").exists() and unmerged(root) == []
    assert git(root, "log", "-1", "--format=%s %P").split() == ["thread:", "mem-0005", "postponed", before]
    assert THEIRS_LINE in body(root, "mem-0005") and not has_markers(mem.read_text(encoding="utf-8"))


async def test_a_rebase_that_stops_twice_is_resolved_and_finished(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    git(root, "checkout", "-q", "-b", "thread")
    edit_entry(mem, "mem-0005", {}, THEIRS_LINE)
    commit_all(root, "thread: mem-0005")
    edit_entry(mem, "mem-0007", {}, THREAD_7)
    commit_all(root, "thread: mem-0007")
    git(root, "checkout", "-q", "main")
    edit_entry(mem, "mem-0005", {}, MAIN_LINE)
    edit_entry(mem, "mem-0007", {}, MAIN_7)
    main = commit_all(root, "main: mem-0005 and mem-0007")
    git(root, "checkout", "-q", "thread")
    git(root, "rebase", "main", check=False)
    assert (root / ".git" / "rebase-merge").is_dir()
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        await resolve_all(pilot, "t")  # in a rebase, "theirs" is the commit being replayed
        await conclude(pilot)
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "The rebase stopped again at its next commit" in shown
        assert (root / ".git" / "rebase-merge").is_dir() and unmerged(root) == [f"{ATLAS}/memories.md"]
        await resolve_all(pilot, "t")
        await conclude(pilot)
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "Rebase finished" in shown
    assert not (root / ".git" / "rebase-merge").exists() and unmerged(root) == []
    log = git(root, "log", "--format=%s", f"{main}..HEAD").splitlines()
    assert log == ["thread: mem-0007", "thread: mem-0005"]
    assert git(root, "rev-parse", "HEAD~2").strip() == main  # replayed on top of main, no merge commit
    assert git(root, "symbolic-ref", "--short", "HEAD").strip() == "thread"
    assert THEIRS_LINE in body(root, "mem-0005") and THREAD_7 in body(root, "mem-0007")
    assert MAIN_LINE not in mem.read_text(encoding="utf-8")


async def test_a_stash_pop_conflict_is_written_and_the_stash_kept(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    edit_entry(mem, "mem-0005", {}, THEIRS_LINE)
    git(root, "stash", "-q")
    edit_entry(mem, "mem-0005", {}, MAIN_LINE)
    commit_all(root, "main: mem-0005")
    git(root, "stash", "pop", check=False)
    assert has_markers(mem.read_text(encoding="utf-8")) and unmerged(root) == [f"{ATLAS}/memories.md"]
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await resolve_all(pilot, "o")
        assert screen.session is not None and screen.session.operation is None
        assert isinstance(app.screen, MainScreen)  # nothing to conclude
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "git stash list" in shown
    assert unmerged(root) == [] and not has_markers(mem.read_text(encoding="utf-8"))
    assert MAIN_LINE in body(root, "mem-0005")
    assert git(root, "stash", "list").strip()  # git keeps a stash that did not apply cleanly
