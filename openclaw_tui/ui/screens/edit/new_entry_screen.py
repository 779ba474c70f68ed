"""Write a new entry: next free id, timestamp now (with its UTC offset), source ``manual``.

Entries (archived too) like the draft are listed first: Enter on one edits it with the draft as its
body; ``ctrl+s`` again adds the new entry anyway.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from ....core.format.edit import EditError
from ....core.format.fields import IMPORTANCE, field_error, next_id
from ....core.i18n import _, ngettext
from ....core.lifecycle.operations import Similar, plan_add, similar_entries
from ....core.lifecycle.plan import now_iso
from ....core.lifecycle.rawedit import parse_list
from ...actions import bindings
from ...widgets.dialogs import close_or_ask
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from .edit_screen import WriteHost, syntax, tag_chips


class NewEntryHost(WriteHost, Protocol):
    def open_editor_for(self, entry_id: str, body: str | None = None) -> None: ...


class NewEntryScreen(Screen[bool]):
    """A form for one new entry; dismissed with True once written."""

    CSS_PATH = ["edit_dialogs.tcss", "edit_screen.tcss"]

    BINDINGS = bindings("new-entry")

    def __init__(self, host: NewEntryHost) -> None:
        super().__init__()
        self.host = host
        files = host.load_files()
        self.new_id = next_id(files.all_ids())
        self.similar: list[Similar] = []
        self.checked_for: tuple[str, tuple[str, ...]] | None = None  # the draft the duplicates were listed for

    def compose(self) -> ComposeResult:
        stamp = now_iso(self.host.edit_now())
        with Vertical(id="new-entry"):
            yield Static(Text(_("New entry %(id)s · memories.md") % {"id": self.new_id}, style="bold"), classes="screen-title")
            yield Static(Text(_("timestamp %(stamp)s (now) · source manual · status active") % {"stamp": stamp}, style="dim"),
                         classes="screen-note")
            with Horizontal(id="edit-columns"):
                with Vertical(id="edit-meta"):
                    yield Label(_("importance"), classes="field-label")
                    yield Select([(v, v) for v in IMPORTANCE], value="medium", allow_blank=False, id="n-importance",
                                 compact=True)
                    yield Label(_("tags"), classes="field-label")
                    yield Input(placeholder=_("none · comma-separated, e.g. 咖啡, health"), id="n-tags", compact=True)
                    yield Static("", id="tag-chips")
                    yield Label(_("ttl"), classes="field-label")
                    yield Input(placeholder=_("none · date after which it is archived, e.g. 2026-12-31"),
                                id="n-ttl", compact=True)
                    yield Static("", id="err-ttl", classes="field-error")
                    yield Label(_("Possible duplicates"), id="similar-label", classes="field-label")
                    yield OptionList(id="similar")
                with Vertical(id="edit-body-pane"):
                    yield Label(_("Body (Markdown)"), classes="field-label")
                    yield TextArea("", language=syntax("markdown"), id="edit-body", soft_wrap=True)
            yield Static("", id="edit-problems", classes="field-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#similar-label").display = False
        self.query_one("#similar", OptionList).display = False
        self.query_one("#err-ttl").display = False
        self.query_one("#edit-body", TextArea).focus()

    # --- the draft ------------------------------------------------------------------------

    def body(self) -> str:
        return self.query_one("#edit-body", TextArea).text

    def tags(self) -> list[str]:
        return parse_list(self.query_one("#n-tags", Input).value)

    def meta(self) -> tuple[dict[str, Any], list[str]]:
        """(fields of the new entry, problems)."""
        problems: list[str] = []
        meta: dict[str, Any] = {"importance": self.query_one("#n-importance", Select).value}
        tags = self.tags()
        if tags:
            meta["tags"] = tags
        ttl = self.query_one("#n-ttl", Input).value.strip()
        if ttl:
            error = field_error("ttl", ttl)
            if error:
                problems.append(error)
            meta["ttl"] = ttl
        if not self.body().strip():
            problems.append(_("write the memory in the body first"))
        return meta, problems

    def has_unsaved_changes(self) -> bool:
        return bool(self.body().strip() or self.tags() or self.query_one("#n-ttl", Input).value.strip())

    @on(Input.Changed, "#n-tags")
    def _tags_changed(self, event: Input.Changed) -> None:
        self.query_one("#tag-chips", Static).update(tag_chips(self.tags()))

    @on(Input.Changed, "#n-ttl")
    def _ttl_changed(self, event: Input.Changed) -> None:
        value = event.value.strip()
        error = field_error("ttl", value) if value else None
        err = self.query_one("#err-ttl", Static)
        err.update(Text(error, style="bold red") if error else "")
        err.display = bool(error)

    # --- duplicates -----------------------------------------------------------------------

    def find_similar(self) -> list[Similar]:
        self.similar = similar_entries(self.host.load_files(), self.body(), self.tags())
        box = self.query_one("#similar", OptionList)
        box.clear_options()
        for s in self.similar:
            where = "archive" if s.archived else "memories.md"
            prompt = Text.assemble((s.id, "bold"), f"  {s.reason} ({round(s.score * 100)}%, {where})")
            box.add_option(Option(prompt, id=s.id))
        shown = bool(self.similar)
        box.display = shown
        self.query_one("#similar-label").display = shown
        return self.similar

    @on(OptionList.OptionSelected, "#similar")
    def _use_existing(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        ident = event.option.id
        if ident is None:
            return
        body = self.body()
        self.dismiss(False)
        self.host.open_editor_for(ident, body=body)

    # --- actions --------------------------------------------------------------------------

    def action_save(self) -> None:
        meta, problems = self.meta()
        problem_box = self.query_one("#edit-problems", Static)
        if problems:
            problem_box.update(Text(_("Cannot save: ") + "; ".join(problems), style="bold red"))
            return
        problem_box.update("")
        draft = (self.body(), tuple(self.tags()))
        if self.checked_for != draft:
            self.checked_for = draft
            if self.find_similar():
                problem_box.update(Text(
                    ngettext("%(n)s existing entry looks like this one: Enter on one to update it instead, "
                             "or ctrl+s again to add anyway.",
                             "%(n)s existing entries look like this one: Enter on one to update it instead, "
                             "or ctrl+s again to add anyway.", len(self.similar)) % {"n": len(self.similar)},
                    style="bold yellow"))
                self.query_one("#similar", OptionList).focus()
                self.query_one("#similar", OptionList).highlighted = 0
                return
        try:
            plan = plan_add(self.host.load_files(), meta, self.body(), self.host.edit_now())
        except (EditError, OSError) as exc:
            problem_box.update(Text(_("Cannot save: %(why)s") % {"why": clean_line(str(exc))}, style="bold red"))
            return
        new = plan.new_id or self.new_id
        self.host.confirm_write(plan, done=_("Added %(id)s to memories.md.") % {"id": new},
                                on_written=lambda _p: self.dismiss(True))

    def action_close(self) -> None:
        close_or_ask(self, self.has_unsaved_changes(), _("Discard the new entry?"),
                     _("The new entry is not saved."))
