"""Hooks: the pre-commit hook (.pre-commit-hooks.yaml, run by pre-commit itself) and git-setup --hooks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                          env={**os.environ, **(env or {})})


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "openclaw_tui.cli", *args], cwd)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def memrepo(tmp_path: Path, samples: Path) -> Path:
    """A repository with two clean profiles (atlas and a copy of it) and a README."""
    repo = tmp_path / "mem"
    shutil.copytree(samples / "profiles" / "atlas", repo / "profiles" / "atlas")
    shutil.copytree(samples / "profiles" / "atlas", repo / "profiles" / "beta")
    (repo / "README.md").write_text("# notes, not memory\nsee mem-0999\n", encoding="utf-8")
    git(repo, "init", "-q")
    (repo / ".git" / "info" / "exclude").write_text("*.lock\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    return repo


DANGLING = "\nSee mem-0999 for the runbook.\n"


# --- the hook's own entry point, offline and fast -----------------------------------------------------


def test_the_hook_checks_each_memory_folder_holding_a_staged_file(memrepo: Path) -> None:
    hook = [sys.executable, "-m", "openclaw_tui.cli.precommit", "--fail-on", "error"]
    ok = run([*hook, "profiles/atlas/memories.md", "profiles/beta/skills/work.md", "README.md"], memrepo)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("0 errors") == 2  # atlas and beta, each once; README.md is not memory
    with open(memrepo / "profiles" / "beta" / "skills" / "work.md", "a", encoding="utf-8") as fh:
        fh.write(DANGLING)
    bad = run([*hook, "profiles/atlas/identity.md", "profiles/beta/skills/work.md"], memrepo)
    assert bad.returncode == 1
    assert "error dangling-ref skills/work.md references mem-0999" in bad.stdout
    # a staged archive brings in its profile (not contexts/archive/ as if it were one)
    archive = run([*hook, "profiles/beta/contexts/archive/memories.md"], memrepo)
    assert archive.returncode == 1 and "error dangling-ref skills/work.md" in archive.stdout
    only_atlas = run([*hook, "profiles/atlas/identity.md", "README.md"], memrepo)
    assert only_atlas.returncode == 0
    # a daily log of an OpenClaw workspace brings in the workspace
    shutil.copytree(REPO_ROOT / "sample_profiles" / "workspace", memrepo / "ws")
    ws = run([*hook, "--fail-on", "never", "ws/memory/2026-04-27.md"], memrepo)
    assert ws.returncode == 0 and ws.stdout.count(" errors, ") == 1
    assert ws.stdout == run([sys.executable, "-m", "openclaw_tui.cli", "check", "ws", "--fail-on", "never"],
                            memrepo).stdout
    nothing = run([*hook, "README.md"], memrepo)
    assert nothing.returncode == 0 and nothing.stdout == ""


# --- pre-commit itself -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hook_source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """This project as it is now (committed or not), as a repository pre-commit can install from."""
    if shutil.which("pre-commit") is None and not (Path(sys.executable).parent / "pre-commit").exists():
        pytest.skip("pre-commit is not installed (the dev extra has it)")
    src = tmp_path_factory.mktemp("hook-src") / "openclaw-tui"
    listed = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], REPO_ROOT)
    names = [n for n in listed.stdout.split("\0") if n] if listed.returncode == 0 else []
    # never a virtualenv (CI makes .ci-venv/ in the checkout) or other build output
    names = [n for n in names if n.split("/")[0] not in (".ci-venv", ".venv", "venv", "build", "dist")
             and "site-packages" not in n]
    if not names:
        pytest.skip("the project folder is not a git checkout")
    for name in names:
        if (REPO_ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, src / name)
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "snapshot")
    env = {"PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_RETRIES": "1", "PIP_TIMEOUT": "30"}  # an unreachable registry fails fast (then the test skips)
    yield src, env


def _pre_commit() -> str:
    local = Path(sys.executable).parent / "pre-commit"
    return str(local) if local.exists() else "pre-commit"


def _installed_or_skip(r: subprocess.CompletedProcess[str], env: dict[str, str]) -> None:
    """pre-commit installs the hook's environment from the package registry; skip only when it is unreachable."""
    if "An unexpected error has occurred" in r.stdout + r.stderr or "CalledProcessError" in r.stdout + r.stderr:
        log = Path(env["PRE_COMMIT_HOME"]) / "pre-commit.log"
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        if any(s in text for s in ("Could not find a version", "Failed to establish", "No matching distribution",
                                   "Temporary failure in name resolution", "Network is unreachable")):
            pytest.skip("pre-commit could not install the hook's environment: the package registry is unreachable")
        pytest.fail(r.stdout + r.stderr + text[-3000:])


@pytest.mark.slow  # pre-commit builds its own environment
@pytest.mark.timeout(900)
def test_pre_commit_try_repo_fails_on_a_dangling_reference_and_passes_without(
    memrepo: Path, hook_source: tuple[Path, dict[str, str]]
) -> None:
    src, env = hook_source
    with open(memrepo / "profiles" / "beta" / "skills" / "work.md", "a", encoding="utf-8") as fh:
        fh.write(DANGLING)
    git(memrepo, "add", "-A")
    bad = run([_pre_commit(), "try-repo", str(src), "openclaw-memory-check"], memrepo, env, timeout=900)
    _installed_or_skip(bad, env)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "openclaw-tui memory check" in bad.stdout and "Failed" in bad.stdout
    assert "error dangling-ref skills/work.md references mem-0999" in bad.stdout
    git(memrepo, "checkout", "-q", "HEAD", "--", "profiles/beta/skills/work.md")
    with open(memrepo / "profiles" / "beta" / "skills" / "work.md", "a", encoding="utf-8") as fh:
        fh.write("\nSee mem-0001 for the runbook.\n")  # a reference that resolves
    git(memrepo, "add", "-A")
    good = run([_pre_commit(), "try-repo", str(src), "openclaw-memory-check"], memrepo, env, timeout=900)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "openclaw-tui memory check" in good.stdout and "Passed" in good.stdout


