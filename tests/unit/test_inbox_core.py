"""The review inbox's core on real git repositories (and one folder outside git)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from openclaw_tui.api import open_profile
from openclaw_tui.core.files.safe_write import atomic_write
from openclaw_tui.core.inbox import actions
from openclaw_tui.core.inbox.inbox import load_inbox
from openclaw_tui.core.inbox.mark import read_mark, ref_name
from openclaw_tui.core.lifecycle.undo import UndoStack
from tests.inbox_helpers import agent_commit, git, replace, repo_with

PROMO = "<!-- openclaw-memory-promotion:memory:memory/2026-11-30.md:1:2 -->"


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and ".git" not in p.parts and not p.name.endswith(".lock")}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """workspace-zh in git, reviewed; then the agent commits a dreaming night and writes without committing."""
    ws = repo_with(tmp_path, "workspace-zh")
    actions.approve_all(ws)
    replace(ws / "MEMORY.md", "- 弟弟阿杰一月搬去深圳。\n", "")
    replace(ws / "MEMORY.md", "## 偏好 (Preferences)\n\n",
            f"## 偏好 (Preferences)\n\n- 弟弟阿杰一月搬去深圳。\n- 喜欢用 Excel 做月报。 {PROMO}\n")
    (ws / "DREAMS.md").write_bytes((ws / "DREAMS.md").read_bytes() + "\n## 2026-12-01\n\n梦到了月报。\n".encode())
    (ws / "memory" / ".dreams").mkdir()
    (ws / "memory" / ".dreams" / "short-term-recall.json").write_text("{}\n")
    agent_commit(ws, "dreaming: deep phase")
    replace(ws / "USER.md", "status: active", "status: superseded")
    replace(ws / "MEMORY.md", "年终奖一半还房贷", "年终奖三分之一还房贷")
    log = ws / "memory" / "2026-11-30.md"
    log.write_bytes(log.read_bytes() + "- 下午把发票寄出去了。\n".encode())
    return ws


def by_kind(inbox) -> dict[tuple[str, str], list]:
    out: dict[tuple[str, str], list] = {}
    for c in inbox.changes:
        out.setdefault((c.what, c.kind), []).append(c)
    return out


def test_workspace_changes_each_once_with_who_and_when(ws: Path) -> None:
    inbox = load_inbox(ws)
    kinds = by_kind(inbox)
    assert sorted(kinds) == [("directive", "changed"), ("file", "added"), ("file", "changed"), ("item", "added"),
                             ("item", "moved"), ("item", "rewritten"), ("log", "appended")]
    assert all(len(v) == 1 for v in kinds.values())
    moved = kinds[("item", "moved")][0]
    assert moved.title == "弟弟阿杰一月搬去深圳。" and "偏好 (Preferences)" in moved.detail
    assert moved.committed and moved.author == "the agent" and moved.subject == "dreaming: deep phase"
    rewritten = kinds[("item", "rewritten")][0]
    assert not rewritten.committed and rewritten.who.startswith("not committed, written at ")
    assert rewritten.diff == ["年终奖{+三分之+}一[-半-]还房贷，一半进旅行基金。"]
    assert kinds[("directive", "changed")][0].detail == "status active → superseded"
    assert kinds[("log", "appended")][0].detail == "1 line appended"
    night = inbox.groups()
    assert list(night) == [next(iter(night))] and next(iter(night)).startswith("dreaming ")
    assert {c.file for c in night[next(iter(night))]} == {"MEMORY.md", "DREAMS.md", "memory/.dreams/short-term-recall.json"}


def test_first_time_mark_is_the_last_commit(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace")
    replace(ws / "MEMORY.md", "\n## ", "\n- written after the last commit\n\n## ")
    inbox = load_inbox(ws)
    assert inbox.mark.kind == "commit" and inbox.notes == ["not reviewed yet: showing what changed since the last commit"]
    assert [(c.what, c.kind, c.title) for c in inbox.changes] == [("item", "added", "written after the last commit")]


def test_approve_one_changes_the_marks_copy_only(ws: Path) -> None:
    before = load_inbox(ws)
    mark_before = dict(before.mark.files)
    moved = by_kind(before)[("item", "moved")][0]
    actions.approve(ws, [moved.id])
    after = load_inbox(ws)
    assert {c.id for c in after.changes} == {c.id for c in before.changes} - {moved.id}
    added = by_kind(after)[("item", "added")][0]  # still told by the agent's commit
    assert added.committed and added.subject == "dreaming: deep phase"
    # the mark's MEMORY.md: the item left its old place and sits where it is now; nothing else moved
    old, new = mark_before["MEMORY.md"], after.mark.files["MEMORY.md"]
    line = "- 弟弟阿杰一月搬去深圳。\n".encode()
    assert old.replace(line, b"", 1) == new.replace(line, b"", 1) and new.count(line) == 1
    assert {k for k in mark_before if mark_before[k] != after.mark.files.get(k)} == {"MEMORY.md"}
    assert after.mark.kind == "snapshot" and git(ws, "rev-parse", ref_name(find(ws), ws)).strip() == after.mark.sha


def find(ws: Path):
    from openclaw_tui.core.git.gitrepo import find_repo

    return find_repo(ws)


def test_revert_one_item_touches_only_its_bytes_and_undoes(ws: Path) -> None:
    before = load_inbox(ws)
    rewritten = by_kind(before)[("item", "rewritten")][0]
    now = (ws / "MEMORY.md").read_bytes()
    stack = UndoStack()
    stack.apply(actions.revert_plan(ws, [rewritten.id]))
    reverted = (ws / "MEMORY.md").read_bytes()
    assert reverted == now.replace("年终奖三分之一还房贷".encode(), "年终奖一半还房贷".encode())
    assert {c.id for c in load_inbox(ws).changes} == {c.id for c in before.changes} - {rewritten.id}
    stack.undo()
    assert (ws / "MEMORY.md").read_bytes() == now


def test_revert_a_dreaming_night_in_one_step(ws: Path) -> None:
    inbox = load_inbox(ws)
    night = next(iter(inbox.groups()))
    plan = actions.revert(ws, [night])
    assert not (ws / "memory" / ".dreams" / "short-term-recall.json").exists()
    after = load_inbox(ws)
    assert not after.groups()
    assert {c.id for c in after.changes} == {c.id for c in inbox.changes} - {c.id for c in inbox.groups()[night]}
    assert b"Excel" not in (ws / "MEMORY.md").read_bytes()
    assert (ws / "DREAMS.md").read_bytes() == inbox.mark.files["DREAMS.md"]
    UndoStack().push(plan)  # one plan: one undo


def test_revert_everything_gives_back_the_marks_bytes(ws: Path) -> None:
    inbox = load_inbox(ws)
    actions.revert(ws, [c.id for c in inbox.changes])
    assert load_inbox(ws).count == 0
    for rel in ("USER.md", "DREAMS.md", "memory/2026-11-30.md"):
        assert (ws / rel).read_bytes() == inbox.mark.files[rel]


def test_approve_all_empties_the_inbox(ws: Path) -> None:
    actions.approve_all(ws)
    inbox = load_inbox(ws)
    assert inbox.count == 0 and inbox.mark.files == files_of(ws)


def test_unknown_id_is_a_clear_error(ws: Path) -> None:
    with pytest.raises(actions.InboxError, match="no change 'nope'"):
        actions.revert(ws, ["nope"])


# --- layout A -------------------------------------------------------------------------------------


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    p = repo_with(tmp_path, "profiles/atlas")
    actions.approve_all(p)
    mem = open_profile(p)
    new = mem.remember("Priya moved the runbooks to the wiki.", tags=["runbook"]).id
    mem.update("mem-0002", {"importance": "medium"}, text="Priya prefers short answers with commands in code blocks.")
    mem.supersede("mem-0003", new)
    agent_commit(p, "agent: remember and update")
    mem.archive("mem-0005")
    mem.restore("mem-0004")
    replace(p / "state.yaml", "\n", "\n# touched by the agent\n")
    return p


def test_profile_changes_by_entry(profile: Path) -> None:
    inbox = load_inbox(profile)
    assert inbox.layout == "profile"
    kinds = {c.id: c.kind for c in inbox.changes}
    assert kinds["mem-0002"] == "changed" and kinds["mem-0003"] == "superseded"
    assert kinds["mem-0005"] == "archived" and kinds["mem-0004"] == "restored" and kinds["state.yaml"] == "changed"
    assert [k for k in kinds.values()].count("added") == 1
    changed = inbox.get("mem-0002")
    assert changed is not None and changed.committed and changed.author == "the agent"
    assert changed.title == "mem-0002 Priya prefers short answers with commands in code blocks."
    assert any(line.startswith("importance:") for line in changed.diff)
    assert any(line.startswith("body: Priya prefers [-terse-]{+short+} answers") for line in changed.diff)
    archived = inbox.get("mem-0005")
    assert archived is not None and not archived.committed
    assert {u.rel for u in archived.units} == {"memories.md", "contexts/archive/memories.md"}
    assert any(line.startswith("+# touched by the agent") for line in inbox.get("state.yaml").diff)


def test_profile_revert_archived_entry_restores_both_files(profile: Path) -> None:
    inbox = load_inbox(profile)
    mem_now = (profile / "memories.md").read_bytes()
    actions.revert(profile, ["mem-0005"])
    after = load_inbox(profile)
    assert {c.id for c in after.changes} == {c.id for c in inbox.changes} - {"mem-0005"}
    entry = inbox.mark.files["memories.md"]
    e5 = entry[entry.index(b"---\nid: mem-0005"):entry.index(b"---\nid: mem-0006")]
    assert (profile / "memories.md").read_bytes().replace(e5, b"", 1) == mem_now
    assert b"mem-0005" not in (profile / "contexts/archive/memories.md").read_bytes()


def test_profile_approve_entry_byte_for_byte(profile: Path) -> None:
    actions.approve(profile, ["mem-0002"])
    mark = read_mark(profile)
    now = (profile / "memories.md").read_bytes()
    start = now.index(b"---\nid: mem-0002")
    chunk = now[start:now.index(b"---\nid:", start + 4)]
    assert chunk in mark.files["memories.md"]
    assert "mem-0002" not in {c.id for c in load_inbox(profile).changes}


# --- a stale mark, outside git, concurrent writes ----------------------------------------------------


def test_mark_rebased_away_falls_back_with_a_note(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace")
    (ws / "TOOLS.md").write_bytes((ws / "TOOLS.md").read_bytes() + b"\n- gh\n")
    agent_commit(ws, "tools")
    actions.approve_all(ws)
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    (ws / "TOOLS.md").write_bytes((ws / "TOOLS.md").read_bytes() + b"\n- jq\n")
    agent_commit(ws, "tools, again")
    git(ws, "reflog", "expire", "--expire=now", "--all")
    inbox = load_inbox(ws)
    assert inbox.notes and "no longer in this branch's history" in inbox.notes[0]
    (change,) = inbox.changes
    assert change.file == "TOOLS.md" and "-- gh" in change.diff and "+- jq" in change.diff
    assert change.committed and change.subject == "tools, again"


def test_mark_on_a_missing_commit_falls_back_to_the_last_commit(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace")
    actions.approve_all(ws)
    repo = find(ws)
    ref = repo.git_dir / ref_name(repo, ws)
    ref.write_text("0" * 39 + "1\n")
    inbox = load_inbox(ws)
    assert inbox.mark.kind == "commit" and "missing commit" in inbox.notes[0] and inbox.count == 0


def test_outside_git_everything_is_new_then_snapshot(tmp_path: Path, samples: Path) -> None:
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(samples / "workspace", ws)
    inbox = load_inbox(ws)
    assert inbox.notes == ["not reviewed yet and not in git: everything is new"]
    assert {c.kind for c in inbox.changes} == {"added"} and inbox.count == len(files_of(ws))
    actions.approve_all(ws)
    assert load_inbox(ws).count == 0
    replace(ws / "MEMORY.md", "\n## ", "\n- a new item outside git\n\n## ")
    inbox = load_inbox(ws)
    assert [(c.kind, c.title) for c in inbox.changes] == [("added", "a new item outside git")]
    assert inbox.changes[0].who.startswith("not committed")
    actions.revert(ws, [inbox.changes[0].id])
    assert load_inbox(ws).count == 0


def test_revert_rebuilt_when_the_agent_writes_meanwhile(ws: Path) -> None:
    """The agent appends an item between the plan and the write: the revert is rebuilt, nothing lost."""
    inbox = load_inbox(ws)
    rewritten = by_kind(inbox)[("item", "rewritten")][0]
    plan = actions.revert_plan(ws, [rewritten.id])
    path = ws / "MEMORY.md"
    atomic_write(path, path.read_bytes() + b"- written by the agent meanwhile\n")
    from openclaw_tui.core.lifecycle.undo import write_plan

    write_plan(plan)
    data = path.read_bytes().decode()
    assert "written by the agent meanwhile" in data and "年终奖一半还房贷" in data


def test_agent_writing_while_inbox_is_read(ws: Path) -> None:
    """Concurrent writes by another thread never make the inbox fail or lose them."""
    path = ws / "memory" / "2026-12-02.md"
    stop = threading.Event()

    def agent() -> None:
        n = 0
        while not stop.is_set() and n < 200:
            atomic_write(path, b"".join(b"- line %d\n" % i for i in range(n)))
            n += 1

    t = threading.Thread(target=agent)
    t.start()
    try:
        for _ in range(5):
            assert load_inbox(ws).count >= 7
    finally:
        stop.set()
        t.join()
    final = load_inbox(ws).get("memory/2026-12-02.md")
    assert final is not None and final.kind == "added"
    assert "+" + path.read_text().splitlines()[-1] in final.diff


def test_demo_history_since_the_first_commit(tmp_path: Path) -> None:
    """The demo's commits after the import, seen from a mark set on the import: who and when for each."""
    from openclaw_tui.core.git.demo import build_demo
    from openclaw_tui.core.inbox.mark import _tree_bytes, write_mark

    root = build_demo(tmp_path / "demo")
    first = git(root, "rev-list", "--max-parents=0", "HEAD").split()[0]
    repo = find(root)
    for rel in ("workspace-zh", "profiles/atlas"):
        write_mark(root / rel, _tree_bytes(repo, first, root / rel), parent=first)
    ws = load_inbox(root / "workspace-zh")
    assert ws.count >= 2 and all(c.committed for c in ws.changes)
    night = [g for g in ws.groups() if g.startswith("dreaming ")]
    assert len(night) == 1 and any(c.what == "item" for c in ws.groups()[night[0]])
    assert any(c.what == "log" and "correct the 2026-10-12 log" in (c.subject or "") for c in ws.changes)
    atlas = load_inbox(root / "profiles/atlas")
    added = atlas.get("mem-0017")
    assert added is not None and added.kind == "added" and added.subject == "feat(mem): atlas: mem-0017 added"


