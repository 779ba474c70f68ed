"""The repair screen, pushed on its own with a profile and a finding (Pilot): preview, apply, undo."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.app import App
from textual.widgets import OptionList

from openclaw_tui.core.check.findings import Finding
from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import Profile, load_profile
from openclaw_tui.ui.screens.edit.repair_screen import RepairScreen
from openclaw_tui.ui.session import Session
from openclaw_tui.ui.widgets.diff_view import DiffView
from tests.ui_support import SAMPLES, SIZE, settle, widget_text
from tests.unit.test_check_support import TODAY, active, make_profile


class Host(App[None]):
    def __init__(self, screen: RepairScreen) -> None:
        super().__init__()
        self.repair = screen

    def on_mount(self) -> None:
        self.push_screen(self.repair)


def _finding(profile: Profile, code: str, file: str, line: int) -> Finding:
    return next(f for f in check_profile(profile, today=TODAY) if (f.code, f.file, f.line) == (code, file, line))


async def test_repair_from_the_audit_finding_then_undo(tmp_path: Path) -> None:
    prof_dir = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof_dir)
    profile = load_profile(prof_dir, ".", "profile")
    finding = _finding(profile, "inactive-ref", "state.yaml", 22)
    before = {p: p.read_bytes() for p in prof_dir.rglob("*") if p.is_file()}
    session = Session(prof_dir, watch=False)
    written: list[str] = []
    screen = RepairScreen(profile, finding, session=session, today=TODAY, history=False,
                          on_written=lambda plan: written.append(plan.title))
    app = Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = screen.query_one("#repair-candidates", OptionList)
        assert options.option_count == 3 and options.highlighted == 0
        diff = screen.query_one("#repair-diff", DiffView).diff
        assert "-  婚礼筹备: mem-0048   # 婚礼前加的，还没清理" in diff
        assert "+  婚礼筹备: mem-0051   # 婚礼前加的，还没清理" in diff
        assert "mem-0051" in widget_text(options)
        # moving to another candidate previews that one instead (nothing written)
        await pilot.press("down", "down")
        assert "-  婚礼筹备: mem-0048" in screen.query_one("#repair-diff", DiffView).diff
        assert "+  婚礼筹备" not in screen.query_one("#repair-diff", DiffView).diff  # the remove candidate
        await pilot.press("up", "up")
        assert {p: p.read_bytes() for p in before} == before
        await pilot.press("enter")
        await settle(pilot)
        state = prof_dir / "state.yaml"
        old = before[state]
        assert state.read_bytes() == old.replace("婚礼筹备: mem-0048".encode(), "婚礼筹备: mem-0051".encode())
        assert [p for p in before if p.read_bytes() != before[p]] == [state]
        assert len(session.undo_stack) == 1 and written == ["repair: mem-0048 → mem-0051"]
        assert screen.problem is None  # the finding is gone
        assert "Written" in widget_text(screen.query_one("#repair-status"))
        await pilot.press("u")
        await settle(pilot)
        assert {p: p.read_bytes() for p in before} == before
        assert len(session.undo_stack) == 0 and screen.problem is not None
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not screen


async def test_every_safe_repair_with_one_key(tmp_path: Path) -> None:
    prof_dir = make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002"),
        state="a: mem-0001\nb: mem-0009\nc: mem-0001\n",
    )
    profile = load_profile(prof_dir, ".", "profile")
    finding = _finding(profile, "dangling-ref", "state.yaml", 2)
    old = (prof_dir / "state.yaml").read_bytes()
    screen = RepairScreen(profile, finding, session=Session(None, watch=False), today=TODAY, history=False)
    async with Host(screen).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        assert (prof_dir / "state.yaml").read_bytes() == b"a: mem-0002\nb: mem-0009\nc: mem-0002\n"
        await pilot.press("u")
        await settle(pilot)
        assert (prof_dir / "state.yaml").read_bytes() == old


class AuditHost(App[None]):
    """An audit list and the one action the main screen's registry wires to a key (f)."""

    BINDINGS = [("f", "repair_finding", "Repair")]

    def __init__(self, profile: Profile) -> None:
        super().__init__()
        self.profile = profile
        self.session = Session(None, watch=False)
        self.undo = self.session.undo_stack

    def compose(self):  # type: ignore[no-untyped-def]
        from openclaw_tui.ui.widgets.audit_list import AuditList

        yield AuditList(id="audit")

    def on_mount(self) -> None:
        from openclaw_tui.ui.widgets.audit_list import AuditGroup, AuditList

        audit = self.query_one(AuditList)
        audit.show_groups([AuditGroup(str(self.profile.path), self.profile.name,
                                      check_profile(self.profile, today=TODAY))])
        audit.focus()

    def action_repair_finding(self) -> None:
        from openclaw_tui.ui.widgets.audit_list import AuditList

        hit = self.query_one(AuditList).highlighted_finding()
        if hit is not None:
            self.push_screen(RepairScreen(self.profile, hit[1], session=self.session, today=TODAY, history=False))


async def test_repair_from_the_audit_list_with_undo(tmp_path: Path) -> None:
    from openclaw_tui.ui.widgets.audit_list import AuditList

    prof_dir = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof_dir)
    profile = load_profile(prof_dir, ".", "profile")
    state = prof_dir / "state.yaml"
    old = state.read_bytes()
    app = AuditHost(profile)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        audit = app.query_one(AuditList)
        for _ in range(40):  # move to the inactive-ref finding
            hit = audit.highlighted_finding()
            if hit is not None and hit[1].code == "inactive-ref":
                break
            await pilot.press("down")
        hit = audit.highlighted_finding()
        assert hit is not None and (hit[1].code, hit[1].line) == ("inactive-ref", 22)
        assert hit[1].suggestions and hit[1].suggestions[0].target == "mem-0051"
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, RepairScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert state.read_bytes() == old.replace("婚礼筹备: mem-0048".encode(), "婚礼筹备: mem-0051".encode())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not None and not isinstance(app.screen, RepairScreen) and len(app.undo)
        app.undo.undo()  # the host's undo (u on the main screen) reverts the repair
        assert state.read_bytes() == old


def test_repair_screen_snapshot(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    prof_dir = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof_dir)
    profile = load_profile(prof_dir, ".", "profile")
    finding = _finding(profile, "dangling-ref", "memories.md", 538)
    screen = RepairScreen(profile, finding, session=Session(None, watch=False), today=TODAY, history=False)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    assert snap_compare(Host(screen), terminal_size=(140, 40), run_before=run_before)
