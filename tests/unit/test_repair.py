"""Repairing references (issue 16): each candidate kind where it is the right answer, exact bytes, undo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from openclaw_tui.core.check.repair import (
    Candidate,
    Problem,
    find_problems,
    plan_all_safe,
    plan_repair,
    together,
)
from openclaw_tui.core.files.profile import Profile, load_profile
from openclaw_tui.core.format.edit import EditError
from openclaw_tui.core.lifecycle.plan import apply_changes
from openclaw_tui.core.lifecycle.undo import UndoStack
from tests.cli.test_git_helpers import commit_all, make_repo
from tests.unit.test_check_support import TODAY, active, check, entry, make_profile, of

SAMPLES = Path(__file__).resolve().parents[2] / "sample_profiles"


def load(path: Path) -> Profile:
    return load_profile(path, ".", None)


def problems(path: Path, history: bool = True) -> list[Problem]:
    return find_problems(load(path), today=TODAY, history=history)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock") and ".git" not in p.parts
    }


def repair(path: Path, number: int = 1, k: int = 1, *, history: bool = True) -> tuple[Candidate, dict[str, bytes]]:
    """Apply candidate ``k`` of problem ``number`` (and its group); returns it and the bytes before."""
    before = files_of(path)
    profile = load(path)
    found = find_problems(profile, today=TODAY, history=history)
    p = next(x for x in found if x.number == number)
    cand = p.candidates[k - 1]
    apply_changes(plan_repair(profile, together(found, p, cand), cand))
    return cand, before


def changed(path: Path, before: dict[str, bytes]) -> dict[str, tuple[bytes | None, bytes | None]]:
    after = files_of(path)
    return {k: (before.get(k), after.get(k)) for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}


def only_bytes_changed(old: bytes, new: bytes, was: bytes, now: bytes) -> None:
    """``new`` is ``old`` with exactly one occurrence of ``was`` replaced by ``now``."""
    i = next(k for k in range(min(len(old), len(new)) + 1) if k == min(len(old), len(new)) or old[k] != new[k])
    # the difference starts inside the replaced bytes and nothing else moves
    start = old.rfind(was, 0, i + len(was))
    assert start >= 0 and old[start : start + len(was)] == was
    assert new == old[:start] + now + old[start + len(was) :]


# --- per candidate kind ------------------------------------------------------------------


def test_superseded_chain_rewrites_the_state_value_to_the_active_end(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002")
        + active("mem-0002", status="superseded", superseded_by="mem-0003")
        + active("mem-0003"),
        state="# state\nfocus: mem-0001   # kept comment\nother: mem-0003\n",
    )
    [p] = problems(prof)
    assert p.finding.code == "inactive-ref"
    first = p.candidates[0]
    assert (first.action, first.target, first.kind, first.safe) == ("rewrite", "mem-0003", "superseded", True)
    assert "superseded by mem-0002" in first.why and "mem-0002" in first.why
    cand, before = repair(prof)
    diff = changed(prof, before)
    assert list(diff) == ["state.yaml"]
    assert diff["state.yaml"][1] == b"# state\nfocus: mem-0003   # kept comment\nother: mem-0003\n"
    assert not of(check(prof), "inactive-ref")


def test_archived_entry_is_restored_exactly(tmp_path: Path) -> None:
    archived = entry("mem-0005", "Archived fact.", timestamp="2025-06-01T14:32:00+08:00", status="archived",
                     archived_at="2026-01-01T00:00:00+08:00")
    prof = make_profile(
        tmp_path, memories=active("mem-0001") + active("mem-0009"), archive=archived, state="focus: mem-0005\n",
    )
    [p] = problems(prof)
    assert (p.candidates[0].action, p.candidates[0].kind, p.candidates[0].safe) == ("restore", "archive", True)
    _, before = repair(prof)
    diff = changed(prof, before)
    assert set(diff) == {"memories.md", "contexts/archive/memories.md"}
    mem = (prof / "memories.md").read_text()
    assert mem == active("mem-0001") + entry("mem-0005", "Archived fact.", timestamp="2025-06-01T14:32:00+08:00",
                                             status="active") + active("mem-0009")
    assert "mem-0005" not in (prof / "contexts/archive/memories.md").read_text()
    assert (prof / "state.yaml").read_bytes() == b"focus: mem-0005\n"
    assert not of(check(prof), "inactive-ref")


def test_compacted_entry_points_to_its_compactor(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0003") + active("mem-0010", "Both facts.", merged_from="[mem-0004, mem-0006]"),
        archive=entry("mem-0006", "Old.", status="superseded", superseded_by="mem-0010"),
        contexts={"2025-06-01_notes.md": "# notes\n\nAs noted in mem-0004, keep it short.\n"},
        state="focus: mem-0004\n",
    )
    found = problems(prof)
    [p] = [x for x in found if x.finding.file == "contexts/2025-06-01_notes.md"]
    first = p.candidates[0]
    # first, but not done unasked: the id sits inside a sentence
    assert (first.action, first.target, first.kind, first.safe) == ("rewrite", "mem-0010", "merged", False)
    [s] = [x for x in found if x.finding.file == "state.yaml"]
    assert s.safe is not None and (s.safe.target, s.safe.kind) == ("mem-0010", "merged")
    old = (prof / "contexts/2025-06-01_notes.md").read_bytes()
    repair(prof, p.number)
    only_bytes_changed(old, (prof / "contexts/2025-06-01_notes.md").read_bytes(), b"mem-0004", b"mem-0010")
    assert not [f for f in of(check(prof), "dangling-ref") if f.file.startswith("contexts/")]


def test_deleted_entry_comes_back_from_git_history(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    gone = active("mem-0007", "用户的预算是 3 万元，已确认。", tags="[budget]")
    prof = make_profile(repo, memories=active("mem-0001") + gone + active("mem-0008"), state="budget: mem-0007\n")
    commit_all(repo, "add budget")
    (prof / "memories.md").write_text(active("mem-0001") + active("mem-0008"), encoding="utf-8")
    deleted = commit_all(repo, "tidy up by hand")
    [p] = problems(prof)
    first = p.candidates[0]
    assert (first.action, first.kind, first.safe) == ("restore-git", "git", True)
    assert first.text is not None and first.text.rstrip("\n") == gone.rstrip("\n") and first.commit is not None and deleted[:7] not in first.commit
    assert "removed in " + deleted[:7] in first.why
    before = (prof / "memories.md").read_bytes()
    repair(prof)
    after = (prof / "memories.md").read_bytes()
    assert after.startswith(before) and after[len(before):].decode().strip("\n") == gone.rstrip("\n")
    assert not of(check(prof), "dangling-ref")


def test_a_typo_is_the_first_candidate_and_only_its_bytes_change(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0089", "Budget 30k.") + active("mem-0090", "Referenced as mem-0098 here.", conflict="mem-0098"),
    )
    found = problems(prof)
    assert [x.finding.code for x in found] == ["dangling-ref", "dangling-ref"]
    for x in found:
        first = x.candidates[0]
        assert (first.action, first.target, first.kind, first.safe) == ("rewrite", "mem-0089", "typo", False)
        assert "two characters swapped" in first.why
    old = (prof / "memories.md").read_bytes()
    cand, _ = repair(prof, 1)  # both references name mem-0098: repaired together
    new = (prof / "memories.md").read_bytes()
    assert new == old.replace(b"mem-0098", b"mem-0089")
    assert not of(check(prof), "dangling-ref")


def test_context_candidates_share_tags_or_words(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001", "The user likes green tea.", tags="[tea]")
        + active("mem-0002", "Quarterly budget review with Dana.", tags="[budget, finance]")
        + active("mem-0003", "Budget details are in mem-0777.", tags="[budget]"),
    )
    [p] = problems(prof)
    ctx = [c for c in p.candidates if c.kind == "context"]
    assert ctx and ctx[0].target == "mem-0002" and "tag budget" in ctx[0].why
    k = p.candidates.index(ctx[0]) + 1
    old = (prof / "memories.md").read_bytes()
    repair(prof, 1, k)
    only_bytes_changed(old, (prof / "memories.md").read_bytes(), b"mem-0777", b"mem-0002")


def test_closest_file_name_rewrites_a_link_relative_to_its_folder(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001"),
        contexts={
            "2025-06-02_planning.md": "# plan\n\nSee [the retro](2025-06-03_retro.md#top) and [todo](2025-06-01_todo.md).\n",
            "2025-06-03-retro.md": "# retro\n",
            "2025-06-01_todo.md": "# todo\n",
        },
    )
    [p] = problems(prof)
    files = [c for c in p.candidates if c.kind == "file"]
    assert files[0].target == "contexts/2025-06-03-retro.md"
    k = p.candidates.index(files[0]) + 1
    old = (prof / "contexts/2025-06-02_planning.md").read_bytes()
    repair(prof, 1, k)
    new = (prof / "contexts/2025-06-02_planning.md").read_bytes()
    assert new == old.replace(b"(2025-06-03_retro.md#top)", b"(2025-06-03-retro.md#top)")
    assert not of(check(prof), "dangling-file")


def test_remove_a_state_list_item_or_a_key_line(tmp_path: Path) -> None:
    state = "focus:\n  - mem-0001\n  - mem-0404   # gone\n  - mem-0002\nwaiting: mem-0505\nnote: ok\n"
    prof = make_profile(tmp_path, memories=active("mem-0001") + active("mem-0002"), state=state)
    found = problems(prof)
    assert [x.finding.id for x in found] == ["mem-0404", "mem-0505"]
    for x in found:
        assert any(c.action == "remove" for c in x.candidates)
    k = next(i for i, c in enumerate(found[0].candidates, 1) if c.action == "remove")
    repair(prof, 1, k)
    assert (prof / "state.yaml").read_text() == "focus:\n  - mem-0001\n  - mem-0002\nwaiting: mem-0505\nnote: ok\n"
    found = problems(prof)
    k = next(i for i, c in enumerate(found[0].candidates, 1) if c.action == "remove")
    repair(prof, 1, k)
    assert (prof / "state.yaml").read_text() == "focus:\n  - mem-0001\n  - mem-0002\nnote: ok\n"
    assert not of(check(prof), "dangling-ref")


def test_remove_from_a_flow_list_field_and_unlink_keeps_the_text(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001") + active("mem-0002", related_refs="[mem-0001, mem-0999]"),
        contexts={"a.md": "Read [the notes](missing.md) first.\n"},
    )
    found = problems(prof)
    by_file = {x.finding.file: x for x in found}
    mem = by_file["memories.md"]
    k = next(i for i, c in enumerate(mem.candidates, 1) if c.action == "remove")
    old = (prof / "memories.md").read_bytes()
    repair(prof, mem.number, k)
    assert (prof / "memories.md").read_bytes() == old.replace(b"[mem-0001, mem-0999]", b"[mem-0001]")
    link = problems(prof)[0]
    assert link.candidates[0].action == "remove"
    repair(prof, link.number, 1)
    assert (prof / "contexts/a.md").read_bytes() == b"Read the notes first.\n"
    assert not check(prof)


def test_an_id_in_prose_is_never_cut_out(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0001", "As in mem-0404, the user agreed."))
    [p] = problems(prof)
    assert all(c.action != "remove" for c in p.candidates)


# --- ambiguity, grouping, undo -------------------------------------------------------------


def test_two_candidates_at_the_same_distance_are_never_applied_by_all_safe(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0010") + active("mem-0030"), state="focus: mem-0020\n")
    [p] = problems(prof)
    typos = [c for c in p.candidates if c.kind == "typo"]
    assert {c.target for c in typos} == {"mem-0010", "mem-0030"} and all("one of 2" in c.why for c in typos)
    assert p.safe is None
    run = plan_all_safe(load(prof), today=TODAY)
    assert run.plan.empty and run.done == [] and [x.number for x in run.left] == [1]


def test_two_certain_candidates_make_a_choice_not_a_safe_repair(tmp_path: Path) -> None:
    # mem-0004 is named by two compactors: which one is meant is a question for a person
    prof = make_profile(
        tmp_path,
        memories=active("mem-0010", merged_from="[mem-0004, mem-0005]") + active("mem-0011", merged_from="[mem-0004]"),
        state="focus: mem-0004\n",
    )
    [p] = [x for x in problems(prof) if x.finding.file == "state.yaml"]
    assert [c.kind for c in p.candidates[:2]] == ["merged", "merged"] and p.safe is None


def test_all_references_to_one_superseded_entry_are_repaired_together_and_undone(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002"),
        state="a: mem-0001\nlist:\n  - mem-0001\n  - mem-0002\nnote: \"mem-0001 and mem-0001\"\n",
    )
    found = problems(prof)
    assert len(found) == 4 and [p.safe is not None for p in found] == [True, True, False, False]  # the note: prose
    run = plan_all_safe(load(prof), found, today=TODAY)
    assert len(run.plan.changes) == 1 and run.plan.changes[0].after == (
        b"a: mem-0002\nlist:\n  - mem-0002\n  - mem-0002\nnote: \"mem-0001 and mem-0001\"\n")
    assert [p.number for p in run.left] == [3, 4]
    profile = load(prof)
    group = together(found, found[0], found[0].candidates[0])
    assert len(group) == 4
    plan = plan_repair(profile, group, found[0].candidates[0])
    old = (prof / "state.yaml").read_bytes()
    stack = UndoStack()
    stack.apply(plan)
    assert (prof / "state.yaml").read_bytes() == old.replace(b"mem-0001", b"mem-0002")
    assert not of(check(prof), "inactive-ref")
    stack.undo()
    assert (prof / "state.yaml").read_bytes() == old


def test_a_repair_refuses_when_the_file_changed_meanwhile(tmp_path: Path) -> None:
    from openclaw_tui.core.files.safe_write import ConcurrentModification

    prof = make_profile(
        tmp_path, memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002"),
        state="a: mem-0001\n",
    )
    profile = load(prof)
    [p] = find_problems(profile, today=TODAY)
    plan = plan_repair(profile, [p], p.candidates[0])
    (prof / "state.yaml").write_text("a: mem-0001\nb: 1\n", encoding="utf-8")
    with pytest.raises(ConcurrentModification):
        apply_changes(plan)
    assert (prof / "state.yaml").read_text() == "a: mem-0001\nb: 1\n"


def test_remove_of_prose_raises(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0001", "As in mem-0404."))
    profile = load(prof)
    [p] = find_problems(profile, today=TODAY)
    with pytest.raises(EditError):
        plan_repair(profile, [p], Candidate("remove", "", "x", "remove"))


def test_bom_and_crlf_survive_a_rewrite(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002"),
        state=b"\xef\xbb\xbf# s\r\nfocus: mem-0001\r\n",
    )
    repair(prof)
    assert (prof / "state.yaml").read_bytes() == b"\xef\xbb\xbf# s\r\nfocus: mem-0002\r\n"


# --- OpenClaw workspace ------------------------------------------------------------------------


def test_workspace_links_and_promotion_markers_to_missing_logs(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-11-28.md").write_text("# log\n- a\n", encoding="utf-8")
    memory_md = (
        "# Memory\n\nSee [the log](memory/2026-11-29.md).\n\n"
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:1:4 -->\n"
        "- coffee [score=0.9 recalls=1 avg=0.5]\n"
    )
    (ws / "MEMORY.md").write_text(memory_md, encoding="utf-8")
    found = problems(ws)
    assert [x.finding.code for x in found] == ["dangling-file", "dangling-file"]
    for x in found:
        assert x.candidates[0].target == "memory/2026-11-28.md" or x.candidates[0].action == "remove"
        assert any(c.target == "memory/2026-11-28.md" for c in x.candidates)
    marker = found[1]
    k = next(i for i, c in enumerate(marker.candidates, 1) if c.target == "memory/2026-11-28.md")
    repair(ws, marker.number, k)
    assert (ws / "MEMORY.md").read_text() == memory_md.replace("memory/2026-11-27.md", "memory/2026-11-28.md")
    link = problems(ws)[0]
    k = next(i for i, c in enumerate(link.candidates, 1) if c.target == "memory/2026-11-28.md")
    repair(ws, link.number, k)
    assert (ws / "MEMORY.md").read_text() == memory_md.replace("memory/2026-11-27.md", "memory/2026-11-28.md").replace(
        "memory/2026-11-29.md", "memory/2026-11-28.md")
    assert not of(check(ws), "dangling-file")


def test_a_deleted_daily_log_is_offered_back_from_git(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    ws = repo / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-11-27.md").write_text("# 27\n- met Dana\n", encoding="utf-8")
    (ws / "MEMORY.md").write_text("# Memory\n\n[log](memory/2026-11-27.md)\n", encoding="utf-8")
    commit_all(repo, "log")
    (ws / "memory" / "2026-11-27.md").unlink()
    commit_all(repo, "drop log")
    [p] = problems(ws)
    first = p.candidates[0]
    assert (first.action, first.kind, first.safe) == ("restore-file", "git-file", False)
    repair(ws, 1, 1)
    assert (ws / "memory" / "2026-11-27.md").read_text() == "# 27\n- met Dana\n"
    assert not of(check(ws), "dangling-file")


# --- the bundled samples ---------------------------------------------------------------------


def test_every_sample_reference_problem_has_a_sensible_first_candidate(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    found = {(p.finding.file, p.finding.line): p for p in problems(prof, history=False)}
    assert set(found) == {
        ("contexts/2025-06-02_planning.md", 15), ("memories.md", 538), ("state.yaml", 22), ("state.yaml", 23),
        ("state.yaml", 30),
    }
    first = {k: p.candidates[0] for k, p in found.items()}
    assert (first[("state.yaml", 22)].action, first[("state.yaml", 22)].target) == ("rewrite", "mem-0051")
    assert first[("state.yaml", 22)].safe
    # mem-0098 in mem-0053 (tags 工作, 述职): one digit away and sharing the tag 工作
    assert first[("memories.md", 538)].target == "mem-0018" and "工作" in first[("memories.md", 538)].why
    # nothing resembles mem-0099 clearly, nor the missing files: drop the reference, keep the guesses listed
    for key in (("state.yaml", 23), ("state.yaml", 30), ("contexts/2025-06-02_planning.md", 15)):
        assert first[key].action == "remove" and len(found[key].candidates) > 1
        assert not first[key].safe


def test_all_safe_on_the_samples_changes_only_the_superseded_reference(tmp_path: Path) -> None:
    root = tmp_path / "s"
    shutil.copytree(SAMPLES, root)
    prof = root / "profiles" / "xiaoyu"
    before = files_of(root)
    run = plan_all_safe(load(prof), today=TODAY)
    assert files_of(root) == before  # planning writes nothing
    apply_changes(run.plan)
    diff = changed(root, before)
    assert list(diff) == ["profiles/xiaoyu/state.yaml"]
    old, new = diff["profiles/xiaoyu/state.yaml"]
    assert old is not None and new is not None
    only_bytes_changed(old, new, b"mem-0048", b"mem-0051")
    codes = [(f.code, f.file, f.line) for f in check(prof)]
    assert ("inactive-ref", "state.yaml", 22) not in codes
    assert len(codes) == 14  # the 15 expected findings, less the one repaired
    for atlas_or_ws in (root / "profiles" / "atlas", root / "workspace"):
        assert find_problems(load(atlas_or_ws), today=TODAY) == []


def test_a_compacted_original_named_by_state_points_to_the_compaction(tmp_path: Path) -> None:
    original = entry("mem-0004", "Old.", status="superseded", superseded_by="mem-0010",
                     archived_at="2026-01-01T00:00:00+08:00")
    prof = make_profile(
        tmp_path, memories=active("mem-0010", "Both.", merged_from="[mem-0004]"), archive=original,
        state="focus: mem-0004\n",
    )
    [p] = problems(prof)
    assert [(c.kind, c.target) for c in p.candidates[:2]] == [("superseded", "mem-0010"), ("archive", "mem-0004")]
    assert p.safe is not None and p.safe.target == "mem-0010"
    run = plan_all_safe(load(prof), today=TODAY)
    apply_changes(run.plan)
    assert (prof / "state.yaml").read_bytes() == b"focus: mem-0010\n"
    assert (prof / "contexts/archive/memories.md").read_text() == original


def test_an_entry_deleted_since_the_last_commit_comes_back_from_head(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    gone = active("mem-0007", "Budget confirmed: 30k.")
    prof = make_profile(repo, memories=active("mem-0001") + gone, state="budget: mem-0007\n")
    head = commit_all(repo, "budget")
    (prof / "memories.md").write_text(active("mem-0001"), encoding="utf-8")
    [p] = problems(prof)
    first = p.candidates[0]
    assert first.action == "restore-git" and first.commit == head[:7] and "deleted since the last commit" in first.why
    repair(prof)
    assert (prof / "memories.md").read_text().rstrip("\n") == (active("mem-0001") + gone).rstrip("\n")


def test_a_percent_encoded_link_is_rewritten_encoded(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path, memories=active("mem-0001"),
        contexts={"a.md": "See [x](my%20notes.md).\n", "my notes!.md": "# n\n"},
    )
    [p] = problems(prof)
    k = next(i for i, c in enumerate(p.candidates, 1) if c.kind == "file")
    assert p.candidates[k - 1].target == "contexts/my notes!.md"
    repair(prof, 1, k)
    assert (prof / "contexts/a.md").read_bytes() == b"See [x](my%20notes%21.md).\n"
    assert not check(prof)


def test_the_check_names_the_same_best_repair_as_repair(tmp_path: Path) -> None:
    root = tmp_path / "s"
    shutil.copytree(SAMPLES, root)
    extra = make_profile(
        tmp_path,
        memories=active("mem-0089") + active("mem-0010", "x mem-0098", conflict="mem-0098", tags="[a]")
        + active("mem-0020", status="superseded", superseded_by="mem-0089"),
        state="a: mem-0020\nlist:\n  - mem-0777\n  - mem-0089\n",
        contexts={"n.md": "[n](gone.md) and [m](../state.yml)\n"},
    )
    for prof in (root / "profiles" / "xiaoyu", extra):
        profile = load(prof)
        findings = check(prof)
        found = find_problems(profile, today=TODAY, history=False, findings=[f for f in findings if f.profile])
        assert found
        for p in found:
            best = p.finding.suggestions[0] if p.finding.suggestions else None
            first = p.candidates[0] if p.candidates else None
            assert best is None or first is not None, p.finding
            if best is not None and first is not None:
                assert (best.action, best.target) == (first.action, first.target), p.finding


def test_line_bounds_far_into_a_big_file_uses_the_same_bytes() -> None:
    from openclaw_tui.core.check.refbytes import line_bounds

    data = b"".join(f"row {i}\n".encode() if i % 3 else f"r\u00e9 {i}\r\n".encode() for i in range(1, 6000))
    rows = data.split(b"\n")
    for line in (1, 2, 2048, 2049, 4000, 5999, 6000, 6001):
        a, b = line_bounds(data, line)
        assert data[a:b] == (rows[line - 1].rstrip(b"\r") if line <= len(rows) else b"")


def test_a_reference_in_an_entry_is_repaired_after_the_agent_appended_meanwhile(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002")
        + active("mem-0003", "See mem-0404.") + active("mem-0044"),
    )
    profile = load(prof)
    found = find_problems(profile, today=TODAY)
    [p] = [x for x in found if x.finding.id == "mem-0404"]
    cand = next(c for c in p.candidates if c.target == "mem-0044")
    plan = plan_repair(profile, [p], cand)
    agent = active("mem-0090", "Written by the agent meanwhile.")
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write(agent)
    written = apply_changes(plan)
    text = (prof / "memories.md").read_text()
    assert text.endswith(agent) and f"See {cand.target}." in text and "mem-0404" not in text
    assert written is not plan  # rebuilt on the new bytes


def test_a_repair_is_refused_when_the_entry_holding_the_reference_changed(tmp_path: Path) -> None:
    from openclaw_tui.core.files.safe_write import ConcurrentModification

    prof = make_profile(tmp_path, memories=active("mem-0003", "See mem-0404.") + active("mem-0044"))
    profile = load(prof)
    [p] = find_problems(profile, today=TODAY)
    plan = plan_repair(profile, [p], p.candidates[0])
    changed_text = active("mem-0003", "See mem-0404, and more.") + active("mem-0044")
    (prof / "memories.md").write_text(changed_text, encoding="utf-8")
    with pytest.raises(ConcurrentModification):
        apply_changes(plan)
    assert (prof / "memories.md").read_text() == changed_text


def test_two_slips_away_is_offered_by_repair_when_nothing_is_one_slip_away(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0440") + active("mem-7777"), state="focus: mem-4004\n")
    [p] = problems(prof)
    typos = [c for c in p.candidates if c.kind == "typo"]
    assert [c.target for c in typos] == ["mem-0440"] and typos[0].why.startswith("two slips (two characters swapped, then two characters swapped) from mem-4004")
    assert not any(s.kind == "typo" for s in p.finding.suggestions)  # the check looks one slip away only


def test_words_of_the_state_line_pick_among_near_ids_in_check_and_repair(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path, memories=active("mem-0010", "Coffee beans from Yunnan.") + active("mem-0030", "Green tea."),
        state="drinks:\n  coffee: mem-0020\n",
    )
    [f] = of(check(prof), "dangling-ref")
    assert f.suggestions[0].target == "mem-0010" and "shares “coffee”" in f.suggestions[0].why
    [p] = problems(prof)
    assert p.candidates[0].target == "mem-0010" and not p.candidates[0].safe


def test_a_chain_ending_in_a_malformed_entry_is_offered_but_not_safe(tmp_path: Path) -> None:
    broken = "---\nid: mem-0012\ntags: [a, b\n---\nBroken block.\n\n"
    prof = make_profile(
        tmp_path, memories=active("mem-0007", status="superseded", superseded_by="mem-0012") + broken,
        state="focus: mem-0007\n",
    )
    [p] = problems(prof)
    assert [(c.kind, c.action, c.target) for c in p.candidates] == [
        ("chain", "rewrite", "mem-0012"), ("cold", "reactivate", "mem-0007"), ("remove", "remove", "")]
    chain = p.candidates[0]
    assert chain.why == "mem-0007 was superseded by mem-0012; mem-0012 is a malformed block (fix it first)"
    assert p.safe is None
    [f] = of(check(prof), "inactive-ref")
    assert [(s.action, s.target) for s in f.suggestions] == [(c.action, c.target) for c in p.candidates]