def test_a_binary_file_is_told_by_its_sizes(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace")
    (ws / "memory" / ".dreams").mkdir()
    (ws / "memory" / ".dreams" / "recall.sqlite").write_bytes(b"SQLite format 3\0" + bytes(range(256)))
    (change,) = load_inbox(ws).changes
    assert change.diff == ["(not text, or too large for a line diff: 0 → 272 bytes)"] and change.dreaming


def test_items_swapped_within_a_section_are_one_move_reverted_byte_for_byte(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace-zh")
    actions.approve_all(ws)
    reviewed = (ws / "MEMORY.md").read_bytes()
    a, b = "- 弟弟阿杰一月搬去深圳。\n", "- 猫叫年糕，每年三月打疫苗。\n"
    replace(ws / "MEMORY.md", a + b, b + a)
    agent_commit(ws, "reorder")
    inbox = load_inbox(ws)
    (moved,) = inbox.changes
    assert (moved.what, moved.kind, moved.diff) == ("item", "moved", [])
    assert moved.detail.startswith("moved within ") and moved.detail.endswith("关于小雨 (About Xiaoyu)")
    assert moved.committed and moved.subject == "reorder"
    now = (ws / "MEMORY.md").read_bytes()
    stack = UndoStack()
    stack.apply(actions.revert_plan(ws, [moved.id]))
    assert (ws / "MEMORY.md").read_bytes() == reviewed and load_inbox(ws).changes == []
    stack.undo()
    assert (ws / "MEMORY.md").read_bytes() == now
    actions.approve(ws, [moved.id])
    after = load_inbox(ws)
    assert after.changes == [] and after.mark.files["MEMORY.md"] == now


def test_duplicate_items_reordered_one_move_each_way(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace-zh")
    replace(ws / "MEMORY.md", "- 猫叫年糕，每年三月打疫苗。\n", "- 猫叫年糕，每年三月打疫苗。\n- 弟弟阿杰一月搬去深圳。\n")
    agent_commit(ws, "a duplicate")
    actions.approve_all(ws)
    reviewed = (ws / "MEMORY.md").read_bytes()
    dup, cat = "- 弟弟阿杰一月搬去深圳。\n", "- 猫叫年糕，每年三月打疫苗。\n"
    replace(ws / "MEMORY.md", dup + cat + dup, dup + dup + cat)  # the same bytes twice, then the other item
    (moved,) = load_inbox(ws).changes
    assert moved.kind == "moved" and moved.detail.startswith("moved within ")
    actions.revert(ws, [moved.id])
    assert (ws / "MEMORY.md").read_bytes() == reviewed and load_inbox(ws).changes == []


def test_item_reworded_and_reordered_is_two_changes_each_reverted_alone(tmp_path: Path) -> None:
    ws = repo_with(tmp_path, "workspace-zh")
    actions.approve_all(ws)
    reviewed = (ws / "MEMORY.md").read_bytes()
    a, b, b2 = "- 弟弟阿杰一月搬去深圳。\n", "- 猫叫年糕，每年三月打疫苗。\n", "- 猫叫年糕，每年四月打疫苗。\n"
    replace(ws / "MEMORY.md", a + b, b2 + a)
    now = (ws / "MEMORY.md").read_bytes()
    inbox = load_inbox(ws)
    kinds = by_kind(inbox)
    assert sorted(kinds) == [("item", "moved"), ("item", "rewritten")]
    moved, reworded = kinds[("item", "moved")][0], kinds[("item", "rewritten")][0]
    actions.revert(ws, [moved.id])  # the place only: the new wording stays
    assert (ws / "MEMORY.md").read_bytes() == now.replace((b2 + a).encode(), (a + b2).encode())
    assert [c.id for c in load_inbox(ws).changes] == [reworded.id]
    (ws / "MEMORY.md").write_bytes(now)
    actions.revert(ws, [reworded.id])  # the wording only: the new place stays
    assert (ws / "MEMORY.md").read_bytes() == now.replace(b2.encode(), b.encode())
    assert [c.id for c in load_inbox(ws).changes] == [moved.id]
    actions.revert(ws, [moved.id])
    assert (ws / "MEMORY.md").read_bytes() == reviewed
