"""The app running (watching on) while other programs change the files: real filesystem events."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle.operations import plan_set
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from tests.support import until
from tests.ui_support import SIZE, TODAY, settle, widget_text, write_profile

REPO = Path(__file__).resolve().parents[2]


def entry(n: int, body: str | None = None, importance: str = "medium") -> str:
    return (f"---\nid: mem-{n:04d}\ntimestamp: 2026-11-0{1 + n % 9}T10:00:00+08:00\nimportance: {importance}\n"
            f"status: active\ntags: [live]\n---\n{body or f'Fact number {n}.'}\n\n")


def memories(*ns: int, **bodies: str) -> str:
    return "".join(entry(n, bodies.get(f"m{n}")) for n in ns)


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    return write_profile(tmp_path, "xiaoyu", memories(1, 2, 3, 4, 5), {"identity.md": "# Xiaoyu\n"})


def main(app: OpenClawApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


def notices(app: OpenClawApp) -> list[str]:
    return [n.message for n in app._notifications]  # noqa: SLF001


def view_ids(m: MainScreen) -> list[str | None]:
    return [r.id for r in m.table.view]


async def started(pilot: object) -> MainScreen:
    await settle(pilot)  # type: ignore[arg-type]
    m = main(pilot.app)  # type: ignore[attr-defined]
    await until(lambda: m.session.watcher is not None and m.session.watcher.running, "the watcher", pilot=pilot)
    return m


def shows(m: MainScreen, ids: list[str], body: tuple[str, str] | None = None) -> bool:
    if view_ids(m) != ids:
        return False
    if body is not None:
        row = m.session.current.by_id.get(body[0]) if m.session.current is not None else None
        return row is not None and body[1] in row.entry.body
    return True


NEW = memories(1, 2, 3, 4, 5, 6, m2="Changed by the agent.")
NEW_IDS = [f"mem-{n:04d}" for n in (1, 2, 3, 4, 5, 6)]
NOTICE = "xiaoyu/memories.md: 1 added, 1 changed by another program"
# The same change seen in two steps: a save that empties or removes the file before writing it (in place,
# vim's backup rename, delete then recreate) can be read in between, when the watcher's batch ends there (a
# poll falls between the two, or the writer is descheduled longer than the debounce): the emptied file is a
# reload of its own, then the written one another.
SPLIT = ("xiaoyu/memories.md: 5 removed by another program", "xiaoyu/memories.md: 6 added by another program")


def notified(app: OpenClawApp) -> bool:
    """The change from memories(1..5) to NEW was announced, in one notice or in the two of SPLIT."""
    ns = notices(app)
    return NOTICE in ns or all(n in ns for n in SPLIT)


def in_place(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def atomic(path: Path, text: str) -> None:
    tmp = path.with_name(".memories.md.1234.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def vim_style(path: Path, text: str) -> None:
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)
    path.write_text(text, encoding="utf-8")
    backup.unlink()


def delete_recreate(path: Path, text: str) -> None:
    path.unlink()
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("save", [in_place, atomic, vim_style, delete_recreate])
async def test_external_save_patterns_reload_with_a_notice_by_id(prof: Path, save: Callable[[Path, str], None]) -> None:
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert view_ids(m) == NEW_IDS[:5]
        save(prof / "memories.md", NEW)
        await until(lambda: shows(m, NEW_IDS, ("mem-0002", "Changed by the agent.")), "the reload", pilot=pilot)
        # a notification reaches the app as a message: it may be handled just after the view changed
        if save is atomic:  # one rename: never seen half done
            await until(lambda: NOTICE in notices(app), "the notice", pilot=pilot)
        else:
            await until(lambda: notified(app), "the notice", pilot=pilot)
        assert (prof / "memories.md").read_text(encoding="utf-8") == NEW


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


async def test_git_checkout_of_another_branch_reloads(tmp_path: Path) -> None:
    repo = tmp_path / "xiaoyu"
    write_profile(tmp_path, "xiaoyu", memories(1, 2, 3, 4, 5))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "Test")
    git(repo, "config", "commit.gpgsign", "false")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "main")
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "memories.md").write_text(NEW, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "other")
    git(repo, "checkout", "-q", "main")
    app = OpenClawApp(repo, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert view_ids(m) == NEW_IDS[:5]
        git(repo, "checkout", "-q", "other")
        await until(lambda: shows(m, NEW_IDS, ("mem-0002", "Changed by the agent.")), "the reload", pilot=pilot)
        await until(lambda: NOTICE in notices(app), "the notice", pilot=pilot)


async def test_selection_is_kept_across_an_external_change_to_another_entry(prof: Path) -> None:
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert m.table.select_row("mem-0003")
        # an entry inserted above the selection and another one changed: the row index shifts
        atomic(prof / "memories.md", entry(9) + memories(1, 2, 3, 4, 5, m1="Edited elsewhere."))
        await until(lambda: view_ids(m)[:1] == ["mem-0009"], "the reload", pilot=pilot)
        row = m.table.cursor_row  # set with the rows, in the same handler
        assert row is not None and row.id == "mem-0003"
        # the notice is a message to the app (App.notify posts it): handled after the rows changed, not with them
        await until(lambda: NOTICE in notices(app), "the notice", pilot=pilot)
        row = m.table.cursor_row
        assert row is not None and row.id == "mem-0003"


async def test_selection_moves_to_the_nearest_entry_when_it_is_deleted(prof: Path) -> None:
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert m.table.select_row("mem-0003")
        atomic(prof / "memories.md", memories(1, 2, 4, 5))
        await until(lambda: "mem-0003" not in view_ids(m), "the reload", pilot=pilot)
        row = m.table.cursor_row
        assert row is not None and row.id == "mem-0004"
        await until(lambda: "xiaoyu/memories.md: 1 removed by another program" in notices(app),
                    "the notice (a message to the app, handled after the rows changed)", pilot=pilot)
        # the last entry deleted: the previous survivor
        assert m.table.select_row("mem-0005")
        atomic(prof / "memories.md", memories(1, 2, 4))
        await until(lambda: "mem-0005" not in view_ids(m), "the second reload", pilot=pilot)
        row = m.table.cursor_row
        assert row is not None and row.id == "mem-0004"


async def test_the_apps_own_save_is_not_reported_as_external(prof: Path) -> None:
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        written = m.ops.write_plan(plan_set(m.ops.load_files(), "mem-0002", {"importance": "low"}), "Saved.")
        assert written is not None
        await until(lambda: m.session.current is not None
                    and m.session.current.by_id["mem-0002"].entry.meta.get("importance") == "low", "the save", pilot=pilot)
        # another program then changes another file: once that reload is in, the save's events are handled
        (prof / "identity.md").write_text("# Xiaoyu (renamed)\n", encoding="utf-8")
        await until(lambda: m.session.current is not None and m.session.current.profile.identity is not None
                    and "renamed" in m.session.current.profile.identity.text, "the identity reload", pilot=pilot)
        await settle(pilot)
        assert not [n for n in notices(app) if "memories.md" in n and "another program" in n], notices(app)
        assert "importance: low" in (prof / "memories.md").read_text(encoding="utf-8")


async def test_forced_polling_is_shown_and_still_reloads(prof: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_TUI_POLLING", "1")
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert m.session.watcher.mode == "polling"
        assert "watching: polling" in widget_text(m.status)
        # posted when the watcher started: a message to the app, maybe not handled yet when it runs
        await until(lambda: any("OPENCLAW_TUI_POLLING" in n for n in notices(app)), "the polling notice", pilot=pilot)
        in_place(prof / "memories.md", NEW)
        # a poll can fall between the write's truncation and its bytes (on a loaded machine the writer is
        # descheduled there): then SPLIT, never NOTICE
        await until(lambda: shows(m, NEW_IDS, ("mem-0002", "Changed by the agent.")) and notified(app),
                    "the reload and its notice", pilot=pilot)


async def test_native_watching_says_nothing_about_polling(prof: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENCLAW_TUI_POLLING", raising=False)
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        assert m.session.watcher.mode != "polling"
        assert "polling" not in widget_text(m.status)


AGENT = """
import sys
from pathlib import Path
from openclaw_tui.core.lifecycle.operations import add_entry
from openclaw_tui.core.lifecycle.plan import Files

