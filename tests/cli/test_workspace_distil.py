"""Distil (workspace and profile) and the dreaming review queue, on real files and real git."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.edit import EditError
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle.plan import Plan, apply_changes
from openclaw_tui.core.lifecycle.undo import UndoStack
from openclaw_tui.core.workspace import dreaming
from openclaw_tui.core.workspace.distil import distil_context, distil_plan, removable_logs
from openclaw_tui.core.workspace.model import load_daily_logs, load_memory
from tests.conftest import SAMPLES

TODAY = dt.date(2026, 11, 30)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True, timeout=120)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def repo_ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    git(ws, "init", "-q")
    git(ws, "-c", "user.name=t", "-c", "user.email=t@e", "add", "-A")
    git(ws, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "start")
    return ws


def test_distil_appends_marks_and_changes_nothing_else(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    mem_before = (ws / "MEMORY.md").read_bytes()
    log_before = (ws / "memory/2026-09-03-hangzhou.md").read_bytes()
    dry = cli("distil", str(ws), "--log", "memory/2026-09-03-hangzhou.md", "--lines", "4", "--section", "关于小雨 (About Xiaoyu)", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "+- 老周想要一本讲城市记账的小书，初稿明年三月。 <!-- source: memory/2026-09-03-hangzhou.md:4 -->" in dry.stdout
    assert (ws / "MEMORY.md").read_bytes() == mem_before
    res = cli("distil", str(ws), "--log", "memory/2026-09-03-hangzhou.md", "--lines", "4", "--drop", "3,5,6",
              "--section", "关于小雨 (About Xiaoyu)", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["items"] == ["老周想要一本讲城市记账的小书，初稿明年三月。 <!-- source: memory/2026-09-03-hangzhou.md:4 -->"]
    anchor = "- 猫叫年糕，每年三月打疫苗。\n".encode()
    assert (ws / "MEMORY.md").read_bytes() == mem_before.replace(
        anchor, anchor + "- 老周想要一本讲城市记账的小书，初稿明年三月。 <!-- source: memory/2026-09-03-hangzhou.md:4 -->\n".encode())
    assert (ws / "memory/2026-09-03-hangzhou.md").read_bytes() == log_before + b"<!-- distilled: 4 -->\n<!-- dropped: 3, 5, 6 -->\n"
    log = next(lg for lg in load_daily_logs(ws, TODAY) if lg.rel == "memory/2026-09-03-hangzhou.md")
    assert log.fully_distilled and removable_logs(ws, TODAY) == ["memory/2026-09-03-hangzhou.md"]
    # the distilled item's source is a reference: the check finds nothing new
    chk = cli("check", str(ws), "--format", "json", "--today", "2026-11-30")
    dangling = [f["message"] for f in json.loads(chk.stdout)["findings"] if f["code"] == "dangling-file"]
    assert len(dangling) == 1 and "2026-06-02" in dangling[0]


def test_bad_input_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    before = {p: p.read_bytes() for p in ws.rglob("*.md")}
    for args in (["--log", "memory/2026-10-12.md", "--lines", "99"], ["--log", "memory/2026-10-12.md", "--lines", "x"],
                 ["--log", "memory/2026-10-12.md", "--lines", "3", "--section", "Nope"], ["--log", "../x.md", "--lines", "1"]):
        res = cli("distil", str(ws), *args)
        assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ") and res.stderr.count("\n") == 1, args
    assert {p: p.read_bytes() for p in ws.rglob("*.md")} == before


def test_remove_old_distilled_logs_in_one_commit(tmp_path: Path) -> None:
    ws = repo_ws(tmp_path)
    plan = distil_plan(ws, "memory/2026-10-12.md", [3, 4, 5, 6], None).plan
    apply_changes(plan)
    git(ws, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "distilled")
    (ws / "SOUL.md").write_text("an unrelated uncommitted change\n")
    res = cli("distil", str(ws), "--remove-old", "--today", "2026-11-30", "--json")
    out = json.loads(res.stdout)
    assert out["removed"] == ["memory/2026-10-12.md"] and out["commit"]
    assert not (ws / "memory/2026-10-12.md").exists()
    assert git(ws, "show", "--name-status", "--format=", "HEAD").split() == ["D", "memory/2026-10-12.md"]
    assert "unrelated" in (ws / "SOUL.md").read_text()  # left out of the commit
    assert "小雨决定" in git(ws, "show", "HEAD~1:memory/2026-10-12.md")  # git keeps it


def test_profile_context_distil(tmp_path: Path) -> None:
    prof_dir = tmp_path / "atlas"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof_dir)
    before = (prof_dir / "memories.md").read_bytes()
    ctx = "contexts/2026-11-24_oncall-handoff.md"
    res = cli("distil", str(prof_dir), "--context", ctx, "--lines", "14", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["added"] == ["mem-0018"] and out["archive"] == "contexts/archive/2026-11-24_oncall-handoff.md"
    after = (prof_dir / "memories.md").read_bytes()
    assert after.startswith(before)
    new = parse_bytes(after).entries[-1]
    assert new.id == "mem-0018" and new.meta["source"] == f"{ctx}:14" and new.meta["status"] == "active"
    assert "Quiet week overall" in new.body
    assert not (prof_dir / ctx).exists() and (prof_dir / out["archive"]).is_file()
    # the same through the core function, keeping the context file
    prof2 = tmp_path / "atlas2"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof2)
    _plan, ids, dest = distil_context(load_profile(prof2), ctx, [7, 8], archive=False)
    assert ids == ["mem-0018", "mem-0019"] and dest is None and (prof2 / ctx).exists()



def _files(folder: Path) -> dict[Path, bytes]:
    """Every file's bytes (lock files aside: they stay, empty, as for every write)."""
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix != ".lock"}


