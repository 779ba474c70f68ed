"""The agent view: what the agent would load for a topic, why each part is there, what it costs, what is left out.

``AgentScreen(profile_folder)`` stands alone.  Type the topic; the list shows the layers in prompt
order, each part with its file, lines, characters and tokens, then the entries left out with the
reason; the pane shows the highlighted part as the agent gets it.  Each layer shows its first
``PAGE`` rows and a row "N more".  Enter dismisses with ``(Location, profile folder)``, escape with None.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from ....core.config import ConfigError
from ....core.files.profile import NotMemory
from ....core.i18n import N_, _
from ....core.search.context import agent_context, resolve_root
from ....core.search.context_model import AgentContext, LeftOut, Part
from ...actions import bindings
from ...rows import Location
from ...widgets.bootstrap_bars import reason_text, session_word
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line, literal
from ...workers import call_if_attached

DEBOUNCE = 0.2
PAGE = 100  # rows of a layer (or of the left-out list) shown before a "more" row
LAYER_TITLES = {"fixed": N_("1 · fixed payload"), "memories": N_("2 · memories"), "contexts": N_("3 · context files"),
                "bootstrap": N_("bootstrap files, as injected"), "daily": N_("daily logs at session start"),
                "search": N_("search results")}

AgentResult = tuple[Location, Path]


def part_prompt(p: Part) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    span = f"{p.start_line}" if p.start_line == p.end_line else f"{p.start_line}-{p.end_line}"
    t.append(f"  {clean_line(p.file)}", style="cyan")
    t.append(f":{span} ", style="dim")
    if p.id:
        t.append(clean_line(p.id) + " ", style="bold yellow")
    t.append(_("%(chars)s ch ~%(tokens)s tok") % {"chars": f"{p.chars:,}", "tokens": f"{p.tokens_est:,}"} + " ", style="green")
    if p.truncated:
        t.append(_("TRUNCATED") + " ", style="bold red")
    t.append(clean_line(reason_text(p.reason)), style="dim")
    return t


def left_prompt(x: LeftOut) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append("  ✗ ", style="red")
    t.append(clean_line(x.id or x.file) + " ", style="bold yellow" if x.id else "cyan")
    t.append(clean_line(x.reason), style="red")
    if x.detail:
        t.append(f"  {clean_line(x.detail)}", style="dim")
    return t


def summary(ctx: AgentContext) -> Text:
    t = Text()
    kind = _("profile") if ctx.layout == "A" else _("OpenClaw workspace, %(session)s session") % {
        "session": session_word(ctx.session)}
    t.append(_("layout %(layout)s (%(kind)s) %(profile)s") % {"layout": ctx.layout, "kind": kind,
                                                               "profile": clean_line(ctx.profile)}, style="bold")
    if ctx.tags:
        t.append("  " + _("tags %(tags)s") % {"tags": clean_line(", ".join(ctx.tags))}, style="yellow")
    t.append("\n" + _("total %(chars)s chars, ~%(tokens)s tokens (estimate)") % {"chars": f"{ctx.total_chars:,}",
                                                                                 "tokens": f"{ctx.total_tokens:,}"})
    if ctx.budget_chars:
        share = 100 * ctx.total_chars / ctx.budget_chars
        t.append(" " + _("of a %(budget)s-character budget (%(share)s%%)") % {"budget": f"{ctx.budget_chars:,}",
                                                                             "share": f"{share:.0f}"},
                 style="bold red" if share > 100 else "")
    source = str(ctx.limits.get("source", "defaults"))
    t.append("  " + _("limits from %(source)s") % {"source": clean_line(source) if source != "defaults" else _("defaults")},
             style="dim")
    if ctx.left_out:
        t.append("  " + _("%(n)s left out") % {"n": len(ctx.left_out)}, style="red")
    return t


class AgentScreen(Screen[AgentResult | None]):
    """What the agent sees for a topic; see the module docstring."""

    CSS_PATH = "agent_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = bindings("agent")

    def __init__(self, profile: Path | str, *, query: str = "", tags: tuple[str, ...] = (), session: str = "main",
                 today: dt.date | None = None) -> None:
        super().__init__()
        self.profile_path = Path(profile)
        self.initial = query
        self.tags = tags
        self.session = session
        self.today = today
        self.context: AgentContext | None = None
        self.rows: list[Part | LeftOut] = []
        self.shown: dict[str, int] = {}  # rows shown per layer ("left out" too) when more than PAGE
        self.computed = 0  # contexts shown (tests wait on it)
        self.wanted = (query, session)  # the topic last asked for: an older answer is not shown
        self.error: str | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="agent-main"):
            yield Input(value=self.initial, placeholder=_("the conversation topic (words; tags named in it select entries)"),
                        id="agent-query")
            yield Static("", id="agent-summary", markup=False)
            with Horizontal(id="agent-body"):
                yield OptionList(id="agent-parts")
                with VerticalScroll(id="agent-pane"):
                    yield Static("", id="agent-detail", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = _("what the agent sees: %(folder)s") % {"folder": self.profile_path}
        self.query_one("#agent-query", Input).focus()
        self._compute(self.initial, self.session)

    @on(Input.Changed, "#agent-query")
    def _changed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        value = event.value
        if (value, self.session) == self.wanted:
            return  # (the input's first value at mount: already being computed)
        self._timer = self.set_timer(DEBOUNCE, lambda: self._compute(value, self.session))

    @on(Input.Submitted, "#agent-query")
    def _submitted(self) -> None:
        self.action_focus_list()

    def _compute(self, query: str, session: str) -> None:
        self.wanted = (query, session)
        self._context_worker(query, session)

    @work(thread=True, exclusive=True, group="agent-context")
    def _context_worker(self, query: str, session: str) -> None:
        try:
            root = resolve_root(self.profile_path)  # read through the search index: fast at 100k entries
            ctx = agent_context(root, query, self.tags, session, today=self.today)
        except (NotMemory, ConfigError, OSError, ValueError) as exc:
            call_if_attached(self, self._failed, str(exc))
            return
        if (query, session) == self.wanted:  # else another topic was asked for meanwhile: its worker shows it
            call_if_attached(self, self._show, ctx)

    def _failed(self, message: str) -> None:
        self.error = message
        self.query_one("#agent-summary", Static).update(Text(_("cannot read: %(why)s") % {"why": message}))

    def _show(self, ctx: AgentContext) -> None:
        self.context = ctx
        self.computed += 1
        self.shown = {}
        self.query_one("#agent-summary", Static).update(summary(ctx))
        self._fill(first=True)

    def _fill(self, first: bool = False) -> None:
        """The option list from ``self.context``: each layer's first rows (``self.shown``), a "more" row after."""
        ctx = self.context
        if ctx is None:
            return
        options = self.query_one("#agent-parts", OptionList)
        keep = options.highlighted
        options.clear_options()
        self.rows = []
        items: list[Option] = []

        def some(key: str, rows: list[Part] | list[LeftOut], prompt: Callable[[Any], Text]) -> None:
            n = self.shown.get(key, PAGE)
            for r in rows[:n]:
                items.append(Option(prompt(r), id=str(len(self.rows))))
                self.rows.append(r)
            if len(rows) > n:
                more = (_("… %(n)s more parts in this layer (enter: show %(page)s more)") if key != "left out"
                        else _("… %(n)s more left out (enter: show %(page)s more)"))
                items.append(Option(Text("  " + more % {"n": f"{len(rows) - n:,}", "page": PAGE}, style="italic"),
                                    id=f"more:{key}"))

        for layer, parts in ctx.layers():
            chars = sum(p.chars for p in parts)
            head = Text(_(LAYER_TITLES.get(layer, layer)) + "  (" + _("%(n)s, %(chars)s ch, ~%(tokens)s tok")
                        % {"n": f"{len(parts):,}", "chars": f"{chars:,}", "tokens": f"{sum(p.tokens_est for p in parts):,}"}
                        + ")", style="bold")
            items.append(Option(head, disabled=True))
            some(layer, parts, part_prompt)
        if ctx.left_out:
            items.append(Option(Text(_("left out (%(n)s)") % {"n": f"{len(ctx.left_out):,}"}, style="bold red"), disabled=True))
            some("left out", ctx.left_out, left_prompt)
        for n in ctx.notes:
            items.append(Option(Text(_("note: %(note)s") % {"note": clean_line(n)}, style="dim italic"), disabled=True))
        options.add_options(items)
        if first:
            keep = next((k for k, o in enumerate(options.options) if not o.disabled), None)
        if keep is not None:
            options.highlighted = keep

    @on(OptionList.OptionHighlighted, "#agent-parts")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        row = self._row(event.option)
        pane = self.query_one("#agent-detail", Static)
        t = Text()
        if isinstance(row, Part):
            t.append(_("%(file)s lines %(first)s-%(last)s: %(why)s") % {"file": clean_line(row.file), "first": row.start_line,
                     "last": row.end_line, "why": clean_line(reason_text(row.reason))} + "\n\n", style="bold")
            t.append_text(literal(row.text))
            pane.update(t)
        elif isinstance(row, LeftOut):
            t.append(_("%(what)s: left out (%(why)s)") % {"what": clean_line(row.id or row.file), "why": clean_line(row.reason)}
                     + "\n", style="bold red")
            if row.detail:
                t.append(clean_line(row.detail) + "\n")
            t.append("\n" + _("%(place)s — enter opens it to fix it") % {"place": f"{clean_line(row.file)}:{row.line}"},
                     style="dim")
            pane.update(t)

    def _row(self, option: Option) -> Part | LeftOut | None:
        if option.id is None or option.id.startswith("more:"):
            return None
        i = int(option.id)
        return self.rows[i] if 0 <= i < len(self.rows) else None

    @on(OptionList.OptionSelected, "#agent-parts")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None and event.option.id.startswith("more:"):
            key = event.option.id[len("more:"):]
            self.shown[key] = self.shown.get(key, PAGE) + PAGE
            self._fill()  # the highlight stays on that row: the first of the rows just shown
            return
        row = self._row(event.option)
        if row is None:
            return
        line = row.start_line if isinstance(row, Part) else row.line
        self.dismiss((Location(row.file, line, row.id, str(self.profile_path)), self.profile_path))

    def action_toggle_session(self) -> None:
        self.session = "shared" if self.session == "main" else "main"
        self._compute(self.query_one("#agent-query", Input).value, self.session)

    def action_focus_list(self) -> None:
        self.query_one("#agent-parts", OptionList).focus()

    def action_close(self) -> None:
        self.dismiss(None)
