"""The history screen, entry history, rollback and revert under Pilot, on real repositories."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from openclaw_tui.core.format.entries import parse
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.git.entry_history_screen import EntryHistoryScreen
from openclaw_tui.ui.screens.git.history_screen import PAGE, ConfirmDiff, HistoryScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.semantic_diff_view import PatchView, SemanticDiffView
from tests.cli.test_git_helpers import commit_all, git
from tests.support import app_for
from tests.ui_support import SIZE, settle
from tests.unit.test_ui_git_support import ATLAS, atlas_repo, edit_entry, screen_text

NEW_ENTRY = (
    "\n---\nid: mem-0100\ntimestamp: 2026-11-05T09:00:00+00:00\nsource: chat#900\nimportance: low\n"
    "status: active\ntags: [kubernetes]\n---\nThe staging cluster runs on spot instances.\n"
)
BODY_LINE = "Node groups are managed by Karpenter since October."


def history_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """import → add mem-0100 → change mem-0100 and mem-0005 → supersede mem-0100 → (xiaoyu only)."""
    root = atlas_repo(tmp_path)
    mem = root / ATLAS / "memories.md"
    shas = {"import": git(root, "rev-parse", "HEAD").strip()}
    mem.write_text(mem.read_text(encoding="utf-8") + NEW_ENTRY, encoding="utf-8")
    shas["add"] = commit_all(root, "feat(mem): atlas: mem-0100 added", "2026-11-05T10:00:00+00:00")
    edit_entry(mem, "mem-0100", {"importance": "high"})
    edit_entry(mem, "mem-0005", {}, BODY_LINE)
    shas["change"] = commit_all(root, "feat(mem): atlas: mem-0100 importance, mem-0005 body",
                                "2026-11-06T10:00:00+00:00")
    edit_entry(mem, "mem-0100", {"status": "superseded", "superseded_by": "mem-0017"})
    shas["supersede"] = commit_all(root, "feat(mem): atlas: mem-0100 superseded by mem-0017",
                                   "2026-11-07T10:00:00+00:00")
    other = root / "profiles/xiaoyu/state.yaml"
    other.write_text(other.read_text(encoding="utf-8") + "# touched\n", encoding="utf-8")
    shas["xiaoyu"] = commit_all(root, "xiaoyu only", "2026-11-08T10:00:00+00:00")
    return root, shas


async def open_history(pilot) -> HistoryScreen:
    await settle(pilot)
    await pilot.press("H")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


def semantic_text(screen: HistoryScreen) -> str:
    return screen.query_one("#semantic", SemanticDiffView).text.plain


async def test_history_lists_the_profiles_commits_and_their_semantic_diff(tmp_path: Path) -> None:
    root, shas = history_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        ol = screen.query_one("#commits", OptionList)
        assert [c.sha for c in screen.commits] == [shas["supersede"], shas["change"], shas["add"], shas["import"]]
        assert ol.option_count == 4 and ol.highlighted == 0
        text = semantic_text(screen)
        assert "mem-0100" in text and "superseded by mem-0017" in text
        assert "status: active → superseded" in text
        await pilot.press("down")
        await settle(pilot)
        text = semantic_text(screen)
        assert screen.current == shas["change"]
        assert "~ mem-0005" in text and "~ mem-0100" in text
        assert "importance: low → high" in text
        assert BODY_LINE in text and "body:" in text
        await pilot.press("down")
        await settle(pilot)
        assert "+ mem-0100  added" in semantic_text(screen)
        # the text diff, unified then side by side
        await pilot.press("up", "d")
        await settle(pilot)
        patch = screen.query_one("#patch", PatchView)
        assert patch.display and not patch.side_by_side
        shown = screen_text(app)
        assert "- importance: low" in shown and "+ importance: high" in shown and f"+ {BODY_LINE}" in shown
        await pilot.press("s")
        await settle(pilot)
        assert patch.side_by_side
        shown = screen_text(app)
        row = next(ln for ln in shown.splitlines() if "importance: low" in ln)
        assert "importance: high" in row  # the old and new line on one row
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


def many_commits(root: Path, n: int) -> None:
    """``n`` commits touching the atlas profile, made in one ``git fast-import``."""
    stream = []
    parent = git(root, "rev-parse", "HEAD").strip()
    for i in range(n):
        body = f"log line {i}\n".encode()
        msg = f"log {i}".encode()
        stream.append(b"commit refs/heads/main\n")
        stream.append(f"committer T <t@example.invalid> {1_700_000_000 + i} +0000\n".encode())
        stream.append(b"data %d\n%s\n" % (len(msg), msg))
        if i == 0:
            stream.append(f"from {parent}\n".encode())
        stream.append(b"M 100644 inline profiles/atlas/contexts/log.md\n")
        stream.append(b"data %d\n%s\n" % (len(body), body))
    import subprocess

    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)
    git(root, "reset", "-q", "--hard", "main")


async def test_history_loads_page_by_page(tmp_path: Path) -> None:
    root = atlas_repo(tmp_path)
    many_commits(root, 2 * PAGE + 30)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        ol = screen.query_one("#commits", OptionList)
        assert ol.option_count == PAGE and not screen.exhausted
        assert screen.commits[0].subject == f"log {2 * PAGE + 29}"
        await pilot.press("end")
        await settle(pilot)
        assert ol.option_count == 2 * PAGE
        await pilot.press("end")
        await settle(pilot)
        assert ol.option_count == 2 * PAGE + 31 and screen.exhausted  # 230 logs and the import
        assert screen.commits[-1].subject == "import the samples"
        assert len({c.sha for c in screen.commits}) == ol.option_count


async def test_rollback_refuses_with_uncommitted_changes(tmp_path: Path) -> None:
    root, shas = history_repo(tmp_path)
    state = root / ATLAS / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8") + "note: not committed\n", encoding="utf-8")
    mem_before = (root / ATLAS / "memories.md").read_bytes()
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        assert screen.current == shas["add"]
        await pilot.press("r")
        await settle(pilot)
        assert app.screen is screen  # no preview: refused
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("Roll back refused" in m and "uncommitted changes" in m and "state.yaml" in m for m in messages)
    assert (root / ATLAS / "memories.md").read_bytes() == mem_before
    assert git(root, "rev-parse", "HEAD").strip() == shas["xiaoyu"]


async def test_rollback_previews_then_restores_and_commits(tmp_path: Path) -> None:
    root, shas = history_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDiff)
        preview = app.screen.query_one(SemanticDiffView).text.plain
        assert "mem-0100" in preview and "mem-0005" in preview and "importance: high → low" in preview
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is screen
        assert screen.commits[0].subject.startswith("feat(mem): atlas: roll back to")
    at_add = git(root, "show", f"{shas['add']}:{ATLAS}/memories.md")
    assert (root / ATLAS / "memories.md").read_text(encoding="utf-8") == at_add
    assert git(root, "rev-parse", "HEAD~1").strip() == shas["xiaoyu"]
    message = git(root, "log", "-1", "--format=%B")
    assert message.startswith(f"feat(mem): atlas: roll back to {shas['add'][:7]}")
    assert "- mem-0100: changed" in message and "- mem-0005: changed" in message
    assert git(root, "status", "--porcelain", "--untracked-files=no").strip() == ""  # lock files may stay


async def test_revert_one_commit_and_refusal_when_later_commits_changed_the_entry(tmp_path: Path) -> None:
    root, shas = history_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        await pilot.press("down")  # the "change" commit: mem-0100 was changed again later
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert app.screen is screen
        messages = [n.message for n in app._notifications]  # noqa: SLF001
        assert any("Revert refused" in m and "mem-0100" in m for m in messages)
        await pilot.press("up")  # the newest atlas commit: revert it
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDiff)
        assert "mem-0100" in app.screen.query_one(SemanticDiffView).text.plain
        await pilot.press("y")
        await settle(pilot)
    e = parse((root / ATLAS / "memories.md").read_text(encoding="utf-8")).get("mem-0100")
    assert e is not None and e.status == "active" and "superseded_by" not in e.meta
    assert e.meta["importance"] == "high"  # the earlier change stays
    assert git(root, "log", "-1", "--format=%s").startswith(f"feat(mem): atlas: revert {shas['supersede'][:7]}")


async def test_entry_history_shows_every_version(tmp_path: Path) -> None:
    root, shas = history_repo(tmp_path)
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        assert main.jump(Location(None, None, "mem-0100"))
        await pilot.press("L")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, EntryHistoryScreen) and screen.entry_id == "mem-0100"
        ol = screen.query_one("#versions", OptionList)
        assert ol.option_count == 3
        assert [v.commit.sha for v in screen.versions] == [shas["supersede"], shas["change"], shas["add"]]
        assert [v.kind for v in screen.versions] == ["changed", "changed", "created"]
        shown = screen_text(app)
        assert "changed (status, superseded_by)" in shown
        assert "status: active → superseded" in shown
        await pilot.press("down")
        await settle(pilot)
        assert "importance: low → high" in screen_text(app)
        await pilot.press("j")
        await settle(pilot)
        shown = screen_text(app)
        assert "created" in shown and "The staging cluster runs on spot instances." in shown


async def test_the_app_indexes_entry_history_in_the_background_and_after_new_commits(tmp_path: Path) -> None:
    from openclaw_tui.core.git.entry_index import EntryIndex

    root, shas = history_repo(tmp_path)
    index_file = root / ".git" / "openclaw-tui" / "entry-index.sqlite"
    assert not index_file.exists()
    app = app_for(root / ATLAS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        indexed = len(EntryIndex(index_file))
        assert indexed >= 3  # add, change, supersede: one pair of memories.md versions each
        mem = root / ATLAS / "memories.md"
        mem.write_text(mem.read_text(encoding="utf-8").replace("importance: high", "importance: medium", 1),
                       encoding="utf-8")
        commit_all(root, "an agent's commit")
        main = app.screen
        assert isinstance(main, MainScreen)
        main.git.refresh()
        await settle(pilot)
        assert len(EntryIndex(index_file)) == indexed + 1  # HEAD moved: the new commit is indexed
