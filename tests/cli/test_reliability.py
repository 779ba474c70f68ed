"""Hostile inputs (issue 10): alias bombs, unreadable files as a non-root user, writes that leave the folder."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from openclaw_tui.core.check.rules import check_discovery
from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.format.yamlio import YamlTooLarge, compose_all_bounded, load_yaml, safe_load_bounded
from tests.conftest import REPO_ROOT, SAMPLES


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


def test_loader_refuses_alias_bombs_and_keeps_honest_aliases() -> None:
    for load in (load_yaml, safe_load_bounded, compose_all_bounded):
        with pytest.raises(YamlTooLarge):
            load(alias_bomb())  # type: ignore[operator]
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
    res = cli("check", prof, "--format", "json", timeout=30)  # (a hang: the timeout fails the test)
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
    env = {"HOME": str(open_tmp), "XDG_CACHE_HOME": str(open_tmp / "cache"), "XDG_CONFIG_HOME": str(open_tmp / "cfg")}
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


# --- 3. no write through a link that leaves the folder -------------------------------------------


def _outside_links(tmp_path: Path) -> tuple[Path, Path]:
    prof = profile_copy(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(prof / "contexts" / "archive")
    (prof / "contexts" / "archive").symlink_to(outside, target_is_directory=True)
    return prof, outside


@pytest.mark.parametrize(
    "args",
    [("archive", "{p}", "mem-0001"), ("gc", "{p}", "--today", "2040-01-01")],
)
def test_no_command_writes_through_an_archive_link_that_leaves_the_profile(tmp_path: Path, args: tuple[str, ...]) -> None:
    prof, outside = _outside_links(tmp_path)
    before = snapshot(prof)
    res = cli(*(a.format(p=prof) for a in args))
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert res.stderr.startswith("openclaw-tui: ") and res.stderr.count("\n") == 1
    assert "leaves" in res.stderr
    assert list(outside.iterdir()) == []  # no memories.md, no lock, no temp file
    assert snapshot(prof) == before


def test_no_audit_log_or_secrets_refs_through_a_link_out(tmp_path: Path) -> None:
    prof = profile_copy(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-0900\n---\nkey: sk-live-1234567890abcdefghijklmnop and mail a.b@example.com\n")
    (prof / "audit.log").symlink_to(outside / "audit.log")
    res = cli("check", prof, "--write-audit-log")
    assert res.returncode == 2 and "leaves" in res.stderr, (res.stdout, res.stderr)
    (prof / "audit.log").unlink()
    (prof / "secrets_refs.yaml").symlink_to(outside / "secrets_refs.yaml")
    before = snapshot(prof)
    res = cli("redact", prof)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert list(outside.iterdir()) == [] and snapshot(prof) == before


def test_links_inside_the_profile_and_a_linked_profile_folder_still_work(tmp_path: Path) -> None:
    real = profile_copy(tmp_path)
    (real / "old-archive").mkdir()
    shutil.move(str(real / "contexts" / "archive" / "memories.md"), real / "old-archive" / "memories.md")
    shutil.rmtree(real / "contexts" / "archive")
    (real / "contexts" / "archive").symlink_to(Path("../old-archive"), target_is_directory=True)
    alias = tmp_path / "alias"
    alias.symlink_to(real, target_is_directory=True)  # the profile folder itself may be a link
    res = cli("archive", alias, "mem-0001")
    assert res.returncode == 0, res.stderr
    assert "id: mem-0001" in (real / "old-archive" / "memories.md").read_text(encoding="utf-8")


# --- 5. a crash between two files; 6. stale temp files ----------------------------------------------


def test_a_move_interrupted_after_the_first_file_is_finished_by_the_next_command(tmp_path: Path) -> None:
    """The state a SIGKILL leaves between the two replacements: journal written, archive replaced only."""
    from openclaw_tui.core.files import safe_write as sw
    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.core.lifecycle.archive import plan_archive

    prof = profile_copy(tmp_path)
    plan = plan_archive(load_profile(prof), ["mem-0001"])
    todo = [(c.path, c.before, c.after) for c in plan.changes if c.changed]
    assert [p.name for p, _, _ in todo] == ["memories.md", "memories.md"] and len(todo) == 2
    # what replace_all does up to the crash: temp files, the journal, the first replacement
    records = []
    for p, before, after in todo:
        tmp = sw._write_temp(p, after, ".pending")
        records.append({"path": os.path.relpath(p, prof), "before": sw._digest(before), "after": sw._digest(after),
                        "tmp": os.path.basename(tmp)})
    sw.atomic_write(prof / sw.JOURNAL, json.dumps({"version": 1, "files": records}).encode())
    os.replace(todo[0][0].parent / str(records[0]["tmp"]), todo[0][0])
    res = cli("check", prof, "--format", "json", "--fail-on", "never")
    assert res.returncode == 0, res.stderr
    # one JSON document on stdout; the user is told on stderr that the move was finished
    assert not [f for f in json.loads(res.stdout)["findings"] if f["code"] == "duplicate-id"]
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("openclaw-tui: note: finished a move between files")
    assert not (prof / sw.JOURNAL).exists()
    again = cli("check", prof, "--format", "json", "--fail-on", "never")
    assert again.returncode == 0 and again.stderr == ""  # said once: nothing left to finish
    for p, _, after in todo:
        assert p.read_bytes() == after
    assert not [n for n in os.listdir(prof) + os.listdir(prof / "contexts" / "archive") if n.endswith((".tmp", ".pending"))]


def test_crash_before_the_journal_leaves_the_old_files_and_the_next_writer_removes_the_temps(tmp_path: Path) -> None:
    from openclaw_tui.core.files import safe_write as sw

    prof = profile_copy(tmp_path)
    mem = prof / "memories.md"
    before = mem.read_bytes()
    stale = [sw._write_temp(mem, b"x" * 1000, ".pending"), sw._write_temp(mem, b"y" * 1000)]
    other = prof / ".state.yaml.abc.tmp"  # another file's temp: not ours to remove
    other.write_bytes(b"z")
    res = cli("check", prof, "--format", "json", "--fail-on", "never")
    assert res.returncode == 0 and mem.read_bytes() == before
    assert all(Path(s).exists() for s in stale)  # a read-only command removes nothing
    res = cli("set", prof, "mem-0001", "importance=low")
    assert res.returncode == 0, res.stderr
    assert not any(Path(s).exists() for s in stale) and other.exists()


@pytest.mark.slow
def test_sigkill_of_real_moves_leaves_a_consistent_profile(tmp_path: Path) -> None:
    """Small CI version of bench/crash.py (30 trials at 100k there)."""
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    from crash import crash_trials

    lines: list[str] = []
    failures = crash_trials(4000, 4, seed=int(os.environ.get("CRASH_SEED", "3")), work=tmp_path, say=lines.append)
    assert not failures, "\n".join(lines)


def test_the_watcher_ignores_the_journal_and_its_temp_files() -> None:
    """A move's own journal and .pending files are not "changed by another program" in the UI."""
    from openclaw_tui.core.files.watch import classify

    for rel in ("p/.openclaw-tui.journal", "p/.memories.md.ab12.pending", "p/contexts/.trip.md.x.pending",
                "p/.state.yaml.x.tmp"):
        assert classify(rel) == "ignore", rel
    for rel in ("p/memories.md", "p/state.yaml", "p/contexts/pending", "p/notes.pending"):
        assert classify(rel) == "file", rel


