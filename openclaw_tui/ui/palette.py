"""Command palette (ctrl+p): the current screen's registry actions first, then the app's, then the
screen's ``palette_commands() -> [(name, help, callback)]``; no Textual system commands.

A query matches an action's name, else its description; an entry id offers to jump to it.  Names
may hold text from memory files, so they are never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from ..core.i18n import _
from .actions import BY_ID
from .widgets.safe_text import clean_line

Command = tuple[str, str, Callable[[], Any]]
DESCRIPTION_SCORE = 0.5  # a query found in a description only ranks below every match on a name


def _binding_commands(provider: Provider) -> list[Command]:
    """Registry actions active here: the focused widget's and the screen's first, the app's last."""
    screen = provider.screen
    app = provider.app
    here: list[Command] = []
    everywhere: list[Command] = []
    seen: set[str] = set()
    for _key, active in screen.active_bindings.items():
        b = active.binding
        action = BY_ID.get(b.id or "")
        if action is None or not action.palette or not active.enabled or action.id in seen:
            continue
        seen.add(action.id)
        command = (_(action.label or action.description), _("%(what)s  ·  key: %(key)s") % {"what": _(action.description), "key": app.get_key_display(b)},
                   partial(app.run_action, b.action, active.node))
        (everywhere if action.scope == "app" else here).append(command)
    return here + everywhere


def _screen_commands(provider: Provider) -> list[Command]:
    get = getattr(provider.screen, "palette_commands", None)
    return list(get()) if get is not None else []


def _id_commands(provider: Provider, query: str) -> list[Command]:
    screen = provider.screen
    ids = getattr(screen, "known_ids", None)
    jump = getattr(screen, "jump", None)
    if ids is None or jump is None:
        return []
    q = query.strip().lower()
    if len(q) < 2:
        return []
    from .rows import Location

    out: list[Command] = []
    for ident in ids():
        if q in ident.lower():
            out.append((_("Go to %(id)s") % {"id": ident}, _("select this entry"), partial(jump, Location(None, None, ident))))
            if len(out) >= 20:
                break
    return out


def _highlight(name: str, query: str, provider: Provider) -> Content:
    """The name as literal content with matched characters styled (never markup)."""
    shown = clean_line(name)
    content = Content(shown)
    matcher = provider.matcher(query)
    _score, offsets = matcher.fuzzy_search.match(query, shown)
    for offset in offsets:
        if offset < len(shown) and not shown[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class ScreenCommands(Provider):
    """What can be done on the current screen, found by name."""

    async def discover(self) -> Hits:
        for name, help_text, callback in _binding_commands(self) + _screen_commands(self)[:60]:
            yield DiscoveryHit(Content(clean_line(name)), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        commands = _binding_commands(self) + _screen_commands(self)
        words = query.strip().lower()
        for name, help_text, callback in commands:
            score = matcher.match(name)
            if score <= 0 and words and words in help_text.lower():
                # "merge" finds "Resolve conflicts" (its description: "Resolve the merge conflicts ...")
                score = DESCRIPTION_SCORE
            if score > 0:
                yield Hit(score, _highlight(name, query, self), callback, text=name, help=help_text)
        for name, help_text, callback in _id_commands(self, query):
            yield Hit(0.9, Content(clean_line(name)), callback, text=name, help=help_text)
