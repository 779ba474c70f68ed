"""The workspace view (pushed on its own): distil and promotion review compared byte for byte, snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_dialogs import DistilPicker
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from tests.ui_support import SAMPLES, TODAY, settle


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLES / "workspace-zh", dest)
    return dest


async def open_ws(pilot, ws: Path) -> WorkspaceScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    screen = WorkspaceScreen(ws, today=TODAY)
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


async def test_distil_flow_writes_exactly_the_picked_line(ws: Path) -> None:
    mem_before = (ws / "MEMORY.md").read_bytes()
    log_before = (ws / "memory/2026-10-12.md").read_bytes()
    other = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        await pilot.press("4")
        await settle(pilot)
        rels = [lg.rel for lg in screen.row_keys["logs"]]
        assert rels[:2] == ["memory/2026-11-30.md", "memory/2026-11-29.md"]  # newest first
        for _ in range(rels.index("memory/2026-10-12.md")):
            await pilot.press("down")
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, DistilPicker)
        await pilot.press("down", "space")  # line 4
        await pilot.press("tab", "down", "down", "down")  # section 决定 (Decisions)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is screen
        line = "- 小雨决定把买菜预算从 ¥1,500 提到 ¥1,800，外卖预算降到 ¥600。 <!-- source: memory/2026-10-12.md:4 -->\n"
        anchor = "- 年终奖一半还房贷，一半进旅行基金。\n".encode()
        assert (ws / "MEMORY.md").read_bytes() == mem_before.replace(anchor, anchor + line.encode())
        assert (ws / "memory/2026-10-12.md").read_bytes() == log_before + b"<!-- distilled: 4 -->\n"
        changed = {p for p in other if p.read_bytes() != other[p]}
        assert changed == {ws / "MEMORY.md", ws / "memory/2026-10-12.md"}
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert {p: p.read_bytes() for p in other} == other


async def test_promotion_review_accept_strip_reject_undo(ws: Path) -> None:
    before = (ws / "MEMORY.md").read_bytes()
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        await pilot.press("5")
        await settle(pilot)
        assert [q.row.line for q in screen.row_keys["review"]] == [374, 379]
        await pilot.press("down", "A")  # accept the pending one, stripping dreaming's metadata
        await settle(pilot)
        stripped = before.replace(
            b"<!-- openclaw-memory-promotion:memory:memory/2026-11-29.md:3:3 -->\n", b""
        ).replace(" [score=0.912 recalls=6 avg=0.531] <!-- trigger: 下午喝什么 --> <!-- importance: 3 -->".encode(), b"")
        assert (ws / "MEMORY.md").read_bytes() == stripped
        assert [q.row.line for q in screen.row_keys["review"]] == [374]
        await pilot.press("x")  # reject the one whose log is gone
        await settle(pilot)
        rejected = stripped.replace(
            "<!-- openclaw-memory-promotion:memory:memory/2026-06-02.md:3:3 -->\n- 年糕对鸡肉过敏，只买鱼肉猫粮。 <!-- importance: 4 -->\n".encode(),
            b"",
        )
        assert (ws / "MEMORY.md").read_bytes() == rejected
        assert screen.row_keys["review"] == []
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert (ws / "MEMORY.md").read_bytes() == stripped
        assert [q.row.line for q in screen.row_keys["review"]] == [374]


async def test_edit_a_memory_item_and_supersede_a_directive(ws: Path) -> None:
    mem_before = (ws / "MEMORY.md").read_bytes()
    user_before = (ws / "USER.md").read_bytes()
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        await pilot.press("2")
        await settle(pilot)
        index = next(i for i, r in enumerate(screen.row_keys["mem"]) if r.text.startswith("弟弟阿杰"))
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("ctrl+a", "ctrl+k")
        await pilot.press(*"Ajie moves to Shenzhen in January.")
        await pilot.press("enter")
        await settle(pilot)
        assert (ws / "MEMORY.md").read_bytes() == mem_before.replace(
            "弟弟阿杰一月搬去深圳。".encode(), b"Ajie moves to Shenzhen in January.")
        await pilot.press("3")
        await settle(pilot)
        index = next(i for i, d in enumerate(screen.row_keys["user"]) if d.line == 47)
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("S", "enter")  # empty text: only mark it superseded
        await settle(pilot)
        assert (ws / "USER.md").read_bytes() == user_before.replace(
            b"<!-- observed: 2026-06-21 | status: active -->", b"<!-- observed: 2026-06-21 | status: superseded -->")


def _snap_app(ws: Path) -> OpenClawApp:
    app = OpenClawApp(ws, today=TODAY, watch=False)
    app.start_screen = lambda: WorkspaceScreen(ws, today=TODAY)
    return app


def test_snapshot_80x24(snap_compare, ws: Path) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    assert snap_compare(_snap_app(ws), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_160x48_memory_tab(snap_compare, ws: Path) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        for _ in range(5):
            await pilot.press("down")
        await settle(pilot)

    assert snap_compare(_snap_app(ws), terminal_size=(160, 48), run_before=run_before)


def test_snapshot_160x48_review(snap_compare, ws: Path) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("5", "down")
        await settle(pilot)

    assert snap_compare(_snap_app(ws), terminal_size=(160, 48), run_before=run_before)


def test_bench_small(tmp_path: Path) -> None:
    """The benchmark's fixture and measurement run (small); the figures come from bench/bench_workspace.py."""
    import asyncio
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_workspace

    ws = bench_workspace.build(tmp_path, 12, 80)
    from openclaw_tui.core.workspace.model import load_daily_logs, load_memory

    mem = load_memory(ws)
    assert mem is not None and len(mem.items) == 80
    assert len(load_daily_logs(ws, TODAY)) == 12
    assert bench_workspace.bare(ws) > 0
    times = asyncio.run(bench_workspace.open_view(ws, 1))
    assert len(times) == 1 and times[0] > 0


