"""pull / push between two clones of one bare repository (file:// only, no network)."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git import gitrepo as g
from tests.cli.test_git_helpers import commit_all, entry, git, make_repo, memfile, write

MEM = "profiles/a/memories.md"
BASE = memfile(entry("mem-0001", "one"), entry("mem-0002", "two"))


def _clones(tmp_path: Path) -> tuple[Path, Path, Path]:
    seed = make_repo(tmp_path / "seed")
    write(seed / MEM, BASE)
    commit_all(seed, "base")
    bare = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(bare))
    clones = []
    for name in ("laptop", "phone"):
        git(tmp_path, "clone", "-q", bare.as_uri(), name)
        clone = tmp_path / name
        git(clone, "config", "user.name", name)
        git(clone, "config", "user.email", f"{name}@example.invalid")
        clones.append(clone)
    return bare, clones[0], clones[1]


def test_push_then_pull_merges_appends_by_id(tmp_path: Path) -> None:
    _bare, laptop, phone = _clones(tmp_path)
    write(laptop / MEM, BASE + "\n" + entry("mem-0003", "from the laptop"))
    commit_all(laptop, "laptop")
    res = g.push(laptop)
    assert res.ok, res.message
    write(phone / MEM, BASE + "\n" + entry("mem-0004", "from the phone"))
    commit_all(phone, "phone", paths=(MEM,))
    res = g.pull(phone)
    assert res.ok and res.conflicts == () and "merged" in res.message, res.message
    assert parse((phone / MEM).read_text()).ids() == ["mem-0001", "mem-0002", "mem-0004", "mem-0003"]
    assert git(phone, "check-attr", "merge", "--", MEM).strip().endswith("merge: openclaw-memory")
    assert g.push(phone).ok
    assert g.pull(laptop).ok
    assert (laptop / MEM).read_bytes() == (phone / MEM).read_bytes()
    assert g.pull(laptop).message.startswith("already up to date")


def test_pull_reports_conflicts_on_the_same_entry(tmp_path: Path) -> None:
    _bare, laptop, phone = _clones(tmp_path)
    write(laptop / MEM, BASE.replace("two", "two (laptop)"))
    commit_all(laptop, "laptop")
    assert g.push(laptop).ok
    write(phone / MEM, BASE.replace("two", "two (phone)"))
    commit_all(phone, "phone")
    res = g.pull(phone)
    assert not res.ok and res.conflicts == (MEM,)
    text = (phone / MEM).read_text()
    assert text.count("<<<<<<<") == 1 and "two (laptop)" in text and "two (phone)" in text
    st = g.status(phone)
    assert st is not None and st.operation == "merge"
    assert not g.pull(phone).ok  # refuses while the merge is pending


def test_push_without_a_remote_and_a_rejected_push(tmp_path: Path) -> None:
    lone = make_repo(tmp_path / "lone")
    write(lone / "a.md", "x\n")
    commit_all(lone, "x")
    res = g.push(lone)
    assert not res.ok and "no remote" in res.message
    _bare, laptop, phone = _clones(tmp_path)
    write(laptop / "x.md", "laptop\n")
    commit_all(laptop, "x")
    assert g.push(laptop).ok
    write(phone / "y.md", "phone\n")
    commit_all(phone, "y")
    res = g.push(phone)
    assert not res.ok and res.message
