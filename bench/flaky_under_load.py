"""Run some tests again and again while other processes burn the CPU: how a test that waits on time
instead of on its condition is found (the suite passes on an idle machine and fails now and then on CI).

    python bench/flaky_under_load.py [--runs 15] [--burners 3] NODEID [NODEID...]

Each run is a fresh ``pytest -p no:randomly`` process on the given node ids (as CI runs them), with
``--burners`` processes spinning (``while True: pass``) for the whole time; they are ended, by their own
process ids, however the script ends.  Prints, per node id, the runs it passed and failed, and the slowest
run's seconds beside the median; the first lines of each failure's output are kept under /tmp.
With no node id, the tests named in the issue about flaky tests under load.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT = [
    "tests/ui/test_ui_live.py::test_selection_is_kept_across_an_external_change_to_another_entry",
    "tests/ui/test_ui_live.py::test_selection_moves_to_the_nearest_entry_when_it_is_deleted",
    "tests/ui/test_ui_live.py::test_forced_polling_is_shown_and_still_reloads",
    "tests/ui/test_ui_search_watch.py::test_an_external_write_reaches_the_index_and_the_search_screen",
    "tests/unit/test_watch.py::test_noise_is_not_reported",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--burners", type=int, default=3, help="processes spinning on the CPU meanwhile")
    ap.add_argument("nodeids", nargs="*")
    args = ap.parse_args(argv)
    nodeids = args.nodeids or DEFAULT
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out_dir = Path(tempfile.mkdtemp(prefix="flaky-under-load-"))
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.burners)]
    passed = dict.fromkeys(nodeids, 0)
    failed = dict.fromkeys(nodeids, 0)
    seconds: list[float] = []
    try:
        for i in range(args.runs):
            t0 = time.monotonic()
            proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                                   "-rfE", "-W", "always", *nodeids], cwd=REPO, env=env, capture_output=True,
                                  text=True, check=False)
            seconds.append(time.monotonic() - t0)
            out = proc.stdout + proc.stderr
            bad = set(re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.M))
            for node in nodeids:
                if any(b == node or b.startswith((node + "[", node + "::")) for b in bad):  # a file: any test of it
                    failed[node] += 1
                else:
                    passed[node] += 1
            warned = out.count("already exists for watch")
            if bad or warned:
                (out_dir / f"run-{i + 1}.txt").write_text(out, encoding="utf-8")
            print(f"run {i + 1}/{args.runs}: rc={proc.returncode} {len(bad)} failed, "
                  f"{warned} watchdog re-registration warnings, {seconds[-1]:.1f} s", flush=True)
    finally:
        for b in burners:
            b.kill()
            b.wait()
    print(f"\n{args.runs} runs with {args.burners} burners; a run's seconds: median {statistics.median(seconds):.1f},"
          f" max {max(seconds):.1f}; outputs of failed runs in {out_dir}")
    for node in nodeids:
        print(f"  {passed[node]:3d} passed {failed[node]:3d} failed  {node}")
    return 1 if any(failed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
