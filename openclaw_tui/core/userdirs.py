"""Where the user's config file and cache folder are (platformdirs' folders), and ``ConfigError``.

``config`` (the settings) re-exports every name.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

ENV_FILE = "OPENCLAW_TUI_CONFIG"


class ConfigError(ValueError):
    """The config file exists but cannot be used; the message names the file and the reason."""


def config_path() -> Path:
    """Where the config file is read from (it need not exist)."""
    from pathlib import Path

    return Path(config_file())


def cache_dir() -> Path:
    """The user's cache folder for openclaw-tui (the search index lives here, never in the memory)."""
    from pathlib import Path

    return Path(cache_folder())


def config_file() -> str:
    """``config_path()`` as a string, without importing ``pathlib`` (a fresh ``search`` process)."""
    env = os.environ.get(ENV_FILE)
    if env:
        return env
    simple = _xdg_simple("XDG_CONFIG_HOME", ".config")
    if simple is not None:
        return simple + "/config.toml"
    from platformdirs import user_config_dir

    return os.path.join(user_config_dir("openclaw-tui", appauthor=False), "config.toml")


def cache_folder() -> str:
    """``cache_dir()`` as a string, without importing ``pathlib`` (a fresh ``search`` process)."""
    simple = _xdg_simple("XDG_CACHE_HOME", ".cache")
    if simple is not None:
        return simple
    from platformdirs import user_cache_dir

    return user_cache_dir("openclaw-tui", appauthor=False)


def _xdg_simple(variable: str, default: str) -> str | None:
    """platformdirs' answer on Linux where every version of it agrees (an absolute ``$XDG_..`` or ``$HOME``),
    without importing it (a fresh ``search`` process); None: ask platformdirs."""
    import sys

    if sys.platform != "linux":
        return None
    xdg = os.environ.get(variable, "")
    if xdg:
        return xdg.rstrip("/") + "/openclaw-tui" if xdg.startswith("/") and xdg.strip() == xdg else None
    home = os.environ.get("HOME", "")
    return home.rstrip("/") + "/" + default + "/openclaw-tui" if home.startswith("/") else None
