"""A profile file other than memories.md: numbered, highlighted source with its references
(ids and file links, red when they lead nowhere) followed by Enter or a click, or rendered Markdown."""

from __future__ import annotations

import os
import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from urllib.parse import unquote

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.cache import LRUCache
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import ContentSwitcher, Static

from ...core.check.refs import resolve_link
from ...core.files.profile import is_profile_dir, is_workspace_dir
from ...core.format.fields import ID_RE
from ...core.i18n import _, ngettext, pgettext
from ..actions import bindings
from ..rows import Location
from .messages import Jump
from .safe_text import SafeMarkdown, clean, clean_line

_MD_LINK_RE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FILE_VALUE_RE = re.compile(r"^[^\s]+\.(?:md|markdown|ya?ml|txt|json)$")
HIGHLIGHT_LIMIT = 2_000_000  # characters; bigger files are shown without syntax colours


@dataclass(frozen=True)
class RefSpan:
    """A reference on one line: characters [start, end) of the line."""

    start: int
    end: int
    target: Location | None  # None: it leads nowhere (missing or outside the profile)
    kind: str  # "id", "file"
    ok: bool
    label: str  # the id or the path as written


def _resolve(profile: Path, base: str, target: str) -> tuple[str | None, bool]:
    """(profile-relative path, escapes) of a link target written in file ``base``."""
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or "://" in target or target.startswith("mailto:"):
        return None, False
    if target.startswith("/"):
        return None, True
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
    if joined == ".." or joined.startswith("../"):
        return None, True
    real = os.path.realpath(profile / joined)
    root = os.path.realpath(profile)
    if real != root and not real.startswith(root + os.sep):
        return None, True
    return joined, False


def find_refs(
    text: str, rel: str, profile: Path, known: Callable[[str], bool]
) -> dict[int, list[RefSpan]]:
    """References per 0-based line of a profile file (ids and file links)."""
    spans: dict[int, list[RefSpan]] = {}
    yaml = rel.endswith((".yaml", ".yml"))
    workspace = not is_profile_dir(profile) and is_workspace_dir(profile)
    for n, line in enumerate(text.split("\n")):
        found: list[RefSpan] = []
        scan_from, scan_to = 0, len(line)
        if yaml:
            if line.lstrip().startswith("#"):
                continue
            m = re.search(r"(?:^|\s)#", line)
            if m is not None and not _in_quotes(line, m.start()):
                scan_to = m.start()
            km = re.match(r"\s*(?:-\s+)?(?:[^:#'\"]+|\"[^\"]*\"|'[^']*'):(?:\s|$)", line[:scan_to])
            if km is not None:
                scan_from = km.end()
            value = line[scan_from:scan_to].strip().lstrip("-").strip()
            bare = value.strip("'\"")
            vstart = line.find(bare, scan_from) if bare else -1
            if bare and vstart >= 0 and not ID_RE.fullmatch(bare) and known(bare):
                found.append(RefSpan(vstart, vstart + len(bare), Location(None, None, bare), "id", True, bare))
            elif bare and vstart >= 0 and _FILE_VALUE_RE.match(bare) and "://" not in bare:
                target, _escapes = _resolve(profile, "state.yaml", bare)  # relative to the profile
                ok = target is not None and (profile / target).is_file()
                found.append(RefSpan(vstart, vstart + len(bare), Location(target, None, None) if ok else None,
                                     "file", ok, bare))
        for m in ID_RE.finditer(line, scan_from, scan_to):
            ident = m.group(0)
            ok = known(ident)
            found.append(RefSpan(m.start(), m.end(), Location(None, None, ident), "id", ok, ident))
        if not yaml and "](" in line:
            for m in _MD_LINK_RE.finditer(line):
                raw = m.group(1)
                target, escapes = _resolve(profile, rel, raw)
                if target is None and not escapes:
                    continue  # external URL: not a profile reference
                if target is not None:  # the check's rule (memory/… in a workspace, folders exist)
                    clean = unquote(raw.split("#", 1)[0].split("?", 1)[0])
                    target, _escapes, missing = resolve_link(profile, workspace, rel, clean)
                    ok = target is not None and not missing
                else:
                    ok = False
                jump = ok and target is not None and (profile / target).is_file()
                found.append(RefSpan(m.start(1), m.end(1), Location(target, None, None) if jump else None,
                                     "file", ok, raw))
        if found:
            spans[n] = sorted(found, key=lambda s: s.start)
    return spans


def _in_quotes(line: str, pos: int) -> bool:
    return line.count('"', 0, pos) % 2 == 1 or line.count("'", 0, pos) % 2 == 1


def _wrap_points(text: str, width: int) -> list[int]:
    """Character offsets where a line of ``text`` wraps at ``width`` cells."""
    if width <= 0 or cell_len(text) <= width:
        return []
    points, used = [], 0
    for i, ch in enumerate(text):
        w = cell_len(ch)
        if used + w > width:
            points.append(i)
            used = 0
        used += w
    return points