path = Path(sys.argv[1])
archive = path.parent / "contexts" / "archive" / "memories.md"
for i in range(1000):
    meta = {"id": f"mem-{1000 + i:04d}", "timestamp": "2026-11-30T10:00:00+08:00", "importance": "low",
            "status": "active", "tags": ["agent"]}
    add_entry(Files.load(path, archive), meta, f"Agent note {i}.\\n")
print("done")
"""


@pytest.mark.slow
async def test_an_agent_appending_while_the_app_saves_loses_nothing(prof: Path, tmp_path: Path) -> None:
    script = tmp_path / "agent.py"
    script.write_text(AGENT, encoding="utf-8")
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        agent = subprocess.Popen([sys.executable, str(script), str(prof / "memories.md")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
        try:
            saved = 0
            for round_ in range(4):
                for n in (1, 2, 3, 4, 5):
                    value = f"App edit {round_}."
                    plan = plan_set(m.ops.load_files(), f"mem-{n:04d}", {"note": value})
                    assert m.ops.write_plan(plan, "Saved.") is not None, [n for n in notices(app) if "Saved" not in n]
                    saved += 1
                    await pilot.pause(0.02)
            out, err = agent.communicate(timeout=120)
        finally:
            if agent.poll() is None:
                agent.kill()
                agent.wait()
        assert agent.returncode == 0, err.decode()
        assert saved == 20
        data = (prof / "memories.md").read_bytes()
        mf = parse_bytes(data)
        assert not list(mf.malformed())
        ids = mf.ids()
        agent_ids = [f"mem-{1000 + i:04d}" for i in range(1000)]
        assert set(agent_ids) <= set(ids)
        assert len(ids) == len(set(ids)) == 1005
        for n in (1, 2, 3, 4, 5):
            e = mf.get(f"mem-{n:04d}")
            assert e is not None and e.meta.get("note") == "App edit 3."
        errors = [f for f in check_profile(load_profile(prof), today=TODAY) if f.severity == "error"]
        assert errors == [], errors
        # the app ends up showing every entry
        await until(lambda: len(m.table.view) == 1005, "the final reload", pilot=pilot)


# --- saving an entry that changed on disk while it was being edited ------------------------


@pytest.mark.parametrize("choice", ["m", "d", "e"])
async def test_saving_over_an_entry_changed_on_disk_shows_yours_and_disk(prof: Path, choice: str) -> None:
    from textual.widgets import Static

    from openclaw_tui.ui.screens.edit.edit_screen import EditScreen
    from openclaw_tui.ui.screens.edit.save_conflict_screen import SaveConflictScreen
    from openclaw_tui.ui.widgets.dialogs import ConfirmWrite

    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.table.select_row("mem-0002")
        await pilot.press("e")
        await settle(pilot)
        edit = app.screen
        assert isinstance(edit, EditScreen)
        await pilot.press("end", "space", "m", "i", "n", "e")
        theirs = memories(1, 2, 3, 4, 5, 6, m2="Changed by the agent.")
        atomic(prof / "memories.md", theirs)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is edit  # refused: nothing lost, the comparison is offered
        assert any("ctrl+o" in n for n in notices(app))
        await pilot.press("ctrl+o")
        await settle(pilot)
        conflict = app.screen
        assert isinstance(conflict, SaveConflictScreen)
        assert "Fact number 2. mine" in str(conflict.query_one("#save-conflict-mine", Static).render())
        assert "Changed by the agent." in str(conflict.query_one("#save-conflict-disk", Static).render())
        assert (prof / "memories.md").read_text(encoding="utf-8") == theirs  # nothing written yet
        await pilot.press(choice)
        await settle(pilot)
        if choice == "e":  # back in the editor, yours kept, now based on the disk's version
            assert app.screen is edit
            assert edit.body_text() == "Fact number 2. mine"
            await pilot.press("ctrl+s")
            await settle(pilot)
        if choice in ("m", "e"):
            assert isinstance(app.screen, ConfirmWrite)
            await pilot.press("y")
            await settle(pilot)
            assert app.screen is m
            mf = parse_bytes((prof / "memories.md").read_bytes())
            e2 = mf.get("mem-0002")
            assert e2 is not None and e2.body.strip() == "Fact number 2. mine"
            assert mf.get("mem-0006") is not None  # the other program's addition is kept
            assert (prof / "memories.md").read_text(encoding="utf-8") == theirs.replace(
                "Changed by the agent.", "Fact number 2. mine")
        else:  # take disk: the file stays as the other program left it; yours is in the clipboard
            assert app.screen is m
            assert (prof / "memories.md").read_text(encoding="utf-8") == theirs
            assert "Fact number 2. mine" in app.clipboard
