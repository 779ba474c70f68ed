"""Principle zero for the parser: any file parses and serialises back to the very same bytes,
and the blocks it finds are the ones the spec defines."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.format.entries import decode, parse, parse_bytes
from tests.helpers_memgen import GenFile, memory_files, memory_text, ugly_bytes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import memories_text  # noqa: E402

SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _blocks_cover(data: bytes) -> None:
    mf = parse_bytes(data)
    assert mf.to_bytes() == data
    assert mf.preamble + "".join(e.raw for e in mf.entries) == mf.text
    pos = mf.preamble_end
    for e in mf.entries:
        assert e.start == pos
        assert mf.text[e.start : e.start + 3] == "---"
        assert e.start <= e.fm_start <= e.fm_end <= e.body_start <= e.end
        pos = e.end
    assert pos == len(mf.text)


@SETTINGS
@given(ugly_bytes())
def test_any_bytes_round_trip(data: bytes) -> None:
    _blocks_cover(data)


@SETTINGS
@given(memory_files())
def test_generated_files_round_trip(gen: GenFile) -> None:
    _blocks_cover(gen.data)
    doc = MemoryDoc.from_bytes(Path("memories.md"), gen.data)
    assert doc.render(doc.mf.text) == gen.data  # the save path writes what was read


@SETTINGS
@given(memory_files())
def test_blocks_are_classified_as_generated(gen: GenFile) -> None:
    mf = parse_bytes(gen.data)
    got = [("entry" if e.error is None else "malformed", e.id if e.error is None else None) for e in mf.entries]
    assert got == gen.expected
    for e in mf.entries:
        if e.error is None:
            assert e.meta.get("id") is not None or e.id  # meta is readable
        assert e.line == mf.text.count("\n", 0, e.start) + 1


@SETTINGS
@given(memory_text(), st.sampled_from(["\n", "\r\n"]))
def test_bodies_and_frontmatter_are_the_generated_text(gen: tuple[str, list[tuple[str, str | None]]], nl: str) -> None:
    text, _ = gen
    mf = parse(text.replace("\n", nl))
    for e in mf.entries:
        assert e.raw == "---" + e.raw[3:]
        assert e.frontmatter + "---" in e.raw
        assert e.raw.endswith(e.body)


@SETTINGS
@given(st.text(max_size=200))
def test_text_round_trip_any_unicode(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    mf = parse_bytes(data)
    assert mf.to_bytes() == data


def test_decode_keeps_invalid_bytes() -> None:
    data = b"\xef\xbb\xbf---\nid: mem-1\n---\n\xff\xfe body\r\n"
    text, bom, ok = decode(data)
    assert bom and not ok
    assert parse(text, bom=bom).to_bytes() == data


def test_huge_file_round_trips_and_finds_every_entry() -> None:
    text = memories_text(100_000)
    data = text.encode("utf-8")
    mf = parse_bytes(data)
    assert mf.to_bytes() == data
    assert len(mf.entries) == 100_000
    assert mf.ids()[:3] == ["mem-000001", "mem-000002", "mem-000003"]
    assert mf.ids()[-1] == "mem-100000"
    assert not any(e.error for e in mf.entries)
    assert mf.entries[-1].end == len(mf.text)
