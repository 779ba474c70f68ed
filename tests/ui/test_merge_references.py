"""Issue 10: when a merge renumbers an id both branches added, the references the renumbered side's
branch added elsewhere in the profile (state.yaml, contexts/*.md) follow it; the other side's stay.

Real git repositories, real ``git merge`` (with the driver installed by git-setup, and without it),
the real CLI; both directions; exact bytes of state.yaml after the merge.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git.gitrepo import find_repo
from openclaw_tui.core.merge.merge_session import MergeSession
from openclaw_tui.core.merge.references import read_record
from tests.cli.test_git_helpers import cli, commit_all, entry, git, make_repo, memfile, write

PROFILE = "profiles/assistant"
MEM = f"{PROFILE}/memories.md"
STATE = f"{PROFILE}/state.yaml"
TRIP = f"{PROFILE}/contexts/trip.md"
BASE = memfile(
    entry("mem-0001", "The user lives in Shanghai."),
    entry("mem-0002", "The user drinks coffee every morning."),
)
STATE_BASE = "focus: mem-0001\nmood: calm\nweather: rain\nsleep: late\nrecent:\n- mem-0002\n"
# main adds its mem-0003 (tea) and names it at the top of state.yaml
STATE_MAIN = "today: mem-0003\nfocus: mem-0001\nmood: calm\nweather: rain\nsleep: late\nrecent:\n- mem-0002\n"
# other adds its mem-0003 (a bike), names it at the end of state.yaml and in a new context file
STATE_OTHER = "focus: mem-0001\nmood: calm\nweather: rain\nsleep: late\nrecent:\n- mem-0002\n- mem-0003\n"
TRIP_OTHER = "# Trip\n\nRide the bike ([mem-0003](../memories.md#mem-0003)) to the lake; not mem-00031.\n"


def _setup(tmp_path: Path, driver: bool) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, BASE)
    write(repo / STATE, STATE_BASE)
    commit_all(repo, "base")
    if driver:
        res = cli("git-setup", str(repo / PROFILE))
        assert res.returncode == 0, res.stderr
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, BASE.replace("in Shanghai.", "in Shanghai.\nRides there: mem-0003.")
          + "\n" + entry("mem-0003", "other: the user bought a bike"))
    write(repo / STATE, STATE_OTHER)
    write(repo / TRIP, TRIP_OTHER)
    commit_all(repo, "other adds mem-0003, names it in state.yaml and a context", paths=(PROFILE,))
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "main: the user likes green tea"))
    write(repo / STATE, STATE_MAIN)
    commit_all(repo, "main adds mem-0003 and names it in state.yaml", paths=(PROFILE,))
    return repo


def _merge(repo: Path, direction: str) -> subprocess.CompletedProcess[str]:
    if direction == "main-into-other":
        git(repo, "checkout", "-q", "other")
    branch = "main" if direction == "main-into-other" else "other"
    return subprocess.run(["git", "merge", "--no-edit", branch], cwd=repo, capture_output=True, text=True)


def _expected(direction: str) -> tuple[str, str]:
    """state.yaml and contexts/trip.md after the merge: theirs' mem-0003 is now mem-0004."""
    if direction == "other-into-main":  # other (theirs) renumbered: its two references follow
        return (STATE_MAIN.replace("- mem-0002\n", "- mem-0002\n- mem-0004\n"),
                "# Trip\n\nRide the bike ([mem-0004](../memories.md#mem-0004)) to the lake; not mem-00031.\n")
    # main (theirs) renumbered: its reference follows; other's own references stay
    return STATE_OTHER.replace("focus:", "today: mem-0004\nfocus:"), TRIP_OTHER


def _assert_merged(repo: Path, direction: str) -> None:
    state, trip = _expected(direction)
    assert (repo / STATE).read_bytes() == state.encode()
    assert (repo / TRIP).read_bytes() == trip.encode()
    mf = parse((repo / MEM).read_text())
    ids = {e.body.strip(): e.id for e in mf.entries}
    renumbered = "other: the user bought a bike" if direction == "other-into-main" else "main: the user likes green tea"
    kept = "main: the user likes green tea" if direction == "other-into-main" else "other: the user bought a bike"
    assert ids[renumbered] == "mem-0004" and ids[kept] == "mem-0003"
    first = mf.entries[0]
    assert first.id == "mem-0001"  # a line other added to a base entry names other's entry, whatever its id now
    assert first.body.strip().endswith("Rides there: mem-0004." if direction == "other-into-main" else "Rides there: mem-0003.")
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""  # committed, nothing left over
    assert git(repo, "rev-list", "--count", "HEAD^@") .strip() != ""  # a merge commit
    assert len(git(repo, "log", "-1", "--format=%P").split()) == 2


