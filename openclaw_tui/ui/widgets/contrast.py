"""Readable text in every theme: a line filter that gives any text at least WCAG AA contrast (4.5:1).

A text's colour moves toward black or white, whichever its background is further from, just enough;
box-drawing and block characters (borders, scrollbars) keep theirs.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

AA = 4.5  # WCAG 2 AA for normal text
_LINES = range(0x2500, 0x25A0)  # box drawing and block elements


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@lru_cache(4096)
def readable(fg: tuple[int, int, int], bg: tuple[int, int, int], minimum: float = AA) -> tuple[int, int, int]:
    """``fg``, or the nearest colour toward black or white that reaches ``minimum`` against ``bg``."""
    if contrast(fg, bg) >= minimum:
        return fg
    target = Color(0, 0, 0) if contrast((0, 0, 0), bg) >= contrast((255, 255, 255), bg) else Color(255, 255, 255)
    start = Color(*fg)
    for step in range(1, 21):  # 5% at a time: the first that reads keeps most of the colour
        moved = start.blend(target, step / 20).rgb
        if contrast(moved, bg) >= minimum:
            return moved
    return target.rgb


def _is_text(text: str) -> bool:
    return any(not ch.isspace() and ord(ch) not in _LINES for ch in text)


class MinimumContrast(LineFilter):
    """Raise every text's contrast with its background to AA (after Textual's own filters)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        out: list[Segment] = []
        for seg in segments:
            style = seg.style
            if style is None or style.color is None or not _is_text(seg.text):
                out.append(seg)
                continue
            fg = style.color.triplet
            bg = style.bgcolor.triplet if style.bgcolor is not None else background.rich_color.triplet
            if fg is None or bg is None:
                out.append(seg)
                continue
            if style.reverse:
                fg, bg = bg, fg
            fixed = readable(tuple(fg), tuple(bg))
            if fixed == tuple(fg):
                out.append(seg)
                continue
            color = RichColor.from_rgb(*fixed)
            new = style + (Style(bgcolor=color) if style.reverse else Style(color=color))
            out.append(Segment(seg.text, new, seg.control))
        return out
