"""Pilot tests of the review screen on (copies of) the sample profiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from openclaw_tui.ui.app import ConfirmQuit, OpenClawApp
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.review.help_screen import HelpScreen
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.entry_detail import LocationOption
from openclaw_tui.ui.widgets.entry_table import EntryTable, status_text
from openclaw_tui.ui.widgets.file_view import SourceView
from tests.support import app_for, until
from tests.ui_support import SIZE, copy_samples, settle, widget_text


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)


def main(app: OpenClawApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def open_xiaoyu(pilot) -> MainScreen:
    m = main(pilot.app)
    m.jump(Location("memories.md"), m.session.order[[m.session.data[p].profile.name for p in m.session.order].index("xiaoyu")])
    await settle(pilot)
    return m


def view_ids(m: MainScreen) -> list[str]:
    return [r.id for r in m.table.view]


# --- opening ---------------------------------------------------------------------------


async def test_opening_a_profiles_root_shows_profiles_files_and_entries(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        names = [m.session.data[p].profile.name for p in m.session.order]
        assert names == ["atlas", "xiaoyu"]
        labels = [str(n.label) for n in m.files_tree.root.children]
        assert labels == ["atlas", "xiaoyu"]
        xiaoyu = m.files_tree.root.children[1]
        children = [str(c.label) for c in xiaoyu.children]
        assert children[0] == "identity.md"
        assert children[1].startswith("memories.md (")
        assert any(c.startswith("state.yaml") for c in children)
        assert any(c == "contexts" for c in children) and any(c == "archive" for c in children)
        # atlas (first, clean) was shown; once checked, the profile with findings is shown instead
        assert m.session.current.profile.name == "xiaoyu"
        assert m.table.row_count == len(m.session.current.files["memories.md"])
        assert m.table.cursor_row is not None and m.table.cursor_row.id.startswith("mem-")
        status = str(m.status.render())
        assert "active" in status and "xiaoyu" in status


async def test_no_profile_switch_once_the_reviewer_has_started(root: Path) -> None:
    app = app_for(root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")  # before the check is done
        await settle(pilot)
        m = main(app)
        assert m.session.current.profile.name == "atlas"
        assert m.table.row_count == m.session.current.profile.entry_count()


async def test_opening_one_profile_lists_its_entries_with_ids(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        ids = view_ids(m)
        assert "mem-0001" in ids and "mem-0012" in ids
        assert m.selected_profile() is not None and m.selected_profile().name == "xiaoyu"
        assert m.selected_entry() is m.table.cursor_row


async def test_opening_a_workspace(tmp_path: Path) -> None:
    import shutil

    from tests.ui_support import samples

    shutil.copytree(samples() / "workspace", tmp_path / "ws")
    app = app_for(tmp_path / "ws")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        files = [str(n.label) for n in m.files_tree.root.children[0].children]
        assert any(f.startswith("MEMORY.md") for f in files)
        assert m.open_file("MEMORY.md")
        await settle(pilot)
        assert m.file_view.rel == "MEMORY.md"


# --- highlighting ----------------------------------------------------------------------


async def test_conflict_pair_is_marked_on_both_sides_and_linked(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        rows = m.session.current.by_id
        assert rows["mem-0012"].marks["conflict"] == "mem-0007"
        assert rows["mem-0007"].marks["conflict"] == "mem-0012"
        # the detail of mem-0012 points to its partner; Enter on it jumps there
        assert m.show_entry(rows["mem-0012"])
        await pilot.pause()
        await pilot.press("enter")  # into the references
        await pilot.pause()
        refs = m.detail.ref_list
        assert app.focused is refs
        option = refs.highlighted_option
        assert isinstance(option, LocationOption) and option.location.id == "mem-0007"
        await pilot.press("enter")
        await pilot.pause()
        assert m.table.cursor_row.id == "mem-0007"
        assert app.focused is m.table


async def test_superseded_entries_show_their_replacement(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        row = m.session.current.by_id["mem-0011"]
        assert status_text(row) == "superseded → mem-0033"
        m.set_filter("status:superseded")
        await pilot.pause()
        assert "mem-0011" in view_ids(m)
        assert all(r.status == "superseded" for r in m.table.view)


async def test_problem_marks_from_the_check(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        by_id = m.session.current.by_id
        assert by_id["mem-0037"].marks.get("invalid") == "importance"
        assert "expired" in by_id["mem-0043"].marks
        assert "sensitive" in by_id["mem-0041"].marks
        assert "suspicious" in by_id["mem-0042"].marks
        assert by_id["mem-0053"].marks.get("dangling") == "mem-0098"
        malformed = [r for r in m.session.current.files["memories.md"] if r.malformed]
        assert malformed and malformed[0].id == "mem-0031"
        # the malformed block is listed, and its raw text is in the detail pane
        assert m.show_entry(malformed[0])
        await pilot.pause()
        body = widget_text(m.detail.query_one("#detail-body"))
        assert "tags: [health, sleep" in body


# --- references both ways ----------------------------------------------------------------


async def test_incoming_references_jump_to_state_and_contexts(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.show_entry(m.session.current.by_id["mem-0012"])
        await pilot.pause()
        options = [o for o in m.detail.ref_list._options if isinstance(o, LocationOption) and o.location]
        places = {(o.location.file, o.location.id) for o in options}
        assert ("state.yaml", None) in places
        assert any(f and f.startswith("contexts/") for f, _ in places)
        state = next(i for i, o in enumerate(m.detail.ref_list._options)
                     if isinstance(o, LocationOption) and o.location and o.location.file == "state.yaml")
        line = m.detail.ref_list._options[state].location.line
        m.detail.ref_list.focus()
        m.detail.ref_list.highlighted = state
        await pilot.press("enter")
        await settle(pilot)
        assert m.file_view.rel == "state.yaml"
        assert m.file_view.source.cursor + 1 == line
        assert isinstance(app.focused, SourceView)
        # Esc goes back to the entries
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is m.table


# --- filtering and sorting ---------------------------------------------------------------


async def test_incremental_text_filter_and_counts(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        total = m.table.row_count
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press("咖")
        await pilot.pause()
        after_one = m.table.row_count
        await pilot.press("啡", "因")
        await pilot.pause()
        after_three = m.table.row_count
        assert total > after_one >= after_three >= 1
        assert all("咖啡因" in r.haystack for r in m.table.view)
        assert f"showing {after_three} of {total}" in str(m.status.render())
        await pilot.press("escape")  # leaves the box, then clears the filter
        await pilot.press("escape")
        await pilot.pause()
        assert m.filter_input.value == ""
        assert m.table.row_count == total


async def test_filters_by_status_importance_tags_and_problems(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        m.set_filter("imp:high")
        await pilot.pause()
        assert m.table.view and all(r.importance == "high" for r in m.table.view)
        m.set_filter("tag:咖啡 tag:health")
        await pilot.pause()
        assert view_ids(m) == ["mem-0012"]
        m.set_filter("status:cold")
        await pilot.pause()
        assert all(r.status == "cold" for r in m.table.view) and m.table.view
        m.set_filter("")
        m.table.focus()
        await pilot.press("p")  # problems only
        await pilot.pause()
        assert m.filter_input.value == "is:problem"
        ids = view_ids(m)
        assert {"mem-0007", "mem-0012", "mem-0031", "mem-0037"} <= set(ids)
        assert all(r.problem for r in m.table.view)
        await pilot.press("p")
        await pilot.pause()
        assert m.filter_input.value == ""


async def test_sorting_by_keys_and_header_click(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        m.table.focus()
        await pilot.press("s")  # next column: id
        await pilot.pause()
        assert m.table.sort_key == "id"
        await pilot.press("S")
        await pilot.pause()
        assert m.table.sort_reverse
        ids = view_ids(m)
        assert ids[0] > ids[-1]
        # click the "Imp" header
        widths = m.table._layout()
        x = sum(w + 1 for w in widths[:3] if w) + 1
        await pilot.click("#entries", offset=(x, 0))
        await pilot.pause()
        assert m.table.sort_key == "importance"
        imps = [r.importance for r in m.table.view]
        assert imps.index("low") > imps.index("high")
        assert "sorted by importance" in str(m.status.render())


async def test_vim_keys_and_mouse_move_the_cursor(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        m.table.focus()
        await pilot.press("j", "j")
        assert m.table.cursor == 2
        await pilot.press("k")
        assert m.table.cursor == 1
        await pilot.press("G")
        assert m.table.cursor == m.table.row_count - 1
        await pilot.press("g")
        assert m.table.cursor == 0
        await pilot.click("#entries", offset=(20, 4))  # header is line 0: line 4 is the 4th row
        await pilot.pause()
        assert m.table.cursor == 3
        assert m.detail.query_one("#detail-title").render().plain.startswith(m.table.cursor_row.id)
        await pilot.press("n")  # next problem
        await pilot.pause()
        assert m.table.cursor_row.problem


# --- audit --------------------------------------------------------------------------------


async def test_audit_lists_findings_by_severity_and_jumps(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        audit = m.audit
        sev = [f.severity for f in audit.findings]
        assert sev == sorted(sev, key=["error", "warning", "info"].index)
        codes = {f.code for f in audit.findings}
        assert {"malformed-entry", "dangling-ref", "unresolved-conflict"} <= codes
        assert "error" in audit.border_title

        def index_of(pred) -> int:
            return next(i for i, o in enumerate(audit._options)
                        if isinstance(o, LocationOption) and o.location and pred(o.location))

        await pilot.press("a")
        assert app.focused is audit
        # a finding inside memories.md jumps to the entry
        audit.highlighted = index_of(lambda loc: loc.file == "memories.md" and loc.id == "mem-0037")
        await pilot.press("enter")
        await settle(pilot)
        assert m.table.cursor_row.id == "mem-0037"
        assert app.focused is m.table
        # the dangling reference of state.yaml jumps to that line
        await pilot.press("a")
        audit.highlighted = index_of(lambda loc: loc.file == "state.yaml" and loc.line is not None)
        line = audit.highlighted_option.location.line
        await pilot.press("enter")
        await settle(pilot)
        assert m.file_view.rel == "state.yaml" and m.file_view.source.cursor + 1 == line


async def test_write_audit_log_is_one_key_away(root: Path) -> None:
    prof = root / "xiaoyu"
    app = app_for(prof)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert not (prof / "audit.log").exists()
        await pilot.press("w")
        await pilot.pause()
        lines = (prof / "audit.log").read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(m.session.current.findings)
        assert any(" error dangling-ref state.yaml:" in line for line in lines)


async def test_check_runs_again_after_a_change(root: Path) -> None:
    prof = root / "xiaoyu"
    app = app_for(prof)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert "conflict" in m.session.current.by_id["mem-0012"].marks
        text = (prof / "memories.md").read_text(encoding="utf-8")
        (prof / "memories.md").write_text(text.replace("conflict: mem-0007\n", ""), encoding="utf-8")
        m.refresh_after_write()
        await settle(pilot)
        assert "conflict" not in m.session.current.by_id["mem-0012"].marks
        assert not any(f.code == "unresolved-conflict" for f in m.audit.findings)


# --- other files ----------------------------------------------------------------------------


async def test_identity_is_rendered_and_state_marks_dangling_ids(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.open_file("identity.md")
        await settle(pilot)
        assert m.file_view.mode == "rendered"
        await pilot.press("m")
        assert m.file_view.mode == "source"
        assert m.open_file("state.yaml")
        await settle(pilot)
        src = m.file_view.source
        spans = [s for line in src.refs.values() for s in line]
        dangling = [s for s in spans if not s.ok]
        assert any(s.label == "mem-0099" for s in dangling)
        assert any(s.label == "mem-0012" and s.ok for s in spans)
        # ids inside comments are not references
        comment_line = next(i for i, t in enumerate(src.lines) if t.plain.lstrip().startswith("#") and "mem-" in t.plain)
        assert comment_line not in src.refs


async def test_context_ids_are_followed_by_enter_and_click(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.open_file("contexts/2025-06-01_todo.md")
        await settle(pilot)
        src = m.file_view.source
        line = min(n for n, spans in src.refs.items() if any(s.kind == "id" for s in spans))
        span = next(s for s in src.refs[line] if s.kind == "id")
        src.move_cursor(line)
        await pilot.pause()
        # the detail pane shows the entry named on the cursor line
        assert m.detail.query_one("#detail-title").render().plain.startswith(span.label)
        await pilot.press("enter")
        await settle(pilot)
        assert m.table.cursor_row.id == span.label
        # now by mouse: open again and click on the id
        m.open_file("contexts/2025-06-01_todo.md")
        await settle(pilot)
        src = m.file_view.source
        src.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        x = src._gutter + sum(1 if ord(c) < 0x1100 else 2 for c in src.lines[line].plain[: span.start]) + 1
        await pilot.click(SourceView, offset=(x, src._first_visual[line]))
        await settle(pilot)
        assert m.table.cursor_row.id == span.label


# --- keyboard, help, palette, quit ----------------------------------------------------------


async def test_help_shows_focused_bindings_and_legend(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main(app).table.focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        groups = dict(app.screen.groups)
        assert "Focused: Entry table" in groups
        assert any(d.startswith("Sort — Sort by the next column") for _, d in groups["Focused: Entry table"])
        assert any(d.startswith("Quit — ") for _, d in groups["Everywhere"])
        legend = app.screen.query_one("#help-legend", EntryTable)
        marks = {m for r in legend.source for m in r.marks} | {r.status for r in legend.source}
        assert {"conflict", "superseded", "cold", "archived", "expired", "invalid", "malformed",
                "sensitive", "suspicious", "dangling"} <= marks
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, MainScreen)


async def test_command_palette_offers_screen_actions(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        for ch in "Sort by importance":
            await pilot.press(ch if ch != " " else "space")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert m.table.sort_key == "importance"
        await pilot.press("ctrl+p")
        await pilot.pause()
        for ch in "Problems":
            await pilot.press(ch if ch != " " else "space")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert m.filter_input.value == "is:problem"


async def test_q_quits(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0


async def test_q_asks_first_when_an_edit_is_unsaved(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        m.has_unsaved_changes = lambda: True  # an editor screen would say so
        assert app.has_unsaved_changes()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value == 0


async def test_typing_q_in_the_filter_does_not_quit(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "q")
        await pilot.pause()
        assert app.is_running and main(app).filter_input.value == "q"


async def test_theme_switches_between_dark_and_light(root: Path) -> None:
    app = app_for(root / "xiaoyu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.current_theme.dark
        await pilot.press("f2")
        await pilot.pause()
        assert not app.current_theme.dark
        await pilot.press("f2")
        assert app.current_theme.dark


# --- generated profiles ----------------------------------------------------------------------


async def test_generated_profile_filters_sorts_and_jumps(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from generate import write_profile

    prof = write_profile(tmp_path, 3000, "big")
    app = app_for(prof)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.table.row_count == 3000
        conflicts = [r for r in m.table.view if "conflict" in r.marks]
        assert conflicts  # the generator writes conflict: fields between active entries
        m.set_filter("is:conflict")
        await pilot.pause()
        assert {r.id for r in m.table.view} == {r.id for r in m.session.current.files["memories.md"] if "conflict" in r.marks}
        m.set_filter("")
        m.sort_by("id", reverse=True)
        await pilot.pause()
        assert m.table.view[0].id == "mem-003000"
        assert m.jump(Location(None, None, "mem-000042"))
        assert m.table.cursor_row.id == "mem-000042"


async def test_a_change_by_another_program_is_reloaded_and_checked(root: Path) -> None:

    prof = root / "xiaoyu"
    app = app_for(prof)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        assert m.session.watcher is not None
        assert "mem-0999" not in m.session.current.by_id
        with (prof / "memories.md").open("a", encoding="utf-8") as fh:  # an agent appends an entry
            fh.write("\n---\nid: mem-0999\nstatus: active\nimportance: wrong\n---\nAppended by the agent.\n")
        await until(lambda: "mem-0999" in m.session.current.by_id and m.session.current.findings is not None,
                    "the appended entry and its findings", pilot=pilot)
        await settle(pilot)
        assert m.session.current.by_id["mem-0999"].marks.get("invalid") == "importance"
        assert any(f.id == "mem-0999" for f in m.audit.findings)


async def test_outgoing_links_that_escape_or_are_missing_are_shown_not_followed(tmp_path: Path) -> None:
    from tests.ui_support import write_profile

    prof = write_profile(tmp_path, "p", "---\nid: mem-0001\nstatus: active\n---\n"
                         "See [secret](../../secret.md), [gone](contexts/gone.md) and [ok](skills/work.md).\n",
                         {"skills/work.md": "# Work\n"})
    app = app_for(prof)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        opts = [o for o in m.detail.ref_list._options if isinstance(o, LocationOption)]
        texts = [o.prompt.plain for o in opts]
        assert any("../../secret.md" in t and "leaves the profile" in t for t in texts)
        assert any("contexts/gone.md" in t and "does not exist" in t for t in texts)
        ok = next(o for o in opts if "skills/work.md" in o.prompt.plain)
        assert ok.location == Location("skills/work.md", None, None)
        bad = [o for o in opts if "secret.md" in o.prompt.plain or "gone.md" in o.prompt.plain]
        assert all(o.location is None and o.disabled for o in bad)
