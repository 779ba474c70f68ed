"""Issue 24, point 16: a config folder that permission denies (another user's HOME, as under setpriv or
runuser without a HOME reset) gives the defaults and one warning line, as git does, not exit 2.

Run for real: the command runs as an unprivileged user (``setpriv`` to nobody when the tests run as root,
who is never denied) with HOME a folder that user cannot enter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, SAMPLES

NOBODY = 65534


def _as_other_user() -> list[str]:
    if os.geteuid() != 0:
        return []  # an ordinary user is denied a chmod 000 folder of its own
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv is not installed: no way to be denied a folder")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder every user can read (pytest's tmp_path is root's own), removed afterwards."""
    top = Path(tempfile.mkdtemp(prefix="openclaw-cfg-"))
    top.chmod(0o755)
    try:
        yield top
    finally:
        if (top / "home").is_dir():
            (top / "home").chmod(0o755)
        for p in top.rglob("*"):
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(top, ignore_errors=True)


def _run(world: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = world / "home"
    (home / ".config" / "openclaw-tui").mkdir(parents=True, exist_ok=True)
    home.chmod(0o000)  # the folder the config file is in cannot be entered (nor read)
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
                                                              "OPENCLAW_TUI_CONFIG")}
    env.update(HOME=str(home), PYTHONPATH=str(REPO_ROOT))
    return subprocess.run([*_as_other_user(), sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True,
                          text=True, timeout=120, env=env, cwd=world)


def _readable_profile(world: Path) -> Path:
    prof = world / "atlas"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    for p in [prof, *prof.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    return prof


def test_check_with_an_unreadable_config_folder_uses_the_defaults(world: Path) -> None:
    prof = _readable_profile(world)
    res = _run(world, "check", str(prof), "--today", "2026-11-30", "--format", "json")
    warning = res.stderr.splitlines()
    assert len(warning) == 1 and "Permission denied" in warning[0], res.stderr  # truly denied, said once
    assert warning[0].startswith("openclaw-tui: warning: unable to access ") and "config.toml" in warning[0]
    assert "using the default settings" in warning[0]
    assert res.returncode in (0, 1) and res.stdout.startswith("{"), res.stdout  # the check ran


def test_config_says_the_file_cannot_be_read_and_prints_the_defaults(world: Path) -> None:
    res = _run(world, "config")
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("\n") == 1 and "Permission denied" in res.stderr
    assert "cannot be read (Permission denied): the defaults below are in effect" in res.stdout
    assert "no such file" not in res.stdout and "cap = 200" in res.stdout


def test_search_with_an_unreadable_config_folder_still_answers(world: Path) -> None:
    prof = _readable_profile(world)
    res = _run(world, "search", str(prof), "upgrade", "-n", "1")
    assert res.returncode == 0 and "skills/work.md" in res.stdout, res.stdout + res.stderr
    assert res.stderr.count("\n") == 1 and "Permission denied" in res.stderr