class SourceView(ScrollView, can_focus=True):
    """Lines of a file, wrapped, with numbers, a cursor line and followable references."""

    BINDINGS = bindings("source")

    COMPONENT_CLASSES = {"source-view--gutter", "source-view--cursor", "source-view--ref", "source-view--ref-dangling"}

    class LineChanged(Message):
        """The cursor is on ``line`` (1-based); ``refs`` are the references on it."""

        def __init__(self, view: SourceView, line: int, refs: list[RefSpan]) -> None:
            super().__init__()
            self.view = view
            self.line = line
            self.refs = refs

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self.refs: dict[int, list[RefSpan]] = {}
        self.cursor = 0  # 0-based source line
        self._visual: list[tuple[int, int, int]] = []  # (line, start char, end char)
        self._first_visual: list[int] = []  # line -> index of its first visual line
        self._wrap_width = -1
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(512)
        self._gutter = 4

    def load(self, text: str, lexer: str | None, refs: dict[int, list[RefSpan]], dark: bool = True) -> None:
        shown = clean(text)
        if shown.endswith("\n"):
            shown = shown[:-1]
        if lexer and len(shown) <= HIGHLIGHT_LIMIT:
            from rich.syntax import Syntax  # Pygments: imported when a file is first shown, not at start-up

            syntax = Syntax("", lexer, theme="ansi_dark" if dark else "ansi_light", background_color="default")
            full = syntax.highlight(shown)
            full.style = ""
            full.end = ""
            self.lines = list(full.split("\n", allow_blank=True))
        else:
            self.lines = [Text(line) for line in shown.split("\n")]
        if not self.lines:
            self.lines = [Text("")]
        self.refs = refs
        self.cursor = 0
        self._gutter = len(str(len(self.lines))) + 3
        self._wrap_width = -1
        self._cache.clear()
        self._rewrap()
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def _rewrap(self) -> None:
        width = max(10, self.size.width - self._gutter)
        if width == self._wrap_width:
            return
        self._wrap_width = width
        visual: list[tuple[int, int, int]] = []
        first: list[int] = []
        for n, line in enumerate(self.lines):
            first.append(len(visual))
            plain = line.plain
            start = 0
            for p in _wrap_points(plain, width):
                visual.append((n, start, p))
                start = p
            visual.append((n, start, len(plain)))
        self._visual, self._first_visual = visual, first
        self.virtual_size = Size(0, len(visual))
        self._cache.clear()

    def on_resize(self, event: events.Resize) -> None:
        self._rewrap()
        self._ensure_visible()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    @property
    def cursor_refs(self) -> list[RefSpan]:
        return self.refs.get(self.cursor, [])

    def go_to_line(self, line: int) -> None:
        """Put the cursor on 1-based ``line`` and bring it to the middle of the view."""
        self._rewrap()
        self.cursor = max(0, min(line - 1, len(self.lines) - 1))
        top = self._first_visual[self.cursor] if self._first_visual else 0
        self.scroll_to(y=max(0, top - self.size.height // 3), animate=False, immediate=True)
        self._moved()

    def move_cursor(self, line: int) -> None:
        self.cursor = max(0, min(line, len(self.lines) - 1))
        self._ensure_visible()
        self._moved()

    def _moved(self) -> None:
        self._cache.clear()
        self.refresh()
        self.post_message(self.LineChanged(self, self.cursor + 1, self.cursor_refs))

    def _ensure_visible(self) -> None:
        if not self._first_visual:
            return
        top_v = self._first_visual[self.cursor]
        end_v = self._first_visual[self.cursor + 1] - 1 if self.cursor + 1 < len(self._first_visual) else len(self._visual) - 1
        y = self.scroll_offset.y
        h = max(1, self.scrollable_content_region.height)
        if top_v < y:
            self.scroll_to(y=top_v, animate=False, immediate=True)
        elif end_v >= y + h:
            self.scroll_to(y=end_v - h + 1, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor - max(1, self.size.height - 1))

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor + max(1, self.size.height - 1))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self.lines) - 1)

    def action_next_ref(self) -> None:
        later = [n for n in self.refs if n > self.cursor]
        if later:
            self.move_cursor(min(later))

    def action_prev_ref(self) -> None:
        earlier = [n for n in self.refs if n < self.cursor]
        if earlier:
            self.move_cursor(max(earlier))

    def action_follow(self) -> None:
        spans = self.cursor_refs
        if spans:
            self._follow(next((s for s in spans if s.target is not None), spans[0]))

    def _follow(self, span: RefSpan) -> None:
        if span.target is not None:
            self.post_message(Jump(span.target))
        else:
            self.notify(_("%(ref)s leads nowhere: it is missing") % {"ref": span.label}, severity="warning", markup=False)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        event.stop()
        vy = self.scroll_offset.y + offset.y
        if not 0 <= vy < len(self._visual):
            return
        n, start, end = self._visual[vy]
        self.move_cursor(n)
        x = offset.x - self._gutter
        if x < 0:
            return
        ends = list(accumulate(cell_len(ch) for ch in self.lines[n].plain[start:end]))  # cells up to each char
        index = start + bisect_right(ends, x)
        if index >= end:
            return
        span = next((s for s in self.refs.get(n, []) if s.start <= index < s.end), None)
        if span is not None:
            self._follow(span)

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.size.width
        vy = self.scroll_offset.y + y
        if vy >= len(self._visual):
            return Strip.blank(width, self.rich_style)
        n, start, end = self._visual[vy]
        is_cursor = n == self.cursor
        key = (vy, is_cursor, self.has_focus, width)
        strip = self._cache.get(key)
        if strip is not None:
            return strip
        base = self.rich_style
        gutter_style = self.get_component_rich_style("source-view--gutter", partial=True)
        text = Text(style=base, no_wrap=True, end="")
        label = f"{n + 1:>{self._gutter - 3}} │ " if start == 0 else " " * (self._gutter - 2) + "│ "
        text.append(label, style=gutter_style)
        piece = self.lines[n][start:end]
        ref_style = self.get_component_rich_style("source-view--ref", partial=True)
        bad_style = self.get_component_rich_style("source-view--ref-dangling", partial=True)
        for span in self.refs.get(n, []):
            s, e = max(span.start, start), min(span.end, end)
            if s < e:
                piece.stylize(ref_style if span.ok else bad_style, s - start, e - start)
        text.append_text(piece)
        text.truncate(width, pad=True)
        if is_cursor:
            text.stylize(self.get_component_rich_style("source-view--cursor", partial=True),
                         self._gutter - 2 if start == 0 else 0)
        strip = Strip(text.render(self.app.console), width)
        self._cache[key] = strip
        return strip


