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
    "git_setup", "merge_driver", "search", "get", "history", "context",
)


class ArgumentParser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line reason."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


def build_parser(only: str | None = None) -> tuple[ArgumentParser, set[str]]:
    """The parser and the names of its sub-commands (``only``: import just that command's module)."""
    parser = ArgumentParser(
        prog="openclaw-tui",
        description="Review, correct and audit an AI agent's file-based memory. "
        "With no sub-command: open the terminal UI on PATH (or --demo).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in COMMANDS if only is None else (only,):
        module = importlib.import_module(f"openclaw_tui.commands.{name}")
        module.register(sub)
    return parser, set(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # a sub-command imports only its own module (a fresh `search` process starts in a fraction of the time)
    only = argv[0].replace("-", "_") if argv and argv[0].replace("-", "_") in COMMANDS else None
    parser, names = build_parser(only)
    if not argv or argv[0] not in names | {"-h", "--help"}:
        from .launch import launch_ui

        return launch_ui(argv)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
