"""Watching benchmarks: write -> callback latency, and reloading one changed entry of a big file.

    python bench/bench_watch.py            # latency + reload at 100k entries
    python bench/bench_watch.py --quick    # reload at 10k

Targets (2-core machine): p95 latency from an external write to the
callback < 500 ms (debounce 0.15 s included), over 100 writes; reload
(parse + diff_ids) of one changed entry in a 100k-entry file < 300 ms.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import memories_text  # noqa: E402

from openclaw_tui.core.files.reload import diff_ids  # noqa: E402
from openclaw_tui.core.files.store import MemoryDoc  # noqa: E402
from openclaw_tui.core.files.watch import ChangeBatch, MemoryWatcher  # noqa: E402
from openclaw_tui.core.format.edit import set_fields  # noqa: E402
from openclaw_tui.core.format.entries import parse  # noqa: E402


def row(label: str, seconds: float, target: float | None = None) -> None:
    verdict = ""
    if target is not None:
        verdict = "  ok" if seconds <= target else f"  OVER target {target:g} s"
    print(f"  {label:<52} {seconds * 1000:9.1f} ms{verdict}")


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


def bench_latency(writes: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / "profiles" / "assistant" / "memories.md"
        path.parent.mkdir(parents=True)
        path.write_text("---\nid: mem-0001\n---\nfirst\n", encoding="utf-8")
        arrived = threading.Event()
        stamp = [0.0]

        def on_change(batch: ChangeBatch) -> None:
            stamp[0] = time.perf_counter()
            arrived.set()

        latencies: list[float] = []
        with MemoryWatcher(root, on_change) as w:
            mode = w.mode
            for i in range(writes):
                arrived.clear()
                t0 = time.perf_counter()
                if i % 2:
                    with open(path, "a", encoding="utf-8") as fh:  # in place
                        fh.write(f"line {i}\n")
                else:  # atomic save: tmp + os.replace
                    tmp_file = path.with_name(f".memories.md.{i}.tmp")
                    tmp_file.write_text(f"---\nid: mem-0001\n---\nversion {i}\n", encoding="utf-8")
                    os.replace(tmp_file, path)
                if not arrived.wait(10):
                    print(f"  write {i}: no callback within 10 s")
                    continue
                latencies.append(stamp[0] - t0)
    print(f"watch latency ({mode}, debounce 0.15 s, {len(latencies)} writes)")
    row("median write -> callback", statistics.median(latencies))
    row("p95 write -> callback", p95(latencies), 0.5)


def bench_reload(n: int, repeat: int = 5) -> None:
    text = memories_text(n)
    mid = f"mem-{n // 2:06d}"
    print(f"reload one changed entry of {n:,} entries (median of {repeat})")
    base = parse(text)
    edited = base.to_bytes()[:0] + set_fields(base, mid, {"importance": "low", "tags": ["edited"]}).encode()
    appended = (text + f"---\nid: mem-{n + 1:06d}\n---\nnew from the agent\n").encode()
    for label, new in (("edit in the middle", edited), ("agent append at the end", appended)):
        times: list[float] = []
        for _ in range(repeat):
            old = parse(text)
            gc.collect()
            t0 = time.perf_counter()
            diff = diff_ids(old, MemoryDoc.from_bytes(Path("memories.md"), new, old).mf)
            times.append(time.perf_counter() - t0)
            assert len(diff.touched) == 1, diff
        row(f"{label}: reparse + diff_ids", statistics.median(times), 0.3 if n >= 100_000 else None)
    old = parse(text)
    t0 = time.perf_counter()
    diff_ids(old, parse(edited.decode()))
    row("reference: full parse + diff_ids", time.perf_counter() - t0)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="reload at 10k entries only")
    ap.add_argument("--writes", type=int, default=100)
    args, _ = ap.parse_known_args(argv)
    bench_latency(args.writes)
    bench_reload(10_000 if args.quick else 100_000)


if __name__ == "__main__":
    main()
