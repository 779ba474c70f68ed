"""The edit form and ``set`` are one edit path: the same change writes the same bytes.

The form hands ``rawedit.form_changes`` and its body to ``plan_set``, so a
form save touches only the fields and body that changed (comments, quoting,
CRLF, a BOM kept), a save without a change writes nothing, and the save is
undone like any other write.  Files are ugly on purpose; the CLI runs as a
real subprocess.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input, Select, Static, TextArea

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.edit import EditError
from openclaw_tui.core.format.entries import Entry
from openclaw_tui.core.lifecycle.operations import plan_set, set_entry
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.edit.edit_screen import EditScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.dialogs import ConfirmWrite
from tests.ui.test_ui_edit_support import notifications, press, select
from tests.ui_support import SIZE, TODAY, settle

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Ugly:
    """How the memories file of a generated profile is written."""

    nl: str = "\n"
    bom: bool = False
    comment: str = "# 用户说的，不是猜的"
    source: str = "'chat#3412'"
    tags: str = '[茶, "a b", \'x\']'
    body: str = "用户喜欢乌龙茶「冻顶」，不加糖。\nSecond line: 'quoted' # not a comment"
    final_newline: bool = True


def memories(u: Ugly) -> bytes:
    text = (
        "<!-- 长期记忆 -->\n\n"
        "---\nid: mem-0001\ntimestamp: 2025-05-03T21:14:00+08:00\nsource: chat#1\nimportance: high\n"
        "status: active\ntags: [profile]\n---\n用户叫陈明。\n\n"
        f"---\nid: mem-0002\n{u.comment}\ntimestamp: \"2025-05-04T09:00:00+08:00\"\nsource: {u.source}\n"
        f"importance: medium  # 待定\nstatus: active\ntags: {u.tags}\nttl: none\nmood: {{a: 1}}\n---\n{u.body}\n\n"
        "---\nid: mem-0003\ntimestamp: 2025-05-05T09:00:00+08:00\nsource: chat#3\nimportance: low\n"
        "status: active\ntags: []\n---\n最后一条。\n"
    )
    if not u.final_newline:
        text = text.rstrip("\n")
    data = text.replace("\n", u.nl).encode("utf-8")
    return b"\xef\xbb\xbf" + data if u.bom else data


def profile(root: Path, u: Ugly) -> Path:
    prof = root / "p"
    prof.mkdir(parents=True)
    (prof / "memories.md").write_bytes(memories(u))
    return prof


def entry_of(prof: Path, ident: str = "mem-0002") -> Entry:
    doc = load_profile(prof).memories
    assert doc is not None
    entry = doc.mf.get(ident)
    assert entry is not None
    return entry


def twin(prof: Path, name: str) -> Path:
    """A byte-identical copy of ``prof`` for the other writer."""
    dest = prof.parent / name
    shutil.copytree(prof, dest)
    return dest


async def open_form(pilot: Any, app: OpenClawApp, ident: str = "mem-0002") -> EditScreen:
    main = app.screen
    assert isinstance(main, MainScreen)
    await select(pilot, main, ident)
    await press(pilot, "e")
    screen = app.screen
    assert isinstance(screen, EditScreen)
    return screen


async def fill(pilot: Any, screen: EditScreen, fields: dict[str, str], body: str | None) -> None:
    """Set form fields (``importance``/``status`` are selects) and the body, as a reviewer would."""
    for name, value in fields.items():
        widget = screen.query_one(f"#f-{name}")
        if isinstance(widget, Select):
            widget.value = value
        else:
            assert isinstance(widget, Input)
            widget.value = value
    if body is not None:
        screen.query_one("#edit-body", TextArea).text = body
    await settle(pilot)


async def form_save(prof: Path, fields: dict[str, str], body: str | None) -> None:
    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_form(pilot, app)
        await fill(pilot, screen, fields, body)
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ConfirmWrite), str(screen.query_one("#edit-problems", Static).render())
        await press(pilot, "y")
        assert isinstance(app.screen, MainScreen)


def cli_set(prof: Path, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "set", str(prof), "mem-0002", *args],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr


# --- the form and the CLI write the same bytes ------------------------------------------------

# (form fields, form body or None, the same change as `set` arguments; BODY stands for a body file)
CASES = [
    ({"importance": "high"}, None, ["importance=high"]),
    ({"tags": "茶, a b, x, 新"}, None, ["tags=[茶, a b, x, 新]"]),
    ({"source": "chat#9"}, None, ["source=chat#9"]),
    ({"ttl": ""}, None, ["--unset", "ttl"]),
    ({}, "改过的正文。\nLine two.", ["--body-file", "BODY"]),
    ({"status": "cold", "ttl": "2026-12-31"}, "新的", ["status=cold", "ttl=2026-12-31", "--body-file", "BODY"]),
]
UGLY = [Ugly(), Ugly(nl="\r\n", bom=True, final_newline=False, source='"来源：聊天"',
                     tags="\n  - 茶\n  - a b\n  - x"),
        Ugly(body="用户喜欢茶。\n  ")]  # a whitespace-only line before the blank line: set keeps it


@pytest.mark.parametrize("u", UGLY, ids=["lf", "crlf-bom-block-list", "blank-ish-line"])
@pytest.mark.parametrize(("fields", "body", "args"), CASES, ids=[" ".join(c[2]) for c in CASES])
async def test_the_form_writes_what_set_writes(tmp_path: Path, u: Ugly, fields: dict[str, str],
                                               body: str | None, args: list[str]) -> None:
    prof = profile(tmp_path, u)
    other = twin(prof, "cli")
    if body is not None:
        (tmp_path / "body.txt").write_text(body + "\n", encoding="utf-8")
    cli_set(other, *(str(tmp_path / "body.txt") if a == "BODY" else a for a in args))
    await form_save(prof, fields, body)
    after = (prof / "memories.md").read_bytes()
    assert after == (other / "memories.md").read_bytes()
    assert after != memories(u)
    before = memories(u).decode("utf-8")
    kept = after.decode("utf-8")
    assert kept.startswith(before[: before.index("id: mem-0002")])  # the entries before it: untouched
    assert kept.endswith(before[before.index(f"{u.nl}---{u.nl}id: mem-0003"):])  # and after it
    assert u.comment in kept and "mood: {a: 1}" in kept  # the comment and the unknown field stay
    if "importance" not in fields:
        assert "importance: medium  # 待定" in kept  # an untouched field keeps its comment


# --- property: ugly files, a save without a change, a change the same as set -----------------

_CHARS = st.sampled_from(list("记忆乌龙茶咖啡「」，。：😀abc xyz'\"#:-"))
_TEXT = st.text(_CHARS, min_size=1, max_size=12).map(str.strip).filter(
    lambda t: bool(t) and not t.startswith(("-", "#", "'", '"', ":")) and ": " not in t and " #" not in t
    and not t.endswith(":"))
_SOURCES = _TEXT.flatmap(lambda t: st.sampled_from([
    "'" + t.replace("'", "''") + "'",
    '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"',
    "chat#1",
]))
UGLIES = st.builds(
    Ugly,
    nl=st.sampled_from(["\n", "\r\n"]),
    bom=st.booleans(),
    comment=_TEXT.map(lambda t: "# " + t),
    source=_SOURCES,
    tags=st.sampled_from(['[茶, "a b", \'x\']', "\n  - 茶\n  - 'x y'", "[]", '["咖啡"]']),
    body=st.tuples(st.lists(_TEXT, min_size=1, max_size=3).map("\n".join),
                   st.sampled_from(["", "\n  ", "\n\t"])).map("".join),
    final_newline=st.booleans(),
)
PROPERTY = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.slow
@PROPERTY
@given(u=UGLIES)
def test_a_save_without_a_change_writes_nothing(tmp_path_factory: pytest.TempPathFactory, u: Ugly) -> None:
    prof = profile(tmp_path_factory.mktemp("same"), u)

    async def scenario() -> None:
        app = OpenClawApp(prof, today=TODAY, watch=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = await open_form(pilot, app)
            assert screen.form_edit() == ({}, None, [])
            assert not screen.has_unsaved_changes()
            await press(pilot, "ctrl+t")  # to YAML and back: still nothing changed
            await press(pilot, "ctrl+t")
            assert screen.form_edit() == ({}, None, [])
            await press(pilot, "ctrl+s")
            assert app.screen is screen
            assert "Nothing to save: the entry is unchanged." in notifications(app)

    asyncio.run(scenario())
    assert (prof / "memories.md").read_bytes() == memories(u)


@PROPERTY
@given(u=UGLIES, importance=st.sampled_from(["high", "low"]), tag=_TEXT.filter(lambda t: not set(t) & set(",，、")),
       more=st.one_of(st.none(), _TEXT))
@pytest.mark.slow
def test_a_form_change_is_the_set_change(tmp_path_factory: pytest.TempPathFactory, u: Ugly, importance: str,
                                         tag: str, more: str | None) -> None:
    prof = profile(tmp_path_factory.mktemp("form"), u)
    other = twin(prof, "set")
    old = entry_of(other)
    tags = [*old.meta["tags"], tag] if tag not in old.meta["tags"] else list(old.meta["tags"])
    body = None if more is None else old.body.rstrip("\r\n").replace("\r\n", "\n") + more
    set_entry(load_profile(other), "mem-0002", {"importance": importance, "tags": tags}, body)
    asyncio.run(form_save(prof, {"importance": importance, "tags": ", ".join(tags)}, body))
    assert (prof / "memories.md").read_bytes() == (other / "memories.md").read_bytes()


# --- undo -------------------------------------------------------------------------------------


async def test_a_form_save_is_undone_like_any_write(tmp_path: Path) -> None:
    u = Ugly(nl="\r\n", bom=True)
    prof = profile(tmp_path, u)
    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_form(pilot, app)
        await fill(pilot, screen, {"importance": "low", "ttl": ""}, "新的正文")
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
        saved = (prof / "memories.md").read_bytes()
        assert saved != memories(u) and "新的正文".encode() in saved
        await press(pilot, "u")
        assert (prof / "memories.md").read_bytes() == memories(u)
        await press(pilot, "U")
        assert (prof / "memories.md").read_bytes() == saved


def test_plan_set_refuses_an_entry_that_changed_since_it_was_read(tmp_path: Path) -> None:
    prof = profile(tmp_path, Ugly())
    entry = entry_of(prof)
    theirs = memories(Ugly(body="Changed by the agent."))
    (prof / "memories.md").write_bytes(theirs)
    with pytest.raises(EditError, match="mem-0002 changed on disk since it was opened"):
        plan_set(load_profile(prof), "mem-0002", {"importance": "high"}, expect=entry.raw)
    assert plan_set(load_profile(prof), "mem-0002", {"importance": "high"}, expect=entry_of(prof).raw).changes
    assert (prof / "memories.md").read_bytes() == theirs


async def test_the_form_edits_the_second_of_two_entries_with_one_id(tmp_path: Path) -> None:
    u = Ugly()
    prof = profile(tmp_path, u)
    text = memories(u).decode("utf-8")
    dup = "---\nid: mem-0002\ntimestamp: 2025-06-01T09:00:00+08:00\nsource: chat#7\nimportance: low\n" \
          "status: active\ntags: []\n---\n第二条同号。\n"
    (prof / "memories.md").write_bytes((text + "\n" + dup).encode("utf-8"))
    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        line = (text + "\n").count("\n") + 1
        assert main.jump(Location("memories.md", line, None))
        await settle(pilot)
        await press(pilot, "e")
        screen = app.screen
        assert isinstance(screen, EditScreen) and screen.original.body.startswith("第二条同号")
        await fill(pilot, screen, {"importance": "high"}, None)
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
    assert (prof / "memories.md").read_bytes() == (text + "\n" + dup.replace("importance: low", "importance: high")
                                                   ).encode("utf-8")
