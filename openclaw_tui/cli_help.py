"""The top-level ``--help`` and ``--version`` text, made without argparse.

A fresh ``openclaw-tui --help`` would otherwise import argparse (and gettext, shutil) and build a parser
with a sub-parser per command only to print a page.  This module lays out the same page from the same
data (``cli.DESCRIPTION``, ``cli.UI_OPTIONS``, ``cli.LISTED``) with argparse's own rules (HelpFormatter,
Python 3.11): column of the help, wrapping, a long name on a line of its own.  tests/test_cli_help.py
proves it is argparse's page, byte for byte, at every width; anything else goes through argparse.
"""

from __future__ import annotations

import os
import sys

from .i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

Item = tuple[int, str, "str | None"]  # (indent, invocation, help)


def columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size()`` gives it (COLUMNS, else the terminal, else 80)."""
    try:
        cols = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        cols = 0
    if cols <= 0:
        try:
            cols = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            cols = 0
    return cols or 80


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(" ".join(text.split()), width)


def page(usage: str, description: str, sections: Iterable[tuple[str, list[Item]]], cols: int) -> str:
    """The help page argparse's HelpFormatter prints for a parser with these parts, ``cols`` wide."""
    width = cols - 2
    max_help_position = min(24, max(width - 20, 4))
    sections = list(sections)
    # argparse measures a sub-command's name at its section's indent (2), not its own (4)
    longest = max(len(inv) + 2 for _heading, items in sections for _indent, inv, _help in items)
    help_position = min(longest + 2, max_help_position)
    help_width = max(width - help_position, 11)
    out = [f"{_('usage: ')}{usage}\n\n"]
    out.append("\n".join(_wrap(description, max(width, 11))) + "\n\n")
    for heading, items in sections:
        parts = [f"\n{heading}:\n"]
        for indent, inv, text in items:
            action_width = help_position - indent - 2
            if not text:
                parts.append(f"{' ' * indent}{inv}\n")
                continue
            if len(inv) <= action_width:
                parts.append(f"{' ' * indent}{inv:<{action_width}}  ")
                first = 0
            else:
                parts.append(f"{' ' * indent}{inv}\n")
                first = help_position
            lines = _wrap(text, help_width)
            parts.append(f"{' ' * first}{lines[0]}\n")
            parts.extend(f"{' ' * help_position}{line}\n" for line in lines[1:])
        out.append("".join(parts) + "\n")
    text = "".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n") + "\n"
