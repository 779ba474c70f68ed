"""SIGKILL real archive / restore / gc processes at random points; the profile must stay consistent.

    python bench/crash.py                      # 30 trials on a 100k-entry profile
    python bench/crash.py --entries 10000 --trials 5 --seed 7

Each trial starts one editing command as a subprocess on the same profile,
kills it with SIGKILL after a random delay (from 0 to a little over the time
such a command takes), then runs one more command (``check``), and asserts:
every id is defined exactly once across memories.md and the archive, nothing
is lost or malformed, and the check reports no ``duplicate-id``.  Prints one
line per trial and a summary; exit status 1 when a trial failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

from generate import write_profile  # noqa: E402

from openclaw_tui.core.format.entries import parse_bytes  # noqa: E402


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "openclaw_tui.cli", *args]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def id_copies(prof: Path) -> tuple[Counter[str], list[str], dict[str, set[str]]]:
    """(copies of each well-formed id, malformed blocks, ids per file)."""
    counts: Counter[str] = Counter()
    malformed: list[str] = []
    where: dict[str, set[str]] = {}
    for rel in ("memories.md", "contexts/archive/memories.md"):
        p = prof / rel
        data = p.read_bytes() if p.exists() else b""
        ids: set[str] = set()
        for e in parse_bytes(data).entries:
            if e.error is not None:
                malformed.append(f"{rel}:{e.line}")
            elif e.id is not None:
                counts[e.id] += 1
                ids.add(e.id)
        where[rel] = ids
    return counts, malformed, where


def _pick_command(prof: Path, rng: random.Random, where: dict[str, set[str]]) -> list[str]:
    active = sorted(where["memories.md"])
    archived = sorted(where["contexts/archive/memories.md"])
    roll = rng.random()
    if archived and roll < 0.35:
        return ["restore", str(prof), rng.choice(archived)]
    if roll < 0.8 and active:
        return ["archive", str(prof), *rng.sample(active, min(len(active), rng.randint(1, 50)))]
    day = f"20{rng.randint(25, 40)}-{rng.randint(1, 12):02d}-15"
    return ["gc", str(prof), "--today", day]


def crash_trials(
    entries: int, trials: int, seed: int = 1, work: Path | None = None, say: Callable[[str], None] = print
) -> list[str]:
    """Run the trials; returns the failures (empty: every trial left a consistent profile)."""
    rng = random.Random(seed)
    tmp = tempfile.TemporaryDirectory(prefix="oc-crash-") if work is None else None
    root = Path(tmp.name) if tmp is not None else Path(work)  # type: ignore[arg-type]
    failures: list[str] = []
    try:
        prof = write_profile(root, entries)
        counts, malformed, where = id_copies(prof)
        expected = set(counts)
        durations: dict[str, float] = {}
        some = sorted(where["memories.md"])[0]
        for probe in (["archive", str(prof), some], ["restore", str(prof), some], ["gc", str(prof), "--today", "2025-01-01"]):
            start = time.monotonic()  # one uninterrupted run of each, so kills spread over a whole run
            subprocess.run(_cli(*probe), env=_env(), capture_output=True, timeout=600)
            durations[probe[0]] = time.monotonic() - start
        counts, malformed, where = id_copies(prof)
        for trial in range(1, trials + 1):
            cmd = _pick_command(prof, rng, where)
            kind = cmd[0]
            delay = rng.uniform(0.0, durations[kind] * 1.1)
            started = time.monotonic()
            proc = subprocess.Popen(_cli(*cmd), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                proc.wait(timeout=delay)
                killed = False
                durations[kind] = time.monotonic() - started  # the next kill of this kind spreads over this
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                killed = True
            after = subprocess.run(_cli("check", str(prof), "--format", "json", "--fail-on", "never"),
                                   env=_env(), capture_output=True, text=True, timeout=600)
            problems: list[str] = []
            if after.returncode != 0 or "Traceback" in after.stderr:
                problems.append(f"check exited {after.returncode}: {after.stderr.strip()[-300:]}")
            else:
                dups = [f for f in json.loads(after.stdout)["findings"] if f["code"] == "duplicate-id"]
                if dups:
                    problems.append(f"{len(dups)} duplicate-id findings, e.g. {dups[0]['id']}")
            counts, malformed, where = id_copies(prof)
            twice = sorted(i for i, n in counts.items() if n > 1)
            lost = sorted(expected - set(counts))
            if twice:
                problems.append(f"defined twice: {twice[:5]}")
            if lost:
                problems.append(f"lost: {lost[:5]}")
            if malformed:
                problems.append(f"malformed: {malformed[:5]}")
            if (prof / ".openclaw-tui.journal").exists():
                problems.append("a journal is left after the next command")
            state = "killed" if killed else "finished"
            say(f"trial {trial:3d}: {kind:8s} {state:8s} {'at' if killed else 'before'} {delay:6.2f}s  "
                f"{'ok' if not problems else 'FAIL ' + '; '.join(problems)}")
            if problems:
                failures.append(f"trial {trial} ({' '.join(cmd[:1] + cmd[2:5])}): {'; '.join(problems)}")
        return failures
    finally:
        if tmp is not None:
            tmp.cleanup()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--trials", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start = time.monotonic()
    failures = crash_trials(args.entries, args.trials, args.seed)
    print(f"{args.trials - len(failures)}/{args.trials} trials consistent on {args.entries:,} entries "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
