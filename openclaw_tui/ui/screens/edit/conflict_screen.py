"""Resolve a conflict between two entries side by side (the earlier one left), differences marked.

Keep left or right (the other is superseded by it), keep both (the ``conflict`` link goes), or merge
into one new entry that supersedes both; every choice previews its diff.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, Select, Static, TextArea

from ....core.diff.words import meta_diff
from ....core.format.edit import EditError
from ....core.format.entries import KNOWN_FIELDS, Entry
from ....core.format.fields import IMPORTANCE
from ....core.i18n import N_, _, ngettext
from ....core.lifecycle.operations import (
    KEEP_BOTH,
    KEEP_LEFT,
    KEEP_RIGHT,
    MERGE,
    highest_importance,
    merged_tags,
    plan_resolve_conflict,
)
from ....core.lifecycle.rawedit import EntryParts, parse_list
from ...actions import bindings
from ...widgets.dialogs import close_or_ask
from ...widgets.diff_view import meta_texts, word_diff_texts
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from .compact_screen import merged_text
from .edit_screen import WriteHost, syntax

DONE = {
    KEEP_LEFT: N_("Kept %(a)s; %(b)s is superseded by it."),
    KEEP_RIGHT: N_("Kept %(b)s; %(a)s is superseded by it."),
    KEEP_BOTH: N_("Kept both %(a)s and %(b)s; the conflict link is removed."),
    MERGE: N_("Wrote %(new)s, which supersedes %(a)s and %(b)s."),
}


class ConflictScreen(Screen[bool]):
    """Two conflicting entries side by side and the four ways out."""

    CSS_PATH = ["edit_dialogs.tcss", "edit_screen.tcss"]

    BINDINGS = bindings("conflict")

    def __init__(self, host: WriteHost, left: Entry, right: Entry) -> None:
        super().__init__()
        self.host = host
        self.left = left
        self.right = right
        self.merging = False

    def compose(self) -> ComposeResult:
        a, b = self.left, self.right
        pairs = meta_diff(a.meta, b.meta, order=KNOWN_FIELDS, skip=("id",))
        lmeta, rmeta = meta_texts(pairs)
        lbody, rbody = word_diff_texts(EntryParts.of(a).body, EntryParts.of(b).body)
        differing = sum(1 for p in pairs if p.differs)
        with Vertical(id="conflict-screen"):
            yield Static(Text(_("Conflict %(a)s ⇄ %(b)s") % {"a": clean_line(a.id or ""), "b": clean_line(b.id or "")},
                              style="bold"), classes="screen-title")
            yield Static(Text(ngettext("%(n)s field differs (highlighted); words only on one side are marked. "
                                       "Left is the older entry.",
                                       "%(n)s fields differ (highlighted); words only on one side are marked. "
                                       "Left is the older entry.", differing) % {"n": differing}, style="dim"),
                         classes="screen-note")
            with Horizontal(id="conflict-sides"):
                for side, entry, meta, body in (("left", a, lmeta, lbody), ("right", b, rmeta, rbody)):
                    with VerticalScroll(id=f"conflict-{side}", classes="conflict-side"):
                        yield Static(Text.assemble(((_("LEFT") if side == "left" else _("RIGHT")) + "  ", "dim"),
                                                   (clean_line(entry.id or ""), "bold"),
                                                   "  " + _("line %(n)s") % {"n": entry.line} + f" · {entry.status}"),
                                     classes="side-title")
                        yield Static(meta, classes="side-meta")
                        yield Static(body, classes="side-body")
            with Vertical(id="merge-pane"):
                yield Label(_("Merged entry: supersedes both (edit the text)"), classes="field-label")
                with Horizontal(id="merge-meta"):
                    yield Input(", ".join(merged_tags([a, b])), placeholder=_("tags"), id="merge-tags", compact=True)
                    imp = highest_importance([a.meta.get("importance"), b.meta.get("importance")]) or "medium"
                    yield Select([(v, v) for v in IMPORTANCE], value=imp, allow_blank=False, id="merge-importance",
                                 compact=True)
                yield TextArea(merged_text([a, b]), language=syntax("markdown"), id="merge-body", soft_wrap=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self._show_merge(False)

    def _show_merge(self, on: bool) -> None:
        self.merging = on
        self.query_one("#merge-pane").display = on
        self.query_one("#merge-body" if on else "#conflict-left").focus()
        self.refresh_bindings()

    def has_unsaved_changes(self) -> bool:
        return self.query_one("#merge-body", TextArea).text != merged_text([self.left, self.right])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "write_merge":
            return self.merging
        return True

    # --- actions --------------------------------------------------------------------------

    def _plan(self, choice: str, **kw: Any) -> None:
        a, b = self.left.id, self.right.id
        assert a is not None and b is not None
        try:
            plan = plan_resolve_conflict(self.host.load_files(), a, b, choice, now=self.host.edit_now(), **kw)
        except (EditError, OSError) as exc:
            self.notify(_("Cannot resolve: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        done = _(DONE[choice]) % {"a": a, "b": b, "new": plan.new_id or _("a new entry")}
        self.host.confirm_write(plan, done=done, on_written=lambda _p: self.dismiss(True))

    def action_choose(self, choice: str) -> None:
        self._plan(choice)

    def action_merge(self) -> None:
        self._show_merge(True)
        self.notify(_("Write the merged text, then ctrl+s."))

    def action_write_merge(self) -> None:
        body = self.query_one("#merge-body", TextArea).text
        if not body.strip():
            self.notify(_("The merged entry needs a text."), severity="warning")
            return
        tags = parse_list(self.query_one("#merge-tags", Input).value)
        importance = self.query_one("#merge-importance", Select).value
        self._plan(MERGE, merged_body=body, tags=tags, importance=str(importance))

    def action_close(self) -> None:
        if self.merging:
            self._show_merge(False)
            return
        close_or_ask(self, self.has_unsaved_changes(), _("Discard the merged text?"),
                     _("The merged entry you wrote is not saved."), keep=_("Keep it"))
