"""Done when: on the --demo repository, the pending merge is resolved entirely in the app and concluded."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import TextArea

from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.format.yamlio import load_yaml
from openclaw_tui.core.git.demo import build_demo, samples_dir
from openclaw_tui.core.merge.conflicts import has_markers, parse_conflicts
from openclaw_tui.ui.screens.merge.merge_screen import EditResolution, MergeScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.dialogs import Ask
from tests.cli.test_git_helpers import git
from tests.support import app_for
from tests.ui_support import SIZE, settle
from tests.unit.test_ui_git_support import parents, screen_text, unmerged

XI = "profiles/xiaoyu"
STATE_EDIT = "  述职材料: 60%   # main 记的是 50%，以 agent-thread-b 的 60% 为准\n"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    assert samples_dir() is not None, "the bundled sample profiles are missing"
    return build_demo(tmp_path / "demo")


def _twice(ids: list[str]) -> set[str]:
    return {i for i in ids if ids.count(i) > 1}


def _without(meta: dict[str, object], *keys: str) -> dict[str, object]:
    return {k: v for k, v in meta.items() if k not in keys}


async def test_demo_merge_resolved_in_the_app_loses_nothing(demo: Path) -> None:
    mem = demo / XI / "memories.md"
    conflicted = parse_conflicts(mem.read_text(encoding="utf-8"))
    ours, theirs = parse(conflicted.side("ours") or ""), parse(conflicted.side("theirs") or "")
    app = app_for(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        # the pending merge is obvious at open: first on the status bar, as long as it lasts (no notice)
        status = str(main.status.render())
        assert "⎇ main" in status and "MERGE in progress" in status
        assert status.startswith(" 2 conflicted files (profiles/xiaoyu/memories.md, …) — m to resolve")
        await pilot.press("m")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MergeScreen) and screen.session is not None
        assert [f.display for f in screen.session.files] == [f"{XI}/memories.md", f"{XI}/state.yaml"]
        assert [it.key for it in screen.session.files[0].items] == ["mem-0012", "mem-0054"]
        # mem-0054 was added on both branches for two different memories: both kept, theirs renumbered,
        # decided at once and said (issue 10); only mem-0012, changed two ways, is a content conflict
        assert "2 of 3 conflicts left" in screen_text(app)
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("mem-0054 was added on both sides" in m for m in messages), messages
        await pilot.press("b")  # mem-0012: keep both versions
        await settle(pilot)
        assert screen.current == (1, "region-1")
        await pilot.press("i")  # state.yaml: write the line by hand
        await pilot.pause()
        assert isinstance(app.screen, EditResolution)
        app.screen.query_one(TextArea).text = STATE_EDIT
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "0 of 3 conflicts left" in screen_text(app)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, Ask)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        await settle(pilot)
        assert "MERGE" not in str(main.status.render())

    # git: a real merge commit, nothing unmerged, nothing left over
    assert unmerged(demo) == [] and len(parents(demo)) == 2
    assert git(demo, "log", "-1", "--format=%s").startswith("Merge branch 'agent-thread-b'")
    assert git(demo, "status", "--porcelain", "--untracked-files=no").strip() == ""
    # the consistency check: no merge-conflict finding anywhere
    for name in ("xiaoyu", "atlas"):
        findings = check_profile(load_profile(demo / "profiles" / name, f"profiles/{name}", "profile"))
        assert [f for f in findings if f.code == "merge-conflict"] == []
    # the merge commit's content has lost nothing from either side
    text = git(demo, "show", f"HEAD:{XI}/memories.md")
    assert not has_markers(text)
    result = parse(text)
    kept = [(e.body.strip(), _without(e.meta, "id", "conflict")) for e in result.well_formed()]
    for side in (ours, theirs):
        for e in side.well_formed():
            assert (e.body.strip(), _without(e.meta, "id", "conflict")) in kept, e.id
    twins = [e for e in result.well_formed() if e.meta.get("conflict") and e.id not in ours.ids()]
    assert sorted(str(e.meta["conflict"]) for e in twins) == ["['mem-0007', 'mem-0012']"]
    # the two mem-0054 additions are two memories, neither marked as contradicting the other
    added = [e for e in result.well_formed() if e.id == "mem-0054" or e.id not in ours.ids() + theirs.ids()]
    assert not [e for e in added if "mem-0054" in str(e.meta.get("conflict", ""))]
    archive = parse((demo / XI / "contexts/archive/memories.md").read_text(encoding="utf-8")).ids()
    assert _twice(result.ids() + archive) == _twice(ours.ids() + archive)  # kept copies got fresh ids
    state = git(demo, "show", f"HEAD:{XI}/state.yaml")
    assert STATE_EDIT in state and "<<<<<<<" not in state
    load_yaml(state)
