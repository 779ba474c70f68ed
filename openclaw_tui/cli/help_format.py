"""``--help`` wrapped by terminal cells (a CJK character is two cells wide; argparse counts characters).

A line may break between two CJK characters, not before the closing punctuation that follows one.
"""

from __future__ import annotations

import argparse
import re

# a CJK character (with the closing punctuation that must stay on its line), a run of spaces, or a word
# (patterns as strings: re compiles and caches them when help is first printed, not on every command)
_TOKEN = (
    r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f][，。、；：！？）」』》〉】”’…\uff09\uff0c\uff1a\uff1b]*"
    r"|\s+"
    r"|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+"
)
# a part of a usage line, as argparse cuts them: an optional [...], a group (...), or a word
_USAGE_PART = r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+"


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` (one paragraph: runs of whitespace count as one space) in lines of at most ``width`` cells;
    a word wider than ``width`` is cut by cells."""
    from rich.cells import cell_len, chop_cells

    width = max(width, 2)
    lines: list[str] = []
    line, used = "", 0
    for token in re.findall(_TOKEN, " ".join(text.split())):
        if token.isspace():
            if line:
                line, used = line + " ", used + 1
            continue
        size = cell_len(token)
        if used + size > width and line.strip():
            lines.append(line.rstrip())
            line, used = "", 0
        if size > width:  # a word longer than a line: cut it by cells
            pieces = chop_cells(token, width)
            lines.extend(pieces[:-1])
            token, size = pieces[-1], cell_len(pieces[-1])
        line, used = line + token, used + size
    if line.strip():
        lines.append(line.rstrip())
    return lines


class CellHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, measuring by terminal cells."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_cells(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_cells(text, width - len(indent)))

    def _format_usage(self, usage: str | None, actions, groups, prefix: str | None) -> str:  # type: ignore[no-untyped-def]
        # argparse measures the prefix ("用法：") by characters: lend it an ASCII stand-in as wide in cells
        from rich.cells import cell_len

        if prefix is None:
            prefix = argparse._("usage: ")  # type: ignore[attr-defined]
        stand_in = "u" * cell_len(prefix)
        text = super()._format_usage(usage, actions, groups, stand_in)[len(stand_in):]
        width = self._width - self._current_indent
        if all(cell_len(line) <= width for line in (stand_in + text).splitlines()):
            return prefix + text
        # a part wider than what is left after the program's name: every line under the prefix instead
        parts = re.findall(_USAGE_PART, text)
        lines, line = [], ""
        for part in parts:
            if line and cell_len(stand_in + line + " " + part) > width:
                lines.append(line)
                line = part
            else:
                line = f"{line} {part}" if line else part
        lines.append(line)
        return prefix + ("\n" + " " * len(stand_in)).join(lines) + "\n\n"


class CellRawDescriptionFormatter(CellHelpFormatter):
    """The description's line breaks kept (``argparse.RawDescriptionHelpFormatter``) while every line fits;
    a paragraph with a line wider than the terminal is filled again (an indented line, an example, is
    wrapped on its own, its indentation kept)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from rich.cells import cell_len

        out: list[str] = []
        for block in re.split(r"\n[ \t]*\n", text):
            lines = block.splitlines()
            if not block.strip() or all(cell_len(indent + line) <= width for line in lines):
                out.append("\n".join(indent + line if line else line for line in lines))
            elif any(line[:1].isspace() for line in lines if line):
                parts = []
                for line in lines:
                    inner = line[: len(line) - len(line.lstrip())]
                    parts += [indent + inner + piece for piece in wrap_cells(line, width - len(indent) - len(inner))]
                out.append("\n".join(parts))
            else:
                out.append("\n".join(indent + line for line in wrap_cells(block, width - len(indent))))
        return "\n\n".join(out)
