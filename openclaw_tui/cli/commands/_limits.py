"""The limits a command runs with: the config file's, with the options given on the command line over them."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ...core.config import Limits, load_config
from ...core.i18n import N_, _

HELP = {
    "cap": N_("most entries memories.md may hold"),
    "cold_days": N_("days without a hit before a low entry turns cold"),
    "bootstrap_max_chars": N_("characters a bootstrap file may hold"),
    "bootstrap_total_max_chars": N_("characters all bootstrap files may hold together"),
    "user_max_chars": N_("characters USER.md may hold"),
    "stale_log_days": N_("days before a daily log counts as stale"),
}


def count(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(_("%(value)r is not a whole number >= 0") % {"value": text})
    return value


def add_limit_options(p: argparse.ArgumentParser, *names: str) -> None:
    """``--cap N`` etc. for the ``Limits`` fields ``names``; unset options keep the config's value."""
    defaults = Limits()
    for name in names:
        p.add_argument(
            "--" + name.replace("_", "-"), dest=name, type=count, default=None, metavar="N",
            help=_("%(what)s (default: the config file's, else %(default)s)")
            % {"what": _(HELP[name]), "default": getattr(defaults, name)},
        )


def effective_limits(args: argparse.Namespace, *names: str) -> Limits:
    """The config file's limits with the options of ``names`` that were given over them (ConfigError)."""
    given: dict[str, Any] = {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}
    return replace(load_config().limits, **given)