async def test_remove_old_distilled_logs_from_the_view(ws: Path) -> None:
    import subprocess

    from openclaw_tui.core.workspace.distil import distil_plan

    env = ["-c", "user.name=t", "-c", "user.email=t@e"]
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    subprocess.run(["git", *env, "add", "-A"], cwd=ws, check=True)
    subprocess.run(["git", *env, "commit", "-qm", "start"], cwd=ws, check=True)
    from openclaw_tui.core.lifecycle.plan import apply_changes

    apply_changes(distil_plan(ws, "memory/2026-09-03-hangzhou.md", [3], None, dropped=[4, 5, 6]).plan)
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        await pilot.press("4", "R")
        await settle(pilot)
        await pilot.press("enter")  # "Remove and commit"
        await settle(pilot)
        assert not (ws / "memory/2026-09-03-hangzhou.md").exists()
        assert "memory/2026-09-03-hangzhou.md" not in [lg.rel for lg in screen.row_keys["logs"]]
    shown = subprocess.run(["git", "show", "--name-status", "--format=", "HEAD"], cwd=ws, capture_output=True, text=True)
    assert shown.stdout.split() == ["D", "memory/2026-09-03-hangzhou.md"]


async def test_filter_and_openclaw_json_limits(ws: Path, tmp_path: Path) -> None:
    (ws.parent / "openclaw.json").write_text(
        "// the state folder's config\n{agents: {defaults: {bootstrapMaxChars: 30000}}, memory: {search: {}}}\n",
        encoding="utf-8")
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        assert screen.config.found and screen.config.limits.bootstrap_max_chars == 30_000
        mem = next(p for p in screen.parts if p.name == "MEMORY.md")
        assert not mem.truncated and mem.limit == 30_000
        from tests.ui_support import widget_text

        assert "openclaw.json" in widget_text(screen.query_one("#ws-title"))
        await pilot.press("2", "slash", *"is:problem", "enter")
        await settle(pilot)
        assert [r.line for r in screen.row_keys["mem"]] == [374]  # 379's score bracket is a review flag, no finding
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"is:residue", "enter")
        await settle(pilot)
        assert [r.line for r in screen.row_keys["mem"]] == [379]
        await pilot.press("3", "slash", "ctrl+a", "ctrl+k", *"is:active 茶馆", "enter")
        await settle(pilot)
        assert [d.line for d in screen.row_keys["user"]] == [47, 51]
        await pilot.press("escape")
        await settle(pilot)
        assert screen.filter_text == "" and len(screen.row_keys["user"]) == 10


async def test_a_bare_workspace_and_every_key_without_a_selection(tmp_path: Path) -> None:
    ws = tmp_path / "bare"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("# AGENTS.md\n\n[soul](/concepts/soul) [@click=app.quit]\n", encoding="utf-8")
    before = (ws / "AGENTS.md").read_bytes()
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_ws(pilot, ws)
        for tab in "12345":
            await pilot.press(tab)
            for key in ("e", "x", "m", "S", "D", "a", "A", "R", "ctrl+z", "ctrl+y", "C", "n", "s"):
                await pilot.press(key)
                await settle(pilot, 1)
                while app.screen is not screen:
                    await pilot.press("escape")
                    await settle(pilot, 1)
        assert app.is_running and app.screen is screen
    assert sorted(p.name for p in ws.iterdir()) == ["AGENTS.md"] and (ws / "AGENTS.md").read_bytes() == before


