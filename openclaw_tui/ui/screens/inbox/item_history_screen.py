"""The versions of one MEMORY.md item or USER.md directive (``L`` on the workspace screen), newest first.

The row is followed across commits by ``core.inbox.item_history`` (same key, moved under another
heading, or reworded: the most similar text).  Memory text is shown as ``rich.text.Text``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....core.i18n import N_, _, ngettext
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...workers import call_if_attached

ITEM_KIND = {"added": N_("added"), "changed": N_("changed"), "rewritten": N_("rewritten"), "moved": N_("moved")}


class ItemHistoryScreen(Screen[None]):
    CSS_PATH = "inbox.tcss"
    BINDINGS = bindings("item-history")

    def __init__(self, folder: Path, text: str) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.text = text
        self.versions: list[Any] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("History of “%(item)s”") % {"item": self.text}), id="item-history-title")
        with Horizontal():
            yield OptionList(id="item-versions")
            with VerticalScroll(id="item-version-pane"):
                yield Static(Text(""), id="item-version")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#item-versions").focus()
        self.load()

    @work(thread=True, exclusive=True, group="item-history", description="Following the item through the history")
    def load(self) -> None:
        from ....core.git.gitrepo import GitError
        from ....core.inbox.item_history import NoItem, item_history

        try:
            versions = item_history(self.folder, self.text)
        except (NoItem, GitError, OSError) as exc:
            note = Text(str(exc), style="yellow")
            call_if_attached(self, lambda: self.query_one("#item-version", Static).update(note))
            versions = []
        call_if_attached(self, self.show, versions)

    def show(self, versions: list[Any]) -> None:
        self.versions = versions
        ol = self.query_one("#item-versions", OptionList)
        ol.clear_options()
        for i, v in enumerate(versions):
            t = Text(no_wrap=True, overflow="ellipsis")
            t.append(f"{(v.date or _('now'))[:10]}  ", style="dim")
            kind = _(ITEM_KIND.get(v.kind, v.kind))
            t.append(kind + " " * max(1, 10 - cell_len(kind)))
            t.append(v.subject or _("not committed"), style="italic" if v.sha is None else "")
            ol.add_option(Option(t, id=str(i)))
        ol.border_title = ngettext("%(count)d version", "%(count)d versions", len(versions)) % {"count": len(versions)}
        if versions:
            ol.highlighted = 0
            self._detail(0)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self._detail(int(event.option.id))

    def _detail(self, i: int) -> None:
        if not self.versions:
            return
        v = self.versions[i]
        t = Text()
        t.append(f"{_(ITEM_KIND.get(v.kind, v.kind))} · {v.file} › {' › '.join(v.heading_path)}\n", style="bold")
        t.append((f"{v.author}, {v.date}, {v.sha[:8]} {v.subject}" if v.sha else _("not committed")) + "\n\n", style="dim")
        t.append(v.text + "\n")
        if v.diff:
            t.append("\n" + v.diff + "\n", style="yellow")
        self.query_one("#item-version", Static).update(t)

    def action_close(self) -> None:
        self.dismiss(None)
