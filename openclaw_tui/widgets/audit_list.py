"""The consistency check's findings, errors first, each one a jump to where it is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text
from textual.widgets import OptionList

from ..actions import bindings
from ..core.check.findings import SEVERITY_ORDER, SEVERITY_RANK, Finding
from ..core.format.rows import finding_location
from .entry_detail import LocationOption
from .messages import Jump
from .safe_text import clean_line

SEVERITY_STYLE = {"error": "bold white on red", "warning": "bold black on yellow", "info": "bold white on blue"}
SEVERITY_LABEL = {"error": "ERROR", "warning": "WARN ", "info": "INFO "}


def sort_findings(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (SEVERITY_RANK.get(f.severity, 9), f.file, f.line or 0, f.code))


def summary_text(findings: Sequence[Finding]) -> str:
    c = Counter(f.severity for f in findings)
    return ", ".join(f"{c.get(s, 0)} {s if s == 'info' else s + 's'}" for s in SEVERITY_ORDER)


def finding_prompt(f: Finding, prefix: str = "", width_where: int = 0) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f" {SEVERITY_LABEL.get(f.severity, f.severity)} ", style=SEVERITY_STYLE.get(f.severity, "reverse"))
    where = prefix + f.file + (f":{f.line}" if f.line is not None else "")
    t.append(" ")
    t.append(clean_line(where), style="underline")
    t.append(" " * max(0, width_where - len(where)))
    t.append("  ")
    t.append(f.code, style="bold")
    t.append("  ")
    t.append(clean_line(f.message))
    return t


class AuditGroup:
    """The findings of one profile (None: the check has not finished)."""

    def __init__(self, profile: str, name: str, findings: Sequence[Finding] | None, note: str | None = None) -> None:
        self.profile, self.name, self.findings, self.note = profile, name, findings, note


class AuditList(OptionList):
    """Findings of every profile, errors first; Enter jumps to the entry or the file line."""

    BINDINGS = bindings("audit")

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.findings: list[Finding] = []
        self._option_findings: list[tuple[str, Finding] | None] = []  # (profile key, finding) per option
        self.border_title = "Audit"

    def highlighted_finding(self) -> tuple[str, Finding] | None:
        """The highlighted finding and the key (profile path) of its profile, if a finding is highlighted."""
        k = self.highlighted
        if k is None or not 0 <= k < len(self._option_findings):
            return None
        return self._option_findings[k]

    def show_groups(self, groups: Sequence[AuditGroup]) -> None:
        """Replace the list; keeps the highlighted finding when it is still there."""
        current = self.highlighted_option
        keep = current.location if isinstance(current, LocationOption) else None
        several = len(groups) > 1
        items: list[tuple[Finding, str, str]] = []
        options: list[LocationOption] = []
        owners: list[tuple[str, Finding] | None] = []
        pending = [g.name for g in groups if g.findings is None]
        for g in groups:
            if g.note:
                options.append(LocationOption(Text(f" {g.name}: {g.note}" if several else f" {g.note}",
                                                   style="italic yellow"), None))
                owners.append(None)
            for f in g.findings or ():
                items.append((f, g.profile, f"{g.name}/" if several else ""))
        items.sort(key=lambda it: (SEVERITY_RANK.get(it[0].severity, 9), it[2], it[0].file, it[0].line or 0,
                                   it[0].code))
        self.findings = [f for f, _, _ in items]
        width = min(48, max((len(pre + f.file) + len(str(f.line or "")) + 1 for f, _, pre in items), default=0))
        if not items and not pending:
            options.append(LocationOption(Text(" No findings: the memory is consistent.", style="green"), None))
            owners.append(None)
        for f, profile, prefix in items:
            options.append(LocationOption(finding_prompt(f, prefix, width), finding_location(f, profile)))
            owners.append((profile, f))
        if pending:
            options.append(LocationOption(Text(f" checking {', '.join(pending)}…", style="dim italic"), None))
            owners.append(None)
        self._option_findings = owners
        self.set_options(options)
        names = "" if several or not groups else f" · {groups[0].name}"
        self.border_title = f"Audit{names} · {summary_text(self.findings)}"
        index = None
        if keep is not None:
            index = next((i for i, o in enumerate(options) if o.location == keep), None)
        if index is None:
            index = next((i for i, o in enumerate(options) if not o.disabled), None)
        self.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option = event.option
        if isinstance(option, LocationOption) and option.location is not None:
            self.post_message(Jump(option.location))
