"""`check`, `context` and the workspace view's bars state the same bootstrap sizes and verdicts (issue 27).

Each generated workspace is checked with `check --format json` and `context --json` (real subprocesses)
and opened in the workspace view (Pilot): every bootstrap file's size in UTF-16 units, whether it is cut
by its own limit or by the total, and what the agent receives must read the same in all three, by the
rules of the release the workspace's openclaw.json selects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from openclaw_tui.ui.widgets.bootstrap_bars import BootstrapBars
from tests.ui_support import TODAY, settle

EMOJI = "😀"  # one code point, two UTF-16 units
OLDER = "{agents: {defaults: {memorySearch: {enabled: true}}}}\n"  # an older release's configuration


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def emoji_memory(total_units: int) -> str:
    """A MEMORY.md of ``total_units`` UTF-16 units (after trimEnd): 600 items of four emoji, then padding
    (2,400 units more than code points)."""
    head = "# Memory\n\n" + "".join(f"- {EMOJI * 4} item {i:04d}\n" for i in range(600))
    return head + "x" * (total_units - units(head)) + "\n \n"  # the trailing space is trimmed first


def make(tmp_path: Path, name: str, files: dict[str, str], config: str | None = None) -> Path:
    home = tmp_path / name  # its own state folder: openclaw.json beside the workspace
    ws = home / "workspace"
    (ws / "memory").mkdir(parents=True)
    for rel, text in files.items():
        (ws / rel).write_text(text, encoding="utf-8")
    if config is not None:
        (home / "openclaw.json").write_text(config, encoding="utf-8")
    return ws


def cli(*args: str) -> dict[str, Any]:
    res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ))
    assert res.returncode in (0, 1), res.stderr
    return json.loads(res.stdout)  # type: ignore[no-any-return]


async def bars_of(ws: Path) -> dict[str, str]:
    """The workspace view's bars, one line per file (and the total), as drawn."""
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        screen = WorkspaceScreen(ws, today=TODAY, tab="boot")
        await pilot.app.push_screen(screen)
        await settle(pilot)
        content = screen.query_one("#ws-bars", BootstrapBars).content
        plain = getattr(content, "plain", str(content))
    return {line.split()[0]: line for line in plain.splitlines() if line.strip()}  # "Limits:" first


def facts(ws: Path) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    ctx = cli("context", str(ws), "--json", "--session", "main", "--today", TODAY.isoformat())
    check = cli("check", str(ws), "--format", "json", "--fail-on", "never", "--today", TODAY.isoformat())
    found = [f for f in check["findings"] if f["code"] == "oversized-bootstrap"]
    return ctx, {i["file"]: i for i in ctx["injected"] if not i["missing"]}, found


def agree(ctx: dict[str, Any], injected: dict[str, Any], found: list[dict[str, Any]], bars: dict[str, str],
          own: dict[str, int]) -> None:
    """The three say the same: sizes, the cut, over or under each file's own limit and the total."""
    reasons = {p["file"]: p["reason"] for p in ctx["parts"]}
    by_total = [f for f in injected if "bootstrap total" in reasons.get(f, "")]
    own_msgs = {f["file"]: f["message"] for f in found if "limit" in f["message"]}
    total_msgs = [f for f in found if "reach the total" in f["message"]]
    for name, it in injected.items():
        line = bars[name]
        assert f" {it['raw_chars']:,} / " in line, (name, line)  # the bar's size is context's
        assert (f"CUT to {it['chars']:,}" in line) == it["truncated"], (name, line)
        over = it["raw_chars"] > own.get(name, 20_000)
        assert (name in own_msgs) == over, (name, own_msgs)  # check's verdict is context's
        if over:
            msg = own_msgs[name]
            assert f"{it['raw_chars']:,} characters as OpenClaw counts them" in msg
            assert f"a cut copy of {it['chars']:,}" in msg and f" of {it['raw_chars']:,})" in msg
            assert it["truncated"]
    assert bool(total_msgs) == bool(by_total)
    if by_total:
        first = injected[by_total[0]]
        assert total_msgs[0]["file"] == by_total[0]
        assert f"cut to {first['chars']:,}" in total_msgs[0]["message"]
    total = sum(i["chars"] for i in ctx["injected"])
    assert f" {total:,} / {ctx['limits']['bootstrap_total_max_chars']:,}" in bars["total"]


@pytest.mark.parametrize(("size", "over"), [(20_000, False), (20_001, True), (20_900, True)])
async def test_emoji_memory_at_the_limit_in_utf16_units(tmp_path: Path, size: int, over: bool) -> None:
    text = emoji_memory(size)
    assert len(text.rstrip()) == size - 2_400 < 20_000  # in code points it is under: only UTF-16 tells
    ws = make(tmp_path, f"m{size}", {"MEMORY.md": text, "AGENTS.md": "# Agents\n", "SOUL.md": "soul\n",
                                      "IDENTITY.md": "me\n"})
    ctx, injected, found = facts(ws)
    assert injected["MEMORY.md"]["raw_chars"] == size and injected["MEMORY.md"]["truncated"] == over
    assert [f["file"] for f in found] == (["MEMORY.md"] if over else [])
    agree(ctx, injected, found, await bars_of(ws), {})
    if over:  # what the agent receives: the 75/25 cut, kept head+tail of the size
        assert "kept " in found[0]["message"] and f"of {size:,})" in found[0]["message"]


