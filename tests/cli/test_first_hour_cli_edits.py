"""Issue 24, points 14 and 15: ``set --body-file`` keeps the blank line parting entries, ``commit`` commits
what the tool changed or the user names, ``add --conflict`` lists it, ``context --session`` takes the spec's
kinds, and lock files stay out of ``git status``.  Real git repositories and the real CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.cli.test_git_helpers import commit_all, git, make_repo
from tests.conftest import SAMPLES


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def _repo_with_xiaoyu(tmp_path: Path) -> tuple[Path, Path]:
    repo = make_repo(tmp_path / "repo")
    prof = repo / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    commit_all(repo, "base")
    return repo, prof


def test_set_body_file_keeps_the_blank_line_before_the_next_entry(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    mem = prof / "memories.md"
    before = mem.read_text(encoding="utf-8")
    old_body = "用户养了一只英短蓝猫，叫「团子」，三岁，公猫，已绝育。怕吸尘器，喜欢趴在显示器后面。\n"
    assert old_body + "\n---\nid: mem-0004\n" in before  # the sample parts entries with a blank line
    (tmp_path / "body.txt").write_text("团子怕吸尘器。\n", encoding="utf-8")
    res = cli("set", str(prof), "mem-0003", "--body-file", str(tmp_path / "body.txt"))
    assert res.returncode == 0, res.stderr
    assert mem.read_text(encoding="utf-8") == before.replace(old_body, "团子怕吸尘器。\n", 1)
    # and back: the file is byte for byte what it was
    (tmp_path / "old.txt").write_text(old_body, encoding="utf-8")
    assert cli("set", str(prof), "mem-0003", "--body-file", str(tmp_path / "old.txt")).returncode == 0
    assert mem.read_text(encoding="utf-8") == before


def test_set_body_file_with_its_own_blank_lines_keeps_them(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    mem = prof / "memories.md"
    (tmp_path / "body.txt").write_text("团子。\n\n\n", encoding="utf-8")
    assert cli("set", str(prof), "mem-0003", "--body-file", str(tmp_path / "body.txt")).returncode == 0
    assert "\n---\n团子。\n\n\n---\nid: mem-0004\n" in mem.read_text(encoding="utf-8")


def test_commit_leaves_an_untracked_audit_log_and_says_so(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    assert cli("set", str(prof), "mem-0003", "importance=low").returncode == 0
    (prof / "audit.log").write_text("2026-12-01 check: 2 warnings\n", encoding="utf-8")
    (prof / "contexts" / "2026-12-01_trip.md").write_text("# trip\n", encoding="utf-8")  # a new memory file
    res = cli("commit", str(prof), "-m", "lower mem-0003")
    assert res.returncode == 0, res.stderr
    committed = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(committed) == ["xiaoyu/contexts/2026-12-01_trip.md", "xiaoyu/memories.md"]
    assert "audit.log" not in git(repo, "log", "-1", "--format=%B")
    assert "audit.log" in res.stderr and res.stderr.count("\n") == 1, res.stderr
    assert git(repo, "status", "--porcelain") == "?? xiaoyu/audit.log\n"
    # named, it is committed
    res = cli("commit", str(prof), "audit.log", "-m", "keep the audit log")
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["xiaoyu/audit.log"]
    assert git(repo, "status", "--porcelain") == ""


def test_commit_with_only_an_untracked_audit_log_has_nothing_to_commit(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    (prof / "audit.log").write_text("x\n", encoding="utf-8")
    head = git(repo, "rev-parse", "HEAD")
    res = cli("commit", str(prof), "-m", "x")
    assert res.returncode == 1 and "nothing to commit" in res.stderr and "audit.log" in res.stderr
    assert git(repo, "rev-parse", "HEAD") == head


def test_add_dry_run_json_lists_the_declared_conflict(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    res = cli("add", str(prof), "--body", "不再喝咖啡。", "--conflict", "mem-0012", "--dry-run", "--json")
    assert res.returncode == 0, res.stderr
    conflicts = json.loads(res.stdout)["conflicts"]
    assert conflicts and conflicts[0]["id"] == "mem-0012" and conflicts[0]["declared"] is True
    res = cli("add", str(prof), "--body", "不再喝咖啡。", "--conflict", "mem-0012", "--dry-run")
    assert "conflict: mem-0012" in res.stdout and "+conflict: mem-0012" in res.stdout


def test_context_takes_every_session_kind_of_the_spec() -> None:
    res = cli("context", "--help")
    assert "--session main|shared|subagent|cron" in res.stdout, res.stdout
    ws = str(SAMPLES / "workspace")
    for kind in ("main", "shared", "subagent", "cron"):
        res = cli("context", ws, "--session", kind, "--json", "--today", "2026-11-30")
        assert res.returncode == 0, (kind, res.stderr)
    loaded = [p["file"] for p in json.loads(res.stdout)["parts"] if p["layer"] != "search"]
    assert loaded == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"]  # cron: no MEMORY.md, no daily logs


# --- point 15: lock files --------------------------------------------------------------------------------


def test_a_write_keeps_its_lock_file_out_of_git_status(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    assert cli("set", str(prof), "mem-0003", "importance=low").returncode == 0
    assert (prof / "memories.md.lock").exists()  # the protocol's lock file stays
    assert git(repo, "status", "--porcelain") == " M xiaoyu/memories.md\n"
    assert "*.md.lock" in (repo / ".git" / "info" / "exclude").read_text()
    assert not (repo / ".gitignore").exists() and not (prof / ".gitignore").exists()  # no tracked file
    # a second write adds nothing more
    exclude = (repo / ".git" / "info" / "exclude").read_bytes()
    assert cli("set", str(prof), "mem-0004", "importance=low").returncode == 0
    assert (repo / ".git" / "info" / "exclude").read_bytes() == exclude


def test_a_linked_work_tree_excludes_in_the_shared_git_folder(tmp_path: Path) -> None:
    repo, _prof = _repo_with_xiaoyu(tmp_path)
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    assert cli("set", str(wt / "xiaoyu"), "mem-0003", "importance=low").returncode == 0
    assert git(wt, "status", "--porcelain") == " M xiaoyu/memories.md\n"
    assert "*.md.lock" in (repo / ".git" / "info" / "exclude").read_text()


def test_git_setup_excludes_the_lock_files(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    (repo / ".git" / "info" / "exclude").unlink(missing_ok=True)
    res = cli("git-setup", str(repo))
    assert res.returncode == 0, res.stderr
    assert "*.md.lock" in (repo / ".git" / "info" / "exclude").read_text()
    (prof / "memories.md.lock").write_bytes(b"")
    assert "lock" not in git(repo, "status", "--porcelain")


def test_rollback_is_not_blocked_by_a_file_commit_leaves_out(tmp_path: Path) -> None:
    """What commit leaves (an untracked audit.log) does not block a rollback, which leaves it as it is."""
    repo, prof = _repo_with_xiaoyu(tmp_path)
    base = git(repo, "rev-parse", "HEAD").strip()
    assert cli("set", str(prof), "mem-0003", "importance=low").returncode == 0
    assert cli("commit", str(prof), "-m", "lower mem-0003").returncode == 0
    (prof / "audit.log").write_text("findings\n", encoding="utf-8")
    res = cli("rollback", str(prof), base)
    assert res.returncode == 0, res.stderr
    assert (prof / "memories.md").read_bytes() == (SAMPLES / "profiles/xiaoyu/memories.md").read_bytes()
    assert (prof / "audit.log").read_text(encoding="utf-8") == "findings\n"
    # an untracked memory file still blocks it (a commit would take it)
    (prof / "contexts" / "2026-12-01_new.md").write_text("# new\n", encoding="utf-8")
    res = cli("rollback", str(prof), base)
    assert res.returncode != 0 and "2026-12-01_new.md" in res.stderr


def test_rollback_refuses_to_replace_an_untracked_file_it_would_create(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    (prof / "audit.log").write_text("old findings\n", encoding="utf-8")
    assert cli("commit", str(prof), "audit.log", "-m", "audit log").returncode == 0
    with_log = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "rm", "-q", "xiaoyu/audit.log")
    git(repo, "commit", "-qm", "drop the audit log")
    (prof / "audit.log").write_text("new findings, never committed\n", encoding="utf-8")
    res = cli("rollback", str(prof), with_log)
    assert res.returncode != 0 and "audit.log" in res.stderr and "untracked" in res.stderr, res.stderr
    assert (prof / "audit.log").read_text(encoding="utf-8") == "new findings, never committed\n"


def test_commit_refuses_a_file_that_is_not_in_the_profile(tmp_path: Path) -> None:
    repo, prof = _repo_with_xiaoyu(tmp_path)
    assert cli("set", str(prof), "mem-0003", "importance=low").returncode == 0
    head = git(repo, "rev-parse", "HEAD")
    for name in ("audti.log", str(repo / "elsewhere.txt")):
        (repo / "elsewhere.txt").write_text("x\n", encoding="utf-8")
        res = cli("commit", str(prof), name, "-m", "x")
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and name in res.stderr, res.stderr
    assert git(repo, "rev-parse", "HEAD") == head
