"""The ``openclaw-tui`` command line: the UI with no sub-command, else one sub-command.

Each sub-command lives in ``openclaw_tui/commands/<name>.py`` with
``register(subparsers)`` and ``run(args) -> int``.  Exit status: 0 success,
1 ran and found or left a problem, 2 bad usage or input (one line on stderr,
nothing written).
"""

from __future__ import annotations

import sys

from .i18n import N_, _

TYPE_CHECKING = False  # (not typing's: importing typing costs a fresh --help a third of its time)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from .cli_parser import ArgumentParser

COMMANDS = (
    "check", "set", "supersede", "archive", "gc", "redact", "commit",
    "git_setup", "merge_driver", "search", "get", "history", "config", "add", "resolve", "compact",
    "rollback", "merge", "completion", "serve", "repair", "distil", "review", "context", "mcp",
)

# What each module of COMMANDS registers (sub-command name, help), in its order: ``--help`` and every
# sub-command start without importing the other modules (and the core they pull in).  A module missing
# here is simply imported; tests/test_cli_lazy.py proves the table equals what the modules register.
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
}


# Sub-commands whose module has ``fast_args(argv) -> namespace | None``: a plain command line is read
# without building argparse's tree (a fresh ``search`` pays for little more than its query); anything
# else (help, an unknown or abbreviated option, a mistake) returns None and goes through argparse as before.
FAST = ("search",)


def __getattr__(name: str) -> Any:
    if name == "ArgumentParser":  # argparse is imported only when a parser is built
        from .cli_parser import ArgumentParser

        return ArgumentParser
    raise AttributeError(name)


USAGE = "openclaw-tui [PATH] [--demo] [--today DATE]\n       openclaw-tui COMMAND ..."
DESCRIPTION = N_("Review, correct and audit an AI agent's file-based memory. "
                 "With no sub-command: open the terminal UI on PATH (default: ./profiles if present, "
                 "else the current folder), or on the demo.")
UI_TITLE = N_("the terminal UI (no COMMAND)")
# (option, metavar, help), listed here for --help; launch.py parses them when no sub-command is given
UI_OPTIONS: tuple[tuple[str, str | None, str], ...] = (
    ("--demo", None, N_("open a throwaway git repository made from the bundled sample profiles, "
                        "with a short history and a pending merge conflict")),
    ("--today", "DATE", N_("fix today's date (YYYY-MM-DD) for TTL and cold marks")),
)
HELP_OPTIONS = (("-h, --help", N_("show this help message and exit")),
                ("--version", N_("show program's version number and exit")),
                ("--lang LANG", N_("the language of the app and of the command line: en or zh_CN "
                                   "(default: the config file's [ui] language, else LC_ALL/LC_MESSAGES/LANG)")))


def build_parser(command: str | None = None, *, lazy: bool = False) -> tuple[ArgumentParser, set[str]]:
    """The parser and the names of its sub-commands.

    With ``lazy``, only the module of ``command`` (a sub-command name) is imported and registered; the
    others are listed by name and help alone (enough for ``--help`` and to tell a sub-command from a PATH).
    """
    from argparse import SUPPRESS

    from . import __version__
    from .cli_parser import ArgumentParser

    parser = ArgumentParser(prog="openclaw-tui", usage=USAGE, description=_(DESCRIPTION))
    parser.add_argument("--version", action="version", version=f"openclaw-tui {__version__}",
                        help=_(HELP_OPTIONS[1][1]))  # (Python 3.11's argparse leaves this one untranslated)
    # (main() takes --lang out of the command line first; here for --help, and no attribute of the namespace)
    parser.add_argument("--lang", metavar="LANG", default=SUPPRESS, help=_(HELP_OPTIONS[2][1]))
    ui = parser.add_argument_group(_(UI_TITLE))
    for option, metavar, help_text in UI_OPTIONS:
        if metavar is None:
            ui.add_argument(option, action="store_true", help=_(help_text))
        else:
            ui.add_argument(option, metavar=metavar, help=_(help_text))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser, prog="openclaw-tui")
    for name in COMMANDS:
        listed = LISTED.get(name) if lazy else None
        if listed is not None and all(sub_name != command for sub_name, _ in listed):
            for sub_name, help_text in listed:
                sub.add_parser(sub_name, help=_(help_text), add_help=False)
            continue
        module = _command_module(name)
        module.register(sub)
    return parser, set(sub.choices)