class FileView(Vertical):
    """Header + source or rendered view of one profile file."""

    BINDINGS = bindings("file")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.profile: Path | None = None
        self.rel = ""
        self.text = ""
        self.mode = "source"
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="file-header")
        with ContentSwitcher(initial="file-source", id="file-switcher"):
            yield SourceView(id="file-source")
            with VerticalScroll(id="file-rendered"):
                yield Static(id="file-markdown")

    @property
    def source(self) -> SourceView:
        return self.query_one(SourceView)

    def show_file(
        self,
        profile: Path,
        rel: str,
        text: str,
        known: Callable[[str], bool],
        line: int | None = None,
        error: str | None = None,
        dark: bool = True,
    ) -> None:
        self.profile, self.rel, self.text, self.error = profile, rel, text, error
        lexer = "yaml" if rel.endswith((".yaml", ".yml")) else "markdown" if rel.endswith(".md") else None
        refs = find_refs(text, rel, profile, known) if error is None else {}
        self.source.load(text if error is None else "", lexer, refs, dark)
        rendered_ok = rel.endswith(".md") and error is None
        if rendered_ok:
            self.query_one("#file-markdown", Static).update(SafeMarkdown(text))
        is_doc = rel in ("identity.md",) or rel.startswith("skills/") or rel.isupper()
        self.mode = "rendered" if rendered_ok and is_doc and line is None else "source"
        self._apply_mode()
        if line is not None:
            self.source.go_to_line(line)
            self.call_after_refresh(self.source.go_to_line, line)  # again once laid out
        else:
            self.source.move_cursor(0)

    def _apply_mode(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "file-rendered" if self.mode == "rendered" else "file-source"
        header = Text()
        header.append(f" {clean_line(self.rel)} ", style="bold reverse")
        if self.error:
            header.append("  " + _("cannot be shown: %(why)s") % {"why": clean_line(self.error)}, style="bold red")
        else:
            n = len(self.source.refs)
            bad = sum(1 for spans in self.source.refs.values() for s in spans if not s.ok)
            header.append("  " + (_("rendered") if self.mode == "rendered" else pgettext("file view", "source")), style="italic")
            header.append("  · " + ngettext("%(n)s line with references", "%(n)s lines with references", n) % {"n": n},
                          style="dim")
            if bad:
                header.append("  · " + _("%(n)s dangling") % {"n": bad}, style="bold red")
            header.append("  · " + _("m: rendered/source · Enter: follow · ]/[: next/prev ref · Esc: back"), style="dim")
        self.query_one("#file-header", Static).update(header)

    def action_toggle_mode(self) -> None:
        if not self.rel.endswith(".md") or self.error:
            self.notify(_("Only Markdown files have a rendered view."))
            return
        self.mode = "source" if self.mode == "rendered" else "rendered"
        self._apply_mode()
        self.focus_content()

    def focus_content(self) -> None:
        (self.source if self.mode == "source" else self.query_one("#file-rendered")).focus()
