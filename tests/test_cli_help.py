"""``--help`` and ``--version`` are printed without argparse: the page must be argparse's, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from openclaw_tui import __version__, cli


def argparse_page(monkeypatch: pytest.MonkeyPatch, cols: int) -> str:
    monkeypatch.setenv("COLUMNS", str(cols))
    parser, _names = cli.build_parser(lazy=True)
    return parser.format_help()


def test_the_page_is_argparse_page_at_every_width(monkeypatch: pytest.MonkeyPatch) -> None:
    for cols in [*range(1, 241), 1000]:
        assert cli.help_page(cols) == argparse_page(monkeypatch, cols), cols


def run(*args: str, cols: int | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    if cols is not None:
        env["COLUMNS"] = str(cols)
    code = ("import sys\nfrom openclaw_tui.cli import main\ntry:\n    sys.exit(main(sys.argv[1:]))\nfinally:\n"
            "    sys.stderr.write('argparse' if 'argparse' in sys.modules else 'none')\n")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False)


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("cols", [None, 57, 133])
def test_a_fresh_help_prints_the_page_without_argparse(monkeypatch: pytest.MonkeyPatch, flag: str,
                                                      cols: int | None) -> None:
    out = run(flag, cols=cols)
    assert out.returncode == 0
    assert out.stderr == "none"
    assert out.stdout == argparse_page(monkeypatch, cols or 80)  # no terminal: argparse's fallback is 80


def test_version_is_argparse_version(monkeypatch: pytest.MonkeyPatch) -> None:
    out = run("--version")
    assert (out.returncode, out.stdout, out.stderr) == (0, f"openclaw-tui {__version__}\n", "none")
    narrow = run("--version", cols=12)  # too narrow to print on one line: argparse wraps it as before
    assert narrow.stderr == "argparse" and "".join(narrow.stdout.split()) == f"openclaw-tui{__version__}"


def test_anything_else_still_goes_through_argparse() -> None:
    both = run("--help", "--version")
    assert both.stderr.endswith("argparse") and both.stdout.startswith("usage: openclaw-tui")
    sub = run("check", "--help")
    assert sub.stderr.endswith("argparse") and "check" in sub.stdout
