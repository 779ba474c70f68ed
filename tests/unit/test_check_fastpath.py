"""The check reads most frontmatter with whole-text regexes (for speed); it must agree with a
plain entry-by-entry reading of every field (``Entry.meta``) on any file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import KNOWN_FIELDS, parse
from openclaw_tui.core.format.fields import field_error, ids_in_value, parse_date
from tests.helpers_memgen import FIELD_LINES, memory_files

TODAY = dt.date(2026, 11, 30)

EXTRA_LINES: dict[str, list[str]] = {
    "id": [],
    "timestamp": [
        "timestamp: 2025-02-29T10:00:00+08:00",
        "timestamp: 2025-06-31T10:00:00+08:00",
        "timestamp: 2025-06-01T10:00:00",
        "timestamp: 2025-06-01T24:00:00+08:00",
        "timestamp: 2025-06-01T10:00:00+0800",
        "timestamp: 2025-06-01T10:00:00.123+08:00",
        "timestamp: 2025-06-01t10:00:00z",
        "timestamp:   2025-06-01T10:00:00+08:00   # padded",
        "timestamp: 12",
    ],
    "source": ["source: yes", "source: 12", "source: chat#1 (语音)", "source: ~", "source: [a]", "source: a #c", "source: _x"],
    "importance": ["importance: High", "importance: high # x", "importance: urgent", "importance:"],
    "ttl": ["ttl: 2026-11-29", "ttl: 2026-11-30", "ttl: 2026-02-30", "ttl: never", "ttl: 2026-11-29T23:59:00+14:00"],
    "status": ["status: Active", "status: archived", "status: active # ok", "status: 'active'", "status:", "status: no"],
    "tags": [
        "tags: [yes, no]",
        "tags: [12, a]",
        "tags: [a, a, b]",
        "tags: [ 咖啡 , 健康 ]",
        "tags: [a b, c]",
        "tags: [a,b]",
        "tags: [null]",
        "tags: [a, , b]",
        "tags: x",
        "tags: [x]  # c",
        "tags: [True]",
        "tags: [_a, b-c, d.e]",
    ],
    "last_hit": ["last_hit: 2025-13-01", "last_hit: 2025-12-31T10:00:00+08:00", "last_hit: 2024-02-29"],
    "archived_at": ["archived_at: 2025-06-01T10:00:00", "archived_at: 2025-06-01", "archived_at: 2025-06-01T10:00:00Z"],
    "conflict": ["conflict: mem-0002", "conflict: [mem-0001, mem-0003]", "conflict: 7"],
    "superseded_by": ["superseded_by: mem-0001"],
}
IDS = [f"mem-{i:04d}" for i in range(1, 7)]


CLEAN = {
    "timestamp": "timestamp: 2025-06-01T14:32:00+08:00",
    "source": "source: chat#3412",
    "importance": "importance: high",
    "status": "status: active",
    "tags": "tags: [咖啡, health]",
}


@st.composite
def frontmatters(draw: st.DrawFn) -> str:
    """Mostly clean entries (read by the fast path) with at most one odd line."""
    ident = draw(st.sampled_from(IDS + ["id: 12", "id: 'mem-0001'", "id: mem-0002  # c"]))
    lines = [ident if ident.startswith("id:") else f"id: {ident}"]
    fields = dict(CLEAN)
    for name in draw(st.lists(st.sampled_from(sorted(CLEAN)), unique=True, max_size=2)):
        del fields[name]
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(EXTRA_LINES)))
        pool = EXTRA_LINES[name] + FIELD_LINES.get(name, [])
        if pool:
            fields[name] = draw(st.sampled_from(pool))
    lines += list(fields.values())
    return "\n".join(lines) + "\n"


@st.composite
def memories(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 14))
    text = draw(st.sampled_from(["", "# pre\n\n", "status: bogus\ntags: [x]\n"]))
    for _ in range(n):
        body = draw(st.sampled_from(["body\n", "status: cold\ntags: [a]\n", "", "---\n\ntext\n"]))
        text += "---\n" + draw(frontmatters()) + "---\n" + body
    return text


def reference(text: str) -> dict[str, list[tuple[int | None, str | None]]]:
    """invalid-field, expired-ttl, unresolved-conflict and compaction-candidate, entry by entry."""
    mf = parse(text)
    out: dict[str, list[tuple[int | None, str | None]]] = {
        "invalid-field": [],
        "expired-ttl": [],
        "unresolved-conflict": [],
        "compaction-candidate": [],
    }
    kept = {}
    for e in mf.well_formed():
        assert e.id is not None
        kept.setdefault(e.id, e)
        for name, value in e.meta.items():
            if name in KNOWN_FIELDS and field_error(name, value) is not None:
                out["invalid-field"].append((e.key_lines.get(name), e.id))
        if "ttl" in e.meta and e.status == "active":
            ttl = parse_date(e.meta["ttl"])
            if ttl is not None and ttl < TODAY:
                out["expired-ttl"].append((e.key_lines.get("ttl"), e.id))
    done: set[frozenset[str]] = set()
    for e in mf.well_formed():
        if kept[e.id or ""] is not e or e.status != "active" or "conflict" not in e.meta:
            continue
        for other in ids_in_value(e.meta["conflict"]):
            pair = frozenset((e.id, other))
            if other != e.id and other in kept and kept[other].status == "active" and pair not in done:
                done.add(pair)
                out["unresolved-conflict"].append((e.key_lines.get("conflict"), e.id))
    by_tag: dict[str, set[str]] = {}  # tag -> ids of the active entries carrying it
    for e in mf.well_formed():
        if e.status == "active":
            for tag in e.tags:
                by_tag.setdefault(tag, set()).add(e.id or "")
    for _tag, ids in by_tag.items():
        if len(ids) > 5:
            out["compaction-candidate"].append((None, None))
    for v in out.values():
        v.sort(key=lambda t: (t[0] or 0, t[1] or ""))
    return out


def fast(tmp: Path, text: str) -> dict[str, list[tuple[int | None, str | None]]]:
    prof = tmp / "p"
    prof.mkdir(exist_ok=True)
    (prof / "memories.md").write_bytes(text.encode("utf-8"))
    found = check_profile(load_profile(prof), today=TODAY)
    out: dict[str, list[tuple[int | None, str | None]]] = {}
    for code in ("invalid-field", "expired-ttl", "unresolved-conflict", "compaction-candidate"):
        out[code] = sorted(
            ((f.line, f.id) for f in found if f.code == code and f.file == "memories.md"),
            key=lambda t: (t[0] or 0, t[1] or ""),
        )
    return out


@settings(max_examples=300)
@given(text=memories())
def test_fast_field_reading_agrees_with_entry_meta(tmp_path_factory: object, text: str) -> None:
    tmp = tmp_path_factory.mktemp("fast")  # type: ignore[attr-defined]
    assert fast(tmp, text) == reference(text)


@given(gen=memory_files(max_blocks=10, newlines=("lf", "crlf")))
def test_fast_field_reading_agrees_on_generated_files(tmp_path_factory: object, gen: object) -> None:
    data = gen.data  # type: ignore[attr-defined]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    text = text.removeprefix("\ufeff")
    tmp = tmp_path_factory.mktemp("gen")  # type: ignore[attr-defined]
    assert fast(tmp, text) == reference(text)
