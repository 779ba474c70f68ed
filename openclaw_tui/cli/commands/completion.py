"""The ``completion`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
from typing import Any

from ...core.i18n import N_, _
from ._output import out

DESCRIPTION = N_("""`openclaw-tui completion bash|zsh|fish`: print a shell completion script.

Generated from the command line parser itself, so every sub-command and
option is in it.  Install, for example::

    openclaw-tui completion bash > ~/.local/share/bash-completion/completions/openclaw-tui
    openclaw-tui completion zsh > "${fpath[1]}/_openclaw-tui"
    openclaw-tui completion fish > ~/.config/fish/completions/openclaw-tui.fish
""")

PROG = "openclaw-tui"
TOP_OPTIONS = ("--demo", "--today", "--help")


def register(sub: Any) -> None:
    p = sub.add_parser("completion", help=_("print a bash, zsh or fish completion script"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=("bash", "zsh", "fish"))
    p.set_defaults(run=run)


def commands() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(name, help, [(option, help)]) of every sub-command, from the parser."""
    from .. import build_parser

    parser, _ = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help or "" for c in action._choices_actions}
    found = []
    for name, sp in action.choices.items():
        opts = [(s, a.help or "") for a in sp._actions for s in a.option_strings if s.startswith("--")]
        found.append((name, helps.get(name, ""), opts))
    return found


def _q(text: str) -> str:
    """Single-quoted for sh, zsh and fish."""
    return "'" + text.replace("'", "'\\''") + "'"


def bash() -> str:
    cmds = commands()
    cases = "".join(f"        {name}) opts={_q(' '.join(o for o, _ in opts))} ;;\n" for name, _, opts in cmds)
    names = " ".join(name for name, _, _ in cmds)
    return f"""# bash completion for {PROG}
_openclaw_tui() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} sub="" i opts=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${{COMP_WORDS[i]}} in -*) ;; *) sub=${{COMP_WORDS[i]}}; break ;; esac
    done
    if [[ -z $sub ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W {_q(' '.join(TOP_OPTIONS))} -- "$cur"))
        else
            COMPREPLY=($(compgen -W {_q(names)} -- "$cur") $(compgen -d -- "$cur"))
        fi
        return
    fi
    case $sub in
{cases}    esac
    if [[ $sub == completion && $cur != -* ]]; then
        COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _openclaw_tui {PROG}
"""


def zsh() -> str:
    cmds = commands()
    described = "".join(f"        {_q(name + ':' + help_.replace(':', ' '))}\n" for name, help_, _ in cmds)
    cases = "".join(
        f"        {name}) opts=({' '.join(_q(o + '[' + h.replace('[', '(').replace(']', ')') + ']') for o, h in opts)}) ;;\n"
        for name, _, opts in cmds
    )
    return f"""#compdef {PROG}
# zsh completion for {PROG}
_openclaw_tui() {{
    local -a subcommands opts
    subcommands=(
{described}    )
    if (( CURRENT == 2 )); then
        _describe -t commands '{PROG} command' subcommands
        _files -/
        return
    fi
    case $words[2] in
{cases}    esac
    if [[ $words[2] == completion ]]; then
        _values shell bash zsh fish
    else
        _arguments -s $opts '*:file:_files'
    fi
}}
_openclaw_tui "$@"
"""


def fish() -> str:
    lines = [f"# fish completion for {PROG}", f"complete -c {PROG} -f"]
    for name, help_, opts in commands():
        lines.append(f"complete -c {PROG} -n __fish_use_subcommand -a {name} -d {_q(help_)}")
        for opt, h in opts:
            lines.append(f"complete -c {PROG} -n '__fish_seen_subcommand_from {name}' -l {opt[2:]} -d {_q(h)}")
        if name != "completion":
            lines.append(f"complete -c {PROG} -n '__fish_seen_subcommand_from {name}' -F")
    lines.append(f"complete -c {PROG} -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    out({"bash": bash, "zsh": zsh, "fish": fish}[args.shell]())
    return 0
