"""The command line registers lazily: the listed sub-commands are what their modules register."""

from __future__ import annotations

import importlib

from openclaw_tui import cli


def registered(name: str) -> list[tuple[str, str | None]]:
    """(sub-command, help) as the module ``name`` of COMMANDS really registers them."""
    parser = cli.ArgumentParser(prog="x")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=cli.ArgumentParser)
    importlib.import_module(f"openclaw_tui.cli.commands.{name}").register(sub)
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_the_listed_table_is_what_the_modules_register() -> None:
    for name in cli.COMMANDS:
        if name in cli.LISTED:
            assert list(cli.LISTED[name]) == registered(name), name
    assert set(cli.LISTED) <= set(cli.COMMANDS)


def test_lazy_help_equals_the_eager_help() -> None:
    lazy, lazy_names = cli.build_parser(lazy=True)
    eager, eager_names = cli.build_parser()
    assert lazy.format_help() == eager.format_help()
    assert lazy_names == eager_names
