"""How fast ``openclaw-tui context`` answers, against a bare Python reading the same memory, in one run.

    python bench/bench_context.py                      # 10k and 100k entries, and a workspace
    python bench/bench_context.py --sizes 10000 --runs 3
    python bench/bench_context.py --logs 365 --items 20000   # the workspace's size

Profiles are made by ``bench/generate.py`` (``write_profile``), the workspace by
``bench/bench_workspace.py`` (``build``: bootstrap files, a MEMORY.md of ``--items`` items, ``--logs``
daily logs).  Every figure is a fresh process, byte-code cached as an installed app's (``e2e.as_installed``),
with a current search index in a throwaway cache folder (built once before the clocks start).  Floors,
interleaved with the figures so both see the same load on this shared machine:

- **F** (a profile): a bare Python that reads memories.md and splits it at ``---`` lines (``e2e.F_CODE``);
- **F** (a workspace): a bare Python that reads every file of it (``bench_workspace.BARE``).

Each round runs F, ``context --query Q``, ``context --query Q --json`` and, for a profile, ``context``
right after an agent changed one entry of memories.md (the index re-reads what changed); wall time (median and
max of ``--runs``) and CPU time (user + system of the child, median).  Goal: context < 1 s at 100k,
aim <= 2x F.  Then the agent view (``AgentScreen``, headless Textual in this process, the same
index): from pushing the screen to the context shown, and how long showing it held the UI thread
(median of ``--runs``).  Printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_workspace import BARE, TODAY, build  # noqa: E402
from e2e import F_CODE, as_installed  # noqa: E402
from generate import write_profile  # noqa: E402

PY = sys.executable
PROFILE_QUERY = "咖啡 work"
WORKSPACE_QUERY = "偏好"


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the child, its stdout)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"failed: {cmd}: {out.stderr[-400:]!r}")
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, out.stdout


def measure(label: str, floor: list[str], commands: dict[str, list[str]], runs: int, env: dict[str, str],
            before: dict[str, Callable[[], None]] | None = None) -> None:
    """F and each command, interleaved, ``runs`` times; ``before[name]`` runs (untimed) before each run of ``name``."""
    for cmd in commands.values():
        run(cmd, env)  # the index current, the byte-code written: not timed
    names = ["F", *commands]
    wall: dict[str, list[float]] = {k: [] for k in names}
    cpu: dict[str, list[float]] = {k: [] for k in names}
    size = {}
    for _ in range(runs):
        for name in names:
            if before and name in before:
                before[name]()
            w, c, out = run(floor if name == "F" else commands[name], env)
            wall[name].append(w)
            cpu[name].append(c)
            size[name] = len(out)
    f_wall, f_cpu = statistics.median(wall["F"]), statistics.median(cpu["F"])
    print(label, flush=True)
    print(f"  {'':<34} {'wall median':>11} {'wall max':>9} {'CPU median':>11} {'x F wall':>9} {'x F CPU':>8}"
          f" {'output':>10}")
    for name in names:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        goal = "" if name == "F" else ("  ok (< 1 s)" if w < 1.0 else "  OVER 1 s")
        out = "" if name == "F" else f"{size[name] / 1e6:7.2f} MB" if size[name] >= 1e5 else f"{size[name] / 1e3:7.1f} kB"
        print(f"  {name:<34} {w * 1000:8.0f} ms {max(wall[name]) * 1000:6.0f} ms {c * 1000:8.0f} ms"
              f" {w / f_wall:8.1f}x {c / max(f_cpu, 1e-4):7.1f}x {out:>10}{goal}", flush=True)


def change_one_entry(memories: Path, ident: str) -> Callable[[], None]:
    """An agent's write: one entry gains (then loses) a line, the file replaced whole (temp file, os.replace)."""
    state = {"on": False}

    def change() -> None:
        data = memories.read_bytes()
        line = f"id: {ident}\n".encode()
        added = line + b"note: changed by an agent\n"
        data = data.replace(added, line, 1) if state["on"] else data.replace(line, added, 1)
        state["on"] = not state["on"]
        tmp = memories.with_name(memories.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, memories)

    return change


def agent_view(folder: Path, query: str, runs: int) -> None:
    """The agent view opened ``runs`` times on ``folder``: push to shown, and the UI thread held by showing it."""
    import asyncio

    from textual.app import App

    from openclaw_tui.ui.screens.workspace.agent_screen import AgentScreen

    held: list[float] = []
    real_show = AgentScreen._show

    def show(self: AgentScreen, ctx: object) -> None:
        t0 = time.perf_counter()
        real_show(self, ctx)  # type: ignore[arg-type]
        held.append(time.perf_counter() - t0)

    AgentScreen._show = show  # type: ignore[method-assign]
    shown: list[float] = []

    async def once() -> None:
        async with App[None]().run_test(size=(160, 50)) as pilot:
            screen = AgentScreen(folder, query=query, today=TODAY)
            t0 = time.perf_counter()
            pilot.app.push_screen(screen)
            while screen.computed < 1:
                await pilot.pause(0.002)
            shown.append(time.perf_counter() - t0)

    try:
        for _ in range(runs):
            asyncio.run(once())
    finally:
        AgentScreen._show = real_show  # type: ignore[method-assign]
    print(f"  {'agent view: pushed -> context shown':<34} {statistics.median(shown) * 1000:8.0f} ms"
          f" {max(shown) * 1000:6.0f} ms  (UI thread held {statistics.median(held) * 1000:.0f} ms to show it)",
          flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000], help="profile sizes (entries)")
    ap.add_argument("--logs", type=int, default=365, help="the workspace's daily logs (0: no workspace)")
    ap.add_argument("--items", type=int, default=20_000, help="the workspace's MEMORY.md items")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    as_installed()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        os.environ["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"]  # the agent view (in this process): the same index
        print(f"openclaw-tui context: fresh processes, medians of {args.runs}, F measured in the same run")
        for n in args.sizes:
            prof = write_profile(Path(tmp) / f"p{n}", n)
            mb = (prof / "memories.md").stat().st_size / 1e6
            cmd = [PY, "-m", "openclaw_tui.cli", "context", str(prof), "--query", PROFILE_QUERY]
            changed = "context, one entry just changed"
            measure(f"layout A, {n:,} entries (memories.md {mb:.1f} MB), --query {PROFILE_QUERY!r}",
                    [PY, "-c", F_CODE, str(prof / "memories.md")],
                    {"context": cmd, "context --json": [*cmd, "--json"], changed: cmd}, args.runs, env,
                    before={changed: change_one_entry(prof / "memories.md", f"mem-{n // 2:06d}")})
            agent_view(prof, PROFILE_QUERY, args.runs)
        if args.logs:
            ws = build(Path(tmp) / "ws", args.logs, args.items)
            mb = (ws / "MEMORY.md").stat().st_size / 1e6
            cmd = [PY, "-m", "openclaw_tui.cli", "context", str(ws), "--query", WORKSPACE_QUERY,
                   "--today", TODAY.isoformat()]
            measure(f"layout B, {args.logs} daily logs, MEMORY.md {args.items:,} items ({mb:.1f} MB), "
                    f"--query {WORKSPACE_QUERY!r}", [PY, "-c", BARE, str(ws)],
                    {"context": cmd, "context --json": [*cmd, "--json"]}, args.runs, env)
            agent_view(ws, WORKSPACE_QUERY, args.runs)
    print(f"(measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
