"""The --demo repository: samples, a believable history, and exactly one pending merge with markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git import history as h
from openclaw_tui.core.git.demo import build_demo, demo_has_changes, samples_dir
from openclaw_tui.core.git.entry_history import entry_history
from openclaw_tui.core.git.gitrepo import conclude_merge, find_repo, status
from openclaw_tui.core.merge import conflicts as c
from tests.cli.test_git_helpers import git

XI = "profiles/xiaoyu"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert samples_dir() is not None, "the bundled sample profiles are missing"
    return build_demo(tmp_path_factory.mktemp("demo") / "d")


def test_demo_leaves_exactly_one_pending_merge_with_markers(demo: Path) -> None:
    assert (demo / ".git" / "MERGE_HEAD").exists()
    st = status(demo)
    assert st is not None and st.operation == "merge" and st.branch == "main"
    assert set(st.conflicted) == {f"{XI}/memories.md", f"{XI}/state.yaml"}
    assert {f.path for f in st.files} == set(st.conflicted)  # nothing else changed
    text = (demo / XI / "memories.md").read_text(encoding="utf-8")
    assert "<<<<<<< HEAD" in text and ">>>>>>> agent-thread-b" in text and "|||||||" in text
    assert git(demo, "config", "--local", "merge.conflictStyle").strip() == "diff3"


def test_demo_history_is_believable(demo: Path) -> None:
    log = git(demo, "log", "--all", "--format=%an|%aI|%s")
    lines = log.strip().splitlines()
    assert len(lines) >= 8
    authors = {ln.split("|")[0] for ln in lines}
    assert {"陈明", "xiaoyu-agent", "atlas-agent"} <= authors
    assert all(ln.split("|")[1].startswith("2026-11") for ln in lines)
    branches = git(demo, "branch", "--format=%(refname:short)").split()
    assert set(branches) == {"main", "work-persona", "agent-thread-b"}
    assert git(demo, "log", "--merges", "--format=%s", "main").startswith("Merge branch 'work-persona'")
    assert git(demo, "config", "--local", "user.name").strip() == "陈明"
    # git-setup ran after the merge: the merge above was plain git's, the next ones use the driver
    assert "merge.openclaw-memory.driver=" in git(demo, "config", "--local", "--list")
    assert git(demo, "check-attr", "merge", "--", f"{XI}/memories.md").strip().endswith("merge: openclaw-memory")
    assert git(demo, "log", "--format=", "--name-only", "--diff-filter=A", "--", ".gitattributes").strip() == ".gitattributes"
    repo = find_repo(demo)
    assert repo is not None
    page = h.log_page(repo, demo / XI, 0, 3)
    assert page[0].subject.startswith("feat(mem): review:")
    versions = entry_history(repo, demo / XI, "mem-0012")
    assert versions and versions[-1].kind == "created"


def test_demo_conflict_pairs_by_entry_and_resolves(tmp_path: Path) -> None:
    assert samples_dir() is not None, "the bundled sample profiles are missing"
    demo = build_demo(tmp_path / "d")
    mem = demo / XI / "memories.md"
    conf = c.load(mem)
    assert conf.mode == "entries"
    keys = [it.key for it in conf.items]
    assert "mem-0012" in keys and conf.item("mem-0012").situation == "both-changed"
    added = [it for it in conf.items if it.situation == "added-by-both"]
    assert len(added) == 1  # both threads took the same next id
    choices = {it.key: c.BOTH for it in conf.items}
    out = c.render_resolution(conf, choices, extra_ids=parse((demo / XI / "contexts/archive/memories.md").read_text()).ids())
    before = parse(c.parse_conflicts(mem.read_text()).side("ours") or "")
    after = parse(out)
    assert len([e for e in after.entries if e.error]) == len([e for e in before.entries if e.error])
    mem.write_bytes(out.encode())
    state = demo / XI / "state.yaml"
    sconf = c.load(state)
    state.write_bytes(c.render_resolution(sconf, {it.key: c.OURS for it in sconf.items}).encode())
    git(demo, "add", "--", str(mem), str(state))
    conclude_merge(demo)
    st = status(demo)
    assert st is not None and st.operation is None and not st.files
    assert [p.name for p in discover(demo).profiles] == ["atlas", "xiaoyu"]


def test_lock_files_stay_out_of_git_status_and_are_no_change(tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "d")
    assert not demo_has_changes(demo)
    before = git(demo, "status", "--porcelain")
    for rel in (f"{XI}/memories.md.lock", f"{XI}/state.yaml.lock", "profiles/atlas/memories.md.lock",
                f"{XI}/contexts/archive/memories.md.lock", "workspace/MEMORY.md.lock"):
        (demo / rel).parent.mkdir(parents=True, exist_ok=True)
        (demo / rel).write_bytes(b"")
    assert git(demo, "status", "--porcelain") == before
    assert git(demo, "status", "--porcelain", "--ignored=no", "--untracked-files=all") == before
    assert not demo_has_changes(demo)
    git(demo, "status")  # refreshes the index's stat data: not a change either
    assert not demo_has_changes(demo)


@pytest.mark.parametrize("change", ["edit", "new-file", "delete", "resolve", "branch", "abort-merge", "baseline-gone"])
def test_demo_has_changes_sees_what_a_user_did(tmp_path: Path, change: str) -> None:
    demo = build_demo(tmp_path / "d")
    mem = demo / XI / "memories.md"
    if change == "edit":
        mem.write_bytes(mem.read_bytes() + b"\n")
    elif change == "new-file":
        (demo / XI / "contexts" / "note.md").write_text("# note\n", encoding="utf-8")
    elif change == "delete":
        (demo / XI / "identity.md").unlink()
    elif change == "resolve":
        git(demo, "add", f"{XI}/state.yaml")  # staged as it is, markers and all: only the index changes
    elif change == "branch":
        git(demo, "branch", "mine")
    elif change == "abort-merge":
        git(demo, "merge", "--abort")
    else:
        (demo / ".git" / "openclaw-tui" / "demo-state").unlink()
    assert demo_has_changes(demo)


def test_demo_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("keep me")
    with pytest.raises(FileExistsError):
        build_demo(tmp_path)
    assert (tmp_path / "x").read_text() == "keep me"
