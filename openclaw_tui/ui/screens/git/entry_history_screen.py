"""Blame by id: every commit that created or changed one entry (followed into the archive), with each version."""

from __future__ import annotations

from pathlib import Path

from rich.cells import set_cell_size
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from ....core.git.entry_history import EntryVersion, entry_history
from ....core.git.gitrepo import GitError, find_repo
from ....core.i18n import N_, _, ngettext
from ...actions import bindings
from ...widgets.conflict_pane import render_side
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from ...widgets.semantic_diff_view import change_details

NEW_WORD = "bold black on green3"


class VersionsLoaded(Message):
    def __init__(self, versions: list[EntryVersion], error: str | None = None) -> None:
        super().__init__()
        self.versions, self.error = versions, error


VERSION_KIND = {"added": N_("added"), "changed": N_("changed"), "archived": N_("archived"), "restored": N_("restored"),
                "removed": N_("removed"), "superseded": N_("superseded")}


def _what(change: object) -> str:
    """A change's field names (kept) and body / formatting (translated)."""
    words = {"body": _("body"), "formatting": _("formatting")}
    what = change.describe()  # type: ignore[attr-defined]
    return ", ".join(words.get(w, w) for w in what.split(", ")) if what else ""


def describe(v: EntryVersion) -> str:
    if v.kind == "changed" and v.change is not None:
        what = _what(v.change)
        return _("changed (%(what)s)") % {"what": what} if what else _("changed")
    if v.kind in ("archived", "restored") and v.change is not None and v.change.describe():
        return _("%(kind)s, changed (%(what)s)") % {"kind": _(VERSION_KIND[v.kind]), "what": _what(v.change)}
    return _(VERSION_KIND.get(v.kind, v.kind))


def version_prompt(v: EntryVersion) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(v.commit.sha[:7], style="bold yellow")  # ``short`` is the full sha here (--no-abbrev)
    t.append(f" {v.commit.date[:16].replace('T', ' ')} ", style="dim")
    t.append(set_cell_size(clean_line(v.commit.author), 14), style="cyan")
    style = {"created": "green", "removed": "red", "archived": "cyan", "restored": "cyan"}.get(v.kind, "yellow")
    t.append(f" {describe(v)}", style=style)
    return t


def version_text(v: EntryVersion) -> Text:
    """What the commit did to the entry, then the entry as it was after it."""
    t = Text()
    t.append(f"{v.commit.sha}\n", style="bold yellow")
    t.append(f"{clean_line(v.commit.author)} <{clean_line(v.commit.email)}>  {v.commit.date.replace('T', ' ')}\n",
             style="cyan")
    t.append(clean_line(v.commit.subject) + "\n\n", style="bold")
    t.append(f"{describe(v)}", style="bold")
    if v.file:
        t.append(f"  in {clean_line(v.file)}", style="dim")
    t.append("\n")
    for line in change_details(v.change):
        t.append_text(line)
        t.append("\n")
    t.append("\n")
    if v.raw is None:
        t.append(_("The entry does not exist after this commit. As it was before:") + "\n", style="italic")
        t.append_text(render_side(v.previous, None, NEW_WORD))
    else:
        t.append(_("The entry after this commit (changed lines marked ▍):") + "\n", style="italic dim")
        t.append_text(render_side(v.raw, v.previous, NEW_WORD))
    return t


class EntryHistoryScreen(Screen[bool]):
    """Every version of one entry, by commit."""

    CSS_PATH = ["git_common.tcss", "history_screen.tcss"]
    BINDINGS = bindings("entry-history")

    def __init__(self, profile: Path, entry_id: str) -> None:
        super().__init__()
        self.profile = Path(profile).absolute()
        self.entry_id = entry_id
        self.versions: list[EntryVersion] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="≡")
        yield Static(Text(_("History of %(id)s in %(profile)s") % {"id": self.entry_id, "profile": self.profile.name}, style="bold"), classes="hint",
                     id="entry-history-title")
        with Horizontal(id="history-main"):
            yield OptionList(id="versions", classes="pane")
            with VerticalScroll(id="version-detail", classes="pane"):
                yield Static(Text(_("Loading…"), style="dim italic"), id="version-body")
        yield KeysFooter()

    @property
    def version_list(self) -> OptionList:
        return self.query_one("#versions", OptionList)

    def on_mount(self) -> None:
        self.version_list.border_title = Text(_("Versions of %(id)s") % {"id": clean_line(self.entry_id)})
        self.query_one("#version-detail").border_title = _("Version")
        self.version_list.focus()
        self._load()

    @work(thread=True, exclusive=True, group="entry-history", description="Reading the entry's history")
    def _load(self) -> None:
        repo = find_repo(self.profile)
        if repo is None:
            self.post_message(VersionsLoaded([], _("this profile is not inside a git repository")))
            return
        try:
            versions = entry_history(repo, self.profile, self.entry_id)
        except GitError as exc:
            self.post_message(VersionsLoaded([], str(exc)))
            return
        self.post_message(VersionsLoaded(versions))

    @on(VersionsLoaded)
    def _on_loaded(self, message: VersionsLoaded) -> None:
        body = self.query_one("#version-body", Static)
        if message.error is not None:
            body.update(Text(_("No history: %(why)s") % {"why": message.error}, style="bold red"))
            return
        self.versions = message.versions
        ol = self.version_list
        ol.add_options(Option(version_prompt(v), id=str(i)) for i, v in enumerate(self.versions))
        n = len(self.versions)
        ol.border_title = Text(ngettext("%(n)s version of %(id)s", "%(n)s versions of %(id)s", n)
                               % {"n": n, "id": clean_line(self.entry_id)})
        if n:
            ol.highlighted = 0
        else:
            body.update(Text(_("No commit created or changed %(id)s (it may not be committed yet).") % {"id": self.entry_id},
                             style="dim italic"))

    @on(OptionList.OptionHighlighted, "#versions")
    def _on_highlight(self, event: OptionList.OptionHighlighted) -> None:
        idx = int(event.option.id or 0)
        if idx < len(self.versions):
            self.query_one("#version-body", Static).update(version_text(self.versions[idx]))
            self.query_one("#version-detail", VerticalScroll).scroll_home(animate=False)

    def action_move(self, step: int) -> None:
        if step > 0:
            self.version_list.action_cursor_down()
        else:
            self.version_list.action_cursor_up()

    def action_close(self) -> None:
        self.dismiss(False)
