"""OpenClaw's own configuration (``openclaw.json``, JSON5) as it bears on a workspace.

Where it is looked for, first found wins:

1. the path given with ``--openclaw-config`` (an error when it cannot be used);
2. ``$OPENCLAW_CONFIG_PATH``;
3. ``openclaw.json`` in the workspace's parent folder (the state folder of a default install:
   ``~/.openclaw/workspace`` → ``~/.openclaw/openclaw.json``);
4. ``$OPENCLAW_STATE_DIR/openclaw.json`` and ``~/.openclaw/openclaw.json``, only when their
   ``agents.defaults.workspace`` names this workspace.

The values that matter here: ``agents.defaults.bootstrapMaxChars`` / ``bootstrapTotalMaxChars``
(they win over our own ``[limits]``), the memory-search settings of the two configuration
generations (older releases: ``agents.defaults.memorySearch``; current: ``memory.search``) and
dreaming (``plugins.entries.memory-core.config.dreaming``).  The file is only read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..config import Limits

CONFIG_NAME = "openclaw.json"


class OpenClawConfigError(ValueError):
    """The given openclaw.json cannot be used; the message names the file and the reason."""


@dataclass(frozen=True)
class OpenClawConfig:
    path: Path | None  # None: no config found (defaults)
    limits: Limits
    overridden: tuple[str, ...] = ()  # Limits fields whose value came from openclaw.json
    generation: str = "unknown"  # "current" (memory.search), "older" (agents.defaults.memorySearch) or "unknown"
    memory_search: dict[str, Any] = field(default_factory=dict)
    dreaming: dict[str, Any] = field(default_factory=dict)
    workspace: str | None = None  # agents.defaults.workspace as written

    @property
    def found(self) -> bool:
        return self.path is not None

    @property
    def source(self) -> str:
        """How the UI and --json label the limits: the config's path, or "defaults"."""
        return str(self.path) if self.path is not None else "defaults"

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "found": self.found,
            "generation": self.generation,
            "overridden": list(self.overridden),
            "bootstrap_max_chars": self.limits.bootstrap_max_chars,
            "bootstrap_total_max_chars": self.limits.bootstrap_total_max_chars,
            "user_max_chars": self.limits.user_max_chars,
            "truncation": self.truncation,
            "dreaming_enabled": self.dreaming_enabled,
        }

    @property
    def truncation(self) -> str:
        """How this release cuts an over-limit bootstrap file (``bootstrap.TRUNCATION_STYLES``):
        "75/25" when the config is of the current generation (``memory.search``, the release of
        the current docs), else the spec's "70/20" (older configs, and no config at all)."""
        return "75/25" if self.generation == "current" else "70/20"

    @property
    def dreaming_enabled(self) -> bool | None:
        value = self.dreaming.get("enabled")
        return value if isinstance(value, bool) else None


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def parse_openclaw_config(text: str, path: Path, base: Limits | None = None) -> OpenClawConfig:
    """The settings of one openclaw.json text over ``base`` (our own limits)."""
    import json5

    try:
        data = json5.loads(text)
    except ValueError as exc:
        raise OpenClawConfigError(f"{path}: not valid JSON5: {exc}") from None
    if not isinstance(data, dict):
        raise OpenClawConfigError(f"{path}: not a JSON5 object")
    limits = base or Limits()
    changes: dict[str, int] = {}
    for key, attr in (("bootstrapMaxChars", "bootstrap_max_chars"), ("bootstrapTotalMaxChars", "bootstrap_total_max_chars")):
        value = _get(data, "agents", "defaults", key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise OpenClawConfigError(f"{path}: agents.defaults.{key} must be a whole number > 0, not {value!r}")
        changes[attr] = value
    current = _get(data, "memory", "search")
    older = _get(data, "agents", "defaults", "memorySearch")
    if isinstance(current, dict):
        generation, search = "current", current
    elif isinstance(older, dict):
        generation, search = "older", older
    else:
        generation, search = "unknown", {}
    dreaming = _get(data, "plugins", "entries", "memory-core", "config", "dreaming")
    ws = _get(data, "agents", "defaults", "workspace")
    return OpenClawConfig(
        path=path,
        limits=replace(limits, **changes),
        overridden=tuple(sorted(changes)),
        generation=generation,
        memory_search=dict(search),
        dreaming=dict(dreaming) if isinstance(dreaming, dict) else {},
        workspace=ws if isinstance(ws, str) else None,
    )


def _read(path: Path, base: Limits | None) -> OpenClawConfig:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise OpenClawConfigError(f"{path}: cannot be read: {exc}") from None
    return parse_openclaw_config(text, path, base)


def _names(config: OpenClawConfig, workspace: Path) -> bool:
    if config.workspace is None:
        return False
    named = Path(os.path.expanduser(config.workspace))
    try:
        return os.path.realpath(named) == os.path.realpath(workspace)
    except OSError:
        return False


def candidate_paths(workspace: Path) -> list[tuple[Path, bool]]:
    """(path, needs the workspace to be named in it) in the order they are tried."""
    out: list[tuple[Path, bool]] = []
    env = os.environ.get("OPENCLAW_CONFIG_PATH")
    if env:
        out.append((Path(os.path.expanduser(env)), False))
    out.append((Path(workspace).absolute().parent / CONFIG_NAME, False))
    state = os.environ.get("OPENCLAW_STATE_DIR")
    if state:
        out.append((Path(os.path.expanduser(state)) / CONFIG_NAME, True))
    out.append((Path.home() / ".openclaw" / CONFIG_NAME, True))
    return out


def load_openclaw_config(
    workspace: Path, explicit: Path | None = None, base: Limits | None = None
) -> OpenClawConfig:
    """The workspace's OpenClaw config, or the defaults (``base``) labelled as such.

    An ``explicit`` path that cannot be used raises OpenClawConfigError (the CLI exits 2);
    a config found in one of the usual places that cannot be parsed is skipped.
    """
    if explicit is not None:
        return _read(Path(explicit), base)
    seen: set[str] = set()
    for path, must_name in candidate_paths(workspace):
        key = os.path.realpath(path)
        if key in seen or not path.is_file():
            continue
        seen.add(key)
        try:
            config = _read(path, base)
        except OpenClawConfigError:
            continue
        if must_name and not _names(config, workspace):
            continue
        return config
    return OpenClawConfig(path=None, limits=base or Limits())
