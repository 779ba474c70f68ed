"""Showing memory text harmlessly (it may hold markup, ANSI escapes, bidi overrides, bytes not UTF-8):
through :func:`clean` into ``rich.text.Text``, Markdown through :class:`SafeMarkdown`."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from ...core.i18n import _

_TABLE: dict[int, str] = {
    **{code: chr(0x2400 + code) for code in range(0x20) if code not in (0x09, 0x0A)},  # control pictures ␀ … ␟
    0x7F: "\u2421",  # ␡
    **{code: f"\\x{code:02x}" for code in range(0x80, 0xA0)},  # C1 controls (0x9b is a one-byte CSI)
    # bidi controls that could reorder what is shown, and the line and paragraph separators
    **{code: f"<U+{code:04X}>"
       for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0x2028, 0x2029)},
    **{code: f"\\x{code - 0xDC00:02x}" for code in range(0xDC80, 0xDD00)},  # bytes that were not UTF-8
}
_LINE_TABLE = {**_TABLE, 0x09: " ", 0x0A: "\u2424"}  # tabs as spaces, ␤ in single-line cells


# A line longer than this is shown cut, with its length: wrapping megabytes of one line would
# hold the UI thread for minutes (an agent can write a 5 MB line; the file itself is untouched).
LONG_LINE = 2000


def cut_long_lines(text: str, limit: int = LONG_LINE) -> str:
    """``text`` with every line over ``limit`` characters cut, saying how long it was."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    if all(len(line) <= limit for line in lines):
        return text
    return "\n".join(
        line if len(line) <= limit else f"{line[:limit]} … " + _("[line cut: %(n)s characters]") % {"n": f"{len(line):,}"}
        for line in lines
    )


def clean(text: str) -> str:
    """``text`` with control characters made visible (``\\n`` and ``\\t`` kept, ``\\r\\n`` as ``\\n``); long lines cut."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return cut_long_lines(text).translate(_TABLE)


def clean_line(text: str) -> str:
    """One line for a table cell: controls visible, tabs as spaces, no newlines, cut when long."""
    if text.endswith("\r"):
        text = text[:-1]
    if len(text) > LONG_LINE:
        text = f"{text[:LONG_LINE]} … " + _("[%(n)s characters]") % {"n": f"{len(text):,}"}
    return text.translate(_LINE_TABLE)


def literal(text: str, style: str | Style = "") -> Text:
    """A Text showing ``text`` exactly (after :func:`clean`); never parsed as markup."""
    return Text(clean(text), style=style)


class SafeMarkdown:
    """A memory body rendered as Markdown (markup in it stays literal): links shown as text, no segment
    carries a link or an action."""

    def __init__(self, markdown: str, code_theme: str = "ansi_dark") -> None:
        from rich.markdown import Markdown  # markdown-it and all: not imported before it is needed

        self.source = clean(markdown)
        self.renderable = Markdown(self.source, hyperlinks=False, code_theme=code_theme, inline_code_lexer=None)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            text, style, control = segment
            if control:
                continue  # a renderable never gets to move the cursor or set the title
            yield Segment(text, None if style is None else style.clear_meta_and_links())
