"""`openclaw-tui --version` and `--help` as a new user types them."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import openclaw_tui

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd, stdin=subprocess.DEVNULL)


def test_version(tmp_path: Path) -> None:
    r = cli("--version", cwd=tmp_path)  # no memory here: it must not try to open the UI
    assert r.returncode == 0 and r.stderr == ""
    assert re.fullmatch(r"openclaw-tui \d+\.\d+\.\d+\S*\n", r.stdout)
    assert r.stdout == f"openclaw-tui {openclaw_tui.__version__}\n"
    # the version is the package's, and the packaging reads it from there (one place)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "openclaw_tui/__init__.py"
    # after a PATH too (the UI's own parser)
    r = cli("nowhere", "--version", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == f"openclaw-tui {openclaw_tui.__version__}\n"


def test_help_lists_the_ui_options_and_every_command(tmp_path: Path) -> None:
    r = cli("--help", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    out = r.stdout
    assert out.startswith("usage: openclaw-tui [PATH] [--demo] [--today DATE]")
    for option in ("--demo", "--today DATE", "--version"):
        assert option in out
    from openclaw_tui.cli import COMMANDS

    for name in COMMANDS:
        assert re.search(rf"^\s+{name.replace('_', '-')}\b", out, re.M), name
    assert cli("-h", cwd=tmp_path).stdout == out
