"""How a field value is written as one line of YAML (``render_scalar``); PyYAML is imported only to
quote a value that cannot be written plain, so plain edits start quickly."""

from __future__ import annotations

import re
from typing import Any

# Plain scalars that YAML 1.1 would read as something other than a string.
_NON_STRING = re.compile(
    r"""(?x)
    ~|null|Null|NULL
    |y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    |[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*)
    |[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)
    |<<|=
    """
)
_PLAIN_SAFE = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n\r]*")


def render_scalar(value: Any) -> str:
    """Render a Python value as a one-line YAML scalar or flow list."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{render_scalar(k)}: {render_scalar(v)}" for k, v in value.items()) + "}"
    text = str(value)
    if (
        text
        and _PLAIN_SAFE.fullmatch(text)
        and not _NON_STRING.fullmatch(text)
        and ": " not in text
        and " #" not in text
        and not text.endswith((" ", ":"))
        and "," not in text
        and "]" not in text
    ):
        return text
    return quoted(text)


def quoted(text: str) -> str:
    """``text`` as a double-quoted YAML scalar on one line."""
    import yaml  # only for a value that must be quoted: plain values need no YAML library

    dumped = yaml.dump(text, default_style='"', allow_unicode=True, width=1 << 30)
    return dumped.split("\n...")[0].rstrip("\n")
