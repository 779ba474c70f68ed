"""Principle zero for edits: one field edited changes only that field's lines, one body edited
changes only that body, and an edit that cannot be made cleanly is refused, never half-made."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.format.edit import EditError, normalise_newlines, set_body, set_fields
from openclaw_tui.core.format.entries import Entry, MemoryFile, parse, parse_bytes
from openclaw_tui.core.format.fields import IMPORTANCE, STATUSES
from openclaw_tui.core.lifecycle.operations import plan_set
from openclaw_tui.core.lifecycle.plan import Files
from tests.helpers_memgen import GenFile, body, memory_files

SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

SAFE_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=20
).filter(lambda s: s.strip() == s and s != "")
IDS = st.from_regex(r"mem-[0-9]{4}", fullmatch=True)
DATES = st.dates().filter(lambda d: d.year > 1000).map(lambda d: d.isoformat())
VALUES: dict[str, Any] = {
    "importance": st.sampled_from(IMPORTANCE),
    "status": st.sampled_from(STATUSES),
    "ttl": DATES,
    "last_hit": DATES,
    "timestamp": st.sampled_from(["2025-07-01T10:00:00+08:00", "2024-02-29T23:59:59Z"]),
    "source": SAFE_TEXT,
    "tags": st.lists(SAFE_TEXT, min_size=1, max_size=4),
    "conflict": st.one_of(IDS, st.lists(IDS, min_size=1, max_size=3)),
    "superseded_by": IDS,
    "custom": st.one_of(SAFE_TEXT, st.integers(), st.booleans(), st.lists(SAFE_TEXT, max_size=3)),
    "new_field": st.one_of(SAFE_TEXT, st.integers(-5, 5)),
}


def files_of(data: bytes) -> Files:
    return Files(MemoryDoc.from_bytes(Path("/nowhere/memories.md"), data), MemoryDoc.from_bytes(Path("/nowhere/a.md"), None))


def field_span(mf: MemoryFile, e: Entry, name: str) -> tuple[int, int]:
    """0-based [first, end) file line indexes of a top-level field (an empty range at the closing
    ``---`` when the field is absent), found independently of the editor."""
    lines = mf.text.split("\n")
    first = e.line  # 0-based index of the first frontmatter line
    close = first + mf.text.count("\n", e.fm_start, e.fm_end)
    for i in range(first, close):
        if re.match(rf"{re.escape(name)}[ \t]*:(?:[ \t]|\r?$)", lines[i]):
            end = i + 1
            last = end
            while end < close:
                s = lines[end].rstrip("\r")
                if s and (s[0] in " \t" or s.startswith("-")):
                    end += 1
                    if s.strip() and not s.lstrip().startswith("#"):
                        last = end
                elif not s.strip() or s.startswith("#"):
                    end += 1
                else:
                    break
            return i, last
    return close, close


def only_lines_changed(old: str, new: str, a: int, b: int) -> bool:
    """True when ``new`` equals ``old`` outside old lines [a, b)."""
    ol, nl = old.split("\n"), new.split("\n")
    tail = len(ol) - b
    return ol[:a] == nl[:a] and ol[b:] == nl[len(nl) - tail :] and len(nl) - tail >= a


def _others_unchanged(old: MemoryFile, new: MemoryFile, k: int) -> None:
    assert len(old.entries) == len(new.entries)
    assert old.preamble == new.preamble
    for i, (x, y) in enumerate(zip(old.entries, new.entries, strict=True)):
        if i != k:
            assert x.raw == y.raw


@SETTINGS
@given(memory_files(), st.data())
def test_set_one_field_touches_only_its_lines(gen: GenFile, data: st.DataObject) -> None:
    mf = parse_bytes(gen.data)
    entries = [(k, e) for k, e in enumerate(mf.entries) if e.error is None]
    assume(entries)
    k, e = data.draw(st.sampled_from(entries))
    name = data.draw(st.sampled_from(sorted(VALUES)))
    value = data.draw(VALUES[name])
    assert e.id is not None
    new_text = set_fields(mf, e.id, {name: value})
    new = parse(new_text, bom=mf.bom)
    _others_unchanged(mf, new, k)
    assert new.entries[k].id == e.id and new.entries[k].error is None
    assert new.entries[k].meta[name] == value
    assert {x: v for x, v in new.entries[k].meta.items() if x != name} == {
        x: v for x, v in e.meta.items() if x != name
    }
    a, b = field_span(mf, e, name)
    assert only_lines_changed(mf.text, new_text, a, b), (a, b)

    # the operation path (validation, verified rewrite) writes exactly the same bytes
    plan = plan_set(files_of(gen.data), e.id, {name: value})
    if e.meta.get(name) == value and type(e.meta.get(name)) is type(value):
        assert plan.empty
    else:
        assert plan.changes[0].after == new.to_bytes()


@SETTINGS
@given(memory_files(), st.data())
def test_setting_the_current_value_writes_nothing(gen: GenFile, data: st.DataObject) -> None:
    mf = parse_bytes(gen.data)
    entries = [e for e in mf.entries if e.error is None and e.meta]
    assume(entries)
    e = data.draw(st.sampled_from(entries))
    name = data.draw(st.sampled_from(sorted(e.meta)))
    assume(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name))
    assert e.id is not None
    try:
        plan = plan_set(files_of(gen.data), e.id, {name: e.meta[name]})
    except EditError:
        return  # an invalid current value (status: bogus...) is refused as a new value too
    assert plan.empty and plan.changes == []


@SETTINGS
@given(memory_files(), st.data())
def test_set_body_touches_only_that_body(gen: GenFile, data: st.DataObject) -> None:
    mf = parse_bytes(gen.data)
    entries = [(k, e) for k, e in enumerate(mf.entries) if e.error is None]
    assume(entries)
    k, e = data.draw(st.sampled_from(entries))
    new_body = data.draw(body())
    assert e.id is not None
    naive = set_body(mf, e.id, new_body)
    assert naive[: e.body_start] == mf.text[: e.body_start]
    assert naive.endswith(mf.text[e.end :])
    reparsed = parse(naive, bom=mf.bom)
    clean = len(reparsed.entries) == len(mf.entries) and all(
        x.raw == y.raw for i, (x, y) in enumerate(zip(mf.entries, reparsed.entries, strict=True)) if i != k
    )
    try:
        plan = plan_set(files_of(gen.data), e.id, {}, body=new_body)
    except EditError:
        assert not clean  # refused only when the edit would change how other blocks parse
        return
    assert clean
    if plan.empty:
        assert naive == mf.text
        return
    after = parse_bytes(plan.changes[0].after)
    _others_unchanged(mf, after, k)
    nl = "\r\n" if e.raw.split("\n", 1)[0].endswith("\r") else "\n"
    want = normalise_newlines(new_body, nl)
    got = after.entries[k].body
    # the blank lines that parted the entry from the next stay (set_body keeps the separator)
    kept_separator = got.startswith(want.rstrip("\r\n")) and not got[len(want.rstrip("\r\n")):].strip("\r\n")
    assert got == want or got == want + nl or (want.endswith(nl) and got == want[: -len(nl)]) or kept_separator
    assert after.entries[k].raw[: e.body_start - e.start] == e.raw[: e.body_start - e.start]


@SETTINGS
@given(memory_files())
def test_unedited_save_is_byte_identical(gen: GenFile) -> None:
    doc = MemoryDoc.from_bytes(Path("/nowhere/memories.md"), gen.data)
    assert doc.render(doc.mf.text) == gen.data
    for e in doc.mf.entries:
        if e.error is None and e.id is not None:
            assert plan_set(files_of(gen.data), e.id, {}).empty


def test_trailing_comment_and_quoting_survive() -> None:
    text = "---\nid: mem-0001\nimportance: low   # rarely needed\ntags: [a, b]  # topics\n---\nbody\n"
    mf = parse(text)
    new = set_fields(mf, "mem-0001", {"importance": "high", "tags": ["a", "b", "c"]})
    assert new == "---\nid: mem-0001\nimportance: high   # rarely needed\ntags: [a, b, c]  # topics\n---\nbody\n"


def test_block_list_stays_a_block_list() -> None:
    text = "---\nid: mem-0001\ntags:\n  - a\n  - b\nstatus: active\n---\nbody\n"
    new = set_fields(parse(text), "mem-0001", {"tags": ["a", "c"]})
    assert new == "---\nid: mem-0001\ntags:\n  - a\n  - c\nstatus: active\n---\nbody\n"


def test_crlf_entry_keeps_crlf() -> None:
    text = "---\r\nid: mem-0001\r\nimportance: low\r\n---\r\nbody\r\n"
    new = set_fields(parse(text), "mem-0001", {"importance": "high", "ttl": "2026-01-01"})
    assert new == "---\r\nid: mem-0001\r\nimportance: high\r\nttl: 2026-01-01\r\n---\r\nbody\r\n"
