"""An id both branches added is two memories (issue 10): the merge session keeps both, renumbers theirs.

Real git, no merge driver installed (git's own text merge leaves the markers), both directions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git.gitrepo import strip_conflict_comments
from openclaw_tui.core.merge.conflicts import BOTH
from openclaw_tui.core.merge.merge_session import MergeSession
from tests.cli.test_git_helpers import commit_all, entry, git, git_rc, make_repo, memfile, write

MEM = "profiles/assistant/memories.md"
BASE = memfile(
    entry("mem-0001", "The user lives in Shanghai."),
    entry("mem-0002", "The user drinks coffee every morning."),
)


def _setup(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, BASE)
    write(repo / "profiles/assistant/state.yaml", "focus: mem-0001\n")
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "other: the user bought a bike") + "\n"
          + entry("mem-0004", "The bike of mem-0003 is red.", conflict="mem-0003"))
    commit_all(repo, "other adds mem-0003 and mem-0004")
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "main: the user likes green tea"))
    commit_all(repo, "main adds mem-0003")
    return repo


@pytest.mark.parametrize("direction", ["other-into-main", "main-into-other"])
def test_session_keeps_both_additions_and_renumbers_theirs(tmp_path: Path, direction: str) -> None:
    repo = _setup(tmp_path)
    if direction == "main-into-other":
        git(repo, "checkout", "-q", "other")
    assert git_rc(repo, "merge", "main" if direction == "main-into-other" else "other") == 1
    assert "<<<<<<<" in (repo / MEM).read_text()
    s = MergeSession.open(repo / "profiles", [repo / "profiles"])
    f = next(x for x in s.files if x.path.name == "memories.md")
    item = f.conflicts.item("mem-0003")
    assert item.collision and item.situation == "added-by-both"
    assert f.choices.get("mem-0003") == BOTH and f.remaining == 0  # decided, not a content conflict
    notes = f.collision_notes()
    assert len(notes) == 1 and "mem-0003" in notes[0] and "mem-0005" in notes[0]
    s.complete()
    s.conclude()
    text = (repo / MEM).read_text()
    mf = parse(text)
    assert not [e for e in mf.entries if e.error] and len(mf.ids()) == len(set(mf.ids())) == 5
    by_body = {e.body.strip(): e for e in mf.entries}
    for body in ("main: the user likes green tea", "other: the user bought a bike"):
        assert "conflict" not in by_body[body].meta  # not marked as contradicting each other
    red = by_body["The bike of mem-0003 is red."] if direction == "main-into-other" else next(
        e for e in mf.entries if "is red" in e.body)
    if direction == "other-into-main":  # theirs (other) renumbered; the reference it added follows
        assert by_body["main: the user likes green tea"].id == "mem-0003"
        assert by_body["other: the user bought a bike"].id == "mem-0005"
        assert red.meta["conflict"] == "mem-0005" and "mem-0005 is red" in red.body
    else:  # theirs (main) renumbered; ours' (other's) own reference untouched
        assert by_body["other: the user bought a bike"].id == "mem-0003"
        assert by_body["main: the user likes green tea"].id == "mem-0005"
        assert red.meta["conflict"] == "mem-0003"
    message = git(repo, "log", "-1", "--format=%B")
    assert "Conflicts" not in message and "#" not in message and message.startswith("Merge branch")


def test_a_base_entry_changed_two_ways_is_still_a_conflict_to_decide(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, BASE)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, BASE.replace("every morning", "at noon"))
    commit_all(repo, "other")
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, BASE.replace("every morning", "never"))
    commit_all(repo, "main")
    assert git_rc(repo, "merge", "other") == 1
    s = MergeSession.open(repo / "profiles", [repo / "profiles"])
    f = s.files[0]
    assert not f.conflicts.item("mem-0002").collision and f.remaining == 1


def test_strip_conflict_comments_keeps_the_rest() -> None:
    msg = "Merge branch 'x'\n\n# Conflicts:\n#\tprofiles/a/memories.md\n#\tstate.yaml\n\nMore text\n"
    assert strip_conflict_comments(msg) == "Merge branch 'x'\n\n\nMore text\n"
    assert strip_conflict_comments("Merge branch 'x'\n# Conflicts:\n#\ta\n") == "Merge branch 'x'\n"


async def test_merge_screen_says_which_addition_was_renumbered(tmp_path: Path) -> None:
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.screens.merge.merge_screen import MergeScreen
    from tests.ui_support import SIZE, TODAY, open_merge_screen

    repo = _setup(tmp_path)
    assert git_rc(repo, "merge", "other") == 1
    app = OpenClawApp(repo / "profiles", today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen, messages = await open_merge_screen(pilot)
        assert isinstance(screen, MergeScreen) and screen.session is not None
        assert any("mem-0003 was added on both sides" in m and "mem-0005" in m for m in messages), messages
        assert screen.session.remaining == 0
