"""The sub-commands that do what the UI does: add, resolve, compact, rollback, revert, completion.

Each runs as a subprocess on a copy of the samples; the files are compared byte for byte:
exactly the expected change on success, nothing at all on --dry-run or on bad input.
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse_bytes


def cli(*args: str, cwd: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=120, cwd=cwd, input=stdin)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (but .git) and its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def entries(path: Path) -> dict[str, dict[str, object]]:
    return {e.id: dict(e.meta) for e in parse_bytes(path.read_bytes()).well_formed() if e.id}


def bodies(path: Path) -> dict[str, str]:
    return {e.id: e.body for e in parse_bytes(path.read_bytes()).well_formed() if e.id}


def one_line_error(r: subprocess.CompletedProcess[str]) -> None:
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("openclaw-tui") and r.stderr.count("\n") == 1, r.stderr


@pytest.fixture
def root(tmp_path: Path, samples: Path) -> Path:
    shutil.copytree(samples, tmp_path / "s")
    return tmp_path / "s"


@pytest.fixture
def xiaoyu(root: Path) -> Path:
    return root / "profiles" / "xiaoyu"


# --- add -------------------------------------------------------------------------------------------


def test_add_appends_one_entry_with_the_next_id_and_lists_candidates(xiaoyu: Path) -> None:
    mem = xiaoyu / "memories.md"
    before = mem.read_bytes()
    others = {k: v for k, v in tree(xiaoyu).items() if k != "memories.md"}
    r = cli("add", str(xiaoyu), "--body", "用户开始喝低因手冲咖啡。", "--tags", "咖啡,health", "--importance", "high",
            "--source", "chat#9001", "--conflict", "mem-0012")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    new_id = lines[0]
    assert new_id == "mem-0054"  # the highest id in memories.md and the archive is mem-0053
    assert "shares tags with: mem-0012 (咖啡, health)" in lines  # most shared tags first
    assert "shares tags with: mem-0007 (咖啡)" in lines
    after = mem.read_bytes()
    assert after.startswith(before) and after.count(b"\n---\nid: ") == before.count(b"\n---\nid: ") + 1
    added = after[len(before):].decode("utf-8")
    assert added.startswith("---\nid: mem-0054\ntimestamp: ")
    assert "\nsource: chat#9001\nimportance: high\nstatus: active\ntags: [咖啡, health]\nconflict: mem-0012\n---\n" \
        "用户开始喝低因手冲咖啡。\n" in added
    assert {k: v for k, v in tree(xiaoyu).items() if k not in ("memories.md", "memories.md.lock")} == others
    # the check now sees the new conflict, so the written entry reads back as the format says
    check = cli("check", str(xiaoyu), "--format", "json", "--fail-on", "never")
    pairs = [f for f in json.loads(check.stdout)["findings"] if f["code"] == "unresolved-conflict"]
    assert any(f["id"] == "mem-0054" for f in pairs)


def test_add_lists_a_near_duplicate_and_skip_duplicate_writes_nothing(xiaoyu: Path) -> None:
    same = bodies(xiaoyu / "memories.md")["mem-0003"].strip()
    before = tree(xiaoyu)
    r = cli("add", str(xiaoyu), "--body", same, "--skip-duplicate", "--json")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["id"] == "mem-0003" and doc["skipped_duplicate"] and not doc["written"]
    assert doc["duplicates"][0] == {"id": "mem-0003", "score": 1.0, "reason": "same text", "archived": False}
    assert tree(xiaoyu) == before
    r = cli("add", str(xiaoyu), "--body", same[:-6], "--tags", "宠物")
    assert r.returncode == 0
    assert r.stdout.splitlines()[1].startswith("possible duplicate: mem-0003 (nearly the same text, 0.")


def test_add_dry_run_prints_the_diff_and_writes_nothing(xiaoyu: Path) -> None:
    before = tree(xiaoyu)
    r = cli("add", str(xiaoyu), "--body", "dry", "--dry-run")
    assert r.returncode == 0
    assert r.stdout.startswith("mem-0054\n") and "+id: mem-0054\n" in r.stdout and "+dry\n" in r.stdout
    assert r.stdout.endswith("(dry run: nothing written)\n")
    r = cli("add", str(xiaoyu), "--body", "dry", "--dry-run", "--json")
    assert json.loads(r.stdout)["written"] is False and json.loads(r.stdout)["dry_run"] is True
    assert tree(xiaoyu) == before


@pytest.mark.parametrize("bad", [
    ["--body", "x", "--importance", "urgent"],
    ["--body", "x", "--conflict", "mem-0999"],
    ["--body", "   "],
    ["--body", "x", "--body-file", "f"],
    [],
    ["--body-file", "/nonexistent/file"],
])
def test_add_bad_input_exits_2_and_writes_nothing(xiaoyu: Path, bad: list[str]) -> None:
    before = tree(xiaoyu)
    one_line_error(cli("add", str(xiaoyu), *bad))
    assert tree(xiaoyu) == before


def test_add_reads_the_body_from_stdin_and_refuses_a_workspace(root: Path, xiaoyu: Path) -> None:
    r = cli("add", str(xiaoyu), "--body-file", "-", stdin="from stdin\nsecond line\n")
    assert r.returncode == 0
    assert bodies(xiaoyu / "memories.md")["mem-0054"] == "from stdin\nsecond line\n"
    ws = tree(root / "workspace")
    one_line_error(cli("add", str(root / "workspace"), "--body", "x"))
    assert tree(root / "workspace") == ws


def test_add_into_a_profiles_root_needs_profile(root: Path) -> None:
    before = tree(root)
    one_line_error(cli("add", str(root / "profiles"), "--body", "x"))
    assert tree(root) == before
    r = cli("add", str(root / "profiles"), "--profile", "atlas", "--body", "x")
    assert r.returncode == 0 and "mem-" in r.stdout


# --- resolve ---------------------------------------------------------------------------------------


def test_resolve_keep_one_supersedes_the_other(xiaoyu: Path) -> None:
    mem = xiaoyu / "memories.md"
    before = mem.read_bytes()
    r = cli("resolve", str(xiaoyu), "mem-0012", "mem-0007", "--keep", "mem-0012", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["choice"] == "keep-left" and doc["superseded"] == {"mem-0007": "mem-0012"} and doc["written"]
    after = entries(mem)
    assert after["mem-0007"]["status"] == "superseded" and after["mem-0007"]["superseded_by"] == "mem-0012"
    # only mem-0007's block changed: two lines, status rewritten and superseded_by added
    delta = [d for d in difflib.ndiff(before.decode().splitlines(), mem.read_bytes().decode().splitlines())
             if d[:1] in "+-"]
    assert delta == ["- status: active", "+ status: superseded", "+ superseded_by: mem-0012"]


def test_resolve_keep_both_drops_the_conflict_field_only(xiaoyu: Path) -> None:
    mem = xiaoyu / "memories.md"
    before = mem.read_bytes()
    r = cli("resolve", str(xiaoyu), "mem-0012", "mem-0007", "--keep", "both")
    assert r.returncode == 0 and r.stdout == "mem-0012: changed (conflict)\n"
    assert mem.read_bytes() == before.replace(b"conflict: mem-0007\n", b"", 1)


def test_resolve_merge_writes_a_new_entry_superseding_both(xiaoyu: Path, tmp_path: Path) -> None:
    body = tmp_path / "merged.md"
    body.write_text("现在只喝低因咖啡。\n", encoding="utf-8")
    r = cli("resolve", str(xiaoyu), "mem-0012", "mem-0007", "--merge-file", str(body))
    assert r.returncode == 0, r.stderr
    after = entries(xiaoyu / "memories.md")
    assert after["mem-0054"]["merged_from"] == ["mem-0012", "mem-0007"]
    assert after["mem-0012"]["superseded_by"] == after["mem-0007"]["superseded_by"] == "mem-0054"


@pytest.mark.parametrize("bad", [
    ["mem-0012", "mem-0007", "--keep", "mem-0001"],
    ["mem-0012", "mem-0999", "--keep", "mem-0012"],
    ["mem-0012", "mem-0012", "--keep", "both"],
    ["mem-0001", "mem-0003", "--keep", "both"],  # no conflict between them to drop
    ["mem-0012", "mem-0007"],
    ["mem-0012", "mem-0007", "--keep", "both", "--merge-file", "x"],
])
def test_resolve_bad_input_exits_2_and_writes_nothing(xiaoyu: Path, bad: list[str]) -> None:
    before = tree(xiaoyu)
    one_line_error(cli("resolve", str(xiaoyu), *bad))
    assert tree(xiaoyu) == before


def test_resolve_dry_run_writes_nothing(xiaoyu: Path) -> None:
    before = tree(xiaoyu)
    r = cli("resolve", str(xiaoyu), "mem-0012", "mem-0007", "--keep", "mem-0007", "--dry-run")
    assert r.returncode == 0 and "+superseded_by: mem-0007\n" in r.stdout
    assert tree(xiaoyu) == before


# --- compact ---------------------------------------------------------------------------------------


def test_compact_by_tag_moves_the_originals_to_the_archive(xiaoyu: Path, tmp_path: Path) -> None:
    mem, arch = xiaoyu / "memories.md", xiaoyu / "contexts" / "archive" / "memories.md"
    tagged = [i for i, m in entries(mem).items() if "宠物" in (m.get("tags") or []) and m.get("status") == "active"]
    assert len(tagged) >= 2
    raws = {e.id: e.raw for e in parse_bytes(mem.read_bytes()).well_formed() if e.id in tagged}
    body = tmp_path / "b.md"
    body.write_text("团子：英短蓝猫，三岁。\n", encoding="utf-8")
    r = cli("compact", str(xiaoyu), "--tag", "宠物", "--body-file", str(body), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["ids"] == tagged and doc["new_id"] == "mem-0054"
    assert sorted(doc["files"]) == ["contexts/archive/memories.md", "memories.md"]
    now = entries(mem)
    assert not set(tagged) & set(now) and now["mem-0054"]["merged_from"] == tagged
    archived = parse_bytes(arch.read_bytes())
    for e in archived.well_formed():
        if e.id in tagged:
            assert e.meta["status"] == "superseded" and e.meta["superseded_by"] == "mem-0054"
            # the original body bytes travel unchanged
            assert e.raw.endswith(raws[e.id].split("---\n", 2)[2])


def test_compact_by_ids_dry_run_and_bad_input(xiaoyu: Path, tmp_path: Path) -> None:
    body = tmp_path / "b.md"
    body.write_text("merged\n", encoding="utf-8")
    before = tree(xiaoyu)
    r = cli("compact", str(xiaoyu), "--ids", "mem-0001,mem-0003", "--body-file", str(body), "--dry-run")
    assert r.returncode == 0 and "mem-0001: superseded by mem-0054" in r.stdout
    assert tree(xiaoyu) == before
    empty = tmp_path / "empty.md"
    empty.write_text("\n", encoding="utf-8")
    for bad in (["--ids", "mem-0001"], ["--ids", "mem-0001,mem-0999"], ["--tag", "no-such-tag"],
                ["--ids", "mem-0001,mem-0003", "--importance", "x"], ["--ids", "mem-0001,mem-0001"]):
        one_line_error(cli("compact", str(xiaoyu), *bad, "--body-file", str(body)))
    one_line_error(cli("compact", str(xiaoyu), "--ids", "mem-0001,mem-0003", "--body-file", str(empty)))
    one_line_error(cli("compact", str(xiaoyu), "--ids", "mem-0001,mem-0003"))
    assert tree(xiaoyu) == before


# --- rollback and revert, on a real repository ------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(root: Path) -> Path:
    git(root, "init", "-q")
    with open(root / ".git" / "info" / "exclude", "a", encoding="utf-8") as fh:
        fh.write("*.lock\n")  # as git-setup does: the safe-write lock files are never committed
    git(root, "add", "-A")
    git(root, "commit", "-qm", "samples")
    return root


def _commit_add(repo: Path, profile: Path, text: str) -> str:
    r = cli("add", str(profile), "--body", text)
    assert r.returncode == 0, r.stderr
    git(repo, "add", "-A", str(profile))
    git(repo, "commit", "-qm", f"add {text}")
    return git(repo, "rev-parse", "HEAD").strip()


def test_rollback_restores_the_profile_folder_as_git_checkout_does(repo: Path) -> None:
    atlas = repo / "profiles" / "atlas"
    base = git(repo, "rev-parse", "HEAD").strip()
    _commit_add(repo, atlas, "one")
    (atlas / "skills" / "new.md").write_text("a new skill\n", encoding="utf-8")
    (atlas / "identity.md").write_text("rewritten\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "more")
    xiaoyu_before = tree(repo / "profiles" / "xiaoyu")
    # what `git checkout BASE -- profiles/atlas/` (plus removing files added since) gives
    expected = repo.parent / "expected"
    git(repo, "worktree", "add", "-q", str(expected), base)
    want = tree(expected / "profiles" / "atlas")

    dry = cli("rollback", str(atlas), base[:10], "--dry-run", "--json")
    assert dry.returncode == 0 and json.loads(dry.stdout)["written"] is False
    assert {f["path"]: f["action"] for f in json.loads(dry.stdout)["files"]} == {
        "identity.md": "restore", "memories.md": "restore", "skills/new.md": "delete"}
    assert git(repo, "status", "--porcelain", "--", "profiles") == ""

    r = cli("rollback", str(atlas), base[:10])
    assert r.returncode == 0, r.stderr
    assert "mem-0018: removed" in r.stdout and "skills/new.md: delete" in r.stdout
    got = {k: v for k, v in tree(atlas).items() if not k.endswith(".lock")}
    assert got == want and want["identity.md"] != b"rewritten\n"
    assert tree(repo / "profiles" / "xiaoyu") == xiaoyu_before
    # left uncommitted, and now it refuses to run over those changes
    assert git(repo, "status", "--porcelain", "--", "profiles/atlas") != ""
    snapshot = tree(atlas)
    one_line_error(cli("rollback", str(atlas), "HEAD"))
    assert tree(atlas) == snapshot


def test_revert_undoes_one_commit_and_keeps_later_ones(repo: Path) -> None:
    atlas = repo / "profiles" / "atlas"
    first = _commit_add(repo, atlas, "one")
    _commit_add(repo, atlas, "two")
    mem_before = (atlas / "memories.md").read_bytes()
    dry = cli("revert", str(atlas), first, "--dry-run")
    assert dry.returncode == 0 and "mem-0018: removed" in dry.stdout
    assert (atlas / "memories.md").read_bytes() == mem_before
    r = cli("revert", str(atlas), first, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files"] == ["memories.md"]
    now = entries(atlas / "memories.md")
    assert "mem-0018" not in now and "mem-0019" in now
    block = mem_before.split(b"---\nid: mem-0018\n", 1)
    assert (atlas / "memories.md").read_bytes() == block[0] + b"---\nid: mem-0019\n" + block[1].split(
        b"---\nid: mem-0019\n", 1)[1]


def test_rollback_and_revert_bad_input(repo: Path, tmp_path: Path) -> None:
    atlas = repo / "profiles" / "atlas"
    before = tree(repo)
    for cmd in ("rollback", "revert"):
        one_line_error(cli(cmd, str(atlas), "no-such-commit"))
        one_line_error(cli(cmd, str(atlas), "--", "-x"))
        one_line_error(cli(cmd, str(tmp_path / "missing"), "HEAD"))
    assert tree(repo) == before
    outside = tmp_path / "outside"
    shutil.copytree(atlas, outside)
    one_line_error(cli("rollback", str(outside), "HEAD"))


def test_revert_refuses_when_later_changes_touch_the_same_entry(repo: Path) -> None:
    atlas = repo / "profiles" / "atlas"
    first = _commit_add(repo, atlas, "one")
    assert cli("set", str(atlas), "mem-0018", "importance=high").returncode == 0
    git(repo, "commit", "-qam", "edit it")
    before = tree(repo)
    r = cli("revert", str(atlas), first)
    one_line_error(r)
    assert "nothing written" in r.stderr
    assert tree(repo) == before


# --- completion ------------------------------------------------------------------------------------


def _bash_complete(script: Path, words: list[str]) -> list[str]:
    line = " ".join(words)
    prog = (f"source {script}\nCOMP_WORDS=({line})\nCOMP_CWORD={len(words) - 1}\n"
            "_openclaw_tui\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    r = subprocess.run(["bash", "-c", prog], capture_output=True, text=True, timeout=30, cwd=script.parent)
    assert r.returncode == 0, r.stderr
    return [x for x in r.stdout.splitlines() if x]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completion_completes_sub_commands_and_their_options(tmp_path: Path) -> None:
    r = cli("completion", "bash")
    assert r.returncode == 0
    script = tmp_path / "c.bash"
    script.write_text(r.stdout, encoding="utf-8")
    assert {"rollback", "revert", "resolve", "restore", "redact", "repair", "review"} == set(
        _bash_complete(script, ["openclaw-tui", "r"]))
    assert "serve" in _bash_complete(script, ["openclaw-tui", "se"])
    assert _bash_complete(script, ["openclaw-tui", "add", "x", "--sk"]) == ["--skip-duplicate"]
    assert set(_bash_complete(script, ["openclaw-tui", "completion", ""])) == {"bash", "zsh", "fish"}


def test_zsh_and_fish_scripts_name_every_sub_command() -> None:
    from openclaw_tui.cli import build_parser

    _, names = build_parser()
    zsh, fish = cli("completion", "zsh").stdout, cli("completion", "fish").stdout
    assert zsh.startswith("#compdef openclaw-tui\n")
    for name in names:
        assert f"'{name}:" in zsh and f"-a {name} " in fish
    assert "-l dry-run" in fish
    for shell in ("zsh", "fish"):
        exe = shutil.which(shell)
        if exe:  # a syntax check where the shell exists
            args = [exe, "-n"] if shell == "zsh" else [exe, "--no-execute"]
            assert subprocess.run([*args, "-c", cli("completion", shell).stdout]).returncode == 0
    one_line_error(cli("completion", "powershell"))


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish shell on this machine")
def test_fish_completion_completes(tmp_path: Path) -> None:
    script = tmp_path / "oc.fish"
    script.write_text(cli("completion", "fish").stdout, encoding="utf-8")

    def complete(line: str) -> list[str]:
        r = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
                           capture_output=True, text=True, timeout=30, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        return [x.split("\t")[0] for x in r.stdout.splitlines()]

    assert {"resolve", "restore", "revert", "redact"} <= set(complete("openclaw-tui re"))
    assert complete("openclaw-tui add x --sk") == ["--skip-duplicate"]


# --- merge: the merge screen's decisions from the command line -----------------------------------------


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The demo repository: a merge of branch agent-thread-b stopped on conflicts in xiaoyu."""
    from openclaw_tui.core.git.demo import build_demo

    root = Path(build_demo(tmp_path / "demo"))
    assert "UU profiles/xiaoyu/memories.md" in git(root, "status", "--porcelain")
    return root


