"""The Textual-free parts behind the git screens: merge sessions, patches, line/word marks, repo state."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.diff.lines import entry_summary, mark_lines, word_diff
from openclaw_tui.core.files.safe_write import ConcurrentModification
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git.patch import commit_patch, parse_patch, side_by_side
from openclaw_tui.core.git.repo_state import read_state
from openclaw_tui.core.merge.conflicts import BOTH, OURS, THEIRS, Edited, ResolutionError
from openclaw_tui.core.merge.merge_session import FileResolution, MergeSession, files_with_markers
from tests.cli.test_git_helpers import commit_all, git, make_repo, write
from tests.unit.test_ui_git_support import (
    ATLAS,
    MAIN_LINE,
    THEIRS_LINE,
    atlas_repo,
    diverge_and_merge,
    unmerged,
)

# --- line and word marks ---------------------------------------------------------------------


def test_mark_lines_flags_changed_words_added_and_removed_lines() -> None:
    marks = mark_lines("a\nimportance: high\nnew line\nd\n", "a\nimportance: medium\nc\nd\n")
    assert [(m.text, m.changed, m.whole, m.removed) for m in marks] == [
        ("a", False, False, False),
        ("importance: high", True, False, False),
        ("c", True, True, True),
        ("new line", True, True, False),
        ("d", False, False, False),
    ]
    assert [s for s in marks[1].segments if s[1]] == [("high", True)]
    assert all(not m.changed for m in mark_lines("x\ny\n", None))


def test_word_diff_goes_character_by_character_in_chinese() -> None:
    a, b = word_diff("用户喝美式", "用户喝低因美式")
    assert "".join(t for t, _ in a) == "用户喝美式" and "".join(t for t, _ in b) == "用户喝低因美式"
    assert [t for t, changed in b if changed] == ["低因"]


def test_entry_summary_names_fields_and_body() -> None:
    base = "---\nid: mem-1\nimportance: low\nconflict: mem-2\n---\nbody\n"
    new = "---\nid: mem-1\nimportance: high\nlast_hit: 2026-11-29\n---\nbody and more\n"
    assert entry_summary(new, base) == "importance, last_hit (added), conflict (removed), body"
    assert entry_summary(None, base) == "deleted" and entry_summary(new, None) == "new"
    assert entry_summary(base, base) == "unchanged"


# --- patches ---------------------------------------------------------------------------------

PATCH = """diff --git a/m.md b/m.md
index 1..2 100644
--- a/m.md
+++ b/m.md
@@ -1,4 +1,4 @@ title
 keep
--- a removed line that looks like a header
+++ an added line that looks like a header
 keep 2