def test_a_journal_path_that_is_a_link_out_refuses_a_move_before_any_lock_file(tmp_path: Path) -> None:
    """The journal a move would write is checked like the files: a link leaving the profile means exit 2,
    and not even a lock file is created."""
    from openclaw_tui.core.files import safe_write as sw

    prof = profile_copy(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep\n")
    (prof / sw.JOURNAL).symlink_to(outside)
    before = snapshot(prof)
    res = cli("archive", prof, "mem-0001")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "refusing to write through a link" in res.stderr
    assert snapshot(prof) == before and outside.read_bytes() == b"keep\n"
    res = cli("check", prof, "--format", "json", "--fail-on", "never")  # read-only: the link is left alone
    assert res.returncode == 0 and json.loads(res.stdout) and snapshot(prof) == before


def test_a_forged_journal_cannot_make_recovery_write_outside(tmp_path: Path) -> None:
    """A journal is trusted only for files below its folder: an agent cannot plant one to overwrite ~/.bashrc."""
    import hashlib

    from openclaw_tui.core.files import safe_write as sw

    prof = profile_copy(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    evil = b"pwned\n"
    pending = tmp_path / ".victim.txt.x.pending"
    pending.write_bytes(evil)
    (prof / ".victim.txt.y.pending").write_bytes(evil)
    for path, tmp in (("../victim.txt", ".victim.txt.x.pending"), ("victim-link", ".victim-link.y.pending")):
        if path == "victim-link":
            (prof / "victim-link").symlink_to(victim)
        records = [{"path": path, "before": hashlib.sha256(b"precious\n").hexdigest(),
                    "after": hashlib.sha256(evil).hexdigest(), "tmp": tmp},
                   {"path": "memories.md", "before": None, "after": None, "tmp": None}]
        (prof / sw.JOURNAL).write_text(json.dumps({"version": 1, "files": records}), encoding="utf-8")
        res = cli("check", prof, "--format", "json", "--fail-on", "never")
        assert res.returncode == 0, res.stderr
        assert victim.read_bytes() == b"precious\n"


def test_a_line_of_a_million_references_counts_each_reference_once_per_line(tmp_path: Path) -> None:
    """A hostile context file (one huge line of ids) must not make check/repair build a million findings."""
    prof = profile_copy(tmp_path)
    (prof / "contexts").mkdir(exist_ok=True)
    (prof / "contexts" / "flood.md").write_text("mem-9999 " * 200_000 + "\nmem-9999 and mem-9999\n", encoding="utf-8")
    res = cli("check", prof, "--format", "json", "--fail-on", "never")
    assert res.returncode == 0, res.stderr
    flood = [(f["line"], f["code"]) for f in json.loads(res.stdout)["findings"] if f.get("file") == "contexts/flood.md"]
    assert flood == [(1, "dangling-ref"), (2, "dangling-ref")]
    res = cli("repair", prof, "--json", "--no-history")
    assert res.returncode in (0, 1) and json.loads(res.stdout) is not None


def test_a_line_flooded_with_links_in_a_memory_is_one_finding_and_repair_lists_it(tmp_path: Path) -> None:
    """15,000 copies of one dangling link on one body line: one finding (not 15,000), and repair's
    listing stays linear (each line's occurrences are found once; no cut offered on such a line)."""
    prof = profile_copy(tmp_path)
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-0991\n---\n" + "[x](nowhere.md) " * 15_000 + "\nsee [y](nowhere.md)\n")
    res = cli("check", prof, "--format", "json", "--fail-on", "never")
    assert res.returncode == 0, res.stderr
    found = [(f["code"], f["line"]) for f in json.loads(res.stdout)["findings"] if "nowhere.md" in f["message"]]
    assert len(found) == 2 and found[0][1] + 1 == found[1][1] and {c for c, _ in found} == {"dangling-file"}
    res = cli("repair", prof, "--json", "--no-history")
    assert res.returncode == 1, res.stderr
    listed = json.dumps(json.loads(res.stdout))
    assert listed.count("nowhere.md") >= 2
