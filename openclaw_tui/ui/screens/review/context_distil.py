"""The profile's end-of-day routine (``D``): ticked lines of the selected ``contexts/{date}.md``
become entries of ``memories.md`` (``source: contexts/{date}.md:N``) and the file moves to
``contexts/archive/``, in one plan written through the session (``u`` undoes all of it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from ....core.format.edit import EditError
from ....core.format.entries import decode
from ....core.i18n import _, ngettext
from ....core.workspace.distil import distil_context_plan, line_text
from ....core.workspace.model import parse_log
from ...actions import bindings
from ...session import Refused
from ...widgets.safe_text import clean_line
from ..workspace.workspace_dialogs import Dialog

if TYPE_CHECKING:
    from ...session import Session
    from .review_host import ReviewHost


class ContextDistilPicker(Dialog[list[int] | None]):
    """Tick the lines of a context file to keep as entries (space), ctrl+s; escape cancels."""

    BINDINGS = bindings("ctx-distil")

    def __init__(self, rel: str, lines: list[tuple[int, str]]) -> None:
        super().__init__()
        self.rel = rel
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="ws-dialog", id="ctx-distil-box"):
            yield Static(Text(_("Distil %(file)s into memories.md: tick the lines worth keeping (space), ctrl+s. "
                                "Each becomes an entry (source: the file and line); the file then moves to "
                                "contexts/archive/.") % {"file": self.rel}, style="bold"))
            yield SelectionList[int](
                *(Selection(Text(f"{n:>3}  {clean_line(t)}"), n, False) for n, t in self.lines),
                id="ctx-distil-lines",
            )

    def on_mount(self) -> None:
        self.query_one("#ctx-distil-lines", SelectionList).focus()

    def action_apply(self) -> None:
        picked = sorted(self.query_one("#ctx-distil-lines", SelectionList).selected)
        if not picked:
            self.notify(_("Tick at least one line (space)."), severity="warning")
            return
        self.dismiss(picked)


def context_lines(data: bytes) -> list[tuple[int, str]]:
    """(line number, words) of the content lines of a context file (headings and blanks left out)."""
    text, _bom, _ok = decode(data)
    return [(ln.number, line_text(ln.text)) for ln in parse_log(text) if line_text(ln.text)]


def distil_selected_context(main: ReviewHost, session: Session, rel: str) -> None:
    """``D`` on the main screen: the picker for the context file ``rel`` (the one shown), then the write."""
    data = session.current
    if data is None or data.profile.layout != "profile":
        main.notify(_("D distils a profile's contexts/ file; a workspace distils its daily logs in its view"
                      " (W, tab 4)."), severity="warning")
        return
    if not rel.startswith("contexts/") or rel.startswith("contexts/archive/") or not rel.endswith(".md"):
        main.notify(_("Select a file under contexts/ in the tree (not the archive), then D."), severity="warning")
        return
    try:
        lines = context_lines((data.path / rel).read_bytes())
    except OSError as exc:
        main.notify(_("Cannot read %(file)s: %(why)s") % {"file": rel, "why": exc.strerror or exc}, severity="error",
                    markup=False)
        return
    if not lines:
        main.notify(_("%(file)s has no line to distil.") % {"file": rel}, severity="warning", markup=False)
        return

    def done(picked: list[int] | None) -> None:
        if not picked:
            return
        try:
            plan = distil_context_plan(session.fresh_profile(), rel, picked, now=session.now())
        except (EditError, Refused, OSError) as exc:
            main.notify(_("Not distilled: %(why)s") % {"why": exc}, severity="error", markup=False, timeout=10)
            return
        outcome = session.write(plan)
        if outcome.plan is None:
            main.notify(outcome.error or _("Not written."), severity="error", markup=False, timeout=10)
            return
        main.reload_for_plan(outcome.plan)
        ids = ", ".join(outcome.plan.added)
        main.notify(ngettext("Distilled %(n)s line of %(file)s into memories.md (%(ids)s); the file moved to "
                             "contexts/archive/  (u undoes)",
                             "Distilled %(n)s lines of %(file)s into memories.md (%(ids)s); the file moved to "
                             "contexts/archive/  (u undoes)", len(picked)) % {"n": len(picked), "file": rel, "ids": ids},
                    markup=False)

    main.app.push_screen(ContextDistilPicker(rel, lines), done)
