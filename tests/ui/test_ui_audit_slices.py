"""The audit list of a large check: the first options at once, the rest in slices between keys and paints.

A 100k-entry profile has ~2,200 findings; making all their options at once held the event loop ~1 s
after every check (and again after every external write's re-check)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from openclaw_tui.core.check.findings import Finding
from openclaw_tui.ui.widgets import audit_list
from openclaw_tui.ui.widgets.audit_list import AuditGroup, AuditList, finding_prompt
from tests.support import until


def findings(n: int, code: str = "unresolved-conflict") -> list[Finding]:
    return [Finding(code, "p", "memories.md", 10 * i + 1, f"mem-{i:06d}", f"conflict {i}") for i in range(n)]


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield AuditList(id="audit")


def prompts(audit: AuditList) -> list[str]:
    return [str(audit.get_option_at_index(i).prompt) for i in range(audit.option_count)]


async def wait_complete(pilot, audit: AuditList) -> None:  # type: ignore[no-untyped-def]
    await until(lambda: audit.complete, "the audit list to complete", pilot=pilot)


async def test_a_large_list_is_sliced_and_ends_equal_to_the_whole() -> None:
    app = Host()
    fs = findings(1500)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.query_one(AuditList)
        audit.show_groups([AuditGroup("/p", "p", fs)])
        assert audit.option_count == audit_list.FIRST_OPTIONS < len(fs)
        assert not audit.complete
        assert audit.highlighted == 0 and audit.highlighted_finding() == ("/p", fs[0])
        await wait_complete(pilot, audit)
        assert audit.option_count == len(fs)
        width = max(len(f.file) + len(str(f.line)) + 1 for f in fs)
        want = [str(finding_prompt(f, "", width)) for f in fs]
        assert prompts(audit) == want  # every option, in order, once
        assert audit.findings == fs


async def test_a_newer_list_drops_the_slices_still_due_and_keeps_the_highlighted_finding() -> None:
    app = Host()
    old, new = findings(1200), findings(900)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.query_one(AuditList)
        audit.show_groups([AuditGroup("/p", "p", old)])
        await pilot.pause(0.01)
        audit.focus()  # a user's highlight
        audit.highlighted = 5
        audit.show_groups([AuditGroup("/p", "p", new, note="checked 900")])
        await wait_complete(pilot, audit)
        assert audit.option_count == len(new) + 1  # the note, then the findings: nothing of the old list
        assert audit.highlighted == 6 and audit.highlighted_finding() == ("/p", new[5])  # the same location
        assert str(audit.get_option_at_index(audit.option_count - 1).prompt).endswith("conflict 899")


async def test_a_kept_finding_beyond_the_first_options_is_made_at_once() -> None:
    app = Host()
    fs = findings(1000)
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.query_one(AuditList)
        audit.show_groups([AuditGroup("/p", "p", fs)])
        await wait_complete(pilot, audit)
        audit.focus()  # a user's highlight
        audit.highlighted = 700
        audit.show_groups([AuditGroup("/p", "p", fs)])
        assert audit.option_count >= 701 and audit.highlighted == 700
        assert audit.highlighted_finding() == ("/p", fs[700])
        await wait_complete(pilot, audit)
        assert audit.option_count == len(fs)


async def test_without_a_users_highlight_the_first_finding_is_highlighted_whatever_came_first() -> None:
    app = Host()
    early, late = findings(3), findings(2, code="dangling-ref")  # warnings, then errors
    async with app.run_test(size=(120, 40)) as pilot:
        audit = app.query_one(AuditList)
        app.set_focus(None)  # as in the app, where the entry table has the focus
        audit.show_groups([AuditGroup("/p", "p", early), AuditGroup("/q", "q", None)])
        await pilot.pause()
        audit.show_groups([AuditGroup("/p", "p", early), AuditGroup("/q", "q", late)])
        await wait_complete(pilot, audit)
        assert audit.highlighted == 0 and audit.highlighted_finding() == ("/q", late[0])


async def test_a_small_list_is_made_at_once() -> None:
    app = Host()
    async with app.run_test(size=(120, 40)):
        audit = app.query_one(AuditList)
        audit.show_groups([AuditGroup("/p", "p", findings(30)), AuditGroup("/q", "q", None)])
        assert audit.complete and audit.option_count == 31
        assert "checking q" in str(audit.get_option_at_index(30).prompt)
