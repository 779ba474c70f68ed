"""The ``openclaw-tui`` command line: the UI with no sub-command, else one sub-command.

Each sub-command lives in ``openclaw_tui/cli/commands/<name>.py`` with
``register(subparsers)`` and ``run(args) -> int``.  Exit status: 0 success,
1 ran and found or left a problem, 2 bad usage or input (one line on stderr,
nothing written).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..core.i18n import N_, _

# What each module of cli/commands registers (sub-command name, help), in --help's order: ``--help`` and
# every sub-command are parsed without importing the other modules (and the core they pull in);
# tests/test_cli_lazy.py proves the table equals what the modules register.
LISTED: dict[str, tuple[tuple[str, str], ...]] = {
    "check": (("check", N_("check a profile, a profiles root or a workspace for consistency")),),
    "set": (("set", N_("change fields and/or the body of one entry")),),
    "supersede": (("supersede", N_("mark OLD as superseded by NEW")),),
    "archive": (("archive", N_("move entries to contexts/archive/memories.md")),
                ("restore", N_("move an entry back from contexts/archive/memories.md")),),
    "gc": (("gc", N_("apply the TTL, cold and cap rules; print what moved")),),
    "redact": (("redact", N_("replace secrets (phones, e-mails, IDs, cards, keys, passwords) by placeholders")),),
    "commit": (("commit", N_("commit a profile's changes with a message listing what changed")),),
    "git_setup": (("git-setup", N_("install the id-aware merge driver in the repository holding PATH")),),
    "merge_driver": (("merge-driver", N_("git merge driver: 3-way merge of memories.md by entry id")),),
    "search": (("search", N_("ranked search over every profile under PATH")),),
    "get": (("get", N_("print exact lines of a memory file")),),
    "history": (("history", N_("commits that touched a profile, or one entry's versions")),),
    "config": (("config", N_("print the config file's path and the settings in effect")),),
    "add": (("add", N_("append one entry (next id); list duplicate and conflict candidates")),),
    "resolve": (("resolve", N_("resolve a conflict between entries A and B")),),
    "compact": (("compact", N_("merge several entries into one new entry")),),
    "rollback": (("rollback", N_("restore the profile folder as it was at COMMIT")),
                 ("revert", N_("undo what COMMIT did to the profile")),),
    "merge": (("merge", N_("list and resolve merge conflicts in memory files")),),
    "completion": (("completion", N_("print a bash, zsh or fish completion script")),),
    "serve": (("serve", N_("the same UI in a web browser, on 127.0.0.1 only")),),
    "repair": (("repair", N_("repair dangling and inactive references (lists candidates; applies one with --finding or --all-safe)")),),
    "distil": (("distil", N_("distil daily-log (or context) lines into long-term memory")),),
    "review": (("review", N_("review what OpenClaw's dreaming promoted into MEMORY.md")),),
    "context": (("context", N_("what the agent would load for a topic (layers, tokens, what is left out)")),),
    "mcp": (("mcp", N_("serve the memory to agents over MCP (stdio): search, get, context, check; writes with --allow-write")),),
    "inbox": (("inbox", N_("what the agent changed since your review; approve or revert it")),),
}
COMMANDS = tuple(LISTED)


class ArgumentParser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line reason, and wraps ``--help`` by terminal cells (CJK is two
    cells wide): a sub-command asking for argparse's raw-description formatter gets its cell-wide kin."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from .help_format import CellHelpFormatter, CellRawDescriptionFormatter

        kind = kwargs.get("formatter_class", argparse.HelpFormatter)
        kwargs["formatter_class"] = {argparse.HelpFormatter: CellHelpFormatter,
                                     argparse.RawDescriptionHelpFormatter: CellRawDescriptionFormatter}.get(kind, kind)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


USAGE = "openclaw-tui [PATH] [--demo] [--today DATE]\n       openclaw-tui COMMAND ..."
DESCRIPTION = N_("Review, correct and audit an AI agent's file-based memory. "
                 "With no sub-command: open the terminal UI on PATH (default: ./profiles if present, "
                 "else the current folder), or on the demo.")
UI_TITLE = N_("the terminal UI (no COMMAND)")
LANG_HELP = N_("the language of the app and of the command line: en or zh_CN "
               "(default: the config file's [ui] language, else LC_ALL/LC_MESSAGES/LANG)")


def build_parser(command: str | None = None, *, lazy: bool = False) -> tuple[ArgumentParser, set[str]]:
    """The parser and the names of its sub-commands.

    With ``lazy``, only the module of ``command`` (a sub-command name) is imported and registered; the
    others are listed by name and help alone (enough for ``--help`` and to tell a sub-command from a PATH).
    """
    from .. import __version__

    parser = ArgumentParser(prog="openclaw-tui", usage=USAGE, description=_(DESCRIPTION))
    parser.add_argument("--version", action="version", version=f"openclaw-tui {__version__}",
                        help=_("show program's version number and exit"))  # (3.11's argparse leaves it English)
    # (main() takes --lang out of the command line first; here for --help, and no attribute of the namespace)
    parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=_(LANG_HELP))
    ui = parser.add_argument_group(_(UI_TITLE))  # listed for --help; launch.py parses them with no sub-command
    ui.add_argument("--demo", action="store_true", help=_("open a throwaway git repository made from the bundled "
                                                         "sample profiles, with a short history and a pending merge conflict"))
    ui.add_argument("--today", metavar="DATE", help=_("fix today's date (YYYY-MM-DD) for TTL and cold marks"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser, prog="openclaw-tui")
    for name in LISTED:
        if lazy and all(sub_name != command for sub_name, _ in LISTED[name]):
            for sub_name, help_text in LISTED[name]:
                sub.add_parser(sub_name, help=_(help_text), add_help=False)
            continue
        importlib.import_module(f"openclaw_tui.cli.commands.{name}").register(sub)
    return parser, set(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = _take_lang(argv)
    except ValueError as exc:
        print(f"openclaw-tui: --lang: {exc}", file=sys.stderr)
        return 2
    parser, names = build_parser(argv[0] if argv else None, lazy=True)
    if not argv or argv[0] not in names | {"-h", "--help", "--version"}:
        mistyped = None if {"-h", "--help", "--version"} & set(argv) else _mistyped_command(argv[0] if argv else "", names)
        if mistyped is not None:
            print(mistyped, file=sys.stderr)
            return 2
        from ..ui.launch import launch_ui

        return launch_ui(argv)
    args = parser.parse_args(argv)
    from ..core.search.index_feed import follow_writes

    follow_writes()  # commands that write keep the search indexes current when the config asks for it
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0
    finally:
        _tell_recovered()


def _mistyped_command(word: str, names: set[str]) -> str | None:
    """The one line for a first word that is neither a sub-command nor an existing path (None when it is
    an option, a path, or looks like one): the closest sub-command, by difflib, when one is close."""
    import os

    if not word or word.startswith("-") or os.sep in word or "/" in word or os.path.lexists(word):
        return None
    import difflib

    close = difflib.get_close_matches(word, sorted(names), n=1)
    hint = (_("did you mean %(command)s?") % {"command": close[0]} if close
            else _("see openclaw-tui --help for the sub-commands"))
    return "openclaw-tui: " + _("%(word)s is neither a sub-command nor a file or folder; %(hint)s") % {
        "word": repr(word), "hint": hint}


def _take_lang(argv: list[str]) -> list[str]:
    """``argv`` without ``--lang LANG`` / ``--lang=LANG`` (a global option, anywhere before ``--``), whose
    language is set for the rest of the run."""
    from ..core import i18n

    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out += argv[i:]
            break
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang":
                if i + 1 >= len(argv):
                    raise ValueError("expected one argument (en or zh_CN)")
                value, i = argv[i + 1], i + 2
            else:
                value, i = arg.split("=", 1)[1], i + 1
            i18n.set_language(value)
            continue
        out.append(arg)
        i += 1
    i18n.catalog()  # the language's catalog, and argparse's words in it (nothing to load for English)
    return out


def _tell_recovered() -> None:
    """Say on stderr that a move between files a crash interrupted was finished (only a process that loaded
    the write module can have finished one)."""
    writes = sys.modules.get("openclaw_tui.core.files.safe_write")
    if writes is None:
        return
    for folder in writes.take_recovered():
        print("openclaw-tui: " + _("note: finished a move between files that was interrupted (journal in %(folder)s)")
              % {"folder": folder}, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
