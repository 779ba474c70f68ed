"""The workspace view shows what OpenClaw 2026.9.6 gives the agent, as `context` counts it: the
MEMORY.md rows in the cut-out middle "not received", the bars' numbers equal to context's, a shared
session's MEMORY.md "not loaded", USER.md without markers shown line by line, retired files named."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.search.context import agent_context
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
from openclaw_tui.ui.widgets.bootstrap_bars import bars_text
from tests.ui_support import settle

TODAY = dt.date(2026, 11, 20)


def _ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    items = "".join(f"- item {i:04d} 😀 remembered\n" for i in range(1200))  # ~32,000 UTF-16 units
    (ws / "MEMORY.md").write_text("# Memory\n\n## Facts\n" + items, encoding="utf-8")
    (ws / "USER.md").write_text("# User\n\n- Prefers tea\n- Lives in Lyon\n", encoding="utf-8")
    (ws / "AGENTS.md").write_text("# Agents\n- must test\n", encoding="utf-8")
    (ws / "TOOLS.md").write_text("tools\n", encoding="utf-8")
    return ws


async def test_memory_rows_in_the_cut_are_not_received(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    ws = _ws(tmp_path)
    ctx = agent_context(load_profile(ws, ".", "openclaw"), "", today=TODAY)
    memory = next(p for p in ctx.parts if p.file == "MEMORY.md")
    assert memory.truncated
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = WorkspaceScreen(ws, today=TODAY, tab="mem")
        await pilot.app.push_screen(screen)
        await settle(pilot)
        rows = screen.row_keys["mem"]
        got = {r.text: screen._reception(r) for r in rows if r.kind == "item"}
        assert got["item 0000 😀 remembered"] == "received"
        assert got["item 1199 😀 remembered"] == "received"  # the tail
        assert got["item 0600 😀 remembered"] == "not received"
        assert list(got.values()).count("partly") <= 2  # an item astride each edge of the cut
        # the rows received are exactly what the injected copy holds
        for text, status in got.items():
            assert (text in memory.text) == (status == "received") or status == "partly"
        cells = screen._memory_cells(next(r for r in rows if r.text == "item 0600 😀 remembered"))
        assert "not received" in str(cells[3])
        # the bars say what context says, to the character
        bars = bars_text(screen.parts, screen.config.limits, "defaults", "main").plain
        assert f"CUT to {memory.chars:,}" in bars and "not injected by the current release" in bars
        assert "folds TOOLS.md into AGENTS.md" in bars
        # USER.md without markers: its lines, and why there are no directives
        await pilot.press("3")
        await settle(pilot)
        user_rows = screen.query_one("#ws-user").rows  # type: ignore[attr-defined]
        shown = " ".join(str(c) for row in user_rows for c in row)
        assert "no markers" in shown and "Prefers tea" in shown and "Lives in Lyon" in shown
        # a shared session: MEMORY.md is not loaded (no red over-limit bar)
        screen.session = "shared"
        screen.reload()
        await settle(pilot)
        bars = bars_text(screen._injected(), screen.config.limits, "defaults", "shared").plain
        line = next(x for x in bars.splitlines() if x.startswith("MEMORY.md"))
        assert "not loaded" in line and "+" not in line
        assert screen._reception(rows[5]) == "not loaded"


def test_the_cut_preview_counts_what_the_marker_and_the_check_count() -> None:
    """The preview under the bars says the kept head and tail as OpenClaw's marker line and the check do."""
    import re
    import subprocess
    import sys

    from openclaw_tui.core.workspace.bootstrap import Limits, bootstrap_sizes
    from openclaw_tui.ui.widgets.bootstrap_bars import preview_text

    ws = Path(__file__).resolve().parents[2] / "sample_profiles" / "workspace-zh"
    part = next(p for p in bootstrap_sizes(ws, Limits()) if p.name == "MEMORY.md")
    head, tail = (int(n) for n in re.search(r"kept (\d+)\+(\d+) chars", part.text).groups())  # type: ignore[union-attr]
    shown = preview_text(part).plain
    assert f"{head:,} characters kept before the cut" in shown and f"{tail:,} characters kept after the cut" in shown
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "check", str(ws), "--format", "json",
                          "--today", "2026-11-30"], capture_output=True, text=True, check=False).stdout
    assert f"kept {head:,}+{tail:,}" in out
