"""core/reload: id diffs, summaries, the selection after a deletion, incremental reloads equal full parses."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.core.files.reload import IdDiff, diff_ids, nearest_surviving, summary
from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.format.entries import MemoryFile, common_prefix, common_suffix, parse, reparse


def entry(i: int, body: str = "", **fields: str) -> str:
    lines = ["---", f"id: mem-{i:04d}", "importance: medium"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return "\n".join(lines) + "\n---\n" + (body or f"body of {i}") + "\n\n"


def doc(*ids: int, preamble: str = "# Memory\n\n") -> str:
    return preamble + "".join(entry(i) for i in ids)


def shape(mf: MemoryFile) -> tuple[object, ...]:
    """Everything a parse says about a file, for equality checks."""
    return (
        mf.text, mf.bom, mf.preamble_end,
        [(e.start, e.end, e.line, e.fm_start, e.fm_end, e.body_start, e.id, e.error, e.raw) for e in mf.entries],
    )


def naive(old: MemoryFile, new: MemoryFile) -> tuple[set[str], set[str], set[str]]:
    a = {k: e.raw for k, e in old.by_id().items()}
    b = {k: e.raw for k, e in new.by_id().items()}
    return (
        {k for k in b if k not in a},
        {k for k in b if k in a and a[k] != b[k]},
        {k for k in a if k not in b},
    )


def as_sets(d: IdDiff) -> tuple[set[str], set[str], set[str]]:
    return set(d.added), set(d.changed), set(d.removed)


# --- diff_ids ---------------------------------------------------------------------------------


def test_diff_added_changed_removed_in_file_order() -> None:
    old = parse(doc(1, 2, 3, 4))
    text = doc(1, 3, 4, 6, 5).replace("body of 3", "body of three")
    d = diff_ids(old, parse(text))
    assert d.added == ("mem-0006", "mem-0005")
    assert d.changed == ("mem-0003",)
    assert d.removed == ("mem-0002",)
    assert not d.other


def test_diff_of_identical_files_is_empty() -> None:
    text = doc(1, 2, 3)
    d = diff_ids(parse(text), parse(text))
    assert d == IdDiff() and not d


def test_moving_an_entry_is_not_a_change_of_its_text() -> None:
    d = diff_ids(parse(doc(1, 2, 3)), parse(doc(3, 1, 2)))
    assert not (d.added or d.changed or d.removed)


def test_field_edit_and_preamble_and_malformed_changes() -> None:
    old = parse(doc(1, 2))
    new = parse(doc(1, 2).replace("importance: medium\n---\nbody of 2", "importance: high\n---\nbody of 2"))
    assert diff_ids(old, new).changed == ("mem-0002",)
    assert diff_ids(old, parse(doc(1, 2, preamble="# Other\n\n"))) == IdDiff(other=True)
    broken = doc(1, 2) + "---\nimportance: high\n---\nno id here\n"
    assert diff_ids(old, parse(broken)) == IdDiff(other=True)


def test_duplicate_ids_follow_the_first_copy() -> None:
    base = doc(1, 2)
    dup = base + entry(1, "a later copy")
    assert not diff_ids(parse(base), parse(dup)).changed
    # removing the first copy makes the later copy the entry: its text differs
    d = diff_ids(parse(dup), parse(doc(2) + entry(1, "a later copy")))
    assert d.changed == ("mem-0001",) and not d.removed


def test_common_prefix_and_suffix() -> None:
    a = "x" * 100_000 + "A" + "y" * 70_000
    b = "x" * 100_000 + "BB" + "y" * 70_000
    assert common_prefix(a, b) == 100_000
    assert common_suffix(a, b, len(a) - 100_000) == 70_000
    assert common_prefix("abc", "abc") == 3 and common_prefix("", "abc") == 0
    assert common_suffix("abc", "abc", 3) == 3


# --- summary and selection --------------------------------------------------------------------


def test_summary_wording() -> None:
    d = IdDiff(added=("mem-0005", "mem-0006"), changed=("mem-0001",))
    assert summary("memories.md", d) == "memories.md: 2 added, 1 changed by another program"
    assert summary("memories.md", IdDiff(removed=("a",))) == "memories.md: 1 removed by another program"
    assert summary("x.md", IdDiff(other=True), who="git") == "x.md: changed by git"
    assert summary("x.md", IdDiff()) == "x.md: unchanged"


def test_nearest_surviving() -> None:
    old = ["a", "b", "c", "d", "e"]
    assert nearest_surviving(old, "c", ["a", "b", "d", "e"]) == "d"
    assert nearest_surviving(old, "e", ["a", "b", "c", "d"]) == "d"
    assert nearest_surviving(old, "c", ["a", "b"]) == "b"  # everything after it went too
    assert nearest_surviving(old, "c", ["a", "c"]) == "c"  # it survived
    assert nearest_surviving(old, "c", ["x", "y"]) == "x"  # nothing old survived
    assert nearest_surviving(old, "c", []) is None
    assert nearest_surviving(old, "zz", ["b", "a"]) == "b"


# --- incremental reloads ----------------------------------------------------------------------


def test_reload_one_changed_entry_in_a_big_file() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from generate import memories_text

    text = memories_text(3000)
    old = parse(text)
    e = old.entries[1500]
    new_text = text[: e.body_start] + "Edited by the agent. " + text[e.body_start :]
    new = reparse(old, new_text)
    assert shape(new) == shape(parse(new_text))
    assert diff_ids(old, new) == IdDiff(changed=(e.id,))
    assert summary("memories.md", diff_ids(old, new)) == "memories.md: 1 changed by another program"
    # the old parse is intact
    assert shape(old) == shape(parse(text))


def test_reload_keeps_or_changes_the_bom() -> None:
    text = doc(1, 2)
    data = ("\ufeff" + text + entry(3)).encode()
    new = MemoryDoc.from_bytes(Path("m.md"), data, parse(text)).mf
    assert new.bom and new.to_bytes() == data
    assert diff_ids(parse(text), new).added == ("mem-0003",)


FRAGMENTS = [
    "---\n", "```\n", "~~~\n", "````\n", "```python\n", "id: mem-0001\n", "id: mem-0009\n", "importance: high\n",
    "text line\n", "\n", "tags: [a, b\n", "# heading\n", "- item\n", "status: active\n", "---\r\n", "x",
    "id: 'quoted'\n", "用户喜欢咖啡\n", "---   \n", "~~~~\n",
]
BLOCKS = [
    entry(1), entry(2), entry(3, "a rule follows\n---\nthen more"), entry(4, "```\n---\nid: mem-0099\n---\n```"),
    entry(1, "duplicate of one"), "---\nimportance: high\n---\nmalformed: no id\n", "---\nid: [\n---\nbroken yaml\n",
    "some body text\n---\n", "```\nunclosed fence\n", "~~~\n", entry(5, "用户表示自己不能喝咖啡。"),
    "---\nnot: frontmatter-looking\n---\nplain\n", entry(6, "```\nclosed\n```"),
]


@st.composite
def edited_docs(draw: st.DrawFn) -> tuple[str, str]:
    pre = draw(st.sampled_from(["", "# Memory\n\n", "intro\n```\n", "---\n"]))
    text = pre + "".join(draw(st.lists(st.sampled_from(BLOCKS), max_size=12)))
    new = text
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(new)))
        j = draw(st.integers(i, min(len(new), i + 60)))
        piece = "".join(draw(st.lists(st.sampled_from(FRAGMENTS), max_size=4)))
        new = new[:i] + piece + new[j:]
    return text, new


@given(edited_docs())
def test_incremental_reload_equals_full_parse_and_naive_diff(case: tuple[str, str]) -> None:
    old_text, new_text = case
    old = parse(old_text)
    full = parse(new_text)
    new = reparse(old, new_text)
    assert shape(new) == shape(full)
    assert as_sets(diff_ids(old, new)) == naive(old, full)
    # the diff of two independent parses agrees too, and the old parse was not disturbed
    assert as_sets(diff_ids(old, full)) == naive(old, full)
    assert shape(old) == shape(parse(old_text))


def test_a_bom_alone_changing_is_kept_and_changes_no_entry() -> None:
    text = doc(1, 2)
    new = MemoryDoc.from_bytes(Path("m.md"), ("\ufeff" + text).encode(), parse(text)).mf
    assert new.bom and new.to_bytes() == ("\ufeff" + text).encode() and not diff_ids(parse(text), new)


def test_an_opened_fence_hiding_far_entries_is_seen_by_the_diff() -> None:
    text = doc(*range(1, 60)) + entry(60, "```\nclosing fence far below\n```")
    old = parse(text)
    e = old.entries[10]
    new_text = text[: e.body_start] + "```\nopened here\n" + text[e.body_start :]
    full = parse(new_text)
    new = reparse(old, new_text)
    assert shape(new) == shape(full)
    assert as_sets(diff_ids(old, new)) == naive(old, full)
    assert as_sets(diff_ids(old, full)) == naive(old, full)
    assert set(diff_ids(old, full).removed) == {f"mem-{i:04d}" for i in range(12, 61)} - set(full.ids())
    assert diff_ids(old, full).removed  # the hidden entries are reported as gone
