"""Where the user's config file and cache folder are, and ``ConfigError`` (re-exported by ``config``)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir

ENV_FILE = "OPENCLAW_TUI_CONFIG"


class ConfigError(ValueError):
    """The config file exists but cannot be used; the message names the file and the reason."""


def config_path() -> Path:
    """Where the config file is read from (it need not exist): ``$OPENCLAW_TUI_CONFIG``, else
    ``config.toml`` in platformdirs' folder."""
    return Path(os.environ.get(ENV_FILE) or os.path.join(user_config_dir("openclaw-tui", appauthor=False), "config.toml"))


def cache_dir() -> Path:
    """The user's cache folder for openclaw-tui (the search index lives here, never in the memory)."""
    return Path(cache_folder())


def cache_folder() -> str:
    """``cache_dir()`` as a string (platformdirs' user cache folder)."""
    return user_cache_dir("openclaw-tui", appauthor=False)
