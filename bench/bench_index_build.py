"""The first search-index build's growth: time and peak RSS per entry from 10k to 100k (to 1M), printed, never asserted.

    python bench/bench_index_build.py                    # 10k and 100k entries, 3 runs each
    python bench/bench_index_build.py --sizes 1000000 --runs 1

Each run is a fresh ``openclaw-tui search PROFILE peanuts`` process with an empty cache folder (so it builds
the index: the e2e "search, first ever" figure), under GNU time (``/usr/bin/time``): the clock starts before
the process is started and stops when it has exited; CPU is the child's user + system time, RSS its peak.
F, measured in the same run just before, is a bare Python reading memories.md and splitting it at ``---``
lines (``e2e.F_CODE``).  Per entry, each figure is set against the smallest size's (1.00x: linear).  The
machine is shared: CPU time moves less with the load than wall time; the sizes are interleaved (a round
runs each size once) and the medians of ``--runs`` rounds are printed.

A fresh process also pays a fixed cost (Python, the imports, the query: ~0.15 s, a fifth of the 10k
build), which makes the small size's time per entry look dearer.  So each run then repeats the same
``search`` with the index now current (clock and figures as above): ``build only`` is the build's wall and
CPU time less that run's, per entry, again against the smallest size's.  ``on disk``: the database with
any WAL or journal left beside it once the build process has exited.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from e2e import F_CODE, as_installed  # noqa: E402
from generate import write_profile  # noqa: E402

TIME_FORMAT = "WALL %e CPU %U %S RSS %M"


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one fresh process."""
    out = subprocess.run(["/usr/bin/time", "-f", TIME_FORMAT, *cmd], capture_output=True, env=env, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"failed: {cmd}: {out.stderr[-400:]!r}")
    m = re.search(rb"WALL ([\d.]+) CPU ([\d.]+) ([\d.]+) RSS (\d+)", out.stderr)
    assert m is not None, out.stderr
    return float(m[1]), float(m[2]) + float(m[3]), int(m[4]) / 1024


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    if not shutil.which("/usr/bin/time"):
        raise SystemExit("needs GNU time (/usr/bin/time)")
    as_installed()
    print(f"first index build (fresh `search` process, empty cache), medians of {args.runs}; F in the same run")
    print(f"  {'entries':>9} {'F wall':>8} {'F RSS':>7} {'wall':>8} {'CPU':>8} {'RSS':>8} {'x F wall':>8}"
          f" {'x F RSS':>8} {'wall/entry':>11} {'CPU/entry':>10}   {'current':>8} {'build only: wall/entry':>22}"
          f" {'CPU/entry':>10} {'on disk':>8}")
    base: tuple[float, float] | None = None
    base_only: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory(prefix="openclaw-build-") as tmp:
        profs = {n: write_profile(Path(tmp) / f"p{n}", n) for n in args.sizes}
        keys = ("fw", "frss", "wall", "cpu", "rss", "disk", "again_w", "again_c")
        got: dict[int, dict[str, list[float]]] = {n: {k: [] for k in keys} for n in args.sizes}
        # the sizes interleaved, one run of each a round: a slow minute of the shared machine falls on all of them
        for i in range(args.runs):
            for n in args.sizes:
                prof, g = profs[n], got[n]
                env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / f"cache{n}-{i}"))
                env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
                f = timed([sys.executable, "-c", F_CODE, str(prof / "memories.md")], env)
                g["fw"].append(f[0])
                g["frss"].append(f[2])
                search = [sys.executable, "-m", "openclaw_tui.cli", "search", str(prof), "peanuts", "-n", "5"]
                w, c, r = timed(search, env)
                g["wall"].append(w)
                g["cpu"].append(c)
                g["rss"].append(r)
                g["disk"].append(sum(f.stat().st_size for f in Path(env["XDG_CACHE_HOME"]).rglob("*.sqlite3*")) / 1e6)
                w, c, _r = timed(search, env)  # the same, the index current: the fixed cost of a fresh process
                g["again_w"].append(w)
                g["again_c"].append(c)
                shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
        for n in args.sizes:
            m = {k: statistics.median(v) for k, v in got[n].items()}
            w, c, r, f_w, f_r = m["wall"], m["cpu"], m["rss"], m["fw"], m["frss"]
            per = (w / n, c / n)
            if base is None:
                base = per
            only = ((w - m["again_w"]) / n, (c - m["again_c"]) / n)
            if base_only is None:
                base_only = only
            print(f"  {n:>9,} {f_w:7.2f}s {f_r:5.0f}MB {w:7.2f}s {c:7.2f}s {r:6.0f}MB {w / f_w:7.1f}x {r / f_r:7.1f}x"
                  f" {per[0] * 1e6:6.0f} µs {per[0] / base[0]:.2f}x {per[1] * 1e6:5.0f} µs {per[1] / base[1]:.2f}x"
                  f"   {m['again_w']:7.2f}s {only[0] * 1e6:15.0f} µs {only[0] / base_only[0]:.2f}x"
                  f" {only[1] * 1e6:5.0f} µs {only[1] / base_only[1]:.2f}x {m['disk']:6.0f}MB",
                  flush=True)
    print(f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
