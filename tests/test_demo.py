"""The --demo repository: samples, a believable history, and exactly one pending merge with markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.format.profile import discover
from openclaw_tui.core.git import history as h
from openclaw_tui.core.git.demo import build_demo, samples_dir
from openclaw_tui.core.git.entry_history import entry_history
from openclaw_tui.core.git.gitrepo import conclude_merge, find_repo, mark_resolved, status
from openclaw_tui.core.merge import conflicts as c
from tests.test_git_helpers import git

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
    assert "openclaw-memory" not in git(demo, "config", "--local", "--list")  # built without the driver
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
    c.save(mem, conf, out)
    state = demo / XI / "state.yaml"
    sconf = c.load(state)
    c.save(state, sconf, c.render_resolution(sconf, {it.key: c.OURS for it in sconf.items}))
    mark_resolved(demo, [mem, state])
    conclude_merge(demo)
    st = status(demo)
    assert st is not None and st.operation is None and not st.dirty
    assert [p.name for p in discover(demo).profiles] == ["atlas", "xiaoyu"]


def test_demo_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("keep me")
    with pytest.raises(FileExistsError):
        build_demo(tmp_path)
    assert (tmp_path / "x").read_text() == "keep me"