@pytest.mark.slow  # pre-commit builds its own environment
@pytest.mark.timeout(900)
def test_an_installed_pre_commit_hook_blocks_the_commit(
    memrepo: Path, hook_source: tuple[Path, dict[str, str]]
) -> None:
    src, env = hook_source
    rev = git(src, "rev-parse", "HEAD").strip()
    (memrepo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {src}\n    rev: {rev}\n    hooks:\n      - id: openclaw-memory-check\n", encoding="utf-8")
    git(memrepo, "add", ".pre-commit-config.yaml")
    git(memrepo, "commit", "-qm", "pre-commit config")
    assert run([_pre_commit(), "install"], memrepo, env).returncode == 0
    with open(memrepo / "profiles" / "atlas" / "memories.md", "a", encoding="utf-8") as fh:
        fh.write("---\nid: mem-0100\nstatus: active\n---\nDepends on mem-0999.\n")
    git(memrepo, "add", "-A")
    head = git(memrepo, "rev-parse", "HEAD")
    blocked = run(["git", "commit", "-m", "add a dangling reference"], memrepo, env, timeout=900)
    _installed_or_skip(blocked, env)
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    assert "dangling-ref" in blocked.stdout + blocked.stderr
    assert git(memrepo, "rev-parse", "HEAD") == head  # nothing committed
    text = (memrepo / "profiles" / "atlas" / "memories.md").read_text(encoding="utf-8")
    (memrepo / "profiles" / "atlas" / "memories.md").write_text(text.replace("mem-0999", "mem-0001"), encoding="utf-8")
    git(memrepo, "add", "-A")
    done = run(["git", "commit", "-m", "add a reference that resolves"], memrepo, env, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(memrepo, "rev-parse", "HEAD") != head


# --- git-setup --hooks ---------------------------------------------------------------------------------


def test_git_setup_hooks_installs_a_post_commit_hook_that_indexes(memrepo: Path) -> None:
    hook = memrepo / ".git" / "hooks" / "post-commit"
    plain = cli("git-setup", "profiles", cwd=memrepo)
    assert plain.returncode == 0 and not hook.exists()  # opt-in only
    r = cli("git-setup", "profiles", "--hooks", cwd=memrepo)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(f"post-commit hook installed: {hook}\n")
    text = hook.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/sh\n") and os.access(hook, os.X_OK)
    assert "history profiles/atlas --index" in text and "history profiles/beta --index" in text
    again = cli("git-setup", "profiles", "--hooks", cwd=memrepo)
    assert again.returncode == 0 and again.stdout.endswith("post-commit hook already installed\n")
    assert hook.read_text(encoding="utf-8") == text

    index = memrepo / ".git" / "openclaw-tui" / "entry-index.sqlite"
    assert not index.exists()
    assert cli("add", "profiles/atlas", "--body", "indexed by the hook", cwd=memrepo).returncode == 0
    git(memrepo, "commit", "-qam", "an entry")  # runs the hook
    assert index.exists()
    after = cli("history", "profiles/atlas", "--index", cwd=memrepo)
    assert after.stdout == "0 pairs of versions indexed\n"  # the hook did it already


def test_git_setup_hooks_leaves_a_foreign_hook_alone(memrepo: Path) -> None:
    hook = memrepo / ".git" / "hooks" / "post-commit"
    hook.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    r = cli("git-setup", "profiles", "--hooks", cwd=memrepo)
    assert r.returncode == 2 and r.stderr.startswith("openclaw-tui: ") and r.stderr.count("\n") == 1
    assert "--index" in r.stderr  # the line to add by hand
    assert hook.read_text(encoding="utf-8") == "#!/bin/sh\necho mine\n"
    assert not (memrepo / ".gitattributes").exists()  # refused before anything was written


def test_git_setup_hooks_follows_core_hooks_path(memrepo: Path) -> None:
    git(memrepo, "config", "core.hooksPath", ".githooks")
    r = cli("git-setup", "profiles/atlas", "--hooks", cwd=memrepo)
    assert r.returncode == 0, r.stderr
    text = (memrepo / ".githooks" / "post-commit").read_text(encoding="utf-8")
    assert "history profiles/atlas --index" in text and "beta" not in text


def test_the_hook_takes_every_value_of_checks_options_as_a_value_not_a_file() -> None:
    from openclaw_tui.cli import build_parser
    from openclaw_tui.cli.precommit import split_args

    parser, _ = build_parser("check", lazy=True)
    sub = next(a for a in parser._actions if a.dest == "command").choices["check"]  # type: ignore[attr-defined]
    valued = [a.option_strings[-1] for a in sub._actions if a.option_strings and a.nargs != 0]
    assert "--stale-log-days" in valued and "--openclaw-config" in valued
    for option in valued:
        assert split_args([option, "7", "MEMORY.md"]) == ([option, "7"], ["MEMORY.md"]), option