def test_profile_context_distil_is_one_undoable_step(tmp_path: Path) -> None:
    """The plan carries the move (a copy created, the context file in Plan.removed): one write,
    undone and redone byte for byte through an UndoStack (the session's)."""
    from openclaw_tui.core.workspace.distil import distil_context_plan

    prof = tmp_path / "atlas"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    ctx = "contexts/2026-11-24_oncall-handoff.md"
    files = _files(prof)
    plan = distil_context_plan(load_profile(prof), ctx, [7, 14])
    assert plan.removed == {prof / ctx: files[prof / ctx]} and prof / "contexts/archive" / Path(ctx).name in plan.files
    assert _files(prof) == files  # a plan writes nothing
    stack = UndoStack()
    written = stack.apply(plan)
    assert written.added == ["mem-0018", "mem-0019"] and not (prof / ctx).exists()
    moved = prof / "contexts/archive" / Path(ctx).name
    assert moved.read_bytes() == files[prof / ctx]
    after = _files(prof)
    assert set(after) - set(files) == {moved} and set(files) - set(after) == {prof / ctx}
    assert [p for p in files if p in after and after[p] != files[p]] == [prof / "memories.md"]
    stack.undo()
    assert _files(prof) == files
    stack.redo()
    assert _files(prof) == after
    # a profile without contexts/archive/ yet: the move makes the folder
    bare = tmp_path / "bare"
    (bare / "contexts").mkdir(parents=True)
    (bare / "memories.md").write_text("", encoding="utf-8")
    (bare / "contexts" / "2026-12-01.md").write_text("# day\n\n- kept line\n", encoding="utf-8")
    done = UndoStack().apply(distil_context_plan(load_profile(bare), "contexts/2026-12-01.md", [3]))
    assert done.added == ["mem-0001"] and (bare / "contexts/archive/2026-12-01.md").is_file()
    (prof / ctx).write_bytes(files[prof / ctx])  # the same day's file again: its archive copy exists
    with pytest.raises(EditError, match="exists already"):
        distil_context_plan(load_profile(prof), ctx, [7])
    with pytest.raises(EditError, match="not a context file"):
        distil_context_plan(load_profile(prof), "contexts/archive/" + Path(ctx).name, [1])


def test_review_queue_accept_reject_edit(tmp_path: Path) -> None:
    ws = repo_ws(tmp_path)
    q = dreaming.review_queue(ws)
    assert [(i.row.line, i.score, i.source_missing) for i in q] == [(374, None, True), (379, "0.912", False)]
    assert q[1].source_lines == [("memory/2026-11-29.md", 3, "- 09:30 小雨说以后下午只喝绿茶，咖啡只在上午。")]
    before = (ws / "MEMORY.md").read_bytes()
    # reject the dangling one, then undo
    stack = UndoStack()
    stack.apply(dreaming.reject(ws, q[0]))
    assert b"\xe5\xb9\xb4\xe7\xb3\x95\xe5\xaf\xb9" not in (ws / "MEMORY.md").read_bytes()  # 年糕对
    stack.undo()
    assert (ws / "MEMORY.md").read_bytes() == before
    # accept the pending one, stripping its machine metadata
    plan = dreaming.accept(ws, q[1], strip=True)
    assert plan is not None
    apply_changes(plan)
    text = (ws / "MEMORY.md").read_text()
    assert "- candidate: 小雨说以后下午只喝绿茶，咖啡只在上午。\n" in text and "score=" not in text
    assert "openclaw-memory-promotion:memory:memory/2026-11-29.md" not in text
    assert [i.row.line for i in dreaming.review_queue(ws)] == [374]
    # edit the remaining one; accept without stripping keeps it out of the queue
    item = dreaming.review_queue(ws)[0]
    apply_changes(dreaming.edit(ws, item, "年糕对鸡肉过敏。"))
    item = dreaming.review_queue(ws)[0]
    assert item.row.text == "年糕对鸡肉过敏。"
    apply_changes(dreaming.accept(ws, item))  # only the cache's record: a plan, so undo takes it back
    assert dreaming.review_queue(ws) == []


