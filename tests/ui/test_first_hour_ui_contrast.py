"""Issue 24 point 9: every text reaches WCAG AA contrast (4.5:1) in the light and the dark theme.

The colours are the ones drawn: the theme's variables, the app's CSS and rich styles, as each widget
renders its lines (line filters included).  Box-drawing and block characters (borders, scrollbars) are
lines, not text."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import DARK_THEME, LIGHT_THEME, OpenClawApp
from openclaw_tui.ui.widgets.contrast import AA, contrast, readable
from tests.ui_support import TODAY, settle


def test_the_ratio_is_wcag_s() -> None:
    assert round(contrast((255, 255, 255), (0, 0, 0)), 1) == 21.0
    assert round(contrast((255, 255, 255), (216, 216, 216)), 2) == 1.43  # the light theme's superseded rows
    assert contrast(readable((255, 255, 255), (216, 216, 216)), (216, 216, 216)) >= AA
    assert readable((0, 0, 0), (255, 255, 255)) == (0, 0, 0)


def low_contrast_texts(app: OpenClawApp) -> list[tuple[str, str, float]]:
    """(widget, text, ratio) of every text drawn under 4.5:1 on the current screen."""
    bad: list[tuple[str, str, float]] = []
    for widget in app.screen.query("*"):
        if not widget.display or not widget.region or not widget.is_on_screen:
            continue
        width, height = widget.size
        if not width or not height:
            continue
        for strip in widget.render_lines(Region(0, 0, width, height)):
            for seg in strip:
                text, style = seg.text, seg.style
                if style is None or style.color is None or style.bgcolor is None:
                    continue
                if not any(not ch.isspace() and not 0x2500 <= ord(ch) < 0x25A0 for ch in text):
                    continue
                fg, bg = style.color.get_truecolor(), style.bgcolor.get_truecolor()
                if style.reverse:
                    fg, bg = bg, fg
                ratio = contrast(tuple(fg), tuple(bg))  # type: ignore[arg-type]
                if ratio < AA - 0.01:
                    bad.append((type(widget).__name__, text.strip()[:30], round(ratio, 2)))
    return bad


@pytest.mark.parametrize("theme", [DARK_THEME, LIGHT_THEME])
async def test_every_text_reads_at_aa_in_both_themes(tmp_path: Path, theme: str) -> None:
    app = OpenClawApp(build_demo(tmp_path / "demo"), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await settle(pilot, 5)
        seen: dict[str, list[tuple[str, str, float]]] = {"main": low_contrast_texts(app)}
        await pilot.press("a")  # the audit list: ERROR and WARNING badges
        await settle(pilot)
        seen["audit"] = low_contrast_texts(app)
        await pilot.press("f1")
        await settle(pilot)
        seen["help"] = low_contrast_texts(app)
        await pilot.press("escape", "m")
        await settle(pilot)
        seen["merge"] = low_contrast_texts(app)
        assert {k: v for k, v in seen.items() if v} == {}
