"""A real MCP client session (the SDK's stdio client) against ``python -m openclaw_tui.cli mcp ...``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_profiles"


def server_env() -> dict[str, str]:
    """The test process's environment (its isolated HOME, XDG folders and git config) and this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


@asynccontextmanager
async def connect(*args: str, command: str = sys.executable, prefix: tuple[str, ...] = ("-m", "openclaw_tui.cli"),
                  ) -> AsyncIterator[ClientSession]:
    """An initialized client session with ``openclaw-tui mcp ARGS`` (a subprocess on stdio)."""
    params = StdioServerParameters(command=command, args=[*prefix, "mcp", *args], env=server_env())
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, /, **arguments: Any) -> dict[str, Any]:
    """A successful tool call's structured result (fails the test on a tool error)."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refused(session: ClientSession, tool: str, /, **arguments: Any) -> str:
    """The one-line reason of a tool call that is an error."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in text and "Traceback" not in text, text
    return text


async def tool_names(session: ClientSession) -> set[str]:
    return {t.name for t in (await session.list_tools()).tools}


def copy_samples(tmp_path: Path) -> Path:
    dest = tmp_path / "samples"
    shutil.copytree(SAMPLES, dest)
    return dest


def cli_json(*args: str) -> Any:
    """What ``openclaw-tui ARGS`` prints on stdout, as JSON (the CLI's side of a comparison)."""
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, env=server_env(),
                         check=False)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file's bytes under ``folder`` (hidden folders and lock files aside)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
            and not p.name.endswith(".lock")}
