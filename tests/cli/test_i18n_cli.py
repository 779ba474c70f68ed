"""The command line in Chinese: text is translated, machine output (JSON, SARIF, codes) is the same bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui import cli
from openclaw_tui.core import i18n

SAMPLES = Path(__file__).resolve().parents[2] / "sample_profiles"
ATLAS = SAMPLES / "profiles" / "atlas"
PROFILES = SAMPLES / "profiles"


def run(*args: str, lang: str = "C.UTF-8", config: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    environ.update(LANG=lang, OPENCLAW_TUI_CONFIG=str(config or Path(os.devnull).with_name("no-such-config.toml")),
                   COLUMNS="100", **env)
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          timeout=120, env=environ)


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_check_text_is_chinese_and_json_is_the_same_bytes() -> None:
    zh = run("check", str(ATLAS), "--format", "text", lang="zh_CN.UTF-8")
    en = run("check", str(ATLAS), "--format", "text", lang="en_US.UTF-8")
    assert zh.returncode == en.returncode == 0
    assert zh.stdout == "0 个错误，0 个警告，0 条提示\n"
    assert en.stdout == "0 errors, 0 warnings, 0 info\n"
    for fmt in ("json", "sarif"):
        outs = {lang: run("check", str(ATLAS), "--format", fmt, lang=lang).stdout
                for lang in ("zh_CN.UTF-8", "en_US.UTF-8", "C")}
        assert len(set(outs.values())) == 1, fmt
        json.loads(outs["C"])


def test_findings_in_chinese_keep_their_codes_and_places() -> None:
    zh = run("check", str(PROFILES), "--format", "text", lang="zh_CN.UTF-8")
    en = run("check", str(PROFILES), "--format", "text", lang="en_US.UTF-8")
    assert zh.returncode == en.returncode == 1
    zh_lines, en_lines = zh.stdout.splitlines(), en.stdout.splitlines()
    assert len(zh_lines) == len(en_lines) > 10
    for z, e in zip(zh_lines[:-1], en_lines[:-1], strict=True):
        where, severity, code = e.split(" ", 3)[:3]
        z_where, z_severity, z_code = z.split(" ", 3)[:3]
        assert (z_where, z_code) == (where, code)  # the file:line and the finding code are never translated
        assert z_severity == {"error": "错误", "warning": "警告", "info": "提示"}[severity]
        assert has_chinese(z.split(" ", 3)[3]), z  # every message of the samples has its translation
    zh_json = run("check", str(PROFILES), "--format", "json", lang="zh_CN.UTF-8").stdout
    assert zh_json == run("check", str(PROFILES), "--format", "json", lang="C").stdout
    assert not has_chinese(json.dumps([f["message"] for f in json.loads(zh_json)["findings"]])
                           .replace("\\u", "").encode().decode("ascii", "ignore"))


def test_lang_option_beats_the_config_file_which_beats_the_locale(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "zh_CN"\n', encoding="utf-8")
    out = run("config", config=config, lang="en_US.UTF-8")
    assert out.returncode == 0 and "# 语言：zh_CN（依据：[ui] language = 'zh_CN'" in out.stdout
    assert '[ui]\nlanguage = "zh_CN"' in out.stdout
    out = run("--lang", "en", "config", config=config, lang="zh_CN.UTF-8")
    assert "# language: en (from --lang en)" in out.stdout
    out = run("config", "--lang=zh_CN", lang="en_US.UTF-8")
    assert "# 语言：zh_CN（依据：--lang zh_CN）" in out.stdout
    out = run("config", lang="zh_CN.UTF-8")
    assert "# 语言：zh_CN（依据：$LANG=zh_CN.UTF-8）" in out.stdout
    out = run("config", lang="C")
    assert "# language: en (from $LANG=C)" in out.stdout


def test_an_unknown_lang_is_a_usage_error() -> None:
    out = run("--lang", "fr", "check", str(ATLAS))
    assert out.returncode == 2 and out.stdout == "" and "fr" in out.stderr


def test_help_and_argparse_errors_in_chinese() -> None:
    out = run("--help", lang="zh_CN.UTF-8")
    assert out.stdout.startswith("用法：openclaw-tui") and "检查档案、档案根目录或工作区的一致性" in out.stdout
    out = run("check", "--help", lang="zh_CN.UTF-8")
    assert "选项:" in out.stdout and "使退出码为 1 的最低严重级别" in out.stdout
    out = run("check", lang="zh_CN.UTF-8")
    assert out.returncode == 2 and "缺少以下必需参数：PATH" in out.stderr


def test_the_chinese_help_is_argparse_help_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # (one line per sub-command: its help is found whole)
    english = cli.build_parser(lazy=True)[0].format_help()
    helps = [help_text for listed in cli.LISTED.values() for _name, help_text in listed]
    helps += [cli.UI_TITLE, cli.LANG_HELP]
    i18n.set_language("zh_CN")
    try:
        chinese = cli.build_parser(lazy=True)[0].format_help()
        translated = [i18n._(help_text) for help_text in helps]
    finally:
        i18n.set_language("en")
        i18n.catalog()  # (argparse's own words back)
    assert english.startswith("usage:") and chinese.startswith("用法：")
    for help_text, in_chinese in zip(helps, translated, strict=True):
        assert help_text in english and help_text not in chinese, help_text
        assert in_chinese in chinese, help_text
    assert cli.build_parser(lazy=True)[0].format_help() == english


def test_repair_lists_in_chinese_and_its_json_stays() -> None:
    xiaoyu = str(PROFILES / "xiaoyu")
    zh = run("repair", xiaoyu, lang="zh_CN.UTF-8")
    assert zh.returncode == 1 and zh.stdout.splitlines()[-1].endswith("个可以安全修复")
    assert " 警告 dangling-file " in zh.stdout and "该文件不存在" in zh.stdout
    assert run("repair", xiaoyu, "--json", lang="zh_CN.UTF-8").stdout == run("repair", xiaoyu, "--json").stdout


def test_serve_starts_each_session_in_its_own_language() -> None:
    from openclaw_tui.web.serve import app_command

    i18n.set_language("zh_CN")
    try:
        assert app_command(Path("x")).endswith("--lang zh_CN")
    finally:
        i18n.set_language("en")
        i18n.catalog()
    assert app_command(Path("x")).endswith("--lang en")


def test_a_mistyped_sub_command_is_told_in_chinese() -> None:
    out = run("chek", lang="zh_CN.UTF-8")
    assert out.returncode == 2 and out.stderr.strip() == "openclaw-tui: 'chek' 既不是子命令，也不是文件或文件夹；你是想输入 check 吗？"
    assert "is neither a sub-command" in run("chek").stderr


def test_inbox_lists_in_chinese_and_its_json_stays(tmp_path: Path) -> None:
    from tests.inbox_helpers import repo_with

    ws = repo_with(tmp_path, "workspace")
    assert "注意：尚未审阅：显示自上次提交以来的改动" in run("inbox", str(ws), lang="zh_CN.UTF-8").stdout
    assert run("inbox", str(ws), "--approve", "--all").returncode == 0
    (ws / "TOOLS.md").write_bytes((ws / "TOOLS.md").read_bytes() + b"- jq\n")
    zh = run("inbox", str(ws), lang="zh_CN.UTF-8")
    assert zh.returncode == 0 and zh.stdout.startswith("自上次审阅以来有 1 处改动"), zh.stdout
    assert run("inbox", str(ws), "--json", lang="zh_CN.UTF-8").stdout == run("inbox", str(ws), "--json").stdout


def test_an_empty_review_queue_says_why_in_chinese_and_its_json_stays(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("# Memory\n\n## Facts\n\n- tea, not coffee\n", encoding="utf-8")
    zh = run("review", str(tmp_path), lang="zh_CN.UTF-8")
    assert zh.stdout.startswith("没有需要审阅的内容：MEMORY.md 中没有条目带提升标记"), zh.stdout + zh.stderr
    english = run("review", str(tmp_path), "--json").stdout
    assert "no item of MEMORY.md carries a promotion marker" in english
    assert run("review", str(tmp_path), "--json", lang="zh_CN.UTF-8").stdout == english


@pytest.mark.parametrize("command", ["commit", "history", "rollback"])
def test_a_folder_that_is_not_memory_is_told_in_chinese(command: str, tmp_path: Path) -> None:
    out = run(command, str(tmp_path), lang="zh_CN.UTF-8")
    assert out.returncode == 2 and has_chinese(out.stderr) and "not a profile" not in out.stderr, out.stderr
