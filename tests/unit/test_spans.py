"""Block starts found before the parse (issue 12): whenever ``block_starts`` answers, it is the parse's answer.

Every property compares with ``entries.parse`` itself: the starts, the whole file parsed in steps, any one
block parsed alone, and a filter over the blocks (``BlockRows``) with ``filter_rows`` over the parse's rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.format.entries import Entry, decode, parse
from openclaw_tui.core.format.spans import (
    block_starts_in_parts,
    entry_at,
    fenced,
    parse_in_steps,
    start_lines,
)
from openclaw_tui.ui.rows import (
    BlockRows,
    RawText,
    fill_all,
    filter_rows,
    lower_in_slices,
    make_rows,
    parse_query,
)
from tests.helpers_memgen import SOUP, memory_files
from tests.ui.test_ui_progressive import generate_profile

SAMPLES = Path(__file__).resolve().parents[2] / "sample_profiles"


def block_starts(text: str, pause: Callable[[], None] | None = None) -> list[int] | None:
    """The scan's whole answer in one part (its only answer is the last one): the starts, or None."""
    found = next(block_starts_in_parts(text, pause, part=len(text) + 1))
    return None if found is None else found[0]


def key(e: Entry) -> tuple[Any, ...]:
    return (e.start, e.end, e.line, e.fm_start, e.fm_end, e.body_start, e.id, e.error, e._meta, e._key_lines,
            e.text_ref is not None)


def same_as_parse(text: str, step: int = 3) -> bool:
    """Check every answer of the module against the parse; True when ``block_starts`` answered."""
    mf = parse(text)
    starts = block_starts(text, pause=lambda: None)
    parts_agree(text, starts, mf.entries)
    if starts is None:
        return False
    assert starts == [e.start for e in mf.entries]
    stepped = parse_in_steps(text, False, starts, pause=lambda: None, step=step)
    assert [key(e) for e in stepped.entries] == [key(e) for e in mf.entries]
    assert (stepped.preamble_end, stepped.newline, stepped.failed_fence, stepped.text) == (
        mf.preamble_end, mf.newline, mf.failed_fence, mf.text)
    lines = start_lines(text, starts)
    assert [key(entry_at(text, starts, i, lines[i])) for i in range(len(starts))] == [key(e) for e in mf.entries]
    assert start_lines(text, starts, pause=lambda: None) == [e.line for e in mf.entries]
    return True


def parts_agree(text: str, starts: list[int] | None, entries: list[Entry]) -> None:
    """``block_starts_in_parts``: runs of ``block_starts``' answer, each block of a run read exactly as the parse
    reads it, then that answer (or None, once, at the end)."""
    parsed = [e.start for e in entries]
    for part in (1, 7, 50):
        got = list(block_starts_in_parts(text, pause=lambda: None, part=part))
        if starts is None:
            assert got[-1] is None and None not in got[:-1]
        else:
            assert None not in got and got[-1] == (starts, start_lines(text, starts), None)
        # each run before the end, answered or not (a fence further on), is the parse's first blocks
        for run in got[:-1]:
            assert run is not None
            st, ln, end = run
            k = len(st)
            assert 0 < k < len(parsed) and st == parsed[:k] and end == parsed[k]
            assert ln == [e.line for e in entries[:k]]
            assert [key(entry_at(text, st, i, ln[i], end)) for i in range(k)] == [key(e) for e in entries[:k]]


SIMPLE = "# Memory\n\n---\nid: a-1\nstatus: active\n---\nbody one\n\n---\nid: a-2\ntags: [x, y]\n---\nbody two\n"


def test_a_file_whose_blocks_open_with_an_id_line_is_answered_and_read_exactly() -> None:
    assert same_as_parse(SIMPLE)
    assert same_as_parse(SIMPLE.replace("\n", "\r\n"))  # CRLF
    assert same_as_parse("---\nid: first\n---\nat the very start, no newline at the end")
    assert same_as_parse("")  # no block at all
    assert same_as_parse("just text\n")
    # a trailing delimiter with nothing after it opens nothing, as in the parse
    assert same_as_parse(SIMPLE + "---\n")
    # an id line first but YAML the line scanner cannot read, a quoted id, an empty id: still blocks
    assert same_as_parse(SIMPLE + "---\nid: bad\ncustom: {a: [1\n---\nbroken yaml\n")
    assert same_as_parse(SIMPLE + "---\nid: 'quoted'\nnested:\n  k: v\n---\nx\n")
    assert same_as_parse(SIMPLE + "---\nid:\n---\nno id value\n")


def test_the_runs_before_a_code_fence_are_the_parses_first_blocks() -> None:
    fenced_later = SIMPLE * 5 + "---\nid: f\n---\n```\n---\nid: hidden\n---\n```\n" + SIMPLE
    assert block_starts(fenced_later) is None
    runs = list(block_starts_in_parts(fenced_later, part=1))
    assert runs[-1] is None and len(runs) > 3  # runs, then None
    same_as_parse(fenced_later)  # (checks each run against the parse)


