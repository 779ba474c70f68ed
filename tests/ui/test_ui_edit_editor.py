"""Editing an entry in $EDITOR from the app, with a real program as the editor.

The "editor" is a small Python script written to tmp_path and named ``vi``
(so the app passes ``+LINE``); it logs its arguments and edits the file it
is given.  Headless, the app cannot suspend the terminal, so it runs the
editor directly: the same code path minus the suspend.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from textual.widgets import TextArea

from openclaw_tui.ui.screens.edit.edit_screen import EditScreen
from openclaw_tui.ui.widgets.dialogs import Ask, ConfirmWrite
from tests.ui.test_ui_edit_support import (
    MEM,
    changes,
    copy_xiaoyu,
    current,
    notifications,
    opened,
    original,
    press,
    select,
)

EDITOR = """#!{python}
import json, pathlib, sys
state = pathlib.Path({state!r})
runs = json.loads(state.read_text()) if state.exists() else []
runs.append(sys.argv[1:])
state.write_text(json.dumps(runs))
path = pathlib.Path(sys.argv[-1])
text = path.read_text(encoding="utf-8")
run = len(runs)
{body}
path.write_text(text, encoding="utf-8")
"""


def make_editor(tmp_path: Path, body: str, name: str = "vi") -> tuple[Path, Path]:
    """An executable editor script; returns (its path, the JSON log of its argument lists)."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    state = tmp_path / "editor-runs.json"
    script = folder / name
    script.write_text(EDITOR.format(python=sys.executable, state=str(state), body=body), encoding="utf-8")
    script.chmod(0o755)
    return script, state


def runs(state: Path) -> list[list[str]]:
    return json.loads(state.read_text()) if state.exists() else []


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    return copy_xiaoyu(tmp_path)


async def test_editor_from_the_entry_list_saves_after_preview(prof: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    script, state = make_editor(tmp_path, "text = text.replace('少冰', '不加冰')")
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "E")
        confirm = app.screen
        assert isinstance(confirm, ConfirmWrite)
        assert "+用户每天早上一杯美式，公司楼下那家 Manner，不加冰。" in confirm.diff
        await press(pilot, "y")
        assert app.screen is main
    [argv] = runs(state)
    assert argv[0] == "+1" and argv[1].endswith(".md")
    assert not Path(argv[1]).exists()  # the temporary file is gone
    assert changes(original(MEM), current(prof, MEM)) == (
        ["用户每天早上一杯美式，公司楼下那家 Manner，少冰。"], ["用户每天早上一杯美式，公司楼下那家 Manner，不加冰。"])


async def test_editor_gets_the_entry_as_it_is_in_the_file(prof: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    script, state = make_editor(tmp_path, "pathlib.Path(str(state) + '.seen').write_text(text)")
    monkeypatch.setenv("VISUAL", str(script))
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0010")
        await press(pilot, "E")
        assert app.screen is main
        assert "The editor made no change." in notifications(app)
    seen = Path(str(state) + ".seen").read_text(encoding="utf-8")
    assert seen.startswith("---\nid: mem-0010\n") and "importance: high  # 过敏相关一律 high\n" in seen
    assert seen.endswith("沙茶酱。\n")
    assert current(prof, MEM) == original(MEM)


async def test_invalid_result_offers_re_edit_then_saves(prof: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    body = (
        "if run == 1:\n"
        "    text = text.replace('tags: [饮食, 咖啡, 习惯]', 'tags: [饮食, 咖啡')\n"
        "else:\n"
        "    text = text.replace('tags: [饮食, 咖啡', 'tags: [饮食, 咖啡, 习惯, 早餐]').replace(', 习惯, 早餐]]', "
        "', 习惯, 早餐]')\n"
    )
    script, state = make_editor(tmp_path, body)
    monkeypatch.setenv("EDITOR", str(script))
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "E")
        ask = app.screen
        assert isinstance(ask, Ask)
        assert "cannot be saved" in ask.heading
        assert current(prof, MEM) == original(MEM)
        await press(pilot, "r")  # re-edit: the editor gets the broken text back, not the original
        assert isinstance(app.screen, ConfirmWrite)
        await press(pilot, "y")
    first, second = runs(state)
    assert first[0] == second[0] == "+1"
    assert changes(original(MEM), current(prof, MEM)) == (
        ["tags: [饮食, 咖啡, 习惯]"], ["tags: [饮食, 咖啡, 习惯, 早餐]"])


async def test_invalid_result_can_be_discarded(prof: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, _state = make_editor(tmp_path, "text = text.replace('importance: medium', 'importance: soon')")
    monkeypatch.setenv("EDITOR", str(script))
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "E")
        ask = app.screen
        assert isinstance(ask, Ask)
        assert "importance 'soon'" in ask.message
        await press(pilot, "d")
        assert app.screen is main
        assert "The edit from the editor was discarded." in notifications(app)
    assert current(prof, MEM) == original(MEM)


async def test_ctrl_e_in_the_edit_screen_loads_the_result_for_saving(prof: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    script, state = make_editor(tmp_path, "text = text.replace('source: chat#1034', 'source: chat#1034-fixed')")
    monkeypatch.setenv("EDITOR", str(script))
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "e")
        screen = app.screen
        assert isinstance(screen, EditScreen)
        await press(pilot, "ctrl+e")  # the body has focus: the editor opens at the body's line
        assert app.screen is screen and screen.mode == "yaml"
        assert "source: chat#1034-fixed" in screen.query_one("#edit-yaml-text", TextArea).text
        assert app.has_unsaved_changes()
        await press(pilot, "ctrl+s")
        await press(pilot, "y")
        assert app.screen is main
    [argv] = runs(state)
    assert argv[0] == "+10"  # ---, 7 fields, ---, then the body
    assert changes(original(MEM), current(prof, MEM)) == (["source: chat#1034"], ["source: chat#1034-fixed"])


async def test_editor_failing_or_missing_writes_nothing(prof: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    script, _state = make_editor(tmp_path, "text = text.replace('少冰', 'x')\nsys.exit(3)")
    monkeypatch.setenv("EDITOR", str(script))
    async with opened(prof) as (pilot, app, main):
        await select(pilot, main, "mem-0007")
        await press(pilot, "E")
        assert app.screen is main
        assert any("status 3" in n for n in notifications(app))
        monkeypatch.delenv("EDITOR")
        monkeypatch.delenv("VISUAL", raising=False)
        await press(pilot, "E")
        assert any("$EDITOR" in n for n in notifications(app))
    assert current(prof, MEM) == original(MEM)
