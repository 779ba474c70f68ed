"""The fast path of the editing commands: ``locate`` finds one entry (and its neighbours) exactly as
the full parse does, or says it cannot be sure; never a different answer."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.format.entries import Entry, parse
from openclaw_tui.core.format.locate import ABSENT, Window, locate
from tests.helpers_memgen import GenFile, memory_files

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import memories_text  # noqa: E402

SETTINGS = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
IDS = ["mem-1", "mem-2", "mem-3", "mem-10", "x"]

LINES = [
    "---", "---", "---", "--- ", "---\r", "----", " ---",
    "id: mem-1", "id: mem-2", "id: mem-3", "id: mem-10", "id: x", "id: 'mem-2'", 'id: "mem-3"', "id:", "id: [mem-1]",
    "id: mem-1 # note", "id: mem-1, mem-2",
    "status: active", "importance: high", "tags: [a, b]", "conflict: mem-1", "superseded_by: mem-2",
    "key: [unclosed", "key: {a: 1}", "- item", "  - mem-2", "tags:", ": bad", "not: [a", "id: &a mem-2",
    "text about mem-1", "See mem-2.", "", "", "# Heading", "plain words", "a: b: c", "x:",
]


@st.composite
def tricky_text(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(LINES), max_size=40))
    text = "\n".join(lines)
    return text + draw(st.sampled_from(["", "\n", "\r\n"]))


FM = ["id: mem-1", "id: mem-2", "id: mem-3", "id: mem-10", "id: 'mem-2'", "id:", "status: active", "importance: high",
      "tags: [a, b]", "conflict: mem-1", "key: [unclosed", "- item", "tags:", "  - mem-2", "# c", "", "a: b: c"]
BODY = ["text about mem-1", "See mem-2.", "", "---", "--- ", "id: mem-3", "id: mem-1", "status: active", "plain words",
        "# Heading", "key: [unclosed"]


@st.composite
def tricky_blocks(draw: st.DrawFn) -> str:
    """Blocks much like entries, with stray ``---`` lines and frontmatter-looking bodies between them."""
    parts = [draw(st.sampled_from(["", "# Title\n\n", "id: mem-1\n", "---\n"]))]
    for _ in range(draw(st.integers(0, 8))):
        fm = draw(st.lists(st.sampled_from(FM), max_size=4))
        body = draw(st.lists(st.sampled_from(BODY), max_size=4))
        delim = draw(st.sampled_from(["---", "---", "--- ", "---\r"]))
        parts.append("\n".join([delim, *fm, "---", *body]) + "\n")
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text.rstrip("\n") if draw(st.booleans()) else text


def same(a: Entry, b: Entry) -> None:
    assert (a.start, a.end, a.line, a.fm_start, a.fm_end, a.body_start, a.id, a.error) == (
        b.start, b.end, b.line, b.fm_start, b.fm_end, b.body_start, b.id, b.error)
    assert a.meta == b.meta
    assert a.key_lines == b.key_lines


def agrees(text: str, entry_id: str) -> bool:
    """Check ``locate`` against the full parse; True when it answered (not None)."""
    got = locate(text, entry_id)
    if got is None:
        return False
    entries = parse(text).entries
    k = next((i for i, e in enumerate(entries) if e.id == entry_id and e.error is None), None)
    if k is None:
        assert got == ABSENT
        return True
    assert isinstance(got, Window)
    want = entries[max(0, k - 1) : k + 2]
    assert len(got.entries) == len(want)
    for a, b in zip(got.entries, want, strict=True):
        same(a, b)
    assert got.entries[got.index].start == entries[k].start
    assert got.first == (k == 0)
    return True


@SETTINGS
@given(tricky_text())
def test_locate_equals_the_full_parse_on_tricky_text(text: str) -> None:
    for entry_id in IDS:
        agrees(text, entry_id)


@SETTINGS
@given(tricky_blocks())
def test_locate_equals_the_full_parse_on_tricky_blocks(text: str) -> None:
    for entry_id in IDS:
        agrees(text, entry_id)


@SETTINGS
@given(memory_files())
def test_locate_equals_the_full_parse_on_generated_files(gen: GenFile) -> None:
    text = gen.data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    ids = [e.id for e in parse(text).entries if e.id] + ["mem-0001", "nope"]
    for entry_id in ids[:6]:
        agrees(text, entry_id)


def test_locate_answers_on_a_typical_file_and_reads_little() -> None:
    text = memories_text(2000)
    for n in (1, 2, 7, 57, 1000, 1999, 2000):
        assert agrees(text, f"mem-{n:06d}")
    assert locate(text, "mem-999999") == ABSENT


def test_locate_declines_where_it_cannot_be_sure() -> None:
    fenced = "---\nid: a\n---\n```\n---\nid: b\n---\n```\n"
    assert locate(fenced, "a") is None
    assert locate("---\nid: \"m\\x41\"\n---\n", "mA") is None  # a YAML escape spells the id
    assert locate("---\nid: 0x10\n---\n", "16") is None  # YAML reads 0x10 as 16
    assert locate("---\nid: a b\n---\n", "a b") is None