async def test_W_opens_a_workspace_that_sits_among_profiles(tmp_path: Path) -> None:
    """The bundled samples' layout: PATH holds profiles/ and two workspaces beside it; the tree lists
    all four and W opens the selected workspace (check of the same PATH still lists the profiles only)."""
    from openclaw_tui.core.files.profile import locate
    from openclaw_tui.ui.rows import Location
    from openclaw_tui.ui.screens.review.main_screen import MainScreen

    root = tmp_path / "samples"
    shutil.copytree(SAMPLES, root)
    assert [p.rel for p in locate(root)[1]] == ["profiles/atlas", "profiles/xiaoyu"]
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert [(m.session.data[p].profile.rel, m.session.data[p].profile.layout) for p in m.session.order] == [
            ("profiles/atlas", "profile"), ("profiles/xiaoyu", "profile"),
            ("workspace", "openclaw"), ("workspace-zh", "openclaw"),
        ]
        assert m.jump(Location("memories.md"), next(p for p in m.session.order if m.session.data[p].profile.rel == "profiles/atlas"))
        await settle(pilot)
        await pilot.press("W")  # a profile: nothing opens
        await settle(pilot)
        assert app.screen is m
        zh = next(p for p in m.session.order if m.session.data[p].profile.rel == "workspace-zh")
        assert m.jump(Location("MEMORY.md"), zh)
        await settle(pilot)
        m.files_tree.focus()
        await pilot.press("W")
        await settle(pilot)
        assert isinstance(app.screen, WorkspaceScreen) and app.screen.path == (root / "workspace-zh").absolute()
        assert app.screen.memory is not None and app.screen.memory.rel == "MEMORY.md"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is m


async def test_one_undo_for_the_workspace_view_and_the_main_screen(tmp_path: Path) -> None:
    """The view writes through the app's session: u in the view and u on the main screen undo the
    same writes, with the same notices."""
    from openclaw_tui.ui.rows import Location
    from openclaw_tui.ui.screens.review.main_screen import MainScreen

    root = tmp_path / "samples"
    shutil.copytree(SAMPLES, root)
    mem = root / "workspace-zh" / "MEMORY.md"
    before = mem.read_bytes()
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert m.jump(Location("MEMORY.md"), next(p for p in m.session.order if m.session.data[p].profile.rel == "workspace-zh"))
        await settle(pilot)
        m.files_tree.focus()
        await pilot.press("W")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WorkspaceScreen) and screen.store is app.session
        await pilot.press("5", "down", "A", "x")  # accept 379 stripped, then reject 374
        await settle(pilot)
        after_two = mem.read_bytes()
        assert after_two != before and len(app.session.undo_stack) == 2
        await pilot.press("u")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert messages[-1].startswith("Undone: ") and messages[-1].endswith("  (U redoes)")
        after_one = mem.read_bytes()
        assert after_one not in (before, after_two)
        await pilot.press("U")  # redo, as on the main screen
        await settle(pilot)
        assert mem.read_bytes() == after_two
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is m
        await pilot.press("u", "u")  # the main screen undoes what the view wrote
        await settle(pilot)
        assert mem.read_bytes() == before and not len(app.session.undo_stack)
        await pilot.press("u")
        await settle(pilot)
        assert [n.message for n in app._notifications][-1] == "Nothing to undo in this session."


