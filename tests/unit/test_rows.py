"""The review UI's view model (core/format/rows.py): rows, marks from findings, filters, sorting."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openclaw_tui.core.check.findings import Finding
from openclaw_tui.core.format.entries import parse
from openclaw_tui.ui.rows import (
    Location,
    all_tags,
    apply_findings,
    fill_all,
    filter_rows,
    finding_location,
    make_rows,
    parse_query,
    problem_count,
    short_timestamp,
    sort_rows,
    status_counts,
    toggle_token,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import memories_text  # noqa: E402

TEXT = """# preamble
---
id: mem-0007
timestamp: 2025-05-08T08:45:00+08:00
importance: medium
status: active
tags: [饮食, 咖啡]
---
用户每天早上一杯美式。

---
id: mem-0011
timestamp: 2025-05-20T07:30:00+08:00
importance: medium
status: superseded
superseded_by: mem-0033
tags: [运动]
---
Half marathon training.

---
id: mem-0012
timestamp: 2025-06-01T14:32:00+08:00
importance: high
status: active
tags: [咖啡, health]
conflict: mem-0007
---
用户表示自己现在不能摄入咖啡因 (Coffee)。

---
id: mem-0022
importance: low
status: cold
tags: [兴趣]
---
二胡。

---
id: mem-0031
tags: [health, sleep
---
半夜三点醒。

---
id: mem-0037
importance: urgent
tags: [工作]
---
OKR 自评。
"""


def rows_of(text: str = TEXT, file: str = "memories.md"):
    rows = make_rows(parse(text), file)
    fill_all(rows)
    return rows


def by_id(rows):
    return {r.id: r for r in rows}


def test_rows_hold_the_display_fields():
    rows = rows_of()
    assert [r.id for r in rows] == ["mem-0007", "mem-0011", "mem-0012", "mem-0022", "mem-0031", "mem-0037"]
    r = by_id(rows)
    assert r["mem-0012"].status == "active"
    assert r["mem-0012"].importance == "high"
    assert r["mem-0012"].tags == ("咖啡", "health")
    assert r["mem-0012"].conflict == ("mem-0007",)
    assert r["mem-0012"].summary.startswith("用户表示")
    assert r["mem-0011"].superseded_by == "mem-0033"
    assert r["mem-0037"].status == "active"  # no status field means active
    assert r["mem-0012"].line == 21


def test_malformed_rows_are_kept_marked_and_show_their_text():
    r = by_id(rows_of())["mem-0031"]
    assert r.malformed and r.status == "malformed"
    assert "malformed" in r.marks and r.problem
    assert r.summary == "半夜三点醒。"
    assert "[health, sleep" in r.entry.raw


def test_rows_fill_lazily():
    rows = make_rows(parse(TEXT), "memories.md")
    assert not any(r.filled for r in rows)
    rows[2].fill()
    assert rows[2].filled and rows[2].importance == "high"
    assert not rows[0].filled


def test_haystack_is_lowercase_and_covers_id_tags_and_body():
    r = by_id(rows_of())["mem-0012"]
    assert "coffee" in r.haystack and "Coffee" not in r.haystack
    assert "mem-0012" in r.haystack and "health" in r.haystack and "咖啡因" in r.haystack


def test_query_parsing():
    q = parse_query('status:active,cold imp:high tag:咖啡 #health is:problem is:conflict "two words" Foo')
    assert q.statuses == {"active", "cold"}
    assert q.importances == {"high"}
    assert q.tag_groups == [{"咖啡"}, {"health"}]
    assert q.problems and q.marks == {"conflict"}
    assert q.words == ["two words", "foo"]
    assert parse_query("").empty and parse_query("   ").empty
    assert parse_query('unbalanced "quote').words == ["unbalanced", '"quote']


def test_filters():
    rows = rows_of()

    def ids(q: str) -> list[str]:
        return [r.id for r in filter_rows(rows, parse_query(q))]

    assert ids("status:superseded") == ["mem-0011"]
    assert ids("status:active,cold") == ["mem-0007", "mem-0012", "mem-0022", "mem-0037"]
    assert ids("imp:high") == ["mem-0012"]
    assert ids("tag:咖啡") == ["mem-0007", "mem-0012"]
    assert ids("tag:咖啡 tag:health") == ["mem-0012"]  # several tags: all required
    assert ids("tag:运动,兴趣") == ["mem-0011", "mem-0022"]  # alternatives
    assert ids("coffee") == ["mem-0012"]  # case-insensitive text
    assert ids("美式") == ["mem-0007"]
    assert ids("mem-0033") == ["mem-0011"]
    assert ids("is:superseded") == ["mem-0011"]
    assert ids("is:problem") == ["mem-0031"]  # before any finding, only the malformed block
    assert ids("") == [r.id for r in rows]


def test_marks_from_findings_by_line_and_conflict_pairs():
    rows = rows_of()
    archive = rows_of("---\nid: mem-0002\nstatus: archived\n---\nold\n", "contexts/archive/memories.md")
    r = by_id(rows)
    findings = [
        Finding("unresolved-conflict", "p", "memories.md", r["mem-0012"].entry.key_lines["conflict"], "mem-0012",
                "mem-0012 conflicts with mem-0007"),
        Finding("invalid-field", "p", "memories.md", r["mem-0037"].entry.key_lines["importance"], "mem-0037",
                "importance 'urgent' is not one of high, medium, low"),
        Finding("dangling-ref", "p", "memories.md", r["mem-0022"].entry.body_line, "mem-0098",
                "memories.md references mem-0098, which no entry defines"),
        Finding("dangling-ref", "p", "state.yaml", 3, "mem-0099", "state.yaml references mem-0099"),
        Finding("malformed-entry", "p", "memories.md", r["mem-0031"].line, "mem-0031", "malformed"),
        Finding("expired-ttl", "p", "memories.md", None, "mem-0007", "ttl passed"),
        Finding("duplicate-id", "p", "contexts/archive/memories.md", 1, "mem-0002", "again"),
        Finding("compaction-candidate", "p", "memories.md", None, None, "tag x"),
    ]
    apply_findings({"memories.md": rows, "contexts/archive/memories.md": archive}, findings)
    assert r["mem-0012"].marks["conflict"] == "mem-0007"
    assert r["mem-0007"].marks["conflict"] == "mem-0012"  # both sides marked, pair linked
    assert r["mem-0037"].marks["invalid"] == "importance"
    assert r["mem-0022"].marks["dangling"] == "mem-0098"  # attached to the entry holding the reference
    assert "expired" in r["mem-0007"].marks  # no line: by id
    assert r["mem-0031"].marks == {"malformed": ""}
    assert archive[0].marks == {"duplicate": ""}
    assert not r["mem-0011"].marks and not r["mem-0011"].problem
    assert problem_count(rows) == 5
    assert len(r["mem-0012"].messages) == 1
    # applying again replaces the marks (the check runs after every change)
    apply_findings({"memories.md": rows}, [])
    assert not r["mem-0012"].marks and r["mem-0031"].marks == {"malformed": ""}
    assert problem_count(rows) == 1


def test_conflict_with_a_superseded_entry_marks_only_the_holder():
    text = ("---\nid: mem-1\nstatus: superseded\n---\nold\n"
            "---\nid: mem-2\nstatus: active\nconflict: mem-1\n---\nnew\n")
    rows = rows_of(text)
    apply_findings({"memories.md": rows}, [Finding("unresolved-conflict", "p", "memories.md", 9, "mem-2", "x")])
    assert rows[1].marks["conflict"] == ""
    assert "conflict" not in rows[0].marks


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("order", ["mem-0007", "mem-0011", "mem-0012", "mem-0022", "mem-0031", "mem-0037"]),
        ("importance", ["mem-0012", "mem-0007", "mem-0011", "mem-0022", "mem-0037", "mem-0031"]),
        ("status", ["mem-0007", "mem-0012", "mem-0037", "mem-0011", "mem-0022", "mem-0031"]),
        ("timestamp", ["mem-0007", "mem-0011", "mem-0012", "mem-0022", "mem-0031", "mem-0037"]),
    ],
)
def test_sorting(key, expected):
    assert [r.id for r in sort_rows(rows_of(), key)] == expected


def test_sort_by_id_is_numeric_and_reversible():
    text = "".join(f"---\nid: mem-{n}\n---\nx\n" for n in (10, 9, 100))
    rows = rows_of(text)
    assert [r.id for r in sort_rows(rows, "id")] == ["mem-9", "mem-10", "mem-100"]
    assert [r.id for r in sort_rows(rows, "id", reverse=True)] == ["mem-100", "mem-10", "mem-9"]
    with pytest.raises(ValueError):
        sort_rows(rows, "nope")


def test_status_counts_and_tags():
    rows = rows_of()
    assert status_counts(rows) == {"active": 3, "superseded": 1, "cold": 1, "malformed": 1}
    assert all_tags(rows)[0] == ("咖啡", 2)


def test_toggle_token_and_timestamps():
    assert toggle_token("coffee", "is:problem") == "coffee is:problem"
    assert toggle_token("coffee is:problem", "is:problem") == "coffee"
    assert short_timestamp("2025-06-01T14:32:00+08:00") == "2025-06-01 14:32"
    assert short_timestamp("2025-06-01") == "2025-06-01"


def test_finding_locations():
    f = Finding("dangling-ref", "p", "state.yaml", 23, "mem-0099", "m")
    assert finding_location(f) == Location("state.yaml", 23, None)
    g = Finding("invalid-field", "p", "memories.md", 358, "mem-0037", "m")
    assert finding_location(g, "/x") == Location("memories.md", 358, "mem-0037", "/x")
    assert Location("memories.md", 3).in_memory_file and not Location("state.yaml", 3).in_memory_file
    assert Location(None, None, "mem-1").in_memory_file


@pytest.mark.slow
def test_filtering_100k_rows():
    rows = rows_of(memories_text(100_000))
    assert len(rows) == 100_000
    hits = filter_rows(rows, parse_query("status:active 咖啡因"))
    assert hits and all("咖啡因" in r.haystack for r in hits)
    assert len(filter_rows(rows, parse_query("mem-099999"))) >= 1


def test_narrowing_queries_can_refilter_the_previous_result():
    from openclaw_tui.ui.rows import narrows

    assert narrows(parse_query("mem-00"), parse_query("mem-0"))
    assert narrows(parse_query("mem-0 coffee"), parse_query("mem-0"))
    assert not narrows(parse_query("mem"), parse_query("mem-0"))  # backspace widens
    assert not narrows(parse_query("status:active mem"), parse_query("mem"))  # a facet changed
    assert narrows(parse_query("tag:x abc"), parse_query("tag:x ab"))
    rows = rows_of()
    for old, new in (("m", "me"), ("咖", "咖啡"), ("mem-001", "mem-0012")):
        step = filter_rows(filter_rows(rows, parse_query(old)), parse_query(new))
        assert step == filter_rows(rows, parse_query(new))
