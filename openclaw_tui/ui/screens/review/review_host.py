"""What the review screen's pieces (``EntryOperations``, ``GitPanel``) use of the screen that hosts them.

A Protocol, so the pieces depend on this small surface and not on ``MainScreen``
itself (which builds them): a new screen offering the same surface can host them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ....core.check.findings import Finding
from ....core.files.profile import Profile
from ....core.lifecycle.plan import Plan
from ...rows import EntryRow, Location
from ...widgets.entry_table import EntryTable
from ...widgets.status_bar import StatusBar

# The entry actions ``EntryOperations`` carries out (``ops('<name>')``), named here: its module loads late.
ENTRY_ACTIONS = frozenset({
    "edit_entry", "external_edit", "new_entry", "resolve_conflict", "supersede", "archive_entry",
    "restore_entry", "toggle_cold", "gc_preview", "compact", "redact", "undo", "redo", "commit",
    "commit_unavailable",
})


class ReviewHost(Protocol):
    @property
    def app(self) -> Any: ...

    @property
    def table(self) -> EntryTable: ...

    @property
    def status(self) -> StatusBar: ...

    @property
    def is_current(self) -> bool: ...

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def selected_entry(self) -> EntryRow | None: ...

    def selected_profile(self) -> Profile | None: ...

    def findings_for(self, profile_path: Path) -> list[Finding]: ...

    def refresh_after_write(self) -> None: ...

    def reload_profile(self, profile_path: Path) -> None: ...

    def reload_for_plan(self, plan: Plan) -> None: ...

    def jump(self, loc: Location, profile: Path | None = None) -> bool: ...

    def action_reload(self) -> None: ...

    def refresh_bindings(self) -> None: ...

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...

    def post_message(self, message: Any) -> bool: ...

    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Any: ...

    def set_interval(self, interval: float, callback: Any = ..., *, name: str | None = ..., repeat: int = ...,
                     pause: bool = ...) -> Any: ...
