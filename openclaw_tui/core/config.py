"""The user's settings (limits, search ranking, embedding providers, key bindings, language) from one
TOML file; every value has a default.  The file and its sections: docs/config.md."""

from __future__ import annotations

import functools
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

# (re-exported)
from .userdirs import ENV_FILE as ENV_FILE
from .userdirs import ConfigError as ConfigError
from .userdirs import cache_dir as cache_dir
from .userdirs import config_path as config_path


@dataclass(frozen=True)
class Limits:
    cap: int = 200
    cold_days: int = 90
    bootstrap_max_chars: int = 20_000
    bootstrap_total_max_chars: int = 60_000
    user_max_chars: int = 4_000
    stale_log_days: int = 30


@dataclass(frozen=True)
class SearchSettings:
    text_weight: float = 0.7
    vector_weight: float = 0.3
    half_life_days: float = 30.0
    mmr_lambda: float = 0.7
    index_on_write: bool = False
    providers: tuple[str, ...] = ()
    provider_options: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class UISettings:
    language: str = ""  # "" = not set here (--lang, then the locale's variables decide)


@dataclass(frozen=True)
class Config:
    path: Path
    found: bool = False
    limits: Limits = field(default_factory=Limits)
    search: SearchSettings = field(default_factory=SearchSettings)
    keys: dict[str, str] = field(default_factory=dict)
    ui: UISettings = field(default_factory=UISettings)

    def as_dict(self) -> dict[str, Any]:
        """The effective values, as ``openclaw-tui config --json`` prints them."""
        return {
            "path": str(self.path),
            "found": self.found,
            "limits": asdict(self.limits),
            "search": asdict(self.search) | {"providers": list(self.search.providers)},
            "keys": dict(self.keys),
            "ui": asdict(self.ui),
        }


def _typed(section: str, cls: type, raw: dict[str, Any], path: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kinds = {f.name: f.type for f in fields(cls)}
    for key, value in raw.items():
        if key not in kinds:
            raise ConfigError(f"{path}: [{section}] has no setting {key!r}")
        kind = str(kinds[key])
        if kind == "bool" and not isinstance(value, bool):
            raise ConfigError(f"{path}: [{section}] {key} must be true or false, not {value!r}")
        if kind == "int" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ConfigError(f"{path}: [{section}] {key} must be a whole number >= 0, not {value!r}")
        if kind == "float":
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ConfigError(f"{path}: [{section}] {key} must be a number >= 0, not {value!r}")
            value = float(value)
        out[key] = value
    return out


def parse_config(text: str, path: Path) -> Config:
    """A config from the text of a TOML file (``path`` only names it in messages)."""
    import tomllib  # only when there is a config file to read

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    unknown = set(data) - {"limits", "search", "keys", "ui"}
    if unknown:
        raise ConfigError(f"{path}: unknown section [{sorted(unknown)[0]}]")
    limits = Limits(**_typed("limits", Limits, dict(data.get("limits", {})), path))
    search_raw = dict(data.get("search", {}))
    options = {k: v for k, v in search_raw.items() if isinstance(v, dict)}
    providers = search_raw.pop("providers", [])
    if not isinstance(providers, list) or not all(isinstance(p, str) for p in providers):
        raise ConfigError(f"{path}: [search] providers must be a list of names")
    plain = {k: v for k, v in search_raw.items() if not isinstance(v, dict)}
    search = SearchSettings(
        **_typed("search", SearchSettings, plain, path), providers=tuple(providers), provider_options=options
    )
    keys_raw = data.get("keys", {})
    if not all(isinstance(v, str) for v in keys_raw.values()):
        raise ConfigError(f"{path}: [keys] values must be strings such as \"ctrl+f\" or \"f,slash\"")
    ui = UISettings(**_typed("ui", UISettings, dict(data.get("ui", {})), path))
    if not isinstance(ui.language, str) or ui.language and ui.language.replace("-", "_").split("_")[0].lower() not in ("en", "zh"):
        raise ConfigError(f"{path}: [ui] language must be \"en\" or \"zh_CN\", not {ui.language!r}")
    return Config(path=path, found=True, limits=limits, search=search, keys=dict(keys_raw), ui=ui)


def load_config(path: Path | None = None) -> Config:
    """The effective config: the file's values over the defaults (defaults when there is no file)."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config(path=path)
    except PermissionError as exc:  # another user's HOME (setpriv, runuser): as git does, the defaults and a warning
        _warn_once(f"openclaw-tui: warning: unable to access {path}: {exc.strerror}; using the default settings")
        return Config(path=path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    return parse_config(text, path)


@functools.cache
def _warn_once(line: str) -> None:
    """One line on stderr, once per process (the config is loaded again by later steps)."""
    print(line, file=sys.stderr)
