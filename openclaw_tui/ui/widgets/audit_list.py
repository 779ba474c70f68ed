"""The consistency check's findings, errors first, each one a jump to where it is."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from rich.text import Text
from textual.widgets import OptionList

from ...core.check.codes import SEVERITY_RANK
from ...core.check.findings import Finding
from ...core.check.messages import localize
from ...core.i18n import N_, _
from ..actions import bindings
from ..rows import Location, finding_location
from .entry_detail import LocationOption
from .messages import Jump
from .safe_text import clean_line

SEVERITY_STYLE = {"error": "bold white on red", "warning": "bold black on yellow", "info": "bold white on blue"}
FIRST_OPTIONS = 50  # options made at once by show_groups (a few screenfuls)
SLICE_BUDGET = 0.012  # seconds of adding further options per step (keys and paints go in between)
SLICE_PAUSE = 0.005
SLICE_STEP = 16
SEVERITY_LABEL = {"error": N_("ERROR"), "warning": N_("WARN "), "info": N_("INFO ")}


def summary_text(findings: Sequence[Finding]) -> str:
    c = Counter(f.severity for f in findings)
    return _("%(errors)d errors, %(warnings)d warnings, %(info)d info") % {
        "errors": c.get("error", 0), "warnings": c.get("warning", 0), "info": c.get("info", 0)}


def _options(specs: Sequence[LocationOption | tuple[Finding, str, int]],
             locations: Sequence[Location | None]) -> list[LocationOption]:
    return [s if isinstance(s, LocationOption) else LocationOption(finding_prompt(s[0], s[1], s[2]), loc)
            for s, loc in zip(specs, locations, strict=True)]


def finding_prompt(f: Finding, prefix: str = "", width_where: int = 0) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f" {_(SEVERITY_LABEL[f.severity]) if f.severity in SEVERITY_LABEL else f.severity} ", style=SEVERITY_STYLE.get(f.severity, "reverse"))
    where = prefix + f.file + (f":{f.line}" if f.line is not None else "")
    t.append(" ")
    t.append(clean_line(where), style="underline")
    t.append(" " * max(0, width_where - len(where)))
    t.append("  ")
    t.append(f.code, style="bold")
    t.append("  ")
    t.append(clean_line(localize(f.code, f.message)))
    return t


@dataclass
class AuditGroup:
    """The findings of one profile (None: the check has not finished)."""

    profile: str
    name: str
    findings: Sequence[Finding] | None
    note: str | None = None


class AuditList(OptionList):
    """Findings of every profile, errors first; Enter jumps to the entry or the file line."""

    BINDINGS = bindings("audit")

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.findings: list[Finding] = []
        self._option_findings: list[tuple[str, Finding] | None] = []  # (profile key, finding) per option
        self.border_title = _("Audit")
        self._generation = 0  # of the list being shown (a newer show_groups drops the slices still due)
        self._rest: tuple[list[LocationOption | tuple[Finding, str, int]], list[Location | None]] = ([], [])
        self._chosen: Location | None = None  # the finding a user highlighted (kept across show_groups)

    def highlighted_finding(self) -> tuple[str, Finding] | None:
        """The highlighted finding and the key (profile path) of its profile, if a finding is highlighted."""
        k = self.highlighted
        if k is None or not 0 <= k < len(self._option_findings):
            return None
        return self._option_findings[k]

    def show_groups(self, groups: Sequence[AuditGroup]) -> None:
        """Replace the list, keeping the finding a user highlighted (else the first); the options after the
        first :data:`FIRST_OPTIONS` (and the kept one) are added in slices between keys and paints."""
        current = self.highlighted_option
        keep = current.location if self.has_focus and isinstance(current, LocationOption) else self._chosen
        several = len(groups) > 1
        items: list[tuple[Finding, str, str]] = []
        specs: list[LocationOption | tuple[Finding, str, int]] = []  # an option, or (finding, prefix, width)
        locations: list[Location | None] = []
        owners: list[tuple[str, Finding] | None] = []
        pending = [g.name for g in groups if g.findings is None]

        def line(text: str, style: str) -> None:  # a line that is not a finding
            specs.append(LocationOption(Text(text, style=style), None))
            locations.append(None)
            owners.append(None)

        for g in groups:
            if g.note:
                line(f" {g.name}: {g.note}" if several else f" {g.note}", "italic yellow")
            for f in g.findings or ():
                items.append((f, g.profile, f"{g.name}/" if several else ""))
        items.sort(key=lambda it: (SEVERITY_RANK.get(it[0].severity, 9), it[2], it[0].file, it[0].line or 0,
                                   it[0].code))
        self.findings = [f for f, _, _ in items]
        width = min(48, max((len(pre + f.file) + len(str(f.line or "")) + 1 for f, _, pre in items), default=0))
        if not items and not pending:
            line(" " + _("No findings: the memory is consistent."), "green")
        for f, profile, prefix in items:
            specs.append((f, prefix, width))
            locations.append(finding_location(f, profile))
            owners.append((profile, f))
        if pending:
            line(" " + _("checking %(what)s…") % {"what": ", ".join(pending)}, "dim italic")
        self._option_findings = owners
        index = None
        if keep is not None:
            index = next((i for i, loc in enumerate(locations) if loc == keep), None)
        if index is None:
            index = next((i for i, s in enumerate(specs) if not isinstance(s, LocationOption) or not s.disabled),
                         None)
        first = max(FIRST_OPTIONS, (index or 0) + 1)
        self._generation += 1
        self._rest = (specs[first:], locations[first:])
        self.set_options(_options(specs[:first], locations[:first]))
        names = "" if several or not groups else f" · {groups[0].name}"
        self.border_title = _("Audit") + f"{names} · {summary_text(self.findings)}"
        self.highlighted = index
        if self._rest[0]:
            self.set_timer(SLICE_PAUSE, partial(self._add_slice, self._generation))

    @property
    def complete(self) -> bool:
        """Every option of the last :meth:`show_groups` is in the list."""
        return not self._rest[0]

    def _add_slice(self, generation: int) -> None:
        """Add the next options of the list being shown, for about :data:`SLICE_BUDGET` seconds."""
        specs, locations = self._rest
        if generation != self._generation or not specs:
            return
        end = time.perf_counter() + SLICE_BUDGET
        n = 0
        while n < len(specs) and time.perf_counter() < end:
            self.add_options(_options(specs[n : n + SLICE_STEP], locations[n : n + SLICE_STEP]))
            n += SLICE_STEP
        self._rest = (specs[n:], locations[n:])
        if self._rest[0]:
            self.set_timer(SLICE_PAUSE, partial(self._add_slice, generation))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # only a highlight made with the list focused is the user's: the first row otherwise, whatever
        # order the profiles' checks finish in
        if self.has_focus and isinstance(event.option, LocationOption):
            self._chosen = event.option.location

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option = event.option
        if isinstance(option, LocationOption) and option.location is not None:
            self.post_message(Jump(option.location))
