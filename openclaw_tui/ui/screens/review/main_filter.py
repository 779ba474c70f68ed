"""The review screen's filter and sort: the filter box, problem filters and steps, sorting the table
(``FilterAndSort``, a base of ``MainScreen``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.widgets import Input

from ....core.i18n import _
from ...rows import parse_query, query_problems, toggle_token
from .main_loading import ProfileLoading


class FilterAndSort(ProfileLoading):
    """What the filter box and the sort keys do to the entry table of ``MainScreen``."""

    if TYPE_CHECKING:  # what MainScreen provides besides ProfileLoading's (for the type checker only)
        @property
        def filter_input(self) -> Input: ...
        def _show_center(self, which: str) -> None: ...

    @on(Input.Changed, "#filter")
    def _on_filter(self, event: Input.Changed) -> None:
        self.session.user_typed()
        self.table.apply_query(parse_query(event.value))
        self.status.show(hint=" · ".join(query_problems(event.value)))

    @on(Input.Submitted, "#filter")
    def _on_filter_submit(self, event: Input.Submitted) -> None:
        self.table.focus()

    def action_focus_filter(self) -> None:
        if self._center() != "entries-pane":
            self._show_center("entries")
            self._update_status()
        self.session.user_typed()  # keys follow at once: background work and the key bar's rebuild wait
        self.filter_input.focus()

    def action_toggle_problems(self) -> None:
        self.set_filter(toggle_token(self.filter_input.value, "is:problem"))

    def set_filter(self, text: str) -> None:
        """Replace the filter text (the table follows through Input.Changed)."""
        if self._center() != "entries-pane":
            self._show_center("entries")
        self.filter_input.value = text
        self.table.apply_query(parse_query(text))
        self.status.show(hint=" · ".join(query_problems(text)))

    def add_filter_token(self, token: str) -> None:
        parts = self.filter_input.value.split()
        if token not in parts:
            self.set_filter(" ".join([*parts, token]))

    def sort_by(self, key: str, reverse: bool = False) -> None:
        self.table.sort_by(key, reverse)
        self._update_status()

    def _step_problem(self, step: int) -> None:
        view = self.table.view
        if not view:
            return
        n = len(view)
        i = self.table.cursor
        for k in range(1, n + 1):
            j = (i + step * k) % n
            if view[j].problem:
                self._show_center("entries")
                self.table.move_cursor(j, center=True)
                self.table.focus()
                return
        self.notify(_("No entry with a problem in this view."))

    def action_next_problem(self) -> None:
        self._step_problem(1)

    def action_prev_problem(self) -> None:
        self._step_problem(-1)