-last
\\ No newline at end of file
+last
diff --git a/new.md b/new.md
new file mode 100644
index 0000000..3
--- /dev/null
+++ b/new.md
@@ -0,0 +1 @@
+hello
"""


def test_parse_patch_numbers_lines_and_survives_header_lookalikes() -> None:
    files = parse_patch(PATCH)
    assert [f.path for f in files] == ["m.md", "new.md"]
    m, new = files
    assert m.counts == (2, 2) and new.counts == (1, 0) and new.old_path is None
    kinds = [(ln.kind, ln.text, ln.old_no, ln.new_no) for ln in m.hunks[0].lines]
    assert kinds[1] == ("-", "-- a removed line that looks like a header", 2, None)
    assert kinds[2] == ("+", "++ an added line that looks like a header", None, 2)
    assert kinds[3] == (" ", "keep 2", 3, 3)
    assert ("\\", " No newline at end of file", None, None) in kinds
    rows = side_by_side(files)
    change = [r for r in rows if r.kind == "change"]
    assert change[0].left is not None and change[0].right is not None  # paired on one row
    assert change[0].left.old_no == 2 and change[0].right.new_no == 2
    assert [r.kind for r in rows][:2] == ["file", "hunk"]  # "index …" lines are not shown
    assert any(r.kind == "note" and r.label == "new file mode 100644" for r in rows)


def test_commit_patch_of_a_root_commit_and_of_a_later_one(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    write(repo / "p" / "memories.md", "---\nid: mem-1\n---\none\n")
    write(repo / "other.txt", "x\n")
    first = commit_all(repo, "first")
    write(repo / "p" / "memories.md", "---\nid: mem-1\n---\ntwo\n")
    second = commit_all(repo, "second")
    root_patch = commit_patch(repo, first, str(repo / "p"))
    assert [f.path for f in root_patch.files] == ["p/memories.md"]  # other.txt is outside the folder
    later = commit_patch(repo, second, str(repo / "p"))
    assert later.files[0].counts == (1, 1) and not later.truncated
    cut = commit_patch(repo, first, "", max_lines=3)
    assert cut.truncated


# --- merge sessions --------------------------------------------------------------------------


@pytest.fixture
def merged(tmp_path: Path) -> Path:
    root = atlas_repo(tmp_path)
    diverge_and_merge(root)
    return root


def test_session_finds_unmerged_files_and_writes_nothing_until_complete(merged: Path) -> None:
    mem = merged / ATLAS / "memories.md"
    before = mem.read_bytes()
    s = MergeSession.open(merged / "profiles", [merged / "profiles"])
    assert s.operation == "merge" and s.merging == "branch 'thread'"
    assert [(f.display, f.unmerged) for f in s.files] == [(f"{ATLAS}/memories.md", True), (f"{ATLAS}/state.yaml", True)]
    assert s.remaining == 2 and not s.can_complete()
    f = s.files[0]
    f.choose("mem-0005", THEIRS)
    f.choose("mem-0005", OURS)
    assert f.undo() and f.choices == {"mem-0005": THEIRS}
    assert f.undo() and f.choices == {} and not f.undo()
    with pytest.raises(ResolutionError):
        f.choose("mem-0005", Edited("<<<<<<< x\n"))
    assert mem.read_bytes() == before


def test_both_preview_matches_the_written_result_and_takes_a_fresh_id(merged: Path) -> None:
    s = MergeSession.open(merged / "profiles", [merged / "profiles"])
    f, st = s.files
    f.choose("mem-0005", BOTH)
    preview = f.preview("mem-0005") or ""
    twin = parse(preview).entries[1]
    archive_ids = parse((merged / ATLAS / "contexts/archive/memories.md").read_text()).ids()
    result_ids = parse(f.result_text()).ids()
    assert twin.id not in archive_ids and result_ids.count(twin.id) == 1 and len(result_ids) == len(set(result_ids))
    assert twin.meta["conflict"] == "mem-0005" and THEIRS_LINE in twin.body
    st.choose("region-1", OURS)
    written = s.complete()
    assert written == [merged / ATLAS / "memories.md", merged / ATLAS / "state.yaml"]
    text = (merged / ATLAS / "memories.md").read_text(encoding="utf-8")
    assert preview.rstrip("\n") in text and MAIN_LINE in text
    assert unmerged(merged) == []
    done = s.conclude()
    assert len(git(merged, "log", "-1", "--format=%P").split()) == 2 and done.sha and done.still is None


def test_yaml_with_a_key_twice_cannot_complete(merged: Path) -> None:
    s = MergeSession.open(merged / "profiles", [merged / "profiles"])
    s.files[0].choose("mem-0005", OURS)
    s.files[1].choose("region-1", BOTH)
    problems = s.problems()
    assert len(problems) == 1 and "appears twice" in problems[0][1]
    with pytest.raises(ResolutionError):
        s.complete()


def test_complete_refuses_when_a_file_changed_meanwhile(merged: Path) -> None:
    s = MergeSession.open(merged / "profiles", [merged / "profiles"])
    s.files[0].choose("mem-0005", OURS)
    s.files[1].choose("region-1", THEIRS)
    state = merged / ATLAS / "state.yaml"
    changed = state.read_text(encoding="utf-8") + "# an agent wrote this meanwhile\n"
    state.write_text(changed, encoding="utf-8")
    mem_before = (merged / ATLAS / "memories.md").read_bytes()
    with pytest.raises(ConcurrentModification):
        s.complete()
    assert state.read_text(encoding="utf-8") == changed  # neither file written
    assert (merged / ATLAS / "memories.md").read_bytes() == mem_before
    assert len(unmerged(merged)) == 2


def test_abort_puts_everything_back(merged: Path) -> None:
    head = git(merged, "rev-parse", "HEAD").strip()
    s = MergeSession.open(merged, [merged])
    s.abort()
    assert not (merged / ".git" / "MERGE_HEAD").exists() and git(merged, "rev-parse", "HEAD").strip() == head
    assert files_with_markers(merged) == []


def test_markers_without_git_and_files_without_markers(tmp_path: Path) -> None:
    prof = tmp_path / "p"
    write(prof / "state.yaml", "a: 1\n<<<<<<<<<< mine\nb: 2\n==========\nb: 3\n>>>>>>>>>> theirs\n")
    write(prof / "identity.md", "# fine\n")
    write(prof / "memories.md.lock", "<<<<<<< not a file of the profile\n")
    assert files_with_markers(prof) == [prof / "state.yaml"]
    s = MergeSession.open(prof, [prof])
    assert s.repo is None and s.operation is None
    f = s.files[0]
    assert f.conflicts.conflict.regions[0].marker_size == 10 and f.items[0].ours == "b: 2\n"
    f.choose("region-1", THEIRS)
    s.complete()
    assert (prof / "state.yaml").read_text() == "a: 1\nb: 3\n"
    clean = FileResolution.load(prof / "identity.md", "identity.md")
    assert clean.items == () and clean.problem() is None and clean.result_text() == "# fine\n"


# --- repository state ------------------------------------------------------------------------


def test_repo_state_counts_only_the_folders_files(tmp_path: Path) -> None:
    assert read_state(tmp_path) is None
    repo = make_repo(tmp_path / "r")
    write(repo / "p" / "memories.md", "x\n")
    write(repo / "other.txt", "x\n")
    commit_all(repo, "c")
    write(repo / "p" / "memories.md", "y\n")
    write(repo / "p" / "memories.md.lock", "")
    write(repo / "other.txt", "y\n")
    st = read_state(repo / "p")
    assert st is not None and st.branch == "main" and st.dirty == 1 and st.operation is None
