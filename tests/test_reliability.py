"""Hostile inputs (issue 10): alias bombs, unreadable files as a non-root user, writes that leave the folder."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from openclaw_tui.core.check.check import check_discovery
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.format.profile import discover
from openclaw_tui.core.format.yamlio import YamlTooLarge, compose_all_bounded, load_yaml, safe_load_bounded

from .conftest import REPO_ROOT, SAMPLES


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """'Billion laughs': each level is ``width`` aliases of the one below (width**levels values)."""
    names = [f"l{i}" for i in range(levels + 1)]
    rows = [f"{names[0]}: &{names[0]} [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels + 1):
        rows.append(f"{names[i]}: &{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * width) + "]")
    return "\n".join(rows) + "\n"


def cli(*args: str | Path, env: dict[str, str] | None = None, prefix: list[str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    e.update(env or {})
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "openclaw_tui.cli", *map(str, args)],
        capture_output=True, text=True, env=e, timeout=timeout, cwd="/",
    )


def profile_copy(tmp_path: Path, name: str = "atlas") -> Path:
    dest = tmp_path / name
    shutil.copytree(SAMPLES / "profiles" / name, dest)
    return dest


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for folders and links)."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(folder).as_posix()
            out[rel] = p.read_bytes() if p.is_file() and not p.is_symlink() else None
    return out


# --- 1. alias bombs ------------------------------------------------------------------------------


def test_loader_refuses_alias_bombs_fast_and_keeps_honest_aliases() -> None:
    start = time.monotonic()
    for load in (load_yaml, safe_load_bounded, compose_all_bounded):
        with pytest.raises(YamlTooLarge):
            load(alias_bomb())  # type: ignore[operator]
    assert time.monotonic() - start < 1.0
    assert load_yaml("a: &x {k: 1}\nb: *x\nwhen: 2025-01-01\n") == {"a": {"k": 1}, "b": {"k": 1}, "when": "2025-01-01"}
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: !!python/object/apply:os.system ['echo pwned']\n")


def test_alias_bomb_in_state_and_frontmatter_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    prof = profile_copy(tmp_path)
    with (prof / "state.yaml").open("a", encoding="utf-8") as fh:
        fh.write("\n" + alias_bomb())
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-9999\n" + alias_bomb() + "---\nlaughs\n")
    mf = parse((prof / "memories.md").read_text(encoding="utf-8"))
    bad = [e for e in mf.entries if e.error]
    assert [e.id for e in bad] == ["mem-9999"] and "alias" in (bad[0].error or "")
    start = time.monotonic()
    res = cli("check", prof, "--format", "json", timeout=30)
    assert time.monotonic() - start < 20
    assert res.returncode == 1, res.stderr
    found = {(f["code"], f["file"]) for f in json.loads(res.stdout)["findings"]}
    assert ("unreadable-file", "state.yaml") in found
    assert ("malformed-entry", "memories.md") in found
    res = cli("search", prof, "lol", "--json", timeout=30)
    assert res.returncode == 0 and "Traceback" not in res.stderr
    json.loads(res.stdout)


# --- 2. unreadable files and folders, as a user who cannot read them ----------------------------


def _unprivileged_prefix() -> list[str]:
    """A command prefix that runs a program without the power to read what it may not read.

    First choice: the user nobody.  The test interpreter may live where nobody cannot run it
    (a root-only pyenv); then root without any capability (no CAP_DAC_OVERRIDE), which obeys
    file modes exactly as an ordinary owner does.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not installed: cannot drop privileges")
    if os.geteuid() != 0:
        return []  # already an ordinary user
    for prefix in (
        [setpriv, "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"],
        [setpriv, "--bounding-set", "-all", "--inh-caps", "-all"],
    ):
        probe = subprocess.run([*prefix, sys.executable, "-c", "open('/proc/self/status')"],
                               capture_output=True, timeout=30)
        if probe.returncode == 0:
            return prefix
    pytest.skip("cannot run the interpreter without privileges here (setpriv refused)")


