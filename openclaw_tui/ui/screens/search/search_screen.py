"""Search across every file as you type, ranked the way the agent ranks.

``SearchScreen(path)`` stands alone: push it on any app.  The index (the one ``openclaw-tui search`` uses)
is brought up to date in a worker, and again before a query when the last refresh is older than
``REFRESH_SECONDS``.  Enter dismisses the screen with ``(Location, profile folder)``, escape with None.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Input, Static
from textual.worker import get_current_worker

from ....core.config import Config, ConfigError, load_config
from ....core.files.profile import NotMemory
from ....core.i18n import N_, _, catalog, ngettext, recognise
from ....core.search.api import chain_for, ranking_for
from ....core.search.index import Index
from ....core.search.index_files import roots_of
from ....core.search.rank import Hit, Results, rank
from ....core.search.text import QueryError
from ...actions import bindings
from ...rows import Location
from ...widgets.footer import KeysFooter
from ...widgets.result_list import ResultList
from ...widgets.safe_text import clean_line
from ...workers import call_if_attached

DEBOUNCE = 0.15
REFRESH_SECONDS = 2.0
LIMIT = 50
ROW_HEIGHT = 2  # lines a result takes in the list: where, then the snippet (``hit_prompt``)

SearchResult = tuple[Location, Path]


def profile_dir(hit: Hit) -> Path:
    """The profile folder of a hit (its file's path minus the file's relative path)."""
    return hit.path.parents[len(Path(hit.file).parts) - 1]


def hit_prompt(h: Hit, several: bool) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    where = f"{h.profile_rel}/{h.file}" if several and h.profile_rel not in (".", "") else h.file
    span = f"{h.start_line}" if h.start_line == h.end_line else f"{h.start_line}-{h.end_line}"
    t.append(clean_line(where), style="cyan")
    t.append(f":{span} ", style="dim")
    if h.id:
        t.append(clean_line(h.id) + " ", style="bold yellow")
    t.append(localized(SCORES, h.readable()), style="green")
    t.append("\n    ")
    snippet = Text(clean_line(h.snippet))
    for a, b in h.highlights:
        snippet.stylize("bold reverse", a, b)
    t.append_text(snippet)
    return t


# the search's notes and a score's age (core/search/rank.py: NO_PROVIDER, Hit.readable; providers.py: note)
NOTES = (N_("full text only: no embedding provider configured"), N_("full text + vectors (%(provider)s)"),
         N_("full text only (%(why)s)"))
SCORES = (N_("%(score)s (×%(factor)s, %(n)s day old)"), N_("%(score)s (×%(factor)s, %(n)s days old)"),
          N_("%(score)s (×%(factor)s, %(n)s months old)"), N_("%(score)s (×%(factor)s, %(n)s years old)"))


def localized(templates: tuple[str, ...], text: str) -> str:
    """A text of the search core in the language in use (English, or no template matches: as it is)."""
    return text if catalog() is None else recognise(templates, text) or text


def explain_text(h: Hit) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")  # two lines, always: the pane's height is fixed
    t.append(clean_line(h.openclaw_path) + "  " + _("lines %(first)s-%(last)s") % {"first": h.start_line, "last": h.end_line},
             style="bold")
    if h.id:
        t.append(f"  {clean_line(h.id)}", style="yellow")
    t.append("\n" + _("why here: "))
    t.append(_("text %(score)s") % {"score": f"{h.text_score:.3f}"}, style="cyan")
    t.append(f" (bm25 {h.bm25:.2f})  ")
    t.append(_("vector %(score)s") % {"score": "-" if h.vector_score is None else f"{h.vector_score:.3f}"}, style="magenta")
    t.append("  ")
    t.append(_("decay %(factor)s") % {"factor": f"{h.decay:.3f}"}, style="yellow")
    t.append(" (" + (_("from %(date)s") % {"date": h.date} if h.date else _("undated: never decays")) + ")")
    t.append("  = " + _("score %(score)s") % {"score": f"{h.score:.3f}"}, style="bold green")
    return t


class QueryInput(Input):
    """The query box: typing repaints the box, not the layout of the screen (its size is fixed by the
    stylesheet, so nothing in the layout depends on its text)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


