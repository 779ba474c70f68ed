"""The demo's main screen in Chinese at 80x24 and 160x48: Chinese labels, nothing over the edge, the same
columns give way as in English, whole labels in the footer.  Each screen is drawn by tests/i18n_screen.py
in a process of its own (the key labels are taken in the language of the process when screens load)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from openclaw_tui.core import i18n
from openclaw_tui.ui.actions import ACTIONS

ROOT = Path(__file__).resolve().parents[2]
HEADERS = {"en": ("ID", "Status", "Imp", "Problems", "Tags", "Time", "Summary"),
           "zh_CN": ("ID", "状态", "重要性", "问题", "标签", "时间", "摘要")}
SIZES = [(80, 24), (160, 48)]


@functools.cache
def screen(lang: str, width: int, height: int, *keys: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "tests.i18n_screen", lang, str(width), str(height), *keys], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def columns(text: str, lang: str) -> list[int]:
    """Which columns of the entry table the header line shows (indexes into HEADERS)."""
    line = next(ln for ln in text.splitlines() if re.search(r"│\s+ID\s", ln))
    return [i for i, h in enumerate(HEADERS[lang]) if re.search(rf"(?<!\S){re.escape(h)}(?!\S)", line)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_main_screen_in_chinese(width: int, height: int) -> None:
    text = screen("zh_CN", width, height)
    lines = text.splitlines()
    assert len(lines) == height
    assert all(cell_len(line) <= width for line in lines), [ln for ln in lines if cell_len(ln) > width]
    assert "\ufffd" not in text
    for label in ("条目", "筛选", "审计", "引用", "摘要", "状态", "个错误"):
        assert label in text, label
    if width >= 160:  # (at 80 the status line's counts give way to the conflicted files, as in English)
        assert "活跃" in text
    for english in ("Entries", "Filter", "Audit", "References", "Summary", "Status", "errors", "Help"):
        assert re.search(rf"\b{english}\b", text) is None, english
    assert columns(text, "zh_CN") == columns(screen("en", width, height), "en")  # the same columns give way


def labels_palette() -> str:
    i18n.set_language("zh_CN")
    try:
        return i18n._("palette")
    finally:
        i18n.set_language("en")
        i18n.catalog()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_footer_shows_whole_labels(width: int, height: int) -> None:
    footer = screen("zh_CN", width, height).splitlines()[-1]
    i18n.set_language("zh_CN")
    try:
        labels = {i18n._(a.label) for a in ACTIONS if a.label}
    finally:
        i18n.set_language("en")
        i18n.catalog()
    chunks = [chunk for chunk in re.split(r"\s{2,}|▏", footer.strip()) if chunk]
    assert chunks[-1] == "^p " + labels_palette()
    keys = chunks[:-1]
    assert len(keys) >= 5
    for chunk in keys[:-1]:
        assert chunk.split(" ", 1)[1] in labels, chunk
    # the last key before the palette may be clipped by the footer's edge (as in English), never mid-character
    last = keys[-1].split(" ", 1)
    assert len(last) == 1 or any(label.startswith(last[1]) for label in labels), keys[-1]


# the other screens of the demo's stories: help (?), edit (e), merge (m); what each must say in Chinese
OTHERS = {
    "question_mark": (("帮助", "图例", "未解决", "此处可用的按键"), ("Legend", "Keys that work here")),
    "e": (("编辑 mem-0001", "正文（Markdown）", "保存"), ("Body (Markdown)", "Save")),
    "m": (("正在合并", "冲突", "我方", "对方", "结果：未决定"), ("Merging", "Result:", "undecided")),
}


@pytest.mark.parametrize("key", sorted(OTHERS))
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_other_screens_of_the_stories_in_chinese(key: str, width: int, height: int) -> None:
    text = screen("zh_CN", width, height, key)
    assert all(cell_len(line) <= width for line in text.splitlines())
    chinese, english = OTHERS[key]
    for label in chinese:
        assert label in text, (key, label)
    for label in english:
        assert label not in text, (key, label)
