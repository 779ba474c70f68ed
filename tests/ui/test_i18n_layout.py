"""The entry table in Chinese (two cells per character): its columns give way in the order they do in English
(Time, Tags, Imp) before the summary goes under 30 cells, a column is never narrower than its header, and the
same columns are gone as in English at the same width or more (the Chinese headers are wider)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from openclaw_tui.core import i18n
from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.widgets.entry_table import COLUMNS, SUMMARY_MIN
from tests.ui_support import TODAY, settle

ORDER = ["timestamp", "tags", "importance"]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return build_demo(tmp_path / "demo")


async def widths(demo: Path, width: int) -> dict[str, int]:
    app = OpenClawApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot, 4)
        return dict(zip((c[0] for c in COLUMNS), app.main_screen.table._layout(), strict=True))  # noqa: SLF001


@pytest.mark.parametrize("width", [80, 90, 100, 110, 120, 140, 160])
async def test_columns_give_way_in_chinese_as_in_english(demo: Path, width: int) -> None:
    english = await widths(demo, width)
    i18n.set_language("zh_CN")
    try:
        chinese = await widths(demo, width)
        headers = {name: i18n._(header) for name, header, *_ in COLUMNS}
    finally:
        i18n.set_language("en")
        i18n.catalog()
    gone = [c for c in ORDER if chinese[c] == 0]
    assert gone == ORDER[: len(gone)], chinese  # in the English order
    assert [c for c in ORDER if english[c] == 0] == ORDER[: len([c for c in ORDER if english[c] == 0])]
    assert set(c for c in ORDER if english[c] == 0) <= set(gone), (english, chinese)  # never fewer gone
    if len(gone) < 3:
        assert chinese["summary"] >= SUMMARY_MIN, chinese
    for name, w in chinese.items():  # a shown column holds its whole header
        if w and name not in ("flag", "summary"):
            assert w >= cell_len(headers[name]), (name, w, headers[name])