class SearchScreen(Screen[SearchResult | None]):
    """Ranked results across every file as you type; see the module docstring."""

    CSS_PATH = "search_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = bindings("search")

    def __init__(self, path: Path | str, *, query: str = "", today: dt.date | None = None,
                 config: Config | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.initial = query
        self.today = today
        self._config = config
        self.index: Index | None = None
        self.hits: list[Hit] = []
        self.results: Results | None = None
        self.error: str | None = None
        self.ready = False
        self.last_query = ""  # the query whose results were last put on the screen
        self.shown_query: str | None = None  # ... and painted
        self.listed_query: str | None = None  # ... and every one of its results in the list (the same frame)
        self.shown_at = self.listed_at = 0.0  # when (``time.perf_counter``)
        self.searches = 0  # queries answered (not counting the empty one)
        self._timer: Timer | None = None
        self._refreshed = 0.0
        self._several = False
        self._explained: tuple[Hit | None, int] | None = None  # what the explanation pane shows
        self._drawing: tuple[int, list[Hit], str] = (-1, [], "")  # the list's generation showing these (hits, query)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="search-main"):
            yield QueryInput(value=self.initial, placeholder=_('words, 中文, "a phrase", tag:x'), id="search-input")
            yield Static(_("opening the index…"), id="search-status", markup=False)
            yield ResultList(row_height=ROW_HEIGHT, id="search-results")
            yield Static("", id="search-explain", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = _("search %(folder)s") % {"folder": self.path}
        self.query_one("#search-input", Input).focus()
        self._open()

    def on_unmount(self) -> None:
        if self.index is not None:
            self.index.close()

    # -- the index --

    @work(thread=True, exclusive=True, group="search-index")
    def _open(self) -> None:
        t0 = time.perf_counter()
        try:
            config = self._config or load_config()
            roots = roots_of(self.path)
            index = Index.for_folder(self.path)
            stats = index.refresh(roots)
            chain_for(config)  # (its providers' module imported here, 3 ms, not by the first query typed)
        except (NotMemory, ConfigError, OSError) as exc:
            call_if_attached(self, self._failed, str(exc))
            return
        self._config = config
        self._refreshed = time.monotonic()
        self._several = len(roots) > 1
        note = _("%(n)s chunks indexed in %(seconds)s s") % {"n": f"{len(index):,}", "seconds": f"{time.perf_counter() - t0:.2f}"}
        if stats.rebuilt:
            note += " " + _("(index %(why)s: built)") % {"why": stats.rebuilt}
        elif stats.reindexed:
            note += " " + ngettext("(%(n)s changed file re-indexed)", "(%(n)s changed files re-indexed)", stats.reindexed) % {
                "n": stats.reindexed}
        call_if_attached(self, self._opened, index, note)

    def _failed(self, message: str) -> None:
        self.error = message
        # the message may name a file or quote memory text: plain text, never markup (one line: no layout)
        self.query_one("#search-status", Static).update(Text(_("cannot search: %(why)s") % {"why": message}), layout=False)

    def _opened(self, index: Index, note: str) -> None:
        self.index = index
        self.ready = True
        self.query_one("#search-status", Static).update(Text(note), layout=False)  # (one line, its size fixed)
        value = self.query_one("#search-input", Input).value
        if value.strip():
            self._run(value)

    def action_reindex(self) -> None:
        if self.index is not None:
            self._refreshed = 0.0
            self._run(self.query_one("#search-input", Input).value)

    # -- typing --

    @on(Input.Changed, "#search-input")
    def _changed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        value = event.value
        self._timer = self.set_timer(DEBOUNCE, lambda: self._run(value))

    @on(Input.Submitted, "#search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.hits:
            self.action_focus_results()

    def _run(self, value: str) -> None:
        if self.index is None:
            return
        if not value.strip():
            self.workers.cancel_group(self, "search-query")  # (a search still running must not fill the list)
            self._show([], None, "", value)
            return
        self._search(value)

    @work(thread=True, exclusive=True, group="search-query")
    def _search(self, value: str) -> None:
        index, config = self.index, self._config
        if index is None or config is None:
            return
        t0 = time.perf_counter()
        try:
            if time.monotonic() - self._refreshed > REFRESH_SECONDS:
                index.refresh(roots_of(self.path))
                self._refreshed = time.monotonic()
            roots = index.roots()
            results = rank(index, value, LIMIT, ranking=ranking_for(roots, config), chain=chain_for(config),
                           today=self.today)
        except QueryError as exc:
            if not get_current_worker().is_cancelled:
                call_if_attached(self, self._show, [], None, str(exc), value)
            return
        except (NotMemory, OSError, sqlite3.Error) as exc:  # (a damaged index is rebuilt by the next refresh)
            call_if_attached(self, self._failed, str(exc))
            return
        if get_current_worker().is_cancelled:  # another key came meanwhile: that query's results are the ones shown
            return
        took = time.perf_counter() - t0
        note = ngettext("%(n)s result in %(ms)s ms; %(note)s", "%(n)s results in %(ms)s ms; %(note)s", len(results.hits)) % {
            "n": len(results.hits), "ms": f"{took * 1000:.0f}", "note": localized(NOTES, results.note)}
        call_if_attached(self, self._show, results.hits, results, note, value)

    def _show(self, hits: list[Hit], results: Results | None, note: str, value: str) -> None:
        self.hits = hits
        self.results = results
        self.last_query = value
        if value.strip():
            self.searches += 1
        with self.app.batch_update():  # one frame: the list, the status and the explanation together
            # every result at once, each made when first drawn (those on screen, in this frame): one repaint
            several = self._several
            results_list = self.query_one("#search-results", ResultList)
            results_list.set_results(len(hits), lambda i: hit_prompt(hits[i], several))
            self._drawing = (results_list.generation, hits, value)
            self.query_one("#search-status", Static).update(Text(note or _("type to search")), layout=False)
            self._explain(0)

    @on(ResultList.Drawn, "#search-results")
    def _drawn(self, event: ResultList.Drawn) -> None:
        generation, hits, value = self._drawing
        if event.generation == generation:
            self._painted(hits, value)

    def _painted(self, hits: list[Hit], value: str) -> None:
        """The query's results are on screen, all of them in the list (unless another query came since)."""
        if self.hits is not hits:
            return
        self.shown_query, self.shown_at = value, time.perf_counter()
        self.listed_query, self.listed_at = value, self.shown_at

    def _explain(self, i: int) -> None:
        hit = self.hits[i] if 0 <= i < len(self.hits) else None
        if self._explained == (hit, i):
            return
        self._explained = (hit, i)
        self.query_one("#search-explain", Static).update("" if hit is None else explain_text(hit), layout=False)

    @on(ResultList.Highlighted, "#search-results")
    def _highlighted(self, event: ResultList.Highlighted) -> None:
        self._explain(event.index)

    @on(ResultList.Selected, "#search-results")
    def _selected(self, event: ResultList.Selected) -> None:
        i = event.index
        if 0 <= i < len(self.hits):
            self.open_hit(self.hits[i])

    def open_hit(self, h: Hit) -> None:
        in_memory = h.file in ("memories.md", "contexts/archive/memories.md") and h.id is not None
        where = Location(h.file, h.match_line, h.id if in_memory else None, str(profile_dir(h)))
        self.dismiss((where, profile_dir(h)))

    def action_focus_results(self) -> None:
        self.query_one("#search-results", ResultList).focus()

    def action_close(self) -> None:
        self.dismiss(None)
