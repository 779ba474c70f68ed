"""The bench scripts' one in-process timer: the median of a few calls of a function."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median wall seconds of ``repeat`` calls of ``fn``."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)
