"""A filter's candidates while the rows are not indexed (issue 12): the blocks a word starts in are remembered
once its search reached the end of the text, and a word typed on is looked for only among the blocks of the
word it starts with; the answer stays exactly the whole text's (each key of a sparse filter searched the whole
text: ~10 ms at 100k entries)."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.format.entries import parse
from openclaw_tui.ui.rows import (
    BlockRows,
    RawText,
    fill_all,
    filter_rows,
    lower_in_slices,
    make_rows,
    parse_query,
)
from tests.ui.test_ui_progressive import generate_profile
from tests.unit.test_spans import block_starts

KEYS = [*"19999", *["BSpace"] * 4, *"8765", *["BSpace"] * 3, *"432", "BSpace", "-", *"mem", *["BSpace"] * 4]


def typed() -> list[str]:
    out, text = [], ""
    for key in KEYS:
        text = text[:-1] if key == "BSpace" else text + key
        if text:
            out.append(text)
    return out


def test_remembered_and_narrowed_searches_give_exactly_the_whole_texts_blocks(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 2_000)
    text = "preamble 1999 9876\n" + (prof / "memories.md").read_text(encoding="utf-8")
    every = make_rows(parse(text), "memories.md")
    fill_all(every)
    starts = block_starts(text)
    assert starts is not None
    blocks = RawText.of_blocks(BlockRows(text, starts, "memories.md", every[:40]))
    blocks.low = lower_in_slices(text)
    for raw in (blocks, RawText(every)):
        narrowed = 0
        for words in typed():
            q = parse_query(words)
            word = max(q.words, key=len)
            hay = text if word == word.upper() else text.lower()
            whole = list(RawText(every, lower=False)._hits(hay, word))  # a fresh search of the whole text
            before = dict(raw.found)
            cands = raw.candidates(q)
            if cands is None:
                assert word in "malformed"  # a word a default value holds: every row is a candidate
                continue
            got = list(cands)  # to the end: remembered
            assert sorted({r.order for r in got} - set(raw.yaml)) == sorted(set(whole) - set(raw.yaml)), words
            fill_all(got)
            assert [r.id for r in filter_rows(got, q)] == [r.id for r in filter_rows(every, q)], words
            assert raw.found[word] == whole
            narrowed += word not in before and any(word.startswith(w) for w in before)
        assert narrowed >= 5  # typed on: searched among the shorter word's blocks


def test_a_word_in_most_blocks_is_not_remembered(tmp_path: Path) -> None:
    prof = generate_profile(tmp_path, 2_000)
    text = (prof / "memories.md").read_text(encoding="utf-8")
    rows = make_rows(parse(text), "memories.md")
    raw = RawText(rows, lower=False)
    list(raw.candidates(parse_query("mem-")) or [])
    assert "mem-" not in raw.found
    list(raw.candidates(parse_query("1999")) or [])
    assert "1999" in raw.found
