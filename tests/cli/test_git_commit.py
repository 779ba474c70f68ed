"""`openclaw-tui commit`, `git-setup`, and what gitrepo reports about a repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.safe_write import write_many
from openclaw_tui.core.git import gitrepo as g
from openclaw_tui.core.git.commitmsg import NothingToCommit, commit_profile, profile_changes
from tests.cli.test_git_helpers import cli, commit_all, entry, git, git_rc, make_repo, memfile, write

P = "memory/profiles/xiaoyu"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    prof = repo / P
    write(prof / "memories.md", memfile(entry("mem-0007", "Coffee every morning.", status="active"),
                                        entry("mem-0012", "No caffeine.", importance="high")))
    write(prof / "state.yaml", "focus: mem-0012\n")
    write(prof / "contexts/archive/memories.md", "")
    write(repo / "memory/profiles/atlas/memories.md", memfile(entry("mem-0001", "Atlas.")))
    write(repo / "src/app.py", "print('hi')\n")
    commit_all(repo, "base")
    return repo


def _edit(repo: Path) -> None:
    prof = repo / P
    mem = prof / "memories.md"
    old = mem.read_bytes()
    new = old.decode().replace("status: active", "status: superseded\nsuperseded_by: mem-0013") + "\n" + entry(
        "mem-0013", "Decaf only.", importance="high")
    write_many([(mem, old, new.encode())])  # leaves memories.md.lock beside it, as every edit does
    write(prof / "contexts/2024-06-03_planning.md", "# plan\n")
    write(prof / "state.yaml", "focus: mem-0013\n")


def test_commit_message_lists_entries_and_files(repo: Path) -> None:
    _edit(repo)
    write(repo / "src/app.py", "print('unrelated change')\n")
    git(repo, "add", "src/app.py")  # staged elsewhere: must stay out of the commit
    res = cli("commit", str(repo / P), "-m", "caffeine update")
    assert res.returncode == 0, res.stderr
    msg = git(repo, "log", "-1", "--format=%B")
    assert msg == (
        "feat(mem): caffeine update\n\n"
        "- mem-0013: added\n"
        "- mem-0007: superseded by mem-0013\n"
        "- contexts/2024-06-03_planning.md: added\n"
        "- state.yaml: changed\n\n"
    )
    files = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(files) == [f"{P}/contexts/2024-06-03_planning.md", f"{P}/memories.md", f"{P}/state.yaml"]
    status = git(repo, "status", "--porcelain")
    assert "M  src/app.py" in status  # still staged, not committed
    assert ".lock" not in git(repo, "ls-files")


def test_commit_without_summary_makes_one(repo: Path) -> None:
    _edit(repo)
    res = cli("commit", str(repo / P))
    assert res.returncode == 0, res.stderr
    subject = git(repo, "log", "-1", "--format=%s").strip()
    assert subject == "feat(mem): xiaoyu: 1 added, 1 superseded, 2 files changed"


def test_commit_dry_run_prints_the_message_and_commits_nothing(repo: Path) -> None:
    _edit(repo)
    head = git(repo, "rev-parse", "HEAD")
    res = cli("commit", str(repo / P), "-m", "x", "--dry-run")
    assert res.returncode == 0 and res.stdout.startswith("feat(mem): x\n\n- mem-0013: added\n")
    assert git(repo, "rev-parse", "HEAD") == head


def test_commit_with_profile_name_from_a_root(repo: Path) -> None:
    write(repo / "memory/profiles/atlas/state.yaml", "focus: mem-0001\n")
    _edit(repo)
    res = cli("commit", str(repo / "memory/profiles"), "--profile", "atlas", "-m", "atlas state")
    assert res.returncode == 0, res.stderr
    assert git(repo, "log", "-1", "--format=%B") == "feat(mem): atlas state\n\n- state.yaml: added\n\n"
    assert f"{P}/state.yaml" in git(repo, "status", "--porcelain")  # xiaoyu untouched


def test_commit_reports_entry_edits_archive_moves_and_removals(repo: Path) -> None:
    prof = repo / P
    write(prof / "memories.md", memfile(entry("mem-0012", "No caffeine at all.", importance="high")))
    write(prof / "contexts/archive/memories.md", entry("mem-0007", "Coffee every morning.", status="archived"))
    sha = commit_profile(prof, "archive coffee")
    assert git(repo, "log", "-1", "--format=%B", sha) == (
        "feat(mem): archive coffee\n\n- mem-0012: changed (body)\n- mem-0007: archived\n\n")
    write(prof / "contexts/archive/memories.md", "")
    write(prof / "memories.md", memfile(entry("mem-0012", "No caffeine at all.", importance="high"),
                                        entry("mem-0007", "Coffee every morning.", status="active")))
    commit_profile(prof, "restore")
    assert "- mem-0007: restored\n" in git(repo, "log", "-1", "--format=%B")
    write(prof / "memories.md", memfile(entry("mem-0012", "No caffeine at all.", importance="high")))
    commit_profile(prof, "drop")
    assert git(repo, "log", "-1", "--format=%B").endswith("- mem-0007: removed\n\n")


def test_nothing_to_commit_exits_1(repo: Path) -> None:
    res = cli("commit", str(repo / P), "-m", "nothing")
    assert res.returncode == 1 and res.stderr.count("\n") == 1 and "nothing to commit" in res.stderr
    with pytest.raises(NothingToCommit):
        commit_profile(repo / P)


def test_commit_outside_a_repository_exits_2(tmp_path: Path) -> None:
    write(tmp_path / "p/memories.md", memfile(entry("mem-0001", "x")))
    res = cli("commit", str(tmp_path / "p"))
    assert res.returncode == 2 and "not inside a git repository" in res.stderr and res.stderr.count("\n") == 1
    res = cli("commit", str(tmp_path / "nowhere"))
    assert res.returncode == 2


def test_profile_changes_in_a_repository_without_commits(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    write(repo / "p/memories.md", memfile(entry("mem-0001", "x")))
    diff = profile_changes(repo, repo / "p")
    assert diff.lines() == ["mem-0001: added", "memories.md: added"]
    sha = commit_profile(repo / "p", "first")
    assert git(repo, "rev-parse", "HEAD").strip() == sha


# --- gitrepo ------------------------------------------------------------------------------------------------


def test_find_repo_from_a_subfolder_of_a_bigger_repository(repo: Path) -> None:
    found = g.find_repo(repo / P / "contexts")
    assert found is not None and found.root == repo.resolve() and found.rel(repo / P) == P
    assert g.find_repo(repo / P / "memories.md") == found
    assert g.find_repo(repo.parent) is None


def test_status_reports_branch_changes_and_a_merge_in_progress(repo: Path) -> None:
    st = g.status(repo, repo / P)
    assert st is not None and st.branch == "main" and st.head and not st.files and st.operation is None
    _edit(repo)
    st = g.status(repo, repo / P)
    assert st is not None
    assert {(f.path.removeprefix(P + "/"), f.kind) for f in st.files} == {
        ("memories.md", "changed"), ("state.yaml", "changed"), ("contexts/2024-06-03_planning.md", "added")}
    assert not any(f.path.endswith(".lock") for f in st.files)
    git(repo, "checkout", "-q", "--", ".")
    git(repo, "clean", "-qfd", "--", P)
    git(repo, "checkout", "-q", "-b", "b")
    write(repo / P / "state.yaml", "focus: b\n")
    commit_all(repo, "b")
    git(repo, "checkout", "-q", "main")
    write(repo / P / "state.yaml", "focus: main\n")
    commit_all(repo, "main")
    assert git_rc(repo, "merge", "b") == 1
    st = g.status(repo)
    assert st is not None and st.operation == "merge" and st.conflicted == (f"{P}/state.yaml",)
    git(repo, "merge", "--abort")
    assert g.status(repo).operation is None  # type: ignore[union-attr]


def test_status_of_a_detached_head_and_an_unborn_branch(tmp_path: Path, repo: Path) -> None:
    git(repo, "checkout", "-q", "--detach")
    st = g.status(repo)
    assert st is not None and st.branch is None and st.head
    empty = make_repo(tmp_path / "empty")
    st = g.status(empty)
    assert st is not None and st.branch == "main" and st.head is None


def test_everything_is_none_without_git(tmp_path: Path, repo: Path) -> None:
    code = (
        "import sys\nfrom openclaw_tui.core.git import gitrepo as g, history as h\n"
        f"print(g.find_repo({str(repo)!r}), g.status({str(repo)!r}), g.git_available())\n"
    )
    env = {**os.environ, "PATH": str(tmp_path / "no-bin")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "None None False"


def test_branches_list_create_and_switch_only_when_clean(repo: Path) -> None:
    g.create_branch(repo, "work-persona")
    names = {b.name: b.current for b in g.list_branches(repo)}
    assert names == {"main": True, "work-persona": False}
    write(repo / P / "state.yaml", "dirty\n")
    with pytest.raises(g.GitError, match="uncommitted"):
        g.switch_branch(repo, "work-persona")
    git(repo, "checkout", "-q", "--", ".")
    g.switch_branch(repo, "work-persona")
    assert g.current_branch(repo) == "work-persona"
    with pytest.raises(g.GitError):
        g.create_branch(repo, "bad name..")


# --- git-setup ----------------------------------------------------------------------------------------------


def test_git_setup_writes_the_root_attributes_and_local_config_once(repo: Path) -> None:
    write(repo / ".gitattributes", "*.png binary")  # existing content without a final newline
    commit_all(repo, "attrs")
    res = cli("git-setup", str(repo / P))
    assert res.returncode == 0, res.stderr
    assert (repo / ".gitattributes").read_text() == "*.png binary\nmemories.md merge=openclaw-memory\n"
    assert not (repo / P / ".gitattributes").exists()
    driver = git(repo, "config", "--local", "merge.openclaw-memory.driver").strip()
    assert "-m openclaw_tui.cli.commands.merge_driver --marker-size %L" in driver and driver.endswith(" %O %A %B %P") and sys.executable in driver
    assert git(repo, "config", "--local", "merge.openclaw-memory.name").strip()
    assert git(repo, "check-attr", "merge", "--", f"{P}/contexts/archive/memories.md").strip().endswith(
        "merge: openclaw-memory")
    snapshot = ((repo / ".gitattributes").read_bytes(), (repo / ".git/config").read_bytes(),
                (repo / ".git/info/exclude").read_bytes())
    res2 = cli("git-setup", str(repo))
    assert res2.returncode == 0 and "already installed" in res2.stdout
    assert snapshot == ((repo / ".gitattributes").read_bytes(), (repo / ".git/config").read_bytes(),
                        (repo / ".git/info/exclude").read_bytes())
    assert git(repo, "status", "--porcelain") == " M .gitattributes\n"  # left uncommitted


def test_git_setup_outside_a_repository_exits_2(tmp_path: Path) -> None:
    res = cli("git-setup", str(tmp_path))
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert not (tmp_path / ".gitattributes").exists()


@pytest.mark.parametrize("given,subject", [
    ("fix: typo in mem-0012", "fix: typo in mem-0012"),
    ("feat(xiaoyu): decaf only", "feat(xiaoyu): decaf only"),
    ("chore!: drop the old coffee notes", "chore!: drop the old coffee notes"),
    ("feat(mem): already prefixed", "feat(mem): already prefixed"),
    ("  fix:   spaces kept  ", "fix:   spaces kept"),
    ("note: coffee", "feat(mem): note: coffee"),  # not a commit type
    ("fix:no space", "feat(mem): fix:no space"),
    ("Fix: capital", "feat(mem): Fix: capital"),
    ("correct   coffee\npreference", "feat(mem): correct coffee preference"),
])
def test_commit_message_with_its_own_type_prefix_is_taken_as_given(repo: Path, given: str, subject: str) -> None:
    _edit(repo)
    res = cli("commit", str(repo / P), "-m", given)
    assert res.returncode == 0, res.stderr
    msg = git(repo, "log", "-1", "--format=%B")
    assert msg.splitlines()[0] == subject
    assert msg.splitlines()[1:4] == ["", "- mem-0013: added", "- mem-0007: superseded by mem-0013"]
    assert res.stdout.split(" ", 1)[1].rstrip("\n") == subject