@pytest.mark.parametrize("direction", ["other-into-main", "main-into-other"])
def test_driver_stops_and_merge_command_rewrites_the_references(tmp_path: Path, direction: str) -> None:
    repo = _setup(tmp_path, driver=True)
    res = _merge(repo, direction)
    assert res.returncode == 1, res.stdout + res.stderr
    said = res.stdout + res.stderr
    assert "mem-0003 was added on both sides" in said and "mem-0004" in said
    assert "state.yaml" in said and "openclaw-tui merge" in said
    assert "<<<<<<<" not in (repo / MEM).read_text()  # the driver merged it; only the references wait
    r = find_repo(repo)
    assert r is not None and [e["path"] for e in read_record(r)] == [MEM]
    listing = cli("merge", str(repo / PROFILE))
    assert "references rewritten" in listing.stdout and f"{STATE}" in listing.stdout
    listed = json.loads(cli("merge", str(repo / PROFILE), "--json").stdout)
    assert [n.split(":")[0] for n in listed["references"]] == ([TRIP, STATE] if direction == "other-into-main" else [STATE])
    done = cli("merge", str(repo / PROFILE), "--commit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"references rewritten: {STATE}: 1 line their branch added now name mem-0004 (was mem-0003)" in done.stdout
    _assert_merged(repo, direction)
    assert read_record(r) == []  # concluded: the record is gone
    check = json.loads(cli("check", str(repo / PROFILE), "--format", "json").stdout)
    codes = [(f["code"], f.get("file")) for f in check["findings"]]
    assert ("dangling-ref", "contexts/trip.md") in codes  # mem-00031, another id: left alone, found
    assert [c for c in codes if c[0] == "duplicate-id" or c[0] == "dangling-ref" and c[1] != "contexts/trip.md"] == []


@pytest.mark.parametrize("direction", ["other-into-main", "main-into-other"])
def test_session_rewrites_references_after_a_plain_git_merge(tmp_path: Path, direction: str) -> None:
    repo = _setup(tmp_path, driver=False)
    res = _merge(repo, direction)
    assert res.returncode == 1 and "<<<<<<<" in (repo / MEM).read_text()
    s = MergeSession.open(repo / "profiles", [repo / "profiles"])
    assert s.remaining == 0  # the id collision is decided (both kept), not a content conflict
    planned = s.reference_notes()
    assert [n.split(":")[0] for n in planned] == ([TRIP, STATE, MEM] if direction == "other-into-main" else [STATE])
    s.complete()
    assert s.reference_notes_done == planned
    s.conclude()
    _assert_merged(repo, direction)


def test_driver_merge_stays_clean_when_no_other_file_names_the_id(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, BASE)
    write(repo / STATE, STATE_BASE)
    commit_all(repo, "base")
    assert cli("git-setup", str(repo / PROFILE)).returncode == 0
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "other: bike"))
    write(repo / STATE, STATE_BASE.replace("calm", "busy"))  # changed, but names no renumbered id
    commit_all(repo, "other", paths=(PROFILE,))
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "main: tea"))
    commit_all(repo, "main", paths=(PROFILE,))
    res = subprocess.run(["git", "merge", "--no-edit", "other"], cwd=repo, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert (repo / STATE).read_bytes() == STATE_BASE.replace("calm", "busy").encode()
    r = find_repo(repo)
    assert r is not None and read_record(r) == []


def test_a_stale_record_of_an_aborted_merge_is_ignored(tmp_path: Path) -> None:
    repo = _setup(tmp_path, driver=True)
    assert _merge(repo, "other-into-main").returncode == 1
    git(repo, "merge", "--abort")
    r = find_repo(repo)
    assert r is not None and read_record(r)  # git's own abort leaves it behind
    s = MergeSession.open(repo / "profiles", [repo / "profiles"])
    assert s.renumberings() == {} and s.reference_rules() == []


async def test_merge_screen_rewrites_the_references_and_says_so(tmp_path: Path) -> None:
    """The UI flow after the driver stopped: m, c (write), y (conclude)."""
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.screens.merge.merge_screen import MergeScreen
    from tests.ui_support import SIZE, TODAY, notices, open_merge_screen, settle

    repo = _setup(tmp_path, driver=True)
    assert _merge(repo, "other-into-main").returncode == 1
    app = OpenClawApp(repo / "profiles", today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen, messages = await open_merge_screen(pilot)
        assert isinstance(screen, MergeScreen) and screen.session is not None
        assert any(f"{STATE}: 1 line their branch added now name mem-0004 (was mem-0003) (when written)" in m
                   for m in messages), messages
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        messages = notices(app)
        assert any("References to renumbered entries rewritten" in m and TRIP in m for m in messages), messages
        assert not any("another program" in m for m in messages), "\n".join(messages)
    _assert_merged(repo, "other-into-main")


def test_a_rebase_step_stops_and_the_merge_command_continues_it(tmp_path: Path) -> None:
    """In a rebase the driver reads the step from rebase-merge/done; the session knows REBASE_HEAD."""
    repo = _setup(tmp_path, driver=True)
    git(repo, "checkout", "-q", "other")
    res = subprocess.run(["git", "rebase", "main"], cwd=repo, capture_output=True, text=True)
    assert res.returncode == 1 and f"references to it were added in {TRIP}, {STATE}" in res.stderr, res.stderr
    done = cli("merge", str(repo / PROFILE), "--commit")
    assert done.returncode == 0 and "rebase concluded" in done.stdout, done.stdout + done.stderr
    state, trip = _expected("other-into-main")  # the replayed commit (other's) is theirs
    assert (repo / STATE).read_bytes() == state.encode() and (repo / TRIP).read_bytes() == trip.encode()
    assert git(repo, "log", "--format=%s", "-2").splitlines()[1] == "main adds mem-0003 and names it in state.yaml"
    ids = {e.body.strip(): e.id for e in parse((repo / MEM).read_text()).entries}
    assert ids["other: the user bought a bike"] == "mem-0004" and ids["main: the user likes green tea"] == "mem-0003"


def _both_add_mem_0003(tmp_path: Path, other_state: str | None, main_state: str) -> Path:
    """A repository (driver installed) where branch ``other`` and then ``main`` each add their own mem-0003
    ("other: bike", "main: tea") and the lines given to state.yaml; ``main`` checked out."""
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, BASE)
    write(repo / STATE, STATE_BASE)
    commit_all(repo, "base")
    assert cli("git-setup", str(repo / PROFILE)).returncode == 0
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "other: bike"))
    if other_state is not None:
        write(repo / STATE, STATE_BASE + other_state)
    commit_all(repo, "other", paths=(PROFILE,))
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, BASE + "\n" + entry("mem-0003", "main: tea"))
    write(repo / STATE, STATE_BASE + main_state)
    commit_all(repo, "main", paths=(PROFILE,))
    return repo


