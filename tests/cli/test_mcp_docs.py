"""docs/mcp.md works as written: its client configurations start a server that answers."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.mcp_support import REPO, call, connect, copy_samples

DOC = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
PLACEHOLDERS = ("/path/to/memory", "/path/to/profiles/assistant")


def desktop_entry() -> dict[str, object]:
    """The ``mcpServers`` entry of the doc's JSON block."""
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.S) if "mcpServers" in b]
    assert len(blocks) == 1, "docs/mcp.md should show one mcpServers block"
    servers = blocks[0]["mcpServers"]
    assert list(servers) == ["openclaw-memory"]
    return servers["openclaw-memory"]  # type: ignore[no-any-return]


def openclaw_entry() -> dict[str, object]:
    """The JSON given to ``openclaw mcp set`` in the doc."""
    line = next(ln for ln in DOC.splitlines() if ln.startswith("openclaw mcp set "))
    name, value = shlex.split(line)[3:]
    assert name == "openclaw-memory"
    return json.loads(value)  # type: ignore[no-any-return]


def placed(args: list[str], folder: Path) -> list[str]:
    return [str(folder) if a in PLACEHOLDERS else a for a in args]


def command_path(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not on PATH: install the package (pip install -e '.[mcp]')", pytrace=False)
    return found


@pytest.mark.parametrize("entry", [desktop_entry, openclaw_entry], ids=["mcpServers", "openclaw mcp set"])
async def test_the_documented_command_serves_the_memory(tmp_path: Path, entry: object) -> None:
    config = entry()  # type: ignore[operator]
    assert config["command"] == "openclaw-tui"
    args = placed(list(config["args"]), copy_samples(tmp_path) / "profiles" / "xiaoyu")
    assert args[0] == "mcp" and any(PLACEHOLDERS[0] in a or PLACEHOLDERS[1] in a for a in config["args"])
    async with connect(*args[1:], command=command_path("openclaw-tui"), prefix=()) as s:
        found = await call(s, "memory_search", query="团子")
        assert any(h["id"] == "mem-0003" for h in found["results"])


def test_the_other_registrations_run_the_same_command() -> None:
    entry = desktop_entry()
    claude = next(ln for ln in DOC.splitlines() if ln.startswith("claude mcp add "))
    words = shlex.split(claude)
    assert words[3] == "openclaw-memory" and words[4] == "--"
    assert words[5:] == [entry["command"], *entry["args"]]  # type: ignore[list-item]
    add = next(ln for ln in DOC.splitlines() if ln.startswith("openclaw mcp add "))
    words = shlex.split(add)
    assert words[words.index("--command") + 1] == entry["command"]
    assert [words[i + 1] for i, w in enumerate(words) if w == "--arg"] == openclaw_entry()["args"]
