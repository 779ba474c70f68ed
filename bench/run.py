"""Benchmarks of the memory core; prints figures, asserts nothing.

    python bench/run.py            # core: parse, check, single-field edit (1k/10k/100k)
    python bench/run.py --quick    # skip 100k and the slow naive reference at 100k
    python bench/run.py --all      # also the UI, search, watch, git and end-to-end (e2e.py) benchmarks

Targets (2-core machine): parse 100k < 1.7 s and >= 10x the naive
python-frontmatter-per-block reference measured in the same run; full check
10k < 1 s, 100k < 5 s; single-field edit of a 100k-entry file < 0.5 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import memories_text, write_profile  # noqa: E402
from timing import timed  # noqa: E402

from openclaw_tui.core.format.entries import _DELIM_RE, parse  # noqa: E402


def naive_parse(text: str) -> int:
    """The reference: split on delimiter lines, python-frontmatter on every block."""
    import frontmatter

    delims = [m.start() for m in _DELIM_RE.finditer(text)]
    n = 0
    for a, b, c in zip(delims[0::2], delims[1::2], delims[2::2] + [len(text)], strict=False):
        post = frontmatter.loads(text[a:c])
        n += "id" in post.metadata
        del b
    return n


def row(label: str, seconds: float, target: float | None = None) -> None:
    verdict = ""
    if target is not None:
        verdict = "  ok" if seconds <= target else f"  OVER target {target:g} s"
    print(f"  {label:<44} {seconds * 1000:9.1f} ms{verdict}")


def bench_core(sizes: list[int], naive_sizes: list[int]) -> None:
    print("core (median of 3)")
    for n in sizes:
        text = memories_text(n)
        t_parse = timed(lambda text=text: parse(text), 3)
        row(f"parse {n:>7,} entries ({len(text) / 1e6:.1f} MB)", t_parse, 1.7 if n == 100_000 else None)
        if n in naive_sizes:
            t_naive = timed(lambda text=text: naive_parse(text), repeat=1)
            row(f"naive python-frontmatter per block {n:>7,}", t_naive)
            print(f"  {'speed-up over naive':<44} {t_naive / t_parse:9.1f} x" + ("  ok" if t_naive / t_parse >= 10 else "  UNDER 10x"))
        with tempfile.TemporaryDirectory() as tmp:
            prof_path = write_profile(Path(tmp), n)
            bench_check(prof_path, n)
            bench_edit(prof_path, n)


def bench_check(prof_path: Path, n: int) -> None:
    try:
        from openclaw_tui.core.check.rules import check_profile
        from openclaw_tui.core.files.profile import load_profile
    except ImportError as exc:  # pragma: no cover - while the check is being built
        print(f"  check: unavailable ({exc})")
        return
    today = dt.date(2026, 11, 30)

    def run() -> None:
        check_profile(load_profile(prof_path), today=today)

    target = {10_000: 1.0, 100_000: 5.0}.get(n)
    row(f"full check (load + check) {n:>7,}", timed(run, repeat=1 if n >= 100_000 else 3), target)


def bench_edit(prof_path: Path, n: int) -> None:
    """The app's case: the file is loaded; one field changes, is written safely and re-read."""
    from openclaw_tui.core.files.store import MemoryDoc
    from openclaw_tui.core.lifecycle.operations import plan_set
    from openclaw_tui.core.lifecycle.plan import Files, apply_changes

    path = prof_path / "memories.md"
    target_id = f"mem-{n // 2:06d}"
    values = iter(["low", "high"] * 10)
    files = Files.load(path, prof_path / "contexts" / "archive" / "memories.md")
    state = {"files": files}

    def run() -> None:  # the one write path: plan (verified rewrite), apply under the lock, re-read
        value = next(values)
        f = state["files"]
        plan = apply_changes(plan_set(f, target_id, {"importance": value}))
        for c in plan.changes:  # none when the entry already said so
            state["files"] = Files(MemoryDoc.from_bytes(path, c.after, previous=f.memories.mf), f.archive)

    target = 0.5 if n == 100_000 else None
    row(f"single-field edit (plan+CAS write+re-read) {n:>7,}", timed(run, 3), target)

    files = state["files"]

    def plan_only() -> None:
        plan_set(files, target_id, {"importance": "medium"})

    row(f"  as the app plans it (verified, not written) {n:>7,}", timed(plan_only, 3))


def bench_others(quick: bool) -> None:
    """Each section's ``main`` gets its own argv: never this script's (``--all`` means nothing to them)."""
    argvs: dict[str, list[str]] = {
        "bench_ui": ["--entries", "10000"] if quick else [],
        "bench_search": ["--quick"] if quick else [],
        "bench_context": ["--sizes", "10000", "--logs", "30", "--runs", "3"] if quick else [],
        "bench_watch": ["--quick"] if quick else [],
        "bench_git": [],
        "e2e": ["--quick"] if quick else [],
    }
    for name, argv in argvs.items():
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            print(f"{name}: unavailable ({exc})")
            continue
        print(f"{name}")
        module.main(argv)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip 100k entries")
    ap.add_argument("--all", action="store_true", help="also run the UI, search, watch and git benchmarks")
    args = ap.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    naive = [10_000] if args.quick else [10_000, 100_000]
    bench_core(sizes, naive)
    if args.all:
        bench_others(args.quick)


if __name__ == "__main__":
    main()