async def test_profile_distil_flow_compares_bytes_and_undoes(tmp_path: Path) -> None:
    """D on a profile's contexts/ file: the ticked lines become entries of memories.md (the same bytes
    as the core routine writes), the file moves to contexts/archive/, nothing else changes; u undoes."""
    import datetime as dt

    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.core.format.entries import parse_bytes
    from openclaw_tui.core.workspace.distil import distil_context
    from openclaw_tui.ui.rows import Location
    from openclaw_tui.ui.screens.review.context_distil import ContextDistilPicker
    from openclaw_tui.ui.screens.review.main_screen import MainScreen

    root = tmp_path / "profiles"
    shutil.copytree(SAMPLES / "profiles", root)
    twin = tmp_path / "twin"
    shutil.copytree(SAMPLES / "profiles" / "atlas", twin)
    atlas = root / "atlas"
    rel = "contexts/2026-11-24_oncall-handoff.md"
    now = dt.datetime(2026, 11, 30, 21, 15, tzinfo=dt.timezone(dt.timedelta(hours=8)))

    def files() -> dict[Path, bytes]:
        return {p: p.read_bytes() for p in atlas.rglob("*") if p.is_file() and p.suffix != ".lock"}

    before = files()
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.session.clock = lambda: now
        m = app.screen
        assert isinstance(m, MainScreen)
        path = next(p for p in m.session.order if m.session.data[p].profile.name == "atlas")
        assert m.jump(Location("memories.md"), path)
        await settle(pilot)
        await pilot.press("D")  # memories.md is selected: not a context file, nothing opens
        await settle(pilot)
        assert app.screen is m
        assert m.jump(Location(rel), path)
        await settle(pilot)
        assert m.file_view.rel == rel
        from openclaw_tui.ui.palette import ScreenCommands, _binding_commands

        offered = {name: text for name, text, _cb in _binding_commands(ScreenCommands(m, None))}
        assert "key: D" in offered["Distil context"] and "contexts/archive/" in offered["Distil context"]
        await pilot.press("D")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ContextDistilPicker)
        numbers = [n for n, _t in picker.lines]
        for n in (7, 14):
            while picker.query_one("#ctx-distil-lines").highlighted != numbers.index(n):
                await pilot.press("down")
            await pilot.press("space")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is m
        # the same bytes as the core routine writes on a twin of the profile
        _plan, ids, _dest = distil_context(load_profile(twin), rel, [7, 14], now=now)
        assert ids == ["mem-0018", "mem-0019"]
        after = files()
        moved = atlas / "contexts/archive" / Path(rel).name
        assert after[atlas / "memories.md"] == (twin / "memories.md").read_bytes()
        assert after[atlas / "memories.md"].startswith(before[atlas / "memories.md"])
        assert after[moved] == before[atlas / rel] and atlas / rel not in after
        assert {p for p in after if before.get(p) != after[p]} == {atlas / "memories.md", moved}
        new = parse_bytes(after[atlas / "memories.md"]).entries[-2:]
        assert [e.meta["source"] for e in new] == [f"{rel}:7", f"{rel}:14"]
        assert "(u undoes)" in [n.message for n in app._notifications][-1]
        await pilot.press("u")  # the session's undo: entries gone, the file back where it was
        await settle(pilot)
        assert files() == before
        assert [n.message for n in app._notifications][-1].startswith("Undone: distil 2 line(s) of " + rel)


async def test_dreams_tab_lists_the_diary_and_machine_files_read_only(ws: Path) -> None:
    from openclaw_tui.core.workspace.machine import machine_files

    state = ws / "memory" / ".dreams"
    state.mkdir()
    (state / "short-term-recall.json").write_text('{"version": 1, "note": "[@click=app.quit] [b]x[/b]"}\n',
                                                   encoding="utf-8")
    (ws / "memory" / "dreaming" / "deep").mkdir(parents=True)
    (ws / "memory" / "dreaming" / "deep" / "2026-11-29.md").write_text("# deep\n\n- promoted 1\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    listed, more = machine_files(ws)
    assert [(m.rel, m.kind, m.size) for m in listed] == [
        ("DREAMS.md", "diary", (ws / "DREAMS.md").stat().st_size),
        ("memory/.dreams/short-term-recall.json", "state", (state / "short-term-recall.json").stat().st_size),
        ("memory/dreaming/deep/2026-11-29.md", "report", 21),
    ] and more == 0
    assert all("not loaded into the prompt" in m.what for m in listed)
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_ws(pilot, ws)
        await pilot.press("6")
        await settle(pilot)
        assert screen.tab == "dreams" and [m.rel for m in screen.row_keys["dreams"]] == [m.rel for m in listed]
        from tests.ui_support import widget_text

        await pilot.press("down")
        await settle(pilot)
        detail = widget_text(screen.query_one("#ws-detail"))
        assert "memory/.dreams/short-term-recall.json" in detail and "not loaded into the prompt" in detail
        assert "[@click=app.quit] [b]x[/b]" in detail  # shown literally, never as markup
        for key in ("e", "x", "a", "A", "D", "S"):  # nothing here writes
            await pilot.press(key)
            await settle(pilot)
            if app.screen is not screen:
                await pilot.press("escape")
                await settle(pilot)
        assert app.is_running and {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == before
