"""Compaction wizard: the ticked entries of a tag become one (``merged_from``); they are archived.

The merged entry starts with their bodies, all their tags and the highest importance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, Select, SelectionList, Static, TextArea
from textual.widgets.selection_list import Selection

from ....core.check.findings import Finding
from ....core.format.edit import EditError
from ....core.format.entries import Entry
from ....core.format.fields import IMPORTANCE
from ....core.i18n import _, ngettext
from ....core.lifecycle.archive import plan_compact
from ....core.lifecycle.operations import highest_importance, merged_tags
from ....core.lifecycle.plan import Files
from ....core.lifecycle.rawedit import EntryParts, parse_list
from ...actions import bindings
from ...widgets.dialogs import close_or_ask
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from .edit_screen import WriteHost, syntax

CANDIDATE_MIN = 6  # "more than 5 active entries sharing a tag"


@dataclass(frozen=True)
class TagGroup:
    tag: str
    ids: tuple[str, ...]

    @property
    def candidate(self) -> bool:
        return len(self.ids) >= CANDIDATE_MIN


def candidate_tags(files: Files, findings: Sequence[Finding] = (), prefer: Sequence[str] = ()) -> list[TagGroup]:
    """Tags shared by two or more active entries of memories.md: candidates first, then ``prefer``, then by size."""
    by_tag: dict[str, list[str]] = {}
    for e in files.memories.mf.well_formed():
        if e.id is None or e.status != "active":
            continue
        for tag in dict.fromkeys(e.tags):
            ids = by_tag.setdefault(tag, [])
            if e.id not in ids:
                ids.append(e.id)
    flagged = {f.message.removeprefix("tag ").split(" is on ")[0] for f in findings if f.code == "compaction-candidate"}
    groups = [TagGroup(t, tuple(ids)) for t, ids in by_tag.items() if len(ids) >= 2]
    groups.sort(key=lambda g: (g.tag not in flagged and not g.candidate, g.tag not in prefer, -len(g.ids), g.tag))
    return groups


def merged_text(entries: Sequence[Entry]) -> str:
    """The entries' bodies one after the other."""
    return "\n".join(b for e in entries if (b := EntryParts.of(e).body.strip("\n")))


class CompactScreen(Screen[bool]):
    """Pick entries of a tag and write the one entry that replaces them."""

    CSS_PATH = ["edit_dialogs.tcss", "edit_screen.tcss"]

    BINDINGS = bindings("compact")

    def __init__(self, host: WriteHost, files: Files, groups: Sequence[TagGroup]) -> None:
        super().__init__()
        self.host = host
        self.files = files
        self.groups = list(groups)
        self.entries = {e.id: e for e in files.memories.mf.well_formed() if e.id is not None}
        self.blocked = {e.id for e in files.archive.mf.entries if e.id is not None}  # same id in the archive
        self.group = self.groups[0]
        self.prefilled = ""  # the text last put in the body, to tell whether the reviewer edited it

    def compose(self) -> ComposeResult:
        options = [(Text((_("%(tag)s (%(n)s active · compaction candidate)") if g.candidate else _("%(tag)s (%(n)s active)"))
                         % {"tag": g.tag, "n": len(g.ids)}), i) for i, g in enumerate(self.groups)]
        with Vertical(id="compact-screen"):
            yield Static(Text(_("Compact entries into one"), style="bold"), classes="screen-title")
            yield Static(Text(_("Tick the entries to merge (space); the merged entry gets merged_from, the originals "
                                "are superseded and archived."), style="dim"), classes="screen-note")
            with Horizontal(id="edit-columns"):
                with Vertical(id="compact-pick"):
                    yield Label(_("Tag"), classes="field-label")
                    yield Select(options, value=0, allow_blank=False, id="compact-tag", compact=True)
                    yield Label(_("Entries"), classes="field-label")
                    yield SelectionList[str](id="compact-list")
                with Vertical(id="edit-body-pane"):
                    yield Label(_("Tags and importance of the merged entry"), classes="field-label")
                    with Horizontal(id="merge-meta"):
                        yield Input("", placeholder=_("tags"), id="compact-tags", compact=True)
                        yield Select([(v, v) for v in IMPORTANCE], value="medium", allow_blank=False,
                                     id="compact-importance", compact=True)
                    yield Label(_("Merged text"), classes="field-label")
                    yield TextArea("", language=syntax("markdown"), id="compact-body", soft_wrap=True)
            yield Static("", id="compact-problems", classes="field-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._show_group(self.group)
        self.query_one("#compact-list", SelectionList).focus()

    def _show_group(self, group: TagGroup) -> None:
        self.group = group
        box: SelectionList[str] = self.query_one("#compact-list", SelectionList)
        box.clear_options()
        for ident in group.ids:
            e = self.entries[ident]
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(ident, style="bold")
            blocked = ident in self.blocked
            if blocked:
                prompt.append("  " + _("duplicate id in the archive: fix that first"), style="bold red")
            else:
                prompt.append(f"  {e.meta.get('importance', '')!s:<6} ", style="dim")
                prompt.append(clean_line(e.first_line())[:70])
            box.add_option(Selection(prompt, ident, not blocked, disabled=blocked))
        self._prefill(force=True)

    def chosen(self) -> list[Entry]:
        picked = set(self.query_one("#compact-list", SelectionList).selected)
        return [self.entries[i] for i in self.group.ids if i in picked]

    def _prefill(self, force: bool = False) -> None:
        entries = self.chosen()
        body = self.query_one("#compact-body", TextArea)
        if force or body.text == self.prefilled:
            self.prefilled = merged_text(entries)
            body.text = self.prefilled
        self.query_one("#compact-tags", Input).value = ", ".join(merged_tags(entries))
        imp = highest_importance([e.meta.get("importance") for e in entries]) or "medium"
        self.query_one("#compact-importance", Select).value = imp

    @on(Select.Changed, "#compact-tag")
    def _tag_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and self.groups[event.value] is not self.group:
            self._show_group(self.groups[event.value])

    @on(SelectionList.SelectedChanged, "#compact-list")
    def _picked(self, event: SelectionList.SelectedChanged[str]) -> None:
        self._prefill()

    def has_unsaved_changes(self) -> bool:
        return self.query_one("#compact-body", TextArea).text != self.prefilled

    def action_write(self) -> None:
        entries = self.chosen()
        problems = self.query_one("#compact-problems", Static)
        if len(entries) < 2:
            problems.update(Text(_("Tick two or more entries."), style="bold red"))
            return
        body = self.query_one("#compact-body", TextArea).text
        if not body.strip():
            problems.update(Text(_("The merged entry needs a text."), style="bold red"))
            return
        ids = [e.id for e in entries if e.id is not None]
        tags = parse_list(self.query_one("#compact-tags", Input).value)
        importance = str(self.query_one("#compact-importance", Select).value)
        try:
            plan = plan_compact(self.host.load_files(), ids, body, tags, importance, self.host.edit_now())
        except (EditError, OSError) as exc:
            problems.update(Text(_("Cannot compact: %(why)s") % {"why": clean_line(str(exc))}, style="bold red"))
            return
        problems.update("")
        self.host.confirm_write(plan, done=ngettext("Compacted %(n)s entry into %(id)s.", "Compacted %(n)s entries into %(id)s.",
                                                    len(ids)) % {"n": len(ids), "id": plan.new_id},
                                on_written=lambda _p: self.dismiss(True))

    def action_close(self) -> None:
        close_or_ask(self, self.has_unsaved_changes(), _("Discard the merged text?"),
                     _("The merged entry is not written."))
