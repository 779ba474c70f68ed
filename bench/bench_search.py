"""Search benchmarks: index build, queries (English, Chinese, ids), incremental update, the CLI.

    python bench/bench_search.py            # 10k and 100k entries
    python bench/bench_search.py --quick    # 10k only

Targets (2-core machine): a query answers in < 100 ms at 100k entries
(search as you type); re-indexing memories.md after one entry changed,
given the reloaded parse, < 200 ms at 100k (from disk, with a full parse,
< 2.5 s); the index builds in a background worker (no hard target,
reported).

Query clocks time warm queries on an index already built in this process;
a fresh ``openclaw-tui search`` (index built on every run) is timed by
``bench/e2e.py``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import write_profile  # noqa: E402

from openclaw_tui.core.files.reload import reload_text  # noqa: E402
from openclaw_tui.core.format.edit import set_fields  # noqa: E402
from openclaw_tui.core.format.profile import load_profile  # noqa: E402
from openclaw_tui.core.search.search import SearchIndex  # noqa: E402

QUERIES = ["coffee", "咖啡", "咖", "心悸 反应", "user", "allergic peanuts", "mem-005000", "nothingmatchesthis"]


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def row(label: str, seconds: float, target: float | None = None, extra: str = "") -> None:
    verdict = ""
    if target is not None:
        verdict = "  ok" if seconds <= target else f"  OVER target {target:g} s"
    print(f"  {label:<46} {seconds * 1000:9.1f} ms{verdict}{extra}")


def bench(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        prof_path = write_profile(Path(tmp), n)
        t0 = time.perf_counter()
        prof = load_profile(prof_path)
        row(f"load profile {n:>7,} (read + parse)", time.perf_counter() - t0)
        t0 = time.perf_counter()
        index = SearchIndex.build([prof])
        row(f"index build {n:>7,} ({len(index):,} documents)", time.perf_counter() - t0)
        for q in QUERIES:
            hits = index.search(q, 20)
            row(f"query {q!r:<24} top 20", timed(lambda q=q: index.search(q, 20)),
                0.1 if n >= 100_000 else None, f"  ({len(hits)} hits)")
        assert prof.memories is not None
        mf = prof.memories.mf
        target_id = f"mem-{n // 2:06d}"
        text = set_fields(mf, target_id, {"tags": ["benchmark", "edited"]})
        new_mf = reload_text(mf, text.encode(), consume=True).mf  # what the UI holds after a reload
        t0 = time.perf_counter()
        index.update_file(prof.memories_path, new_mf)
        row(f"update_file(path, reloaded mf), one entry edited {n:>7,}", time.perf_counter() - t0,
            0.2 if n >= 100_000 else None)
        assert [h.id for h in index.search("benchmark edited", 5)] == [target_id]
        prof.memories_path.write_text(text.replace("benchmark", "benchmarked"), encoding="utf-8")
        t0 = time.perf_counter()
        index.update_file(prof.memories_path)
        row(f"update_file(path) read + full parse + re-index {n:>7,}", time.perf_counter() - t0,
            2.5 if n >= 100_000 else None)
        assert [h.id for h in index.search("benchmarked", 5)] == [target_id]
        index.close()
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", str(prof_path), "咖啡", "--json"],
                             capture_output=True, cwd=HERE.parent)
        row(f"CLI search --json end to end {n:>7,}", time.perf_counter() - t0,
            extra="" if out.returncode == 0 else f"  FAILED {out.stderr[:200]!r}")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="10k entries only")
    args, _ = ap.parse_known_args(argv)
    print("search (queries: median of 5)")
    for n in [10_000] if args.quick else [10_000, 100_000]:
        bench(n)


if __name__ == "__main__":
    main()
