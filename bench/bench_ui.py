"""How fast the review UI opens, lists, scrolls and filters big memories (headless).

    python bench/bench_ui.py                 # 10k and 100k entries
    python bench/bench_ui.py --entries 20000

Targets: the frame is visible in < 1 s whatever the size; 100k entries are
listed and scrollable in < 3 s; a filter keystroke is repainted in < 100 ms
at 100k entries.

Clocks (in-process, headless ``run_test``; ``t0`` is taken after Textual and
the app are imported): "frame visible" stops at the first, still empty,
paint; "listed" when the table holds every row (a row count, not a paint);
the filter figures are measured after every background worker finished
(never while start-up work runs) and give a median and a max.  What a person
waits for -- a fresh process in a real terminal, keys typed during start-up
-- is measured by ``bench/e2e.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import write_profile  # noqa: E402

from openclaw_tui.ui.rows import filter_rows, parse_query  # noqa: E402

SIZE = (160, 50)


async def _until(predicate, timeout: float = 120.0) -> float:
    """Poll until ``predicate()``; return the time it became true."""
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("the UI did not get there in time")
        await asyncio.sleep(0.002)
    return time.perf_counter()


async def _repainted(screen) -> float:
    """Wait for the next screen refresh after the pending messages; return when it happened."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[float] = loop.create_future()
    await asyncio.sleep(0)

    def mark() -> None:
        if not done.done():
            done.set_result(time.perf_counter())

    screen.call_after_refresh(mark)
    return await done


async def measure(n: int, folder: Path) -> dict[str, float]:
    from openclaw_tui.ui.app import OpenClawApp
    from openclaw_tui.ui.screens.review.main_screen import MainScreen

    prof = write_profile(folder, n, f"p{n}")
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    app = OpenClawApp(prof)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await _until(lambda: screen.first_paint_at is not None)
        out["frame visible"] = screen.first_paint_at - t0
        out["listed"] = await _until(lambda: screen.table.row_count == n) - t0
        await _repainted(screen)
        out["listed, painted"] = time.perf_counter() - t0
        screen.table.focus()
        screen.table.action_last()  # what the End key does
        await _repainted(screen)
        assert screen.table.cursor == n - 1
        out["listed + scrolled to the end"] = time.perf_counter() - t0
        out["indexed (filters ready)"] = await _until(lambda: screen.session.current.indexed) - t0
        out["checked (marks shown)"] = await _until(lambda: screen.session.current.findings is not None) - t0
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen.filter_input.focus()
        repaint = []
        for text in ("m", "me", "mem", "mem-", "mem-0", "mem-00", "mem-000", "mem-0000", "咖", "咖啡因", ""):
            start = time.perf_counter()
            screen.filter_input.value = text  # what a keystroke does: Input.Changed -> filter -> repaint
            await _repainted(screen)
            repaint.append(time.perf_counter() - start)
        out["filter keystroke repainted, median"] = statistics.median(repaint)
        out["filter keystroke repainted, max"] = max(repaint)
        pressed = []
        for ch in "mem-0000":
            start = time.perf_counter()
            await pilot.press(ch)
            await pilot.pause()
            pressed.append(time.perf_counter() - start)
        out["pilot press+pause, median"] = statistics.median(pressed)
        rows = screen.table.source
        start = time.perf_counter()
        for _ in range(5):
            filter_rows(rows, parse_query("咖啡因"))
        out["filter_rows alone"] = (time.perf_counter() - start) / 5
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, action="append", help="entries (repeatable; default 10k and 100k)")
    args = ap.parse_args(argv)
    sizes = args.entries or [10_000, 100_000]
    with tempfile.TemporaryDirectory(prefix="openclaw-bench-") as tmp:
        for n in sizes:
            results = asyncio.run(measure(n, Path(tmp)))
            print(f"{n:>7} entries")
            for name, seconds in results.items():
                print(f"  {name:<32} {seconds * 1000:9.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