def test_merge_lists_the_conflicts_and_exits_1_while_some_are_left(demo: Path) -> None:
    before = tree(demo)
    r = cli("merge", "profiles", cwd=demo)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "merge in progress: branch 'agent-thread-b'",
        "profiles/xiaoyu/memories.md: 2 conflicts",
        "  mem-0012: changed on both sides (line 98)",
        ("  mem-0054: two different entries added on both sides under this id: both kept, theirs under the next free id"
             " (line 552); suggested: both"),
        "profiles/xiaoyu/state.yaml: 1 conflict (by region: not memory)",
        "  region-1: changed on both sides (line 9)",
        # the renumbering is announced (and the references theirs added to it, when there are any)
        "profiles/xiaoyu/memories.md: mem-0054 was added on both sides as two different entries: both kept,"
        " theirs is now mem-0055",
        "2 conflicts left",  # mem-0054 is decided already: two additions are both kept
    ]
    doc = json.loads(cli("merge", "profiles", "--json", cwd=demo).stdout)
    assert doc["remaining"] == 2 and [i["key"] for i in doc["files"][0]["items"]] == ["mem-0012", "mem-0054"]
    # an incomplete decision writes nothing
    partial = cli("merge", "profiles", "--pick", "mem-0012=ours", cwd=demo)
    assert partial.returncode == 1 and partial.stdout.endswith("nothing written: decide every item (--pick, --suggested, --rest)\n")
    for bad in (["--pick", "mem-0999=ours"], ["--pick", "mem-0012=mine"], ["--pick", "mem-0012"],
                ["--abort", "--rest", "ours"]):
        one_line_error(cli("merge", "profiles", *bad, cwd=demo))
    dry = cli("merge", "profiles", "--pick", "mem-0012=theirs", "--rest", "ours", "--dry-run", cwd=demo)
    assert dry.returncode == 0 and "-<<<<<<< HEAD\n" in dry.stdout
    assert tree(demo) == before