async def test_tools_md_over_the_limit_is_not_sized_by_the_current_release(tmp_path: Path) -> None:
    ws = make(tmp_path, "tools", {"TOOLS.md": "t" * 25_000 + "\n", "HEARTBEAT.md": "h" * 21_000,
                                  "memory.md": "m" * 22_000, "AGENTS.md": "# Agents\n", "SOUL.md": "s\n",
                                  "IDENTITY.md": "i\n"})
    ctx, injected, found = facts(ws)
    assert ctx["rules"]["release"] == "2026.9.6"
    assert found == [] and not {"TOOLS.md", "HEARTBEAT.md", "memory.md"} & set(injected)
    bars = await bars_of(ws)
    assert "not injected by the current release" in bars["TOOLS.md"] and "25,000" not in bars["TOOLS.md"]
    agree(ctx, injected, found, bars, {})


async def test_total_over_budget(tmp_path: Path) -> None:
    ws = make(tmp_path, "total", {"AGENTS.md": "a" * 18_000, "SOUL.md": "s" * 18_000, "IDENTITY.md": "i" * 18_000,
                                  "USER.md": EMOJI * 1_500, "MEMORY.md": "m" * 18_000})
    ctx, injected, found = facts(ws)
    assert injected["USER.md"]["raw_chars"] == 3_000  # 1,500 emoji: 3,000 units, within USER.md's 4,000
    assert injected["MEMORY.md"]["chars"] == 3_000 and injected["MEMORY.md"]["truncated"]  # what 60,000 left
    assert [f["file"] for f in found] == ["MEMORY.md"]
    assert "reach the total of 60,000" in found[0]["message"]
    bars = await bars_of(ws)
    agree(ctx, injected, found, bars, {})
    assert " 57,000 " not in bars["total"] and " 60,000 / 60,000" in bars["total"]


async def test_an_older_release_sizes_tools_md_and_cuts_70_20(tmp_path: Path) -> None:
    tools = "# Tools\n" + EMOJI * 10_000 + "t" * 4_992  # 25,000 UTF-16 units, 15,000 code points
    ws = make(tmp_path, "older", {"TOOLS.md": tools, "MEMORY.md": emoji_memory(20_500), "AGENTS.md": "# A\n",
                                  "SOUL.md": "s\n", "IDENTITY.md": "i\n", "USER.md": "u" * 4_100},
              config=OLDER)
    ctx, injected, found = facts(ws)
    assert ctx["rules"]["release"] == "older"
    assert injected["TOOLS.md"]["raw_chars"] == 25_000 and injected["TOOLS.md"]["truncated"]
    assert sorted(f["file"] for f in found) == ["MEMORY.md", "TOOLS.md", "USER.md"]
    msgs = {f["file"]: f["message"] for f in found}
    assert "kept 14,000+4,000 of 25,000" in msgs["TOOLS.md"]  # 70% head, 20% tail of the limit
    assert "kept 14,000+4,000 of 20,500" in msgs["MEMORY.md"] and "older OpenClaw release" in msgs["MEMORY.md"]
    assert "over its 4,000-character limit" in msgs["USER.md"]
    agree(ctx, injected, found, await bars_of(ws), {"USER.md": 4_000})


@pytest.mark.parametrize("config", [None, OLDER])
async def test_our_user_max_chars_is_the_older_release_s_cap_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str | None) -> None:
    """USER.md's cap is 4,000 in the current release's code; our ``user_max_chars`` (100 here) is what an
    older release applied: check, context's limits and the bars' label follow the release, not the setting."""
    ours = tmp_path / "config.toml"
    ours.write_text("[limits]\nuser_max_chars = 100\n", encoding="utf-8")
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(ours))  # for the subprocesses and the app alike
    ws = make(tmp_path, "user", {"USER.md": "u" * 500, "AGENTS.md": "# A\n", "SOUL.md": "s\n",
                                 "IDENTITY.md": "i\n"}, config=config)
    ctx, injected, found = facts(ws)
    cap = 100 if config else 4_000
    assert ctx["limits"]["user_max_chars"] == cap
    assert [f["file"] for f in found] == (["USER.md"] if config else [])
    bars = await bars_of(ws)
    assert f"USER.md {cap:,} " in bars["Limits:"]
    agree(ctx, injected, found, bars, {"USER.md": cap})


def test_the_logs_tab_counts_a_daily_log_in_utf16_units(tmp_path: Path) -> None:
    from openclaw_tui.core.workspace.model import load_daily_logs

    text = "# 2026-11-30\n\n- " + EMOJI * 100 + " party\n"
    ws = make(tmp_path, "logs", {"memory/2026-11-30.md": text, "AGENTS.md": "# A\n"})
    (log,) = load_daily_logs(ws, TODAY)
    assert log.chars == units(text) == len(text) + 100
