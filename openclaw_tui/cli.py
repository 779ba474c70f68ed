"""The ``openclaw-tui`` command line: the UI with no sub-command, else one sub-command.

Each sub-command lives in ``openclaw_tui/commands/<name>.py`` with
``register(subparsers)`` and ``run(args) -> int``.  Exit status: 0 success,
1 ran and found or left a problem, 2 bad usage or input (one line on stderr,
nothing written).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = (
    "check", "set", "supersede", "archive", "gc", "redact", "commit",
    "git_setup", "merge_driver", "search", "get", "history", "config", "add", "resolve", "compact",
    "rollback", "merge", "completion", "serve", "repair", "distil", "review", "context",
)


class ArgumentParser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line reason."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


USAGE = "openclaw-tui [PATH] [--demo] [--today DATE]\n       openclaw-tui COMMAND ..."


def build_parser(only: str | None = None) -> tuple[ArgumentParser, set[str]]:
    """The parser and the names of its sub-commands (``only``: import just that command's module)."""
    from . import __version__

    parser = ArgumentParser(
        prog="openclaw-tui",
        usage=USAGE,
        description="Review, correct and audit an AI agent's file-based memory. "
        "With no sub-command: open the terminal UI on PATH (default: ./profiles if present, "
        "else the current folder), or on the demo.",
    )
    parser.add_argument("--version", action="version", version=f"openclaw-tui {__version__}")
    ui = parser.add_argument_group("the terminal UI (no COMMAND)")
    # listed here for --help; launch.py parses them when no sub-command is given
    ui.add_argument("--demo", action="store_true",
                    help="open a throwaway git repository made from the bundled sample profiles, "
                    "with a short history and a pending merge conflict")
    ui.add_argument("--today", metavar="DATE", help="fix today's date (YYYY-MM-DD) for TTL and cold marks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser, prog="openclaw-tui")
    for name in COMMANDS if only is None else (only,):
        module = importlib.import_module(f"openclaw_tui.commands.{name}")
        module.register(sub)
    return parser, set(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # a sub-command imports only its own module (a fresh `search` process starts in a fraction of the time)
    only = argv[0].replace("-", "_") if argv and argv[0].replace("-", "_") in COMMANDS else None
    parser, names = build_parser(only)
    if not argv or argv[0] not in names | {"-h", "--help", "--version"}:
        from .launch import launch_ui

        return launch_ui(argv)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