def test_files_only_the_parse_can_read_are_not_answered() -> None:
    fenced = SIMPLE + "```\n---\nid: hidden\n---\n```\n"
    assert block_starts(fenced) is None  # a fence may hide delimiters: only the parse says
    assert block_starts(SIMPLE + "~~~\nx\n~~~\n") is None
    ruled = SIMPLE.replace("body one\n", "body one\n\n---\n\nafter a rule\n")
    assert block_starts(ruled) is None  # a --- rule in a body shifts the pairing: not an id line after it
    assert not same_as_parse(ruled)
    later_id = SIMPLE.replace("id: a-2\ntags: [x, y]", "tags: [x, y]\nid: a-2")
    assert block_starts(later_id) is None  # the id is not the first line: the block could be text
    assert block_starts("\ufeff" + SIMPLE) is None  # a second BOM: the parse strips it


def test_a_generated_profile_is_answered_and_parsed_in_steps_exactly(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 1_200)
    text = (prof / "memories.md").read_text(encoding="utf-8")
    assert same_as_parse(text, step=97)


def test_the_sample_profiles_are_read_exactly_whenever_they_are_answered() -> None:
    files = sorted(SAMPLES.rglob("memories.md"))
    assert files
    for path in files:
        text, _bom, _ok = decode(path.read_bytes())
        same_as_parse(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memory_files(max_blocks=10))
def test_generated_files_whenever_answered_are_the_parse(gen: Any) -> None:
    text, _bom, _ok = decode(gen.data)
    same_as_parse(text)
    # the same blocks with every id moved first (the answered kind): answered unless a body breaks the pairing
    same_as_parse(text.replace("\nstatus: active\nid: ", "\nid: "))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*SOUP, "---\nid: x", "---\nid: y\n---", "body"]), max_size=30))
def test_soup_whenever_answered_is_the_parse(lines: list[str]) -> None:
    same_as_parse("\n".join(lines))


def test_a_filter_over_the_blocks_gives_exactly_the_parse_rows(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 2_000)
    text = (prof / "memories.md").read_text(encoding="utf-8")
    every = make_rows(parse(text), "memories.md")
    fill_all(every)
    starts = block_starts(text)
    assert starts is not None
    first = every[:40]  # the preview's rows (already the parse's)
    blocks = BlockRows(text, starts, "memories.md", first)
    assert len(blocks) == len(every) and blocks.extends(first) and not blocks.extends(every[:39])
    raw = RawText.of_blocks(blocks)
    assert raw.candidates(parse_query("peanuts")) is None  # a word with case: the text is not lowered yet
    answered = 0
    for low in (None, lower_in_slices(text)):
        raw.low = low
        for words in ("1999", "19 2", "mem-001", "peanuts", "Peanuts tag0"):
            q = parse_query(words)
            cands = raw.candidates(q)
            if cands is None:
                continue
            answered += 1
            got = list(cands)
            fill_all(got)
            want = [r.id for r in filter_rows(every, q)]
            assert want and [r.id for r in filter_rows(got, q)] == want, words
    assert answered == 2 + 5
    assert blocks[1999].line == every[1999].line and blocks[-1] is blocks[1999]
    assert blocks[5] is first[5]  # the first rows are the ones given, not made again


BODIES = ["plain text", "", "See also m-2.", "中文 正文", "key: value looking line", "id: not-a-block",
          "# heading", "- a list item", "trailing spaces   "]
RULES = ["---", "--- ", "---\nid: looks-like-an-entry"]  # a --- line in a body: only the parse can pair it


@st.composite
def id_first_files(draw: st.DrawFn) -> tuple[str, bool]:
    """(text whose blocks all open with an id line, whether a body holds a --- line)."""
    from tests.helpers_memgen import FIELD_LINES

    text = draw(st.sampled_from(["", "# Memory\n\n", "intro\n"]))
    ruled = False
    for i in range(draw(st.integers(1, 8))):
        ident = draw(st.sampled_from([f"m-{i}", f"'m-{i}'", f'"m-{i}"', f"m-{i}  # c", ""]))
        fields = draw(st.lists(st.sampled_from(sorted(FIELD_LINES)), max_size=4, unique=True))
        lines = [f"id: {ident}".rstrip()] + [draw(st.sampled_from(FIELD_LINES[f])) for f in fields]
        body = draw(st.lists(st.sampled_from(BODIES + (RULES if draw(st.booleans()) else [])), max_size=4))
        ruled = ruled or any(b in RULES for b in body)
        text += "---\n" + "\n".join(lines) + "\n---\n" + "\n".join(body) + "\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text, ruled


@settings(max_examples=200, deadline=None)
@given(id_first_files())
def test_files_whose_blocks_open_with_an_id_line_are_answered_exactly(drawn: tuple[str, bool]) -> None:
    text, ruled = drawn
    answered = same_as_parse(text)
    assert answered or ruled  # without a --- line in a body every such file is answered


def test_a_fence_is_found_whichever_slice_it_is_in_or_across() -> None:
    text = "x" * 50
    for at in range(0, 48):
        for fence in ("```", "~~~"):
            with_fence = text[:at] + fence + text[at + 3 :]
            assert all(fenced(with_fence, size=size) for size in (1, 2, 3, 7, 10, 100)), (at, fence)
    assert not any(fenced(text + "``~~" + text, size=size) for size in (1, 2, 3, 7, 100))
    slices: list[int] = []
    assert not fenced(text, pause=lambda: slices.append(1), size=10) and len(slices) == 5
