"""``--help`` wraps by terminal cells: a CJK character is two cells wide (openclaw_tui/cli/help_format.py)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import pytest
from rich.cells import cell_len

from openclaw_tui import cli
from openclaw_tui.cli.help_format import wrap_cells
from openclaw_tui.core import i18n
from openclaw_tui.core.check.codes import CODES

# words of --help that are names: tools, formats, field values, shells, agent and session kinds, sides
NAMES = set("""
    openclaw openclaw-tui json sarif text error warning info never active superseded archived cold high medium
    bash fish main shared subagent cron ours theirs both git github utf-8 yaml toml mcp stdio http https
    token tokens shell ctrl localhost markdown agents doctor memory_search memory_get language manual merge post-commit
""".split()) | set(CODES)


def pages(columns: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The --help page of the command line and of every sub-command, in Chinese, at ``columns``."""
    monkeypatch.setenv("COLUMNS", str(columns))
    i18n.set_language("zh_CN")
    try:
        parser = cli.build_parser()[0]
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        out = {"openclaw-tui": parser.format_help()}
        out.update({name: p.format_help() for name, p in sub.choices.items()})
    finally:
        i18n.set_language("en")
        i18n.catalog()  # (argparse's own words back)
    return out


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_no_line_of_any_chinese_help_is_wider_than_the_terminal(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    helps = pages(columns, monkeypatch)
    assert len(helps) > 25 and sum("选项" in page for page in helps.values()) == len(helps)
    too_wide = [(name, line) for name, page in helps.items() for line in page.splitlines()
                if cell_len(line) > columns]
    assert too_wide == []


def test_the_usage_lines_line_up_after_the_chinese_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = pages(100, monkeypatch)["check"].splitlines()
    assert lines[0].startswith("用法：openclaw-tui check [-h]")
    start = cell_len(lines[0][: lines[0].index("[-h]")])
    assert lines[1].index("[") == start  # the continuation starts under the first option, in cells


def test_wrapping_keeps_words_whole_and_punctuation_on_its_line() -> None:
    text = "同时读取记忆文件的 git 历史：早先提交中有、而文件现已不含的每个凭据都报告为 secret-in-history"
    lines = wrap_cells(text, 20)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(cell_len(line) <= 20 for line in lines)
    assert "secret-in-history" in lines[-1] and not any(line[0] in "，。、：；）" for line in lines)
    assert wrap_cells("the language of the app", 10) == ["the", "language", "of the app"]


def test_a_real_process_wraps_its_chinese_help_to_columns() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(LANG="zh_CN.UTF-8", COLUMNS="50", OPENCLAW_TUI_CONFIG=os.devnull + ".none")
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "repair", "--help"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0 and "选项" in out.stdout
    assert max(cell_len(line) for line in out.stdout.splitlines()) <= 50


def test_every_option_help_is_chinese() -> None:
    """Each option's and argument's help and each description in Chinese: no English word but names
    (options, metavars, keys, file names, codes, values to type, the command line quoted in backticks)."""
    i18n.set_language("zh_CN")
    try:
        parser = cli.build_parser()[0]
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = [(name, a.help) for name, p in [("openclaw-tui", parser), *sub.choices.items()]
                 for a in p._actions if a.help and a.help != argparse.SUPPRESS]
        helps += [(name, p.description) for name, p in sub.choices.items() if p.description]
    finally:
        i18n.set_language("en")
        i18n.catalog()
    english = []
    for name, text in helps:
        # names and values the reader types or reads as they are
        text = re.sub(r"(?m)^    .*$", " ", text)  # an indented line: an example command
        bare = re.sub(r"``.*?``|`[^`]*`|\{[^}]*\}|\[[^\]]*\]|\S*[/._=:%]\S*|(?<![\w-])--?\w[\w-]*|\b[A-Z][A-Z0-9_]+\b", " ", text)
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", bare) if w.lower() not in NAMES]
        if words:
            english.append((name, words, text))
    assert english == [], "\n".join(f"{n}: {w}  {t}" for n, w, t in english)
