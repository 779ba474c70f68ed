"""How fast the workspace view opens a big OpenClaw workspace, against a bare Python reading it.

    python bench/bench_workspace.py [--logs 365] [--items 2000] [--runs 5]

The workspace: the bootstrap files, a MEMORY.md of ``--items`` items in 40 sections (Chinese and
English) and ``--logs`` daily logs.  "Bare" is a fresh ``python -c`` process that reads every file
of it (interpreter start included); "open" is the time from pushing the workspace view in a
running app (headless) until MEMORY.md rows are drawn in its table (logs, the review queue and
the check fill in afterwards, from a worker thread).  Both in the same run, interleaved (a bare
read, then an open, ``--runs`` times: the shared machine's load hits both alike), medians of
``--runs``.  Goal: open <= 4x bare.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TODAY = dt.date(2026, 11, 30)
BARE = (
    "import os,sys\n"
    "n=0\n"
    "for d,_s,fs in os.walk(sys.argv[1]):\n"
    "    for f in fs:\n"
    "        with open(os.path.join(d,f),'rb') as h: n+=len(h.read())\n"
    "print(n)\n"
)


def build(root: Path, logs: int, items: int) -> Path:
    ws = root / "workspace"
    (ws / "memory").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("# AGENTS.md\n\n## Session Startup\n\n1. Read [SOUL.md](SOUL.md).\n"
                                  "See [soul](/concepts/soul).\n", encoding="utf-8")
    (ws / "SOUL.md").write_text("# SOUL.md\n\n## Core Truths\n\n- Be useful.\n", encoding="utf-8")
    (ws / "IDENTITY.md").write_text("# IDENTITY.md\n\n- **Name:** Bench\n", encoding="utf-8")
    user = ["# USER.md", "", "## Directives", ""]
    for i in range(30):
        user += [f"<!-- observed: 2026-0{1 + i % 9}-1{i % 9} | status: {'active' if i % 3 else 'superseded'} -->",
                 f"- Prefer option {i} for topic {i}.", ""]
    (ws / "USER.md").write_text("\n".join(user), encoding="utf-8")
    mem = ["# MEMORY.md - Long-Term Memory", ""]
    per = max(1, items // 40)
    for s in range(40):
        mem += [f"## Section {s} 第{s}节", ""]
        for k in range(per):
            n = s * per + k
            if n % 50 == 7:
                mem.append(f"<!-- openclaw-memory-promotion:memory:memory/2026-01-{1 + n % 28:02d}.md:1:2 -->")
            zh = f"用户在第{n}项里提到了一个偏好，需要以后记得。" if n % 2 else f"Item {n}: a fact about the user."
            mem.append(f"- {zh}")
        mem.append("")
    (ws / "MEMORY.md").write_text("\n".join(mem), encoding="utf-8")
    start = TODAY - dt.timedelta(days=logs - 1)
    for d in range(logs):
        day = start + dt.timedelta(days=d)
        lines = [f"# {day.isoformat()}", ""] + [
            f"- {9 + j // 2:02d}:{(j * 7) % 60:02d} note {j} of the day, 今天的第{j}条记录。" for j in range(20)
        ]
        (ws / "memory" / f"{day.isoformat()}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ws


def bare(ws: Path) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", BARE, str(ws)], check=True, capture_output=True)
    return time.perf_counter() - t


async def open_view(ws: Path, runs: int, bare_times: list[float] | None = None) -> list[float]:
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.screens.workspace.workspace_screen import WorkspaceScreen
    from openclaw_tui.ui.widgets.ws_rows import RowsView

    out = []
    app = OpenClawApp(ws, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(5):  # the main screen below finishes its own loading first
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        for _ in range(runs):
            if bare_times is not None:
                bare_times.append(bare(ws))  # the floor, measured right before this open
            t = time.perf_counter()
            screen = WorkspaceScreen(ws, today=TODAY, tab="mem")
            await app.push_screen(screen)
            table = screen.query_one("#ws-mem", RowsView)
            while not (table.row_count and table.painted):
                await asyncio.sleep(0.001)
            out.append(time.perf_counter() - t)
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.pop_screen()
            await pilot.pause()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--logs", type=int, default=365)
    p.add_argument("--items", type=int, default=2000)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        ws = build(Path(tmp), args.logs, args.items)
        from openclaw_tui.core.workspace.model import load_memory

        mem = load_memory(ws)
        assert mem is not None
        bare_times: list[float] = []
        view_times = asyncio.run(open_view(ws, args.runs, bare_times))
        b, v = statistics.median(bare_times), statistics.median(view_times)
        print(f"workspace: {args.logs} daily logs, MEMORY.md {len(mem.items)} items")
        print(f"bare python read: {b * 1000:.0f} ms (median of {args.runs})")
        print(f"workspace view open (rows on screen): {v * 1000:.0f} ms (median of {args.runs})")
        print(f"ratio: {v / b:.1f}x (goal <= 4x) {'OK' if v <= 4 * b else 'OVER'}")
        return 0 if v <= 4 * b else 1


if __name__ == "__main__":
    raise SystemExit(main())