@pytest.fixture
def open_tmp(tmp_path: Path) -> Path:
    """A folder everyone can reach (pytest's tmp folders are private to root)."""
    base = Path("/tmp") / f"oc-rel-{os.getpid()}-{tmp_path.name}"
    base.mkdir(mode=0o777)
    base.chmod(0o777)
    yield base
    for dirpath, dirnames, _ in os.walk(base):
        for d in dirnames:
            os.chmod(Path(dirpath) / d, 0o755)
    shutil.rmtree(base, ignore_errors=True)


def test_unreadable_files_and_folders_are_findings_for_a_non_root_user(open_tmp: Path) -> None:
    prefix = _unprivileged_prefix()
    prof = open_tmp / "atlas"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    for dirpath, dirnames, filenames in os.walk(prof):
        for n in dirnames + filenames:
            os.chmod(Path(dirpath) / n, 0o777 if n in dirnames else 0o666)
    (prof / "contexts").chmod(0)
    (prof / "skills" / next(iter(sorted(os.listdir(prof / "skills"))))).chmod(0)
    (prof / "identity.md").chmod(0)
    probe = subprocess.run([*prefix, "cat", str(prof / "identity.md")], capture_output=True)
    assert probe.returncode != 0, "the unprivileged run can still read a mode-000 file"
    before = snapshot(prof)
    env = {"HOME": str(open_tmp), "XDG_CACHE_HOME": str(open_tmp / "cache"), "XDG_CONFIG_HOME": str(open_tmp / "cfg")}
    res = cli("check", prof, "--format", "json", prefix=prefix, env=env)
    assert "Traceback" not in res.stderr and res.returncode == 1, res.stderr
    report = json.loads(res.stdout)
    unreadable = {f["file"] for f in report["findings"] if f["code"] == "unreadable-file"}
    assert {"contexts", "identity.md"} <= unreadable
    assert any(f.startswith("skills/") for f in unreadable)
    assert report["profiles"][0]["entries"] > 0  # memories.md was still checked
    res = cli("search", prof, "the", "--json", prefix=prefix, env=env)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert json.loads(res.stdout)["results"]
    (prof / "memories.md").chmod(0)
    for args in (("check", prof, "--format", "json"), ("search", prof, "x", "--json")):
        res = cli(*args, prefix=prefix, env=env)
        assert "Traceback" not in res.stderr and res.returncode in (0, 1), res.stderr
        json.loads(res.stdout)
    res = cli("archive", prof, "mem-0001", prefix=prefix, env=env)
    assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ") and res.stderr.count("\n") == 1
    (prof / "contexts").chmod(0o777)
    assert snapshot(prof) == before  # nothing written, no lock file either


def test_unreadable_profile_in_a_root_does_not_break_the_others(open_tmp: Path) -> None:
    prefix = _unprivileged_prefix()
    root = open_tmp / "profiles"
    shutil.copytree(SAMPLES / "profiles", root)
    for dirpath, dirnames, _files in os.walk(root):
        for n in dirnames:
            os.chmod(Path(dirpath) / n, 0o777)
    (root / "atlas").chmod(0)
    env = {"HOME": str(open_tmp), "XDG_CACHE_HOME": str(open_tmp / "cache")}
    res = cli("check", root, "--format", "json", prefix=prefix, env=env)
    assert "Traceback" not in res.stderr and res.returncode in (0, 1), res.stderr
    assert json.loads(res.stdout)["profiles"]


def test_in_process_check_reports_a_fifo_and_a_folder_named_like_a_file(tmp_path: Path) -> None:
    prof = profile_copy(tmp_path)
    os.mkfifo(prof / "contexts" / "pipe.md")
    (prof / "skills" / "dir.md").mkdir()
    assert stat.S_ISFIFO(os.lstat(prof / "contexts" / "pipe.md").st_mode)
    findings = check_discovery(discover(prof))
    unreadable = {f.file for f in findings if f.code == "unreadable-file"}
    assert "contexts/pipe.md" in unreadable
