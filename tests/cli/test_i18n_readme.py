"""README.zh-CN.md: its commands are the English README's and run as written; the keys it names exist."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from openclaw_tui.ui.actions import ACTIONS

ROOT = Path(__file__).resolve().parents[2]
ZH = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
EN = (ROOT / "README.md").read_text(encoding="utf-8")


def command_block(text: str) -> str:
    return text.split("<!-- test-command -->", 1)[1].split("<!-- /test-command -->", 1)[0]


def test_the_test_command_and_the_quick_start_are_the_english_ones() -> None:
    assert command_block(ZH) == command_block(EN)
    assert "pip install -e . && openclaw-tui --demo" in ZH and "pip install -e . && openclaw-tui --demo" in EN


def test_the_check_commands_run_as_written_in_chinese() -> None:
    commands = [line.strip() for line in ZH.splitlines() if line.strip().startswith("openclaw-tui check ")]
    assert len(commands) >= 2
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(LANG="zh_CN.UTF-8", PYTHONPATH=str(ROOT), OPENCLAW_TUI_CONFIG=str(ROOT / "no-such-config.toml"))
    for command in commands:
        argv = shlex.split(command)[1:]
        out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *argv], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 1, (command, out.stderr)  # the samples hold errors on purpose
        if "--format text" in command:
            assert "个错误" in out.stdout


def test_every_key_it_names_is_bound() -> None:
    jobs = ZH[ZH.index("## 三件事"):ZH.index("## 更多")]
    keys = set(re.findall(r"`([A-Za-z?/*+@])`", jobs))
    bound = {key for a in ACTIONS for key in a.keys.split(",")} | {"/", "?"}
    assert len(keys) > 10
    assert sorted(keys - bound) == []