def help_page(cols: int) -> str:
    """The top-level ``--help`` page, as argparse lays it out ``cols`` wide (without argparse)."""
    from .cli_help import page

    commands = [(4, name, _(help_text)) for module in COMMANDS for name, help_text in LISTED[module]]
    ui: list[tuple[int, str, str | None]] = [(2, option if metavar is None else f"{option} {metavar}", _(help_text)) for option, metavar, help_text in UI_OPTIONS]
    return page(USAGE, _(DESCRIPTION), [
        (_("positional arguments"), [(2, "COMMAND", None), *commands]),
        (_("options"), [(2, invocation, _(help_text)) for invocation, help_text in HELP_OPTIONS]),
        (_(UI_TITLE), ui),
    ], cols)


def _quick(argv: list[str]) -> bool:
    """``--help`` and ``--version`` alone, printed without building the parser (True when printed)."""
    if len(argv) != 1 or argv[0] not in ("-h", "--help", "--version") or set(COMMANDS) - set(LISTED):
        return False
    from . import __version__
    from .cli_help import columns

    cols = columns()
    if argv[0] == "--version":
        text = f"openclaw-tui {__version__}\n"
        if len(text) > cols - 2:  # argparse would wrap it: let it
            return False
    else:
        text = help_page(cols)
    sys.stdout.write(text)
    sys.stdout.flush()
    return True


def main(argv: Sequence[str] | None = None) -> int:
    whole_process = argv is None  # (the console script and ``python -m``; a caller in-process passes argv)
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = _take_lang(argv)
    except ValueError as exc:
        print(f"openclaw-tui: --lang: {exc}", file=sys.stderr)
        return 2
    if _quick(argv):
        return 0
    if argv and argv[0] in FAST:
        import gc

        was_enabled = gc.isenabled()
        gc.disable()  # a short process: no collections while it imports (allocations, no cycles)
        try:
            module = _command_module(argv[0])
            fast = module.fast_args(argv[1:])
            if fast is not None:
                code = _run(module.run, fast)
                if whole_process:
                    _exit_now(code)
                return code
        finally:
            if was_enabled:
                gc.enable()
    parser, names = build_parser(argv[0] if argv else None, lazy=True)
    if not argv or argv[0] not in names | {"-h", "--help", "--version"}:
        from .launch import launch_ui

        return launch_ui(argv)
    args = parser.parse_args(argv)
    return _run(args.run, args)


def _take_lang(argv: list[str]) -> list[str]:
    """``argv`` without ``--lang LANG`` / ``--lang=LANG`` (a global option, anywhere before ``--``), whose
    language is set for the rest of the run."""
    from . import i18n

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


def _command_module(name: str) -> Any:
    """``openclaw_tui.commands.NAME``, imported (``__import__``: ``importlib``'s package, with ``warnings``, is a
    module more for a fresh ``search`` to load)."""
    full = f"openclaw_tui.commands.{name}"
    __import__(full)
    return sys.modules[full]


def _exit_now(code: int) -> None:
    """End a whole fast-command process now: its output flushed, its files closed (the command closed its
    index), nothing left to do but the interpreter's teardown -- freeing every module and object one by one,
    about a tenth of a fresh ``search`` -- which ``os._exit`` skips.  Not when something registered an atexit
    handler (an embedding provider's library may have): then the process ends as usual."""
    import atexit
    import os

    if atexit._ncallbacks():
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # (None: the process was started with that descriptor closed)
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _run(run: Any, args: Any) -> int:
    try:
        return int(run(args))
    except BrokenPipeError:
        return 0
    finally:
        _tell_recovered()


def _tell_recovered() -> None:
    """A move between files that a crash interrupted was finished on the way: say so (stderr, never stdout).

    Only a process that loaded the write module can have finished one (a plain ``search`` never does: it
    does not pay ~8 ms to import it only to learn that).
    """
    writes = sys.modules.get("openclaw_tui.core.files.safe_write")
    if writes is None:
        return
    for folder in writes.take_recovered():
        print(f"openclaw-tui: note: finished a move between files that was interrupted (journal in {folder})",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
