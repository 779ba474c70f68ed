"""The command line starts lazily: ``--help`` and each sub-command import only what they use."""

from __future__ import annotations

import importlib
import subprocess
import sys

from openclaw_tui import cli


def registered(name: str) -> list[tuple[str, str | None]]:
    """(sub-command, help) as the module ``name`` of COMMANDS really registers them."""
    parser = cli.ArgumentParser(prog="x")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=cli.ArgumentParser)
    importlib.import_module(f"openclaw_tui.commands.{name}").register(sub)
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


def imported(*args: str) -> set[str]:
    """Modules of openclaw_tui loaded by a fresh process running ``openclaw-tui ARGS``."""
    code = (
        "import sys\n"
        "from openclaw_tui.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\nMODULES ' + ' '.join(m for m in sys.modules if m.startswith('openclaw_tui')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)
    return set(out.stderr.rsplit("MODULES ", 1)[1].split())


def test_help_imports_no_command_and_no_core() -> None:
    names = imported("--help")
    assert "openclaw_tui" in names
    # (core.userdirs, which imports only os: whether a config file names the language of the page)
    names -= {"openclaw_tui.core", "openclaw_tui.core.userdirs"}
    assert not {n for n in names if n.startswith(("openclaw_tui.commands.", "openclaw_tui.core"))}


def test_a_sub_command_imports_only_its_own_module(tmp_path) -> None:
    names = imported("get", str(tmp_path), "memories.md")  # exits 2: not a profile; imports are what count
    commands = {n for n in names if n.startswith("openclaw_tui.commands.")}
    assert "openclaw_tui.commands.get" in commands
    assert commands <= {"openclaw_tui.commands.get", "openclaw_tui.commands._editing"}
    assert not {n for n in names if n.startswith(("openclaw_tui.core.search", "openclaw_tui.core.check"))}


def test_an_edit_of_plain_values_loads_no_yaml_library(tmp_path) -> None:
    """archive and supersede write plain values (status: archived): PyYAML and difflib stay unloaded."""
    prof = tmp_path / "p"
    (prof / "contexts").mkdir(parents=True)
    (prof / "memories.md").write_text(
        "".join(f"---\nid: mem-000{i}\nstatus: active\ntags: [a]\n---\nbody {i}\n\n" for i in range(1, 4)),
        encoding="utf-8",
    )
    code = (
        "import sys\n"
        "from openclaw_tui.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules))\n"
        "sys.exit(code)\n"
    )
    for args in (["archive", str(prof), "mem-0001"], ["supersede", str(prof), "mem-0002", "mem-0003"]):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        names = set(out.stderr.rsplit("MODULES ", 1)[1].split())
        assert not {n for n in names if n == "yaml" or n.startswith("yaml.")}, args[0]
        assert "difflib" not in names, args[0]
    text = (prof / "memories.md").read_text(encoding="utf-8")
    assert "mem-0001" not in text and "superseded_by: mem-0003" in text
