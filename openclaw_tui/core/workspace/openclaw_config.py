"""OpenClaw's own ``openclaw.json`` (JSON5, only read): the bootstrap limits, the configuration
generation (which release's rules apply), dreaming and the session-start settings.

Looked for in this order, first found wins: ``--openclaw-config`` (an error when unusable),
``$OPENCLAW_CONFIG_PATH``, the workspace's parent folder, then ``$OPENCLAW_STATE_DIR`` and
``~/.openclaw`` only when the file names this workspace.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from ..config import Limits

if TYPE_CHECKING:
    from .injection import StartupSettings

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
    agents: dict[str, dict[str, Any]] = field(default_factory=dict)  # agents.entries (or agents.list) by id
    startup: dict[str, Any] = field(default_factory=dict)  # agents.defaults.startupContext as written
    agent_id: str | None = None  # the agent whose workspace this is (None: the default agent)
    user_timezone: str | None = None  # agents.defaults.userTimezone (the day the daily logs count from)

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
            "release": self.release,
            "agent": self.agent_id or "main",
        }

    @property
    def release(self) -> str:
        """Which release's rules read this workspace: "older" for a config of the older generation,
        else ``injection.CURRENT_RELEASE``."""
        from .injection import CURRENT_RELEASE

        return "older" if self.generation == "older" else CURRENT_RELEASE

    def for_agent(self, agent_id: str | None) -> OpenClawConfig:
        """This config read for one agent: its ``agents.entries.<id>`` bootstrap limits win over the defaults
        (``resolveBootstrapCharLimit``: a finite number > 0, floored; anything else falls back)."""
        entry = self.agents.get((agent_id or "main").lower(), {})
        changes = {attr: math.floor(entry[key]) for key, attr in _LIMIT_KEYS if _finite(entry.get(key)) and entry[key] > 0}
        over = tuple(sorted(set(self.overridden) | set(changes)))
        return replace(self, limits=replace(self.limits, **changes), overridden=over, agent_id=agent_id)

    def startup_settings(self) -> StartupSettings:
        """``agents.defaults.startupContext`` as the release reads it (``resolveStartupContextLimits``)."""
        from .injection import StartupSettings

        def num(key: str, default: int, top: int) -> int:
            value = self.startup.get(key)
            return min(top, max(1, math.floor(float(value) if _finite(value) else default)))

        d = StartupSettings()
        return StartupSettings(self.startup.get("enabled") is not False,
                               num("dailyMemoryDays", d.daily_memory_days, 14),
                               num("maxFileBytes", d.max_file_bytes, 65_536),
                               num("maxFileChars", d.max_file_chars, 10_000),
                               num("maxTotalChars", d.max_total_chars, 50_000))

    @property
    def truncation(self) -> str:
        """How this release cuts an over-limit bootstrap file ("70/20" or "75/25")."""
        return "70/20" if self.release == "older" else "75/25"

    @property
    def dreaming_enabled(self) -> bool | None:
        value = self.dreaming.get("enabled")
        return value if isinstance(value, bool) else None


_LIMIT_KEYS = (("bootstrapMaxChars", "bootstrap_max_chars"), ("bootstrapTotalMaxChars", "bootstrap_total_max_chars"))


def _finite(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _dict(data: Any, *keys: str) -> dict[str, Any]:
    """A copy of the object at ``keys``, or {} when there is none."""
    found = _get(data, *keys)
    return dict(found) if isinstance(found, dict) else {}


def parse_openclaw_config(text: str, path: Path, base: Limits | None = None) -> OpenClawConfig:
    """The settings of one openclaw.json text over ``base`` (our own limits)."""
    import json5

    try:
        data = json5.loads(text)
    except ValueError as exc:
        raise OpenClawConfigError(f"{path}: not valid JSON5: {exc}") from None
    if not isinstance(data, dict):
        raise OpenClawConfigError(f"{path}: not a JSON5 object")
    defaults = _dict(data, "agents", "defaults")
    changes: dict[str, int] = {}
    for key, attr in _LIMIT_KEYS:
        value = defaults.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise OpenClawConfigError(f"{path}: agents.defaults.{key} must be a whole number > 0, not {value!r}")
        changes[attr] = value
    current, older = _get(data, "memory", "search"), defaults.get("memorySearch")
    generation = "current" if isinstance(current, dict) else "older" if isinstance(older, dict) else "unknown"
    search = _dict(data, "memory", "search") if generation == "current" else _dict(defaults, "memorySearch")
    ws, tz = defaults.get("workspace"), defaults.get("userTimezone")
    agents: dict[str, dict[str, Any]] = {}
    roster = _get(data, "agents", "entries")
    if isinstance(roster, dict):
        agents = {str(k).strip().lower(): v for k, v in roster.items() if isinstance(v, dict)}
    elif isinstance(_get(data, "agents", "list"), list):
        agents = {str(v["id"]).strip().lower(): v for v in data["agents"]["list"]
                  if isinstance(v, dict) and isinstance(v.get("id"), str)}
    return OpenClawConfig(
        path=path,
        limits=replace(base or Limits(), **changes),
        overridden=tuple(sorted(changes)),
        generation=generation,
        memory_search=search,
        dreaming=_dict(data, "plugins", "entries", "memory-core", "config", "dreaming"),
        workspace=ws if isinstance(ws, str) else None,
        agents=agents,
        startup=_dict(defaults, "startupContext"),
        user_timezone=tz if isinstance(tz, str) else None,
    )


def _read(path: Path, base: Limits | None) -> OpenClawConfig:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise OpenClawConfigError(f"{path}: cannot be read: {exc}") from None
    return parse_openclaw_config(text, path, base)


def _same(named: str, workspace: Path) -> bool:
    try:
        return os.path.realpath(Path(os.path.expanduser(named))) == os.path.realpath(workspace)
    except OSError:
        return False


def agent_of(config: OpenClawConfig, workspace: Path) -> str | None:
    """The id of the agent whose ``workspace`` (agents.entries.<id>.workspace) is this folder, or None."""
    for agent_id, entry in config.agents.items():
        ws = entry.get("workspace")
        if isinstance(ws, str) and _same(ws, workspace):
            return agent_id
    return None


def agent_workspaces(config: OpenClawConfig) -> dict[str, Path]:
    """Each agent's workspace named in openclaw.json (the default agent's under "main" when set)."""
    out: dict[str, Path] = {}
    if config.workspace:
        out["main"] = Path(os.path.expanduser(config.workspace))
    for agent_id, entry in config.agents.items():
        ws = entry.get("workspace")
        if isinstance(ws, str) and ws.strip():
            out[agent_id] = Path(os.path.expanduser(ws))
    return out


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
    """The workspace's OpenClaw config, or the defaults (``base``).  An ``explicit`` path that cannot be
    used raises OpenClawConfigError; one found in the usual places that cannot be parsed is skipped."""
    if explicit is not None:
        config = _read(Path(explicit), base)
        return config.for_agent(agent_of(config, workspace)) if config.agents else config
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
        if must_name and not ((config.workspace is not None and _same(config.workspace, workspace))
                              or agent_of(config, workspace) is not None):
            continue
        return config.for_agent(agent_of(config, workspace)) if config.agents else config
    return OpenClawConfig(path=None, limits=base or Limits())
