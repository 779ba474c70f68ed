"""The merge-conflict screen under Pilot, completing REAL merges in real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import TextArea

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.format.yamlio import load_yaml
from openclaw_tui.core.merge.conflicts import has_markers
from openclaw_tui.ui.screens.merge.merge_screen import EditResolution, MergeScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.dialogs import Ask
from tests.cli.test_git_helpers import git
from tests.support import app_for
from tests.ui_support import SIZE, settle
from tests.unit.test_ui_git_support import (
    ATLAS,
    MAIN_LINE,
    STATE_MAIN,
    STATE_THEIRS,
    THEIRS_LINE,
    atlas_repo,
    diverge_and_merge,
    parents,
    screen_text,
    unmerged,
)

EDITED_LINE = "EDITED: upgrade done in eu-west-1, waiting for the CNI fix elsewhere."


async def open_merge(pilot) -> MergeScreen:
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MergeScreen)
    assert screen.session is not None
    return screen


def entry_body(text: str, ident: str) -> str:
    e = parse(text).get(ident)
    assert e is not None, ident
    return e.body


def malformed(text: str) -> list[str]:
    return [e.raw for e in parse(text).entries if e.error]


@pytest.mark.parametrize("choice", ["ours", "theirs", "both", "edit"])
async def test_resolving_a_real_merge_with_each_choice(tmp_path: Path, choice: str) -> None:
    root = atlas_repo(tmp_path)
    sides = diverge_and_merge(root)
    mem = root / ATLAS / "memories.md"
    state = root / ATLAS / "state.yaml"
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        session = screen.session
        assert [f.display for f in session.files] == [f"{ATLAS}/memories.md", f"{ATLAS}/state.yaml"]
        assert [it.key for it in session.files[0].items] == ["mem-0005"]
        shown = screen_text(app)
        assert MAIN_LINE[:30] in shown and THEIRS_LINE[:30] in shown  # both sides, side by side
        assert screen.check_action("complete", ()) is None  # nothing decided yet
        assert session.remaining == 2
        if choice == "ours":
            await pilot.press("o")
        elif choice == "theirs":
            await pilot.press("t")
        elif choice == "both":
            await pilot.press("b")
        else:
            await pilot.press("i")
            await pilot.pause()
            assert isinstance(app.screen, EditResolution)
            area = app.screen.query_one(TextArea)
            assert MAIN_LINE in area.text  # starts from ours
            area.text = area.text.replace(MAIN_LINE, EDITED_LINE)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is screen
        await settle(pilot)
        assert session.files[0].remaining == 0
        assert screen.current == (1, "region-1")  # advanced to the next conflict
        await pilot.press("space")  # state.yaml: the framed side (ours)
        await settle(pilot)
        assert session.remaining == 0
        assert screen.check_action("complete", ()) is True
        assert has_markers(mem.read_text(encoding="utf-8"))  # nothing written before c
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, Ask)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)

    text = mem.read_text(encoding="utf-8")
    assert not has_markers(text) and "<<<<<<<" not in text
    assert malformed(text) == malformed(sides["ours:memories"])
    load_yaml(state.read_text(encoding="utf-8"))
    assert unmerged(root) == []
    assert len(parents(root)) == 2
    assert not (root / ".git" / "MERGE_HEAD").exists()
    assert git(root, "status", "--porcelain", "--untracked-files=no").strip() == ""
    assert STATE_MAIN in state.read_text(encoding="utf-8")
    # nothing of either side is lost: what the file does not keep, the merge commit's parents do
    first = git(root, "show", f"HEAD^1:{ATLAS}/memories.md")
    second = git(root, "show", f"HEAD^2:{ATLAS}/memories.md")
    assert MAIN_LINE in first and THEIRS_LINE in second
    assert STATE_THEIRS in git(root, "show", f"HEAD^2:{ATLAS}/state.yaml")
    body = entry_body(text, "mem-0005")
    if choice == "ours":
        assert MAIN_LINE in body and THEIRS_LINE not in text
        assert parse(text).get("mem-0005").meta["importance"] == "high"
    elif choice == "theirs":
        assert THEIRS_LINE in body and MAIN_LINE not in text
        assert parse(text).get("mem-0005").meta["source"] == "chat#999"
    elif choice == "both":
        assert MAIN_LINE in body and THEIRS_LINE not in body
        twins = [e for e in parse(text).well_formed() if THEIRS_LINE in e.body]
        assert len(twins) == 1 and twins[0].id not in ("mem-0005",)
        assert twins[0].meta["conflict"] == "mem-0005" and twins[0].meta["source"] == "chat#999"
        ids = parse(text).ids() + parse((root / ATLAS / "contexts/archive/memories.md").read_text()).ids()
        assert len(ids) == len(set(ids))  # the kept copy got a fresh id
    else:
        assert EDITED_LINE in body and MAIN_LINE not in text


async def test_diff3_markers_of_size_ten_are_read_and_shown(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path, style="diff3", marker_size=10)
    diverge_and_merge(root)
    mem = root / ATLAS / "memories.md"
    raw = mem.read_text(encoding="utf-8")
    assert "<" * 10 + " HEAD" in raw and "|" * 10 in raw and ">" * 10 + " thread" in raw
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        f = screen.session.files[0]
        assert f.conflicts.conflict.regions[0].marker_size == 10
        item = f.items[0]
        assert item.key == "mem-0005" and item.base_known
        assert item.situation == "both-changed"
        pane = screen.pane
        assert pane.column("base").display  # the base is shown beside both sides
        shown = screen_text(app)
        assert "base" in shown and "ours · HEAD" in shown and "theirs · thread" in shown
        assert "|" * 10 not in shown and "<" * 10 not in shown  # markers are not shown as text
        base_text = pane.column("base").body_text
        assert MAIN_LINE not in base_text and THEIRS_LINE not in base_text
        assert "importance: medium" in base_text
        ours_summary = shown.split("ours · HEAD", 1)[1]
        assert "importance" in ours_summary  # the field ours changed is named
        # the state.yaml region, with base, then complete
        await pilot.press("o")
        await settle(pilot)
        assert screen.current == (1, "region-1")
        state_item = screen.session.files[1].items[0]
        assert state_item.base == "  checklist: drafted, waiting for review\n"
        await pilot.press("right", "space")  # theirs side, picked
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
    assert not has_markers(mem.read_text(encoding="utf-8"))
    assert STATE_THEIRS in (root / ATLAS / "state.yaml").read_text(encoding="utf-8")
    assert unmerged(root) == [] and len(parents(root)) == 2


async def test_state_yaml_is_resolved_hunk_by_hunk(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    diverge_and_merge(root, state_regions=2)
    state = root / ATLAS / "state.yaml"
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        sf = screen.session.files[1]
        assert sf.conflicts.mode == "hunks" and [it.key for it in sf.items] == ["region-1", "region-2"]
        await pilot.press("o")  # memories.md: ours
        await settle(pilot)
        assert screen.current == (1, "region-1")
        shown = screen_text(app)
        assert "# Atlas task state" in shown and "focus: mem-0017" in shown  # context lines around the hunk
        assert "Roll out 1.30" in shown and "Wait for the CNI fix" in shown
        # b keeps both lines: a key twice is not a usable YAML file, so complete stays disabled
        await pilot.press("b")
        await settle(pilot)
        assert screen.current == (1, "region-2")
        await pilot.press("l", "space")  # region-2: theirs
        await settle(pilot)
        assert screen.session.remaining == 0
        assert screen.check_action("complete", ()) is None
        banner = screen_text(app).split("\n")[1]
        assert "appears twice" in banner
        await pilot.press("c")  # disabled: nothing happens
        await settle(pilot)
        assert app.screen is screen and "<<<<<<<" in state.read_text(encoding="utf-8")
        # z undoes, step by step, in the current file
        await pilot.press("k")  # back to region-1
        await settle(pilot)
        assert screen.current == (1, "region-1")
        await pilot.press("z")  # undo region-2's choice
        await pilot.press("z")  # undo region-1's "both"
        await settle(pilot)
        assert sf.choices == {}
        await pilot.press("h", "space")  # region-1: ours
        await settle(pilot)
        await pilot.press("n")  # next open conflict: region-2
        assert screen.current == (1, "region-2")
        await pilot.press("l", "space")
        await settle(pilot)
        assert screen.check_action("complete", ()) is True
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
    text = state.read_text(encoding="utf-8")
    assert "current_task: Roll out 1.30" in text and "Wait for the CNI fix" not in text
    assert STATE_THEIRS in text and STATE_MAIN not in text
    load_yaml(text)
    assert unmerged(root) == [] and len(parents(root)) == 2


async def test_abort_restores_the_state_before_the_merge(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    sides = diverge_and_merge(root)
    head = git(root, "rev-parse", "HEAD").strip()
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        await pilot.press("t")  # a choice, then changing one's mind
        await settle(pilot)
        await pilot.press("A")
        await settle(pilot)
        assert isinstance(app.screen, Ask)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert screen.session is not None
    assert not (root / ".git" / "MERGE_HEAD").exists()
    assert git(root, "rev-parse", "HEAD").strip() == head
    assert (root / ATLAS / "memories.md").read_text(encoding="utf-8") == sides["ours:memories"]
    assert (root / ATLAS / "state.yaml").read_text(encoding="utf-8") == sides["ours:state"]
    assert git(root, "status", "--porcelain", "--untracked-files=no").strip() == ""


async def test_leaving_without_completing_writes_nothing(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    diverge_and_merge(root)
    mem = root / ATLAS / "memories.md"
    before = mem.read_bytes()
    app = app_for(root / "profiles")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        await pilot.press("b")
        await settle(pilot)
        assert screen.has_unsaved_changes()
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Ask)  # asks first
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    assert mem.read_bytes() == before
    assert unmerged(root) == [f"{ATLAS}/memories.md", f"{ATLAS}/state.yaml"]


async def test_e_opens_the_file_in_editor_and_rereads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``e`` runs $EDITOR on the conflicted file (a real process); what it leaves is read back."""
    import contextlib
    import sys

    root = atlas_repo(tmp_path)
    diverge_and_merge(root)
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys, re\n"
        "p = sys.argv[1]\n"
        "t = open(p, encoding='utf-8').read()\n"
        "t = re.sub(r'<<<<<<< [^\\n]*\\n(.*?)=======\\n.*?>>>>>>> [^\\n]*\\n', r'\\1', t, flags=re.S)\n"
        "open(p, 'w', encoding='utf-8').write(t)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    app = app_for(root / "profiles")
    # the headless test driver cannot hand the terminal over; everything else is real
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        await pilot.press("b")  # a choice in memories.md, then the editor rewrites state.yaml
        await settle(pilot)
        assert screen.current == (1, "region-1")
        await pilot.press("e")
        await settle(pilot)
        sf = screen.session.files[1]
        assert sf.items == () and sf.problem() is None  # no marker left: nothing to decide
        assert screen.session.files[0].choices  # the other file's choices are kept
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
    assert STATE_MAIN in (root / ATLAS / "state.yaml").read_text(encoding="utf-8")
    assert unmerged(root) == [] and len(parents(root)) == 2


async def test_labels_and_memory_text_are_shown_literally(tmp_path: Path) -> None:
    from tests.ui_support import copy_samples

    root = copy_samples(tmp_path)
    mem = root / "atlas" / "memories.md"
    text = mem.read_text(encoding="utf-8")
    body = "Priya prefers terse answers with commands in code blocks, and dislikes long preambles.\n"
    assert body in text
    mem.write_text(text.replace(body, "<<<<<<< [@click=app.quit]mine\n[red]ours[/red] " + body + "=======\n"
                                "[b]theirs[/b] " + body + ">>>>>>> [bold]theirs\n"), encoding="utf-8")
    app = app_for(root / "atlas")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_merge(pilot)
        assert [it.key for it in screen.session.files[0].items] == ["mem-0002"]
        shown = screen_text(app)
        assert "[@click=app.quit]mine" in shown and "[bold]theirs" in shown
        assert "[red]ours[/red]" in shown and "[b]theirs[/b]" in shown
        await pilot.press("t", "c")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    out = mem.read_text(encoding="utf-8")
    assert "[b]theirs[/b] " + body in out and "[red]ours[/red]" not in out and not has_markers(out)
