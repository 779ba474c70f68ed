"""Byte-exact edits of MEMORY.md items and sections and USER.md directives (real files, hypothesis)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.format.entries import decode
from openclaw_tui.core.lifecycle.plan import apply_changes
from openclaw_tui.core.lifecycle.undo import UndoStack
from openclaw_tui.core.workspace.edits import (
    add_directive,
    append_items,
    edit_row,
    move_item,
    remove_row,
    strip_metadata,
    supersede_directive,
)
from openclaw_tui.core.workspace.model import load_user, parse_memory_text

MEM = (
    "# MEMORY.md - 长期记忆\n\nKeep it short.\n\n## About 小雨\n\n- 住在杭州，养了一只猫。\n- Works nights;\n  answers late.\n"
    "\n## Preferences\n\n* 喜欢短回答 <!-- importance: 3 -->\n\n### Food\n\n1. No dairy.\n\n"
    "## Promoted From Short-Term Memory (2026-05-03)\n\n"
    "<!-- openclaw-memory-promotion:memory:memory/2026-04-27.md:1:4 -->\n"
    "- Lena orders oat flat whites. [score=0.961 recalls=10 avg=0.468] <!-- trigger: coffee -->\n"
)


def write(tmp_path: Path, data: bytes, name: str = "MEMORY.md") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def rows(p: Path):  # type: ignore[no-untyped-def]
    return parse_memory_text(decode(p.read_bytes())[0])


def key_of(p: Path, text: str) -> str:
    return next(r.key for r in rows(p) if r.text.startswith(text))


def test_edit_item_changes_only_its_text(tmp_path: Path) -> None:
    p = write(tmp_path, MEM.encode())
    k = key_of(p, "喜欢短回答")
    apply_changes(edit_row(p, k, "喜欢先给结论，再给细节"))
    assert p.read_bytes() == MEM.replace("喜欢短回答", "喜欢先给结论，再给细节").encode()


def test_section_title_edit_remove_and_move(tmp_path: Path) -> None:
    p = write(tmp_path, MEM.encode())
    sec = next(r for r in rows(p) if r.kind == "section" and r.text == "Food")
    apply_changes(edit_row(p, sec.key, "Food & drink"))
    assert p.read_bytes() == MEM.replace("### Food\n", "### Food & drink\n").encode()
    p.write_bytes(MEM.encode())
    apply_changes(remove_row(p, sec.key))
    assert p.read_bytes() == MEM.replace("### Food\n\n1. No dairy.\n\n", "").encode()
    p.write_bytes(MEM.encode())
    # move the promoted item (marker line and metadata with it) into "About 小雨"
    k = key_of(p, "Lena orders")
    target = next(r.key for r in rows(p) if r.kind == "section" and r.text == "About 小雨")
    stack = UndoStack()
    stack.apply(move_item(p, k, target))
    promo = (
        "<!-- openclaw-memory-promotion:memory:memory/2026-04-27.md:1:4 -->\n"
        "- Lena orders oat flat whites. [score=0.961 recalls=10 avg=0.468] <!-- trigger: coffee -->\n"
    )
    expected = MEM.replace(promo, "").replace("  answers late.\n", "  answers late.\n" + promo)
    assert p.read_bytes() == expected.encode()
    stack.undo()
    assert p.read_bytes() == MEM.encode()


def test_strip_metadata_keeps_the_text(tmp_path: Path) -> None:
    p = write(tmp_path, MEM.replace("\n", "\r\n").encode())
    k = key_of(p, "Lena orders")
    apply_changes(strip_metadata(p, k))
    expected = MEM.replace(
        "<!-- openclaw-memory-promotion:memory:memory/2026-04-27.md:1:4 -->\n", ""
    ).replace(" [score=0.961 recalls=10 avg=0.468] <!-- trigger: coffee -->", "")
    assert p.read_bytes() == expected.replace("\n", "\r\n").encode()


def test_append_items_to_a_section_and_to_an_empty_one(tmp_path: Path) -> None:
    p = write(tmp_path, MEM.encode())
    sec = next(r.key for r in rows(p) if r.kind == "section" and r.text == "About 小雨")
    apply_changes(append_items(p, sec, ["新的一条 <!-- source: memory/2026-04-27.md:3 -->"]))
    assert p.read_bytes() == MEM.replace(
        "  answers late.\n", "  answers late.\n- 新的一条 <!-- source: memory/2026-04-27.md:3 -->\n"
    ).encode()
    q = write(tmp_path, b"# M\n\n## Empty\n\n## Next\n", "m2.md")
    sec = next(r.key for r in rows(q) if r.text == "Empty")
    apply_changes(append_items(q, sec, ["one"]))
    assert q.read_bytes() == b"# M\n\n## Empty\n\n- one\n\n## Next\n"
    tight = write(tmp_path, b"## A\r\n- a\r\n## B\n- b", "m3.md")
    sec = next(r.key for r in rows(tight) if r.text == "A")
    apply_changes(append_items(tight, sec, ["new"]))
    assert tight.read_bytes() == b"## A\r\n- a\r\n- new\r\n## B\n- b"  # no blank line added, its line ending
    sec = next(r.key for r in rows(tight) if r.text == "B")
    apply_changes(append_items(tight, sec, ["end"]))
    assert tight.read_bytes() == b"## A\r\n- a\r\n- new\r\n## B\n- b\n- end\n"


USER = (
    "\ufeff# USER.md\n\n- **Name:** 小雨\n\n## Directives\r\n\r\n<!-- observed: 2026-03-14 | status: active -->\r\n"
    "- 回答尽量简短。\r\n\r\n<!-- observed: 2026-05-02 | status: active -->\r\n- Sources as links.\r\n"
)


def test_supersede_in_place_and_add(tmp_path: Path) -> None:
    p = write(tmp_path, USER.encode(), "USER.md")
    u = load_user(tmp_path)
    assert u is not None and [d.status for d in u.directives] == ["active", "active"]
    d = u.directives[0]
    apply_changes(supersede_directive(p, d.line, d.text))
    assert p.read_bytes() == USER.replace("2026-03-14 | status: active", "2026-03-14 | status: superseded").encode()
    p.write_bytes(USER.encode())
    apply_changes(supersede_directive(p, d.line, d.text, "先给结论，再展开。", dt.date(2026, 11, 30)))
    assert p.read_bytes() == USER.replace(
        "2026-03-14 | status: active -->\r\n- 回答尽量简短。\r\n",
        "2026-03-14 | status: superseded -->\r\n- 回答尽量简短。\r\n\r\n"
        "<!-- observed: 2026-11-30 | status: active -->\r\n- 先给结论，再展开。\r\n",
    ).encode()
    p.write_bytes(USER.encode())
    apply_changes(add_directive(p, "Charts in R.", dt.date(2026, 11, 30)))
    assert p.read_bytes() == (USER + "\r\n<!-- observed: 2026-11-30 | status: active -->\r\n- Charts in R.\r\n").encode()


def test_empty_text_is_refused(tmp_path: Path) -> None:
    from openclaw_tui.core.format.edit import EditError

    p = write(tmp_path, MEM.encode())
    with pytest.raises(EditError):
        edit_row(p, key_of(p, "喜欢"), "  ")


# --- property: one item's edit changes only its bytes, on ugly inputs ----------------------

_piece = st.sampled_from([
    "## Sec\n", "### 小节 ##\n", "- item\n", "* 项目 <!-- importance: 2 -->\n", "1. first\n", "- multi\n  line\n",
    "\n", "\r\n", "text para\n", "<!-- openclaw-memory-promotion:memory:memory/2026-01-01.md:1:2 -->\n",
    "- scored [score=0.5 recalls=1 avg=0.2]\n", "```\n- not an item\n```\n", "\t- tabbed\n", "- \x0c ff\u2028ls\n",
    "- crlf\r\n", "-\n", "  - nested\n", "> quote\n",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pieces=st.lists(_piece, min_size=1, max_size=14),
    bom=st.booleans(), bad=st.booleans(), last_nl=st.booleans(),
    pick=st.integers(0, 1000), new=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20),
)
def test_edit_changes_only_the_item_bytes(
    tmp_path: Path, pieces: list[str], bom: bool, bad: bool, last_nl: bool, pick: int, new: str
) -> None:
    body = "".join(pieces)
    if not last_nl:
        body = body.rstrip("\n")
    data = (b"\xef\xbb\xbf" if bom else b"") + body.encode() + (b"\n- bad \xff byte\n" if bad else b"")
    text, _b, _ok = decode(data)
    items = [r for r in parse_memory_text(text) if r.kind == "item"]
    if not items or not new.strip():
        return
    row = items[pick % len(items)]
    p = tmp_path / "MEMORY.md"
    p.write_bytes(data)
    apply_changes(edit_row(p, row.key, new, row.line))
    after = p.read_bytes()
    pre = (b"\xef\xbb\xbf" if bom else b"") + text[: row.body_start].encode("utf-8", "surrogateescape")
    post = text[row.body_end:].encode("utf-8", "surrogateescape")
    assert after.startswith(pre) and after.endswith(post)
    assert len(after) - len(pre) - len(post) == len(new.strip().replace("\r\n", "\n").encode("utf-8", "surrogateescape")) \
        or "\n" in new or "\r" in new


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(_piece, min_size=1, max_size=14), bom=st.booleans(), pick=st.integers(0, 1000))
def test_remove_and_move_touch_only_the_item(tmp_path: Path, pieces: list[str], bom: bool, pick: int) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + ("## A\n\n" + "".join(pieces) + "\n## B\n\n- last\n").encode()
    text, _b, _ok = decode(data)
    rows = parse_memory_text(text)
    items = [r for r in rows if r.kind == "item" and r.heading_path[-1:] != ("B",)]
    if not items:
        return
    row = items[pick % len(items)]
    block = text[row.start:row.end]
    p = tmp_path / "MEMORY.md"
    p.write_bytes(data)
    apply_changes(remove_row(p, row.key, row.line))
    pre = (b"\xef\xbb\xbf" if bom else b"")
    assert p.read_bytes() == pre + (text[: row.start] + text[row.end:]).encode("utf-8", "surrogateescape")
    p.write_bytes(data)
    target = next(r for r in rows if r.kind == "section" and r.text == "B")
    apply_changes(move_item(p, row.key, target.key, row.line))
    after = p.read_bytes().decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    rest = text[: row.start] + text[row.end:]
    assert after.startswith(rest[: rest.index("## B\n")])  # everything before B is as it was, minus the item
    moved = block if block.endswith("\n") else block + "\n"
    assert after.endswith("- last\n" + moved)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(1, 5), pick=st.integers(0, 10), crlf=st.booleans(), blank=st.booleans(),
    body=st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30),
)
def test_supersede_changes_only_the_status_word(
    tmp_path: Path, n: int, pick: int, crlf: bool, blank: bool, body: str
) -> None:
    nl = "\r\n" if crlf else "\n"
    parts = ["# USER.md", "", "## Directives", ""]
    for i in range(n):
        parts += [f"<!-- observed: 2026-01-0{i + 1} | status: active -->"] + ([""] if blank else []) + [f"- {body} {i}", ""]
    text = nl.join(parts)
    p = write(tmp_path, text.encode(), "USER.md")
    u = load_user(tmp_path)
    assert u is not None and len(u.directives) == n
    d = u.directives[pick % n]
    apply_changes(supersede_directive(p, d.line, d.text))
    assert p.read_bytes() == (text[: d.status_start] + "superseded" + text[d.status_end:]).encode()


def test_no_write_through_a_link_that_leaves_the_workspace(tmp_path: Path) -> None:
    import subprocess
    import sys

    from openclaw_tui.core.format.edit import EditError

    outside = tmp_path / "outside.md"
    outside.write_bytes(MEM.encode())
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").symlink_to(outside)
    (ws / "memory" / "2026-11-29.md").write_text("- a line\n", encoding="utf-8")
    with pytest.raises(EditError):
        edit_row(ws / "MEMORY.md", key_of(outside, "喜欢"), "x")
    res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "distil", str(ws), "--log", "memory/2026-11-29.md",
                          "--lines", "1"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ")
    assert outside.read_bytes() == MEM.encode() and (ws / "MEMORY.md").is_symlink()
    assert (ws / "memory" / "2026-11-29.md").read_bytes() == b"- a line\n"
