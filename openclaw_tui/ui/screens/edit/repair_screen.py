"""Repair one reference finding: its candidates best first, the byte diff of each (with every finding
naming the same target unless ``o``), apply through the session's undo stack, undo.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....core.check.findings import Finding
from ....core.check.messages import localize
from ....core.check.repair import Candidate, Problem, find_problems, plan_all_safe, plan_repair, together
from ....core.files.profile import Profile, load_profile
from ....core.format.edit import EditError
from ....core.i18n import N_, _, catalog, ngettext, recognise
from ....core.lifecycle.plan import Plan
from ...actions import bindings
from ...session import Session
from ...widgets.diff_view import DiffView
from ...widgets.footer import KeysFooter
from ...widgets.plan_text import plan_title
from ...widgets.safe_text import clean_line
from ...workers import call_if_attached

KIND_STYLE = {
    "superseded": "bold green", "archive": "bold green", "merged": "bold green", "git": "bold green",
    "git-file": "bold cyan", "cold": "bold cyan", "typo": "bold yellow", "context": "yellow",
    "file": "bold yellow", "remove": "bold red",
}


# the kinds of candidate, as the list shows them (the key stays the core's)
KIND_LABEL = {
    "superseded": N_("superseded"), "archive": N_("archive"), "merged": N_("merged"), "git": "git",
    "git-file": N_("git file"), "cold": N_("cold"), "typo": N_("typo"), "context": N_("context"),
    "file": N_("file"), "remove": N_("remove"), "chain": N_("chain"),
}


# the commonest reasons of a candidate (core/check/suggest.py, refbytes.py: removal_why); others stay English
WHYS = (
    N_("drop this line of state.yaml"), N_("drop this path from state.yaml"), N_("unlink: keep the link's text"),
    N_("drop it from %(field)s"), N_("%(id)s was superseded by %(new)s (then %(chain)s)"),
    N_("%(id)s was superseded by %(new)s"), N_("%(id)s was compacted into %(new)s"),
)


# a near id's reason: "; "-joined bits (core/check/suggest.py: near_id_reasons, near_ids)
NEAR_BITS = (N_("%(how)s from %(id)s"), N_("it is %(state)s"), N_("shares %(labels)s"), N_("one of %(n)s as near"))
SLIPS = (N_("two characters swapped"), N_("one digit different"), N_("one character dropped"), N_("one digit added"))
TWO_SLIPS = N_("two slips (%(first)s, then %(second)s)")


def _slip(how: str) -> str:
    if how in SLIPS:
        return _(how)
    return recognise((TWO_SLIPS,), how, lambda v: _(v) if v in SLIPS else v) or how


def why_text(why: str) -> str:
    """A candidate's reason in the language in use (English: as it is)."""
    if catalog() is None:
        return why
    found = recognise(WHYS, why)
    if found is not None:
        return found
    bits = why.split("; ")
    done = [recognise(NEAR_BITS, bit, _slip) for bit in bits]
    return _("; ").join(d if d is not None else b for d, b in zip(done, bits, strict=True))


ACTION_TEXT = {
    "rewrite": N_("rewrite to %(target)s: %(why)s"), "restore": N_("restore %(target)s from the archive: %(why)s"),
    "restore-git": N_("restore %(target)s from commit %(commit)s: %(why)s"),
    "restore-file": N_("restore %(target)s from commit %(commit)s: %(why)s"),
    "reactivate": N_("make %(target)s active: %(why)s"),
}


def describe(c: Candidate) -> str:
    """``Candidate.describe()`` in the language in use."""
    values = {"target": c.target, "why": why_text(c.why), "commit": getattr(c, "commit", "")}
    return _(ACTION_TEXT.get(c.action, N_("remove the reference: %(why)s"))) % values


def same_finding(a: Finding, b: Finding) -> bool:
    return (a.code, a.file, a.line, a.id, a.message) == (b.code, b.file, b.line, b.id, b.message)


def candidate_prompt(k: int, c: Candidate) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{k}. ", style="dim")
    label = _(KIND_LABEL.get(c.kind, c.kind))
    text.append(label + " " * max(1, 10 - cell_len(label)), style=KIND_STYLE.get(c.kind, "bold"))
    text.append(clean_line(describe(c)))
    if c.safe:
        text.append("  " + _("safe"), style="bold green")
    return text


