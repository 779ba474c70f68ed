"""The Textual-free helpers of the editing screens: word diffs, masking, raw entry edits, editor commands."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.core.check.masking import mask_all, mask_secret
from openclaw_tui.core.diff.lines import line_counts, unified_diff
from openclaw_tui.core.diff.words import (
    MISSING,
    meta_diff,
    similarity,
    tokens,
    word_diff,
)
from openclaw_tui.core.files.external_editor import EditorSession, NoEditor, editor_command, editor_from
from openclaw_tui.core.format.edit import DELETE, EditError
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.lifecycle.plan import Files, apply_changes
from openclaw_tui.core.lifecycle.plan_summary import describe_plan
from openclaw_tui.core.lifecycle.rawedit import (
    EntryParts,
    form_changes,
    id_value,
    normalize_raw,
    parse_list,
    plan_replace,
    raw_problems,
)

TEXT = (
    "# preamble\n\n"
    "---\nid: mem-0001\ntimestamp: 2025-05-03T21:14:00+08:00\nimportance: urgent  # keep\ntags: [a, b]\n---\n"
    "First body.\n\n"
    "---\nid: mem-0002\nstatus: active\n---\nSecond body.\n"
)

# --- tokens and word diffs ------------------------------------------------------------------


def test_tokens_split_words_spaces_punctuation_and_cjk_characters() -> None:
    assert tokens("I drink coffee, daily.") == ["I", " ", "drink", " ", "coffee", ",", " ", "daily", "."]
    assert tokens("用户每天喝美式。") == ["用", "户", "每", "天", "喝", "美", "式", "。"]
    assert tokens("Manner，少冰") == ["Manner", "，", "少", "冰"]


@given(st.text())
def test_tokens_join_back_to_the_text(text: str) -> None:
    assert "".join(tokens(text)) == text


@given(st.text(), st.text())
def test_word_diff_sides_join_back(a: str, b: str) -> None:
    runs = word_diff(a, b)
    assert "".join(r.a for r in runs) == a
    assert "".join(r.b for r in runs) == b


def test_word_diff_marks_only_the_changed_words() -> None:
    runs = word_diff("I drink coffee every day", "I drink tea every day")
    changed = [(r.op, r.a, r.b) for r in runs if r.op != "equal"]
    assert changed == [("replace", "coffee", "tea")]


def test_word_diff_compares_chinese_per_character() -> None:
    runs = word_diff("用户每天早上一杯美式", "用户不能摄入咖啡因")
    equal = "".join(r.a for r in runs if r.op == "equal")
    assert equal.startswith("用户")
    assert all(len(r.a) <= 8 for r in runs)  # no whole-sentence token
    assert similarity("用户每天早上一杯美式", "用户每天早上一杯美式") == 1.0


def test_meta_diff_lines_up_fields_and_flags_differences() -> None:
    pairs = meta_diff({"id": "a", "status": "active", "tags": ["x"]}, {"id": "b", "status": "active", "ttl": "2025"},
                      order=("id", "status", "ttl", "tags"), skip=("id",))
    assert [(p.name, p.differs) for p in pairs] == [("status", False), ("ttl", True), ("tags", True)]
    assert pairs[1].a is MISSING and pairs[2].b is MISSING


# --- masking -------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "kind", "masked"), [
    ("13812345678", "phone", "138****5678"),
    ("wang.ayi@example.com", "email", "w****@example.com"),
    ("hunter2hunter2", "password", "****"),
    ("sk-abcdefghijklmnopqrstuvwx", "api-key", "sk-a****"),
    ("4111111111111111", "card", "411****1111"),
    ("123", "phone", "****"),
])
def test_mask_secret_shows_only_what_identifies_it(value: str, kind: str, masked: str) -> None:
    assert mask_secret(value, kind) == masked
    assert value not in mask_secret(value, kind)


def test_mask_all_masks_every_occurrence() -> None:
    text = "call 13812345678 or 13812345678, mail a@b.co"
    out = mask_all(text, [("13812345678", "phone"), ("a@b.co", "email")])
    assert "13812345678" not in out and out.count("138****5678") == 2 and "a****@b.co" in out


# --- raw entry edits -----------------------------------------------------------------------------


def test_entry_parts_split_and_compose_losslessly() -> None:
    mf = parse(TEXT)
    for e in mf.entries:
        parts = EntryParts.of(e)
        assert parts.raw == e.raw
        assert parts.compose() == e.raw
    first = EntryParts.of(mf.entries[0])
    assert first.body == "First body." and first.trailing == "\n\n"
    assert first.compose(body="New body.\n\n\n") == first.raw.replace("First body.", "New body.")


def test_entry_parts_keep_crlf() -> None:
    mf = parse(TEXT.replace("\n", "\r\n"))
    parts = EntryParts.of(mf.entries[1])
    assert parts.newline == "\r\n"
    assert parts.compose(body="Changed\nbody") == parts.raw.replace("Second body.", "Changed\r\nbody")


def test_normalize_raw_restores_line_endings_and_separator() -> None:
    old = parse(TEXT).entries[0].raw
    assert normalize_raw(old.rstrip("\n") + "\n", old) == old
    crlf = old.replace("\n", "\r\n")
    assert normalize_raw(old, crlf) == crlf


def test_raw_problems_accept_untouched_invalid_values_but_not_new_ones() -> None:
    mf = parse(TEXT)
    old = mf.entries[0]
    assert raw_problems(old.raw.replace("First", "Better"), old, {"mem-0001", "mem-0002"}) == []
    bad = old.raw.replace("tags: [a, b]", "tags: [a, b]\nttl: someday")
    assert raw_problems(bad, old, set()) == ["ttl 'someday' is not a date or date-time"]
    assert raw_problems(old.raw.replace("id: mem-0001", "id: mem-0002"), old, {"mem-0001", "mem-0002"}) == [
        "id mem-0002 is already used"]
    assert "closing" in raw_problems("just text", old, set())[0]
    two = old.raw + "---\nid: mem-0009\n---\nx\n"
    assert "2 entries" in raw_problems(two, old, set())[0]
    assert raw_problems(old.raw.replace("tags: [a, b]", "tags: [a, b"), old, set())


def test_plan_replace_changes_only_that_entry(tmp_path: Path) -> None:
    mem = tmp_path / "memories.md"
    mem.write_text(TEXT, encoding="utf-8")
    files = Files.load(mem, tmp_path / "archive.md")
    old = files.memories.mf.get("mem-0002")
    assert old is not None
    plan = plan_replace(files, "memories", old.raw, old.raw.replace("Second body.", "Fixed body.").rstrip("\n"),
                        entry_id="mem-0002")
    assert plan.changed == {"mem-0002": ["body"]}
    apply_changes(plan)
    assert mem.read_text(encoding="utf-8") == TEXT.replace("Second body.", "Fixed body.")
    with pytest.raises(EditError, match="not a date"):
        plan_replace(Files.load(mem, tmp_path / "archive.md"), "memories", old.raw.replace("Second", "Fixed"),
                     old.raw.replace("status: active", "status: active\nlast_hit: nope"), entry_id="mem-0002")


def test_plan_replace_fixes_a_malformed_block(tmp_path: Path) -> None:
    broken = TEXT + "\n---\nid: mem-0003\ntags: [x, y\n---\nBroken.\n"
    mem = tmp_path / "memories.md"
    mem.write_text(broken, encoding="utf-8")
    files = Files.load(mem, tmp_path / "archive.md")
    bad = files.memories.mf.entries[-1]
    assert bad.error is not None
    plan = plan_replace(files, "memories", bad.raw, bad.raw.replace("[x, y", "[x, y]"), line=bad.line)
    apply_changes(plan)
    assert mem.read_text(encoding="utf-8") == broken.replace("[x, y\n", "[x, y]\n")


def test_form_values_and_lists() -> None:
    assert parse_list("咖啡, health，睡眠、 ,health") == ["咖啡", "health", "睡眠"]
    assert id_value("mem-0007", False) == "mem-0007"
    assert id_value("mem-0007", True) == ["mem-0007"]
    assert id_value(" ", False) is DELETE
    old = {"status": "active", "tags": ["a"], "ttl": "2025-01-01"}
    assert form_changes(old, {"status": "active", "tags": ["a", "b"], "ttl": DELETE, "source": DELETE}) == {
        "tags": ["a", "b"], "ttl": DELETE}


# --- plan summaries -------------------------------------------------------------------------------


def test_describe_plan_says_what_moves_where(tmp_path: Path) -> None:
    from openclaw_tui.core.lifecycle.archive import plan_archive

    mem = tmp_path / "memories.md"
    mem.write_text(TEXT, encoding="utf-8")
    arc = tmp_path / "contexts" / "archive" / "memories.md"
    plan = plan_archive(Files.load(mem, arc), "mem-0002", dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    lines = describe_plan(plan, tmp_path)
    assert lines[0] == "mem-0002: moves memories.md → contexts/archive/memories.md (status archived)"
    assert "contexts/archive/memories.md: new file" in lines
    assert any(line.startswith("memories.md: +0 −") for line in lines)
    assert line_counts("a\nb\n", "a\nc\nd\n") == (2, 1)


# --- the external editor ----------------------------------------------------------------------------


def test_editor_command_opens_at_a_line_when_the_editor_knows_how() -> None:
    p = Path("/tmp/x.md")
    assert editor_command("vim", p, 7) == ["vim", "+7", "/tmp/x.md"]
    assert editor_command("code --wait", p, 3) == ["code", "--wait", "-g", "/tmp/x.md:3"]
    assert editor_command("hx", p, 2) == ["hx", "/tmp/x.md:2"]
    assert editor_command("/opt/bin/my-editor -f", p, 9) == ["/opt/bin/my-editor", "-f", "/tmp/x.md"]
    assert editor_from({"VISUAL": "", "EDITOR": "nano"}) == "nano"
    assert editor_from({"VISUAL": "vim", "EDITOR": "nano"}) == "vim"
    assert editor_from({}) is None


def test_editor_session_runs_a_real_editor_and_reads_back(tmp_path: Path) -> None:
    script = tmp_path / "ed.py"
    script.write_text("import sys, pathlib\np = pathlib.Path(sys.argv[-1])\n"
                      "p.write_text(p.read_text(encoding='utf-8').upper(), encoding='utf-8')\n", encoding="utf-8")
    session = EditorSession("hello 世界\n", env={"EDITOR": f"{sys.executable} {script}"})
    argv = session.prepare()
    assert session.path is not None and session.path.read_text(encoding="utf-8") == "hello 世界\n"
    assert session.run(argv) == 0
    assert session.result() == "HELLO 世界\n"
    assert session.path is None
    with pytest.raises(NoEditor):
        EditorSession("x", env={}).prepare()


# --- fast unified diffs of whole files --------------------------------------------------------------


def apply_unified(before: str, diff: str) -> str:
    """Apply a unified diff (as ``unified_diff`` writes it) to ``before``."""
    a = before.splitlines(keepends=True)
    out: list[str] = []
    pos = 0
    lines = diff.splitlines(keepends=True)[2:]
    k = 0
    while k < len(lines):
        header = lines[k]
        assert header.startswith("@@ -")
        old = header.split()[1][1:]
        start = int(old.split(",")[0])
        length = int(old.split(",")[1]) if "," in old else 1
        start = start - 1 if length else start
        out.extend(a[pos:start])
        pos = start
        k += 1
        while k < len(lines) and not lines[k].startswith("@@ -"):
            line = lines[k]
            if line[0] in " -":
                assert a[pos].rstrip("\n") == line[1:].rstrip("\n")
                if line[0] == " ":
                    out.append(a[pos])
                pos += 1
            else:
                out.append(line[1:])
            k += 1
    out.extend(a[pos:])
    return "".join(out)


LINES = st.lists(st.sampled_from(["---\n", "id: mem-0001\n", "status: active\n", "\n", "body\n", "other\n"]),
                 max_size=30)


@given(LINES, LINES)
def test_unified_diff_applies_back(a: list[str], b: list[str]) -> None:
    before, after = "".join(a), "".join(b)
    diff = unified_diff(before, after, "a/x", "b/x")
    if before == after:
        assert diff == ""
        return
    assert apply_unified(before, diff) == after
    added, removed = line_counts(before, after)
    assert added == sum(1 for line in diff.splitlines()[2:] if line.startswith("+"))
    assert removed == sum(1 for line in diff.splitlines()[2:] if line.startswith("-"))


def test_unified_diff_matches_difflib_for_a_simple_change() -> None:
    import difflib

    before = "".join(f"line {i}\n" for i in range(40))
    after = before.replace("line 20\n", "line twenty\n").replace("line 3\n", "")
    expected = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/f", "b/f"))
    assert unified_diff(before, after, "a/f", "b/f") == expected


def test_unified_diff_is_fast_on_a_big_memory_file() -> None:
    """A move out of a 20k-entry file: repeated lines must not make the diff quadratic."""
    entries = [f"---\nid: mem-{i:05d}\nstatus: active\ntags: [t]\n---\nbody {i}\n\n" for i in range(20000)]
    before = "".join(entries)
    after = "".join(entries[:7000] + entries[7001:13000] + [entries[13000].replace("active", "cold")]
                    + entries[13001:])
    diff = unified_diff(before, after, "a/m", "b/m")  # seconds with plain difflib; instant here
    assert apply_unified(before, diff) == after
    assert line_counts(before, after) == (1, 8)


def test_plan_replace_refuses_when_the_entry_changed_on_disk(tmp_path: Path) -> None:
    mem = tmp_path / "memories.md"
    mem.write_text(TEXT, encoding="utf-8")
    old = Files.load(mem, tmp_path / "archive.md").memories.mf.get("mem-0002")
    assert old is not None
    agent = TEXT.replace("Second body.", "Second body, changed by the agent.")
    mem.write_text(agent, encoding="utf-8")
    with pytest.raises(EditError, match="changed on disk"):
        plan_replace(Files.load(mem, tmp_path / "archive.md"), "memories", old.raw,
                     old.raw.replace("Second", "Mine"), entry_id="mem-0002")
    assert mem.read_text(encoding="utf-8") == agent