def test_merge_resolves_stages_and_commits(demo: Path) -> None:
    ours_0012 = git(demo, "show", "HEAD:profiles/xiaoyu/memories.md")
    r = cli("merge", "profiles", "--pick", "mem-0012=theirs", "--pick", "mem-0054=both", "--rest", "ours",
            "--commit", "-m", "merge the agent's thread", cwd=demo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[:2] == ["resolved profiles/xiaoyu/memories.md", "resolved profiles/xiaoyu/state.yaml"]
    assert git(demo, "log", "-1", "--format=%s%n%P").split("\n")[0] == "merge the agent's thread"
    assert len(git(demo, "log", "-1", "--format=%P").split()) == 2  # a merge commit
    mem = demo / "profiles" / "xiaoyu" / "memories.md"
    text = mem.read_text(encoding="utf-8")
    assert "<<<<<<<" not in text and "=======" not in text
    now = entries(mem)
    theirs = {e.id: e for e in parse_bytes(git(demo, "show", "agent-thread-b:profiles/xiaoyu/memories.md").encode())
              .well_formed()}
    assert bodies(mem)["mem-0012"] == theirs["mem-0012"].body  # theirs taken
    # both kept, theirs under the next free id, and two unrelated memories are not marked as contradicting
    assert "mem-0054" in now and "mem-0055" in now and "conflict" not in now["mem-0055"]
    assert "11 月 30 日复核" in ours_0012 and "11 月 30 日复核" not in bodies(mem)["mem-0012"]
    assert cli("merge", "profiles", cwd=demo).stdout == "no conflicts\n"
    assert cli("check", "profiles/xiaoyu", "--format", "json", "--fail-on", "never", cwd=demo).returncode == 0


def test_merge_abort_returns_to_before_the_merge(demo: Path) -> None:
    head = git(demo, "rev-parse", "HEAD")
    r = cli("merge", "profiles", "--abort", cwd=demo)
    assert r.returncode == 0 and r.stdout == "merge aborted\n"
    assert git(demo, "rev-parse", "HEAD") == head
    assert "UU" not in git(demo, "status", "--porcelain")
    one_line_error(cli("merge", "profiles", "--abort", cwd=demo))  # nothing left to abort


def test_add_keeps_a_bom_and_crlf_file_as_it_is(tmp_path: Path) -> None:
    prof = tmp_path / "p"
    prof.mkdir()
    before = ("\ufeff# preamble kept\r\n---\r\nid: mem-0007\r\nstatus: active  # a comment\r\ntags: [tea]\r\n---\r\n"
              "Likes oolong.\r\n").encode("utf-8")
    (prof / "memories.md").write_bytes(before)
    r = cli("add", str(prof), "--body", "Prefers green tea now.\nSince May.", "--tags", "tea", "--source", "s")
    assert r.returncode == 0 and r.stdout.splitlines()[:2] == ["mem-0008", "shares tags with: mem-0007 (tea)"]
    after = (prof / "memories.md").read_bytes()
    assert after.startswith(before)
    added = after[len(before):]
    assert b"\n" not in added.replace(b"\r\n", b"")  # every new line ends CRLF, like the file's
    assert added.endswith(b"---\r\nPrefers green tea now.\r\nSince May.\r\n")
    assert b"\r\nsource: s\r\nstatus: active\r\ntags: [tea]\r\n" in added