def test_a_conflicted_state_yaml_gets_the_new_id_on_the_side_picked(tmp_path: Path) -> None:
    """Both branches appended to the same state.yaml list: the region is kept both ways, their line follows the id."""
    repo = _both_add_mem_0003(tmp_path, "- mem-0003  # the bike\n", "- mem-0003  # the tea\n")
    res = subprocess.run(["git", "merge", "--no-edit", "other"], cwd=repo, capture_output=True, text=True)
    assert res.returncode == 1 and "<<<<<<<" in (repo / STATE).read_text()
    done = cli("merge", str(repo / PROFILE), "--rest", "both", "--commit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (repo / STATE).read_bytes() == (STATE_BASE + "- mem-0003  # the tea\n- mem-0004  # the bike\n").encode()
    ids = {e.body.strip(): e.id for e in parse((repo / MEM).read_text()).entries}
    assert ids["other: bike"] == "mem-0004" and ids["main: tea"] == "mem-0003"


def test_a_reference_file_turned_into_a_link_out_is_never_written_through(tmp_path: Path) -> None:
    repo = _setup(tmp_path, driver=True)
    assert _merge(repo, "other-into-main").returncode == 1
    outside = tmp_path / "elsewhere.yaml"
    outside.write_bytes(STATE_OTHER.encode())  # holds the very line the rule rewrites
    (repo / STATE).unlink()
    (repo / STATE).symlink_to(outside)
    done = cli("merge", str(repo / PROFILE))
    assert STATE in done.stdout  # planned from git's versions...
    done = cli("merge", str(repo / PROFILE), "--rest", "ours")
    assert done.returncode == 0, done.stdout + done.stderr
    assert outside.read_bytes() == STATE_OTHER.encode()  # ...but not written through the link
    assert f"references rewritten: {TRIP}" in done.stdout and f"references rewritten: {STATE}" not in done.stdout


def test_a_rebase_step_without_references_elsewhere_goes_through(tmp_path: Path) -> None:
    repo = _both_add_mem_0003(tmp_path, None, "- mem-0003\n")  # ours names its own mem-0003: not theirs' business
    git(repo, "checkout", "-q", "other")
    res = subprocess.run(["git", "rebase", "main"], cwd=repo, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "mem-0003 was added on both sides" in res.stderr
    assert (repo / STATE).read_bytes() == (STATE_BASE + "- mem-0003\n").encode()
    ids = {e.body.strip(): e.id for e in parse((repo / MEM).read_text()).entries}
    assert ids == {**ids, "main: tea": "mem-0003", "other: bike": "mem-0004"}


def test_the_driver_uses_commits_only_when_they_hold_what_git_handed_it(tmp_path: Path) -> None:
    from openclaw_tui.core.merge.references import Sides, driver_sides, sides_match

    repo = _setup(tmp_path, driver=False)
    r = find_repo(repo)
    assert r is not None
    main, other = git(repo, "rev-parse", "main").strip(), git(repo, "rev-parse", "other").strip()
    sides = driver_sides(r, {f"GITHEAD_{other}": "other"})
    assert sides == Sides(git(repo, "merge-base", "main", "other").strip(), main, other)
    ours, theirs = git(repo, "show", f"main:{MEM}").encode(), git(repo, "show", f"other:{MEM}").encode()
    assert sides_match(r, sides, MEM, ours, theirs)
    assert not sides_match(r, sides, MEM, theirs, ours) and not sides_match(r, sides, MEM, ours, theirs + b"\n")
    assert driver_sides(r, {}) is None and driver_sides(r, {f"GITHEAD_{other}": "a", f"GITHEAD_{main}": "b"}) is None
