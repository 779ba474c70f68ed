"""The action registry: every key comes from it, docs/keys.md lists it, a keymap file rebinds it;
the palette, the notice log, the tree toggle and maximising."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from textual.widgets import Input

import openclaw_tui.ui.screens
import openclaw_tui.ui.widgets
from openclaw_tui.ui import actions
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.palette import ScreenCommands, _binding_commands
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.screens.review.notices_screen import NoticesScreen
from tests.ui_support import TODAY, copy_samples, settle, widget_text

KEYS_DOC = Path(__file__).resolve().parents[2] / "docs" / "keys.md"


def _classes_with_bindings() -> list[type]:
    mods = ["openclaw_tui.ui.app"]
    for pkg in (openclaw_tui.ui.screens, openclaw_tui.ui.widgets):
        mods += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".") if not m.ispkg]
    out = []
    for name in mods:
        mod = importlib.import_module(name)
        for cls in vars(mod).values():
            if inspect.isclass(cls) and cls.__module__ == name and "BINDINGS" in cls.__dict__:
                out.append(cls)
    return out


def test_every_binding_of_every_screen_and_widget_is_a_registry_action() -> None:
    classes = _classes_with_bindings()
    assert len(classes) > 20
    used: set[str] = set()
    for cls in classes:
        for b in cls.__dict__["BINDINGS"]:
            assert b.id in actions.BY_ID, f"{cls.__name__}: {b.key} -> {b.action} is not in actions.py"
            a = actions.BY_ID[b.id]
            assert (b.key, b.action, b.description) == (a.keys, a.action, a.label)
            used.add(b.id)
    assert set(actions.BY_ID) == used, f"registry actions no screen binds: {set(actions.BY_ID) - used}"
    assert len({a.id for a in actions.ACTIONS}) == len(actions.ACTIONS)
    assert all(a.description for a in actions.ACTIONS)


def test_the_keys_page_is_the_registry() -> None:
    text = KEYS_DOC.read_text(encoding="utf-8")
    assert text == actions.keys_page(), "docs/keys.md is stale: python -m openclaw_tui.ui.actions > docs/keys.md"
    for a in actions.ACTIONS:
        if a.group and a.label:
            assert f"| {a.label} |" in text


def test_keymap_names_resolve_by_id_or_unique_suffix() -> None:
    remap, problems = actions.keymap({"filter": "f", "edit.undo": "u,ctrl+z", "nothing.here": "x", "close": "c"})
    assert remap == {"main.filter": "f", "edit.undo": "u,ctrl+z"}
    assert any("'nothing.here' names no action" in p for p in problems)
    assert any("'close' is ambiguous" in p for p in problems)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)


async def test_a_keymap_file_rebinds_a_key(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\n"filter" = "f"\n"main.audit" = "ctrl+a"\n', encoding="utf-8")
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(config))
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        m.table.focus()
        await pilot.press("slash")  # the old key does nothing now
        await pilot.pause()
        assert not isinstance(app.focused, Input)
        await pilot.press("f")
        await pilot.pause()
        assert app.focused is m.filter_input
        m.table.focus()
        assert not m.audit.has_focus
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert m.audit.has_focus
        # the palette and help show the new keys
        commands = {name: help_text for name, help_text, _cb in _binding_commands(ScreenCommands(m, None))}
        assert "key: f" in commands["Filter"]


async def test_a_bad_keymap_is_reported_and_the_defaults_kept(root: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\n"no-such-action" = "f"\n', encoding="utf-8")
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(config))
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert any("'no-such-action' names no action" in n.message for n in app.notices)
        app.screen.table.focus()
        await pilot.press("slash")
        await pilot.pause()
        assert app.focused is app.screen.filter_input


async def test_the_palette_offers_this_screens_actions_first_with_descriptions(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        m = app.screen
        m.table.focus()
        commands = _binding_commands(ScreenCommands(m, None))
        names = [name for name, _h, _c in commands]
        assert "Up" not in names and "Down" not in names
        assert names.index("Archive") < names.index("Quit")  # the screen's actions before the app's
        helps = dict((n, h) for n, h, _c in commands)
        assert helps["Archive"].startswith("Move the selected entry")
        assert "key: A" in helps["Archive"]


async def test_notices_can_be_read_again(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for n in range(105):
            app.notify(f"notice number {n} [b]literal[/b]", timeout=0.1)
        await pilot.pause(0.3)
        await pilot.press("at")
        await pilot.pause()
        assert isinstance(app.screen, NoticesScreen)
        assert len(app.screen.notices) == 100
        text = widget_text(app.screen.query_one("#notices-text"))
        assert "notice number 104 [b]literal[/b]" in text.splitlines()[0]
        assert "notice number 4 " not in text
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_at_80x24_the_tree_hides_the_table_shows_rows_and_t_brings_the_tree_back(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert not m.files_tree.display
        assert m.table.size.height >= 4 and m.table.row_count > 0
        assert "mem-" in widget_text(m.table)
        await pilot.press("t")
        await pilot.pause()
        assert m.files_tree.display and m.files_tree.has_focus
        await pilot.press("t")
        await pilot.pause()
        assert not m.files_tree.display


async def test_any_pane_can_be_maximised_and_restored(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        m = app.screen
        m.table.focus()
        await pilot.press("Z")
        await pilot.pause()
        assert m.maximized is m.query_one("#entries-pane")
        assert m.table.size.height >= 15
        await pilot.press("Z")
        await pilot.pause()
        assert m.maximized is None
        await pilot.press("a")  # the audit list
        await pilot.pause()
        await pilot.press("Z")
        await pilot.pause()
        assert m.maximized is m.audit


async def test_toasts_move_away_from_the_focused_pane(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        m = app.screen
        await pilot.press("a")  # the audit list, at the bottom: toasts go up
        await pilot.pause()
        assert m.audit.has_focus and m.has_class("-toasts-top")
        m.table.focus()
        await pilot.pause()
        assert not m.has_class("-toasts-top")


class Probe(NoticesScreen):
    """A stand-in for a new feature screen: constructed with the session, as the registry says."""

    def __init__(self, session: object) -> None:
        super().__init__([])
        self.session = session


async def test_a_registry_action_opens_a_new_screen_with_the_session(root: Path) -> None:
    app = OpenClawApp(root / "xiaoyu", today=TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await app.run_action("open_screen('tests.ui.test_ui_actions:Probe')")
        await pilot.pause()
        assert isinstance(app.screen, Probe) and app.screen.session is app.session