def test_queue_finds_new_promoted_items_in_git_history(tmp_path: Path) -> None:
    ws = repo_ws(tmp_path)
    for item in dreaming.review_queue(ws):
        apply_changes(dreaming.accept(ws, item))
    assert dreaming.review_queue(ws) == []
    # dreaming (an older release) writes a promoted section without markers
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as f:
        f.write("\n## Promoted From Short-Term Memory (2026-11-30)\n\n- 十一月报告按时交了。\n")
    git(ws, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "dreaming")
    q = dreaming.review_queue(ws)
    assert [(i.row.text, i.new_in_git) for i in q] == [("十一月报告按时交了。", True)]
    mem = load_memory(ws)
    assert mem is not None and mem.items[-1].text == "十一月报告按时交了。"


def test_demo_history_rewrote_one_log_and_dreaming_promoted(tmp_path: Path) -> None:
    from openclaw_tui.core.git.demo import build_demo

    demo = build_demo(tmp_path / "d")
    ws = demo / "workspace-zh"
    res = cli("check", str(ws), "--format", "json", "--today", "2026-11-30")
    rewritten = [f for f in json.loads(res.stdout)["findings"] if f["code"] == "daily-log-rewritten"]
    assert [(f["file"], f["line"]) for f in rewritten] == [("memory/2026-10-12.md", 3)]
    assert (ws / "MEMORY.md").read_bytes() == (SAMPLES / "workspace-zh" / "MEMORY.md").read_bytes()
    last = git(demo, "log", "--format=%s", "-1", "--", "workspace-zh/MEMORY.md")
    assert "dreaming" in last
    # after accepting everything at the commit before dreaming, git finds the promoted item again
    sha = git(demo, "log", "--format=%H", "-1", "--", "workspace-zh/MEMORY.md").strip()
    before = git(demo, "rev-parse", sha + "~1").strip()
    apply_changes(Plan("record reviewed", [dreaming.review_record(ws, [], before)]))
    q = dreaming.review_queue(ws)
    assert any(i.new_in_git and i.row.text.startswith("candidate:") for i in q)


def test_review_command(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", ws)
    before = (ws / "MEMORY.md").read_bytes()
    doc = json.loads(cli("review", str(ws), "--json").stdout)
    assert [(q["line"], q["source_missing"], q["residue"]) for q in doc["queue"]] == [(374, True, False), (379, False, True)]
    assert [q["flags"] for q in doc["queue"]] == [["source-missing"], ["raw-candidate"]]
    text = cli("review", str(ws)).stdout.splitlines()
    assert text[1].startswith("MEMORY.md:379  score 0.912") and text[1].endswith("  review flag: raw-candidate"), text
    # a review flag, not a finding: check does not report the bracket (spec: metadata, preserved)
    assert "residue" not in cli("check", str(ws), "--format", "json", "--today", "2026-11-30").stdout
    assert doc["queue"][1]["sources"] == [{"file": "memory/2026-11-29.md", "line": 3, "text": "- 09:30 小雨说以后下午只喝绿茶，咖啡只在上午。"}]
    dry = cli("review", str(ws), "--accept", "379", "--strip", "--dry-run")
    assert dry.returncode == 0 and "-<!-- openclaw-memory-promotion" in dry.stdout
    assert (ws / "MEMORY.md").read_bytes() == before
    for bad in (["--reject", "5"], ["--edit", "379"], ["--strip"]):
        res = cli("review", str(ws), *bad)
        assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ") and res.stderr.count("\n") == 1, bad
    assert (ws / "MEMORY.md").read_bytes() == before
    assert cli("review", str(ws), "--edit", "374", "--text", "年糕对鸡肉过敏。").returncode == 0
    assert (ws / "MEMORY.md").read_bytes() == before.replace("年糕对鸡肉过敏，只买鱼肉猫粮。".encode(), "年糕对鸡肉过敏。".encode())
    assert cli("review", str(ws), "--accept", "379", "--strip").returncode == 0
    assert [q["line"] for q in json.loads(cli("review", str(ws), "--json").stdout)["queue"]] == [374]
    assert cli("review", str(ws), "--reject", "374").returncode == 0
    assert json.loads(cli("review", str(ws), "--json").stdout)["queue"] == []
    assert "年糕对鸡肉过敏" not in (ws / "MEMORY.md").read_text()
