"""core/phrases.py: the phrases the core builds, shown in Chinese; English and unknown text as they are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from openclaw_tui.core import i18n, phrases
from openclaw_tui.core.inbox.trends import label


@pytest.fixture
def chinese() -> Iterator[None]:
    i18n.set_language("zh_CN")
    try:
        yield
    finally:
        i18n.set_language("en")
        i18n.catalog()


def test_english_is_left_as_it_is() -> None:
    i18n.set_language("en")
    text = "one digit different from mem-0098; shares tag 工作"
    assert phrases.localize(text) == text
    assert label("total") == "total"


def test_parts_and_values_are_translated(chinese: None) -> None:
    assert phrases.localize("one digit different from mem-0098; shares tag 工作") == "与 mem-0098 相比差一位数字；共有 标签 工作"
    assert phrases.localize("mem-0004: added to the archive") == "mem-0004：新增到归档"
    assert (phrases.localize("truncated to 20,000 characters (bootstrapMaxChars); 24,139 on disk")
            == "截断到 20,000 个字符（bootstrapMaxChars）；磁盘上为 24,139")
    assert phrases.localize("not hit since 2025-06-05 (timestamp), 90+ days") == "自 2025-06-05（timestamp）起未被命中，已超过 90 天"


def test_text_no_template_made_is_left_as_it_is(chinese: None) -> None:
    # a general template ("%(id)s is %(state)s") takes one word for an id: prose is not mangled
    prose = "the user is happy with the new plan"
    assert phrases.localize(prose) == prose
    assert phrases.localize("mem-0007 is cold") == "mem-0007 的状态是冷"


def test_chart_labels(chinese: None) -> None:
    assert [label(n) for n in ("active", "total", "per file", "MEMORY.md")] == ["活跃", "合计", "单个文件", "MEMORY.md"]
