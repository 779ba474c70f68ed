"""The session layer (plain Python) and the watcher's own-write recognition end to end.

The session announces every write it makes to the watcher with its exact
bytes, and brackets the git operations the app runs: after the merge screen
writes and concludes, nothing is announced as "changed by another program",
while a real change by another program still is.
"""

from __future__ import annotations

import time
from pathlib import Path

from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.files.watch import ChangeBatch, MemoryWatcher
from openclaw_tui.core.lifecycle.operations import plan_set
from openclaw_tui.core.lifecycle.picks import archive_picks, cold_picks, compact_picks, conflict_pair
from openclaw_tui.core.lifecycle.plan import Files
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.session import Session
from tests.cli.test_git_helpers import commit_all, git
from tests.support import app_for, until
from tests.ui.test_ui_merge_operations import conclude, resolve_all
from tests.ui_support import SIZE, settle, write_profile
from tests.unit.test_ui_git_support import ATLAS, MAIN_LINE, THEIRS_LINE, atlas_repo, edit_entry


def entry(n: int, status: str = "active", extra: str = "") -> str:
    return (f"---\nid: mem-{n:04d}\nimportance: medium\nstatus: {status}\ntags: [t]\n{extra}---\n"
            f"Fact {n}.\n\n")


def loaded(root: Path) -> Session:
    s = Session(root)
    found = s.discover()
    s.adopt(found, s.read(found.profiles))
    s.select(s.profiles()[0], "memories.md")
    return s


def test_pick_rules_and_the_conflict_pair_live_in_core(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "p", entry(1) + entry(2, "cold") + entry(3, "superseded")
                         + entry(4, extra="conflict: mem-0001\n"))
    (prof / "contexts" / "archive").mkdir(parents=True)
    (prof / "contexts" / "archive" / "memories.md").write_text(entry(9, "archived"), encoding="utf-8")
    files = Files.of(discover(prof).profiles[0])
    assert archive_picks(files, ["mem-0001", "mem-0009"]).ids == ("mem-0001",)
    assert archive_picks(files, ["mem-0001", "mem-0009"]).already == ("mem-0009",)
    cold = cold_picks(files, ["mem-0001", "mem-0002", "mem-0003"])
    assert (cold.status, cold.ids, cold.skipped) == ("cold", ("mem-0001",), ("mem-0003",))
    assert cold_picks(files, ["mem-0002"]).status == "active"
    assert compact_picks(files, ["mem-0001", "mem-0002", "mem-0004"]) == ["mem-0001", "mem-0004"]
    e4 = files.memories.mf.get("mem-0004")
    assert e4 is not None
    pair = conflict_pair(files, e4)
    assert pair is not None and [e.id for e in pair] == ["mem-0001", "mem-0004"]


def test_the_file_event_filter_and_own_operations(tmp_path: Path) -> None:
    root = tmp_path / "profiles"
    write_profile(root, "a", entry(1), {"identity.md": "# A\n"})
    write_profile(root, "b", entry(1))
    s = loaded(root)
    batch = ChangeBatch(paths=frozenset({"a/memories.md", "a/identity.md", "a/audit.log", "b/memories.md.lock"}))
    changes = s.changes(batch)
    assert [(c.name, c.files, c.memory) for c in changes] == [("a", ("identity.md",), True)]
    assert changes[0].notice() == "a: identity.md changed by another program; reloaded."
    s.own_operation("checkout")
    assert s.changes(ChangeBatch(paths=frozenset({"b/memories.md"}))) == []  # the app's own: kept back
    touched = s.end_own_operation()
    assert [p.name for p in touched] == ["b"]


def test_an_agents_change_read_on_its_temp_files_event_is_still_worded(tmp_path: Path) -> None:
    """The agent's temp file comes in one batch, its rename in a later one (watchdog holds a lone
    IN_MOVED_FROM back for 0.5 s), and the re-read the first batch starts already reads the replaced
    file: that reload must say what changed, and the rename's reload must not say it again."""
    root = tmp_path / "profiles"
    prof = write_profile(root, "a", entry(1) + entry(2))
    s = loaded(root)
    path = s.order[0]
    tmp = prof / ".memories.md.1234.tmp"
    tmp.write_text(entry(9) + entry(1) + entry(2, "cold"), encoding="utf-8")
    assert [c.memory for c in s.changes(ChangeBatch(paths=frozenset({"a/.memories.md.1234.tmp"})))] == [False]
    _profile, gen = s.begin_reload(path)  # type: ignore[misc]
    tmp.replace(prof / "memories.md")  # lands before the worker reads
    fresh = s.read_again(s.data[path].profile, s.data[path])
    s.prepare_reload(fresh)
    accepted = s.accept_reload(fresh, gen)
    assert accepted is not None and accepted[1] == ["a/memories.md: 1 added, 1 changed by another program"]
    # then the rename's own batch: the version shown is already the agent's, nothing more to say
    assert [c.memory for c in s.changes(ChangeBatch(paths=frozenset({"a/memories.md"})))] == [True]
    _profile, gen = s.begin_reload(path)  # type: ignore[misc]
    again = s.read_again(s.data[path].profile, s.data[path])
    s.prepare_reload(again)
    accepted = s.accept_reload(again, gen)
    assert accepted is not None and accepted[1] == []


def test_a_write_is_announced_to_the_watcher_with_its_bytes(tmp_path: Path) -> None:
    root = tmp_path / "profiles"
    prof = write_profile(root, "a", entry(1) + entry(2))
    s = loaded(root)
    batches: list[ChangeBatch] = []
    watcher = s.watch(root, batches.append)
    try:
        assert isinstance(watcher, MemoryWatcher)
        out = s.write(plan_set(s.files(), "mem-0002", {"importance": "low"}))
        assert out.ok and out.plan is not None
        time.sleep(0.8)
        assert not [b for b in batches if b.paths], batches  # recognised: not delivered as news
        (prof / "memories.md").write_text(entry(1), encoding="utf-8")  # another program
        deadline = time.monotonic() + 5
        while not batches and time.monotonic() < deadline:
            time.sleep(0.05)
        assert batches and "a/memories.md" in batches[-1].paths
        assert s.undo().ok is False  # the file changed since: undo refuses, nothing written
        assert (prof / "memories.md").read_text(encoding="utf-8") == entry(1)
    finally:
        s.stop_watching()


async def test_the_merge_screens_writes_and_conclusion_are_not_another_programs(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    git(root, "checkout", "-q", "-b", "thread")
    edit_entry(mem, "mem-0005", {"source": "chat#999"}, THEIRS_LINE)
    commit_all(root, "thread: mem-0005 postponed")
    git(root, "checkout", "-q", "main")
    edit_entry(mem, "mem-0005", {"importance": "high"}, MAIN_LINE)
    commit_all(root, "review: mem-0005 upgraded")
    git(root, "merge", "thread", check=False)
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        await until(lambda: main.session.watcher is not None and main.session.watcher.running, "the watcher", pilot=pilot)
        await resolve_all(pilot, "t")
        await conclude(pilot)
        await pilot.pause(1.5)  # the watcher's batches for the writes and the commit have arrived
        await settle(pilot)
        # a real change by another program is still reported (the watcher is live)
        (root / ATLAS / "identity.md").write_text("# Atlas (renamed by the agent)\n", encoding="utf-8")
        await until(lambda: any("identity.md changed by another program" in n.message for n in app.notices),
                    "the notice of the change", pilot=pilot)
        messages = [n.message for n in app.notices]
        assert any("identity.md changed by another program" in m for m in messages), messages
        assert not [m for m in messages if "another program" in m and "identity.md" not in m], messages
