"""`openclaw-tui config`: the settings file's path and the values in effect, as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from openclaw_tui.core.config import Config, Limits, SearchSettings, parse_config


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def with_config(path: Path) -> dict[str, str]:
    return dict(os.environ, OPENCLAW_TUI_CONFIG=str(path))


def test_no_file_prints_the_default_path_and_the_defaults() -> None:
    r = cli("config")
    assert r.returncode == 0, r.stderr
    where = Path(os.environ["XDG_CONFIG_HOME"]) / "openclaw-tui" / "config.toml"  # conftest's isolated home
    first = r.stdout.splitlines()[0]
    assert first.startswith(f"# config file: {where}") and "no such file" in first
    values = tomllib.loads(r.stdout)
    assert values["limits"] == {"cap": 200, "cold_days": 90, "bootstrap_max_chars": 20000,
                                "bootstrap_total_max_chars": 60000, "user_max_chars": 4000, "stale_log_days": 30}
    assert values["search"]["text_weight"] == SearchSettings().text_weight
    r = cli("config", "--json")
    data = json.loads(r.stdout)
    assert data["path"] == str(where) and data["found"] is False
    assert data["limits"]["cap"] == Limits().cap and data["keys"] == {}


FILE = """\
[limits]
cap = 50
stale_log_days = 7

[search]
vector_weight = 0.25
providers = ["ollama", "local"]

[search.ollama]
base_url = "http://127.0.0.1:11434"
model = "nomic-embed-text"

[keys]
"filter" = "f,slash"
"app.quit" = "ctrl+q"
"""


def test_a_file_s_values_are_printed_over_the_defaults_and_read_back_the_same(tmp_path: Path) -> None:
    config = tmp_path / "my config.toml"
    config.write_text(FILE, encoding="utf-8")
    r = cli("config", env=with_config(config))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"# config file: {config}  (named by $OPENCLAW_TUI_CONFIG)"
    printed = parse_config(r.stdout, config)  # what it prints is a config file with the same values
    expected = parse_config(FILE, config)
    assert printed == expected
    assert expected.limits.cap == 50 and expected.limits.cold_days == 90 and expected.limits.stale_log_days == 7
    r = cli("config", "--json", env=with_config(config))
    data = json.loads(r.stdout)
    assert data == json.loads(json.dumps(expected.as_dict()))
    assert data["found"] is True and data["search"]["providers"] == ["ollama", "local"]
    assert data["search"]["provider_options"]["ollama"]["model"] == "nomic-embed-text"
    assert data["keys"] == {"filter": "f,slash", "app.quit": "ctrl+q"}


@pytest.mark.parametrize("text,reason", [
    ("[limits\ncap = 3\n", "not valid TOML"),
    ("[limits]\ncap = -1\n", "cap must be a whole number"),
    ("[limits]\ncap = \"many\"\n", "cap must be a whole number"),
    ("[limits]\nsize = 3\n", "no setting 'size'"),
    ("[colours]\n", "unknown section [colours]"),
    ("[search]\nproviders = \"local\"\n", "providers must be a list"),
    ("[keys]\nfilter = 3\n", "[keys] values must be strings"),
])
def test_a_bad_config_file_exits_2_with_one_line(tmp_path: Path, text: str, reason: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    for args in (["config"], ["config", "--json"]):
        r = cli(*args, env=with_config(config))
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"openclaw-tui: {config}")
        assert reason in r.stderr and "Traceback" not in r.stderr


def test_an_unreadable_config_file_exits_2(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"[limits]\ncap = 3 # \xff\n")
    r = cli("config", env=with_config(config))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot be read" in r.stderr
    config.unlink()
    config.mkdir()  # a folder where the file should be
    r = cli("config", env=with_config(config))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot be read" in r.stderr


def test_config_is_listed_in_help() -> None:
    r = cli("--help")
    assert r.returncode == 0 and "config" in r.stdout
    assert Config(Path("x")).as_dict()["found"] is False
