"""`openclaw-tui config [--json]`: the config file's path and the settings in effect, as TOML (or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from ...core.config import ENV_FILE, Config, ConfigError, config_path, load_config
from ...core.i18n import _, language
from ._output import fail

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "config",
        help=_("print the config file's path and the settings in effect"),
        description=_("Print where openclaw-tui reads its settings (limits, search, keys) and the values in effect."),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else json.dumps(name, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


def to_toml(config: Config) -> str:
    """The effective settings as a TOML document (``load_config`` reads it back to the same values)."""
    data = config.as_dict()
    out: list[str] = ["[limits]"]
    out += [f"{_key(k)} = {_value(v)}" for k, v in data["limits"].items()]
    search = dict(data["search"])
    options: dict[str, Any] = search.pop("provider_options", {}) or {}
    out += ["", "[search]"] + [f"{_key(k)} = {_value(v)}" for k, v in search.items()]
    for name, table in options.items():
        out += ["", f"[search.{_key(name)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    out += ["", "[keys]"] + [f"{_key(k)} = {_value(v)}" for k, v in data["keys"].items()]
    out += ["", "[ui]"] + [f"{_key(k)} = {_value(v)}" for k, v in data["ui"].items()]
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        return fail(str(exc))
    if args.json:
        sys.stdout.write(json.dumps(config.as_dict(), ensure_ascii=False, indent=2) + "\n")
        return 0
    where = config_path()
    notes = [_("named by $%(variable)s") % {"variable": ENV_FILE}] if os.environ.get(ENV_FILE) else []
    if not config.found:
        try:
            where.stat()
            why = _("not read")
        except FileNotFoundError:
            why = _("no such file")
        except OSError as exc:  # a folder on the way that permission denies (load_config warned)
            why = _("cannot be read (%(reason)s)") % {"reason": exc.strerror}
        notes.append(_("%(why)s: the defaults below are in effect") % {"why": why})
    state = f"  ({'; '.join(notes)})" if notes else ""
    lang, why = language()
    head = _("# config file: %(path)s%(state)s") % {"path": where, "state": state}
    said = _("# language: %(language)s (from %(why)s)") % {"language": lang, "why": why}
    sys.stdout.write(f"{head}\n{said}\n\n" + to_toml(config))
    return 0