class RepairScreen(ModalScreen[bool]):
    """The candidates of one finding, a byte-diff preview of the highlighted one, apply and undo."""

    CSS_PATH = "repair_screen.tcss"

    BINDINGS = bindings("repair")

    def __init__(
        self,
        profile: Profile,
        finding: Finding,
        *,
        session: Session,
        today: dt.date | None = None,
        history: bool = True,
        on_written: Callable[[Plan], object] | None = None,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.finding = finding
        self.session = session  # writes and undo go through the app's session
        self.today = today
        self.history = history
        self.on_written = on_written
        self.group_all = True
        self.problems: list[Problem] = []
        self.problem: Problem | None = None
        self.plan: Plan | None = None
        self.written: list[Plan] = []  # what this screen wrote, newest last
        self.pending_status: tuple[str, str] | None = None  # shown once the reload after a write is in

    def compose(self) -> ComposeResult:
        with Vertical(id="repair-box"):
            yield Static(id="repair-title")
            yield OptionList(id="repair-candidates")
            yield DiffView(id="repair-diff")
            yield Static(id="repair-status")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show_title()
        self.show_status(_("Looking for repairs…"), "dim italic")
        self.load()
        self.query_one("#repair-candidates", OptionList).focus()

    # --- state ------------------------------------------------------------------------

    def load(self) -> None:
        """Re-read the profile from disk and find the finding's problem again (in a thread: git may be slow)."""
        self.run_worker(self._find, thread=True, exclusive=True, group="repair-find")

    def _find(self) -> None:
        profile = load_profile(self.profile.path, self.profile.rel, self.profile.layout)
        problems = find_problems(profile, today=self.today, history=self.history)
        call_if_attached(self, self._found, profile, problems)

    def _found(self, profile: Profile, problems: list[Problem]) -> None:
        self.profile = profile
        self.problems = problems
        self.problem = next((p for p in self.problems if same_finding(p.finding, self.finding)), None)
        self.show_title()
        self.show_candidates()
        if self.pending_status is not None:
            self.show_status(*self.pending_status)
            self.pending_status = None

    def show_title(self) -> None:
        title = Text()
        f = self.finding
        where = f"{f.file}:{f.line}" if f.line is not None else f.file
        title.append(_("Repair %(code)s") % {"code": f.code}, style="bold")
        title.append(f"  {clean_line(where)}\n", style="dim")
        title.append(clean_line(localize(f.code, f.message)))
        self.query_one("#repair-title", Static).update(title)

    def show_candidates(self) -> None:
        options = self.query_one("#repair-candidates", OptionList)
        options.clear_options()
        if self.problem is None:
            self.show_status(_("This finding is gone: the files no longer have it."), "green")
            self.query_one("#repair-diff", DiffView).show("")
            return
        if not self.problem.candidates:
            self.show_status(_("No candidate: edit the reference by hand."), "yellow")
        options.add_options(Option(candidate_prompt(k, c), id=str(k)) for k, c in enumerate(self.problem.candidates, 1))
        options.highlighted = 0 if self.problem.candidates else None
        self.preview()

    @property
    def candidate(self) -> Candidate | None:
        if self.problem is None:
            return None
        k = self.query_one("#repair-candidates", OptionList).highlighted
        if k is None or not 0 <= k < len(self.problem.candidates):
            return None
        return self.problem.candidates[k]

    def group(self, cand: Candidate) -> list[Problem]:
        assert self.problem is not None
        return together(self.problems, self.problem, cand) if self.group_all else [self.problem]

    def preview(self) -> None:
        cand = self.candidate
        view = self.query_one("#repair-diff", DiffView)
        self.plan = None
        if cand is None:
            view.show("")
            return
        try:
            group = self.group(cand)
            self.plan = plan_repair(self.profile, group, cand)
        except (EditError, OSError) as exc:
            view.show("")
            self.show_status(_("Cannot preview: %(why)s") % {"why": exc}, "red")
            return
        view.show(self.plan.diff(self.profile.path))
        target = self.problem.target if self.problem else ""
        more = (ngettext("%(n)s finding naming %(target)s", "%(n)s findings naming %(target)s", len(group))
                % {"n": len(group), "target": target} if len(group) > 1 else _("this finding"))
        self.show_status(_("%(title)s — repairs %(what)s. enter applies, o toggles all alike / only this one.")
                         % {"title": plan_title(self.plan.title), "what": more}, "")

    def show_status(self, message: str, style: str) -> None:
        self.query_one("#repair-status", Static).update(Text(clean_line(message), style=style))

    @on(OptionList.OptionHighlighted, "#repair-candidates")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.preview()

    @on(OptionList.OptionSelected, "#repair-candidates")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_apply()

    # --- actions --------------------------------------------------------------------------

    def action_toggle_group(self) -> None:
        self.group_all = not self.group_all
        self.preview()

    def action_all_safe(self) -> None:
        """Every repair of the profile with one certain candidate, in one undoable write."""
        try:
            run = plan_all_safe(self.profile, self.problems, today=self.today)
        except (EditError, OSError) as exc:
            self.notify(_("Cannot plan: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        if run.plan.empty:
            self.notify(_("No finding has a safe repair."), severity="warning")
            return
        self.write(run.plan)

    def action_apply(self) -> None:
        plan = self.plan
        if plan is None or plan.empty:
            self.notify(_("Nothing to write."), severity="warning")
            return
        self.write(plan)

    def write(self, plan: Plan) -> None:
        outcome = self.session.write(plan)
        if outcome.plan is None:
            self.notify(outcome.error or _("Not written."), severity="error", markup=False, timeout=10)
            if outcome.stale:
                self.load()
            return
        self._written(outcome.plan)

    def _written(self, written: Plan) -> None:
        self.written.append(written)
        if self.on_written is not None:
            self.on_written(written)
        self.pending_status = (_("Written: %(title)s  (u undoes)") % {"title": plan_title(written.title)}, "bold green")
        self.load()

    def action_undo(self) -> None:
        if not self.written or self.session.undo_stack.peek() is not self.written[-1]:
            self.notify(_("Nothing written from this screen to undo."), severity="warning")
            return
        outcome = self.session.undo()
        if outcome.plan is None:
            self.notify(outcome.error or _("Cannot undo."), severity="error", markup=False)
            return
        plan = outcome.plan
        self.written.pop()
        if self.on_written is not None:
            self.on_written(plan)
        self.pending_status = (_("Undone: %(title)s") % {"title": plan_title(plan.title)}, "bold yellow")
        self.load()

    def action_close(self) -> None:
        self.dismiss(bool(self.written))
