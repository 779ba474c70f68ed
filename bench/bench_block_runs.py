"""Where the blocks of a large memories.md start, found in runs while a filter is typed (issue 12, 1M entries).

    python bench/bench_block_runs.py                    # 1,000,000 entries (a ~190 MB file, ~1.5 GB of RAM)
    python bench/bench_block_runs.py --entries 100000

In this one process, on a profile made by ``generate.py``; each figure is the median of ``--runs`` and printed
beside F, measured in the same run.  Clocks (``time.perf_counter`` around each call, the text already read: it
is in memory when the UI's loader scans it):

- F: read memories.md and split it at ``---`` lines (``re.split``), the floor of ``e2e.py``;
- first run: from the start of ``spans.block_starts_in_parts`` to its first answer (a filter typed on the
  first rows finds the rows of that run: the UI posts each run to the table);
- whole scan: to its last answer (a filter for a word in only a few blocks waits for that);
- the same answer (starts and lines) scanned in one part, for comparison;
- a sparse filter (a 5-digit word in a few blocks): ``RawText.candidates`` over the first run and over the
  whole file, every candidate filled and filtered exactly (what one key costs the UI thread).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import write_profile  # noqa: E402
from timing import timed  # noqa: E402

from openclaw_tui.core.format.spans import block_starts_in_parts  # noqa: E402
from openclaw_tui.ui.rows import BlockRows, RawText, filter_rows, parse_query  # noqa: E402


def floor_f(path: Path) -> None:
    re.split(r"(?m)^---[ \r]*$", path.read_text(encoding="utf-8"))


def sparse(raw: RawText, word: str) -> int:
    q = parse_query(word)
    cands = list(raw.candidates(q) or [])
    for r in cands:
        r.fill()
    return len(filter_rows(cands, q))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--word", default="99999", help="the sparse filter")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-block-runs-") as tmp:
        mem = write_profile(Path(tmp), args.entries) / "memories.md"
        text = mem.read_text(encoding="utf-8")
        f = timed(lambda: floor_f(mem), args.runs)
        firsts, wholes, counts = [], [], 0
        for _ in range(args.runs):
            t = time.perf_counter()
            parts = block_starts_in_parts(text)
            first = next(parts)
            firsts.append(time.perf_counter() - t)
            last = first
            for answer in parts:
                last = answer
                counts += 1
            wholes.append(time.perf_counter() - t)
        assert first is not None and last is not None
        one_go = timed(lambda: next(block_starts_in_parts(text, part=len(text) + 1)), args.runs)
        starts, lines, end = first
        run_raw = RawText.of_blocks(BlockRows(text, starts, "memories.md", (), lines, end))
        whole_raw = RawText.of_blocks(BlockRows(text, last[0], "memories.md", (), last[1]))
        in_run = timed(lambda: sparse(RawText.of_blocks(run_raw.rows), args.word), args.runs)  # type: ignore[arg-type]
        in_whole = timed(lambda: sparse(RawText.of_blocks(whole_raw.rows), args.word), args.runs)  # type: ignore[arg-type]
        found = sparse(whole_raw, args.word)
        print(f"{args.entries:,} entries, {mem.stat().st_size / 1e6:.0f} MB; medians of {args.runs}; F = {f:.3f} s")
        print(f"first run of blocks ({len(starts):,} blocks): {statistics.median(firsts):.3f} s = "
              f"{statistics.median(firsts) / f:.2f}x F")
        print(f"whole scan in runs ({len(last[0]):,} blocks, {counts // args.runs + 1} answers): "
              f"{statistics.median(wholes):.3f} s = {statistics.median(wholes) / f:.2f}x F")
        print(f"the whole scan in one part: {one_go:.3f} s = {one_go / f:.2f}x F")
        print(f"filter {args.word!r} ({found} rows in the file): over the first run {in_run * 1000:.1f} ms, "
              f"over the whole file {in_whole * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
