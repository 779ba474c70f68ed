"""Where a fresh ``openclaw-tui search`` process spends its time, counted in instructions (printed, never asserted).

    python bench/bench_search_start.py            # 100k entries
    python bench/bench_search_start.py --n 10000  # another size

Wall-clock ratios on this shared machine swing with the load of the other processes (``bench/e2e.py``
prints them, interleaved with their floors); instruction counts do not.  Under ``valgrind --tool=callgrind``
(skipped, with a note, when valgrind is missing) each command runs once, byte-code cached as an installed
app's, in a throwaway cache folder whose index is built before any count:

- P: ``python -c pass`` (the interpreter alone, the floor);
- the interpreter importing the standard modules a search needs (sqlite3, pathlib, datetime, re...);
- ``search PROFILE peanuts`` with a current index, the query asked before (its best BM25 kept);
- ``search PROFILE WORD`` with a current index, a word never asked (one pass of SQLite's bm25 over its matches);
- ``search PROFILE 咖啡 --json`` with a current index (11k matches at 100k entries; the --json output);
- floors: ``python -m`` of an empty module, of one importing ``_sqlite3`` (SQLite alone), of one importing
  sqlite3, pathlib and re (the standard modules this search imports before any work of its own);
- the same two commands' imports alone (``-X importtime``: our modules' own share, in ms, one run).

Each count is printed beside P's as a ratio.  Also printed: the modules of the search path that a fresh
process must not import (typing, dataclasses, inspect, the config module, argparse, platformdirs).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate import write_profile  # noqa: E402

FORBIDDEN = ("typing", "dataclasses", "inspect", "openclaw_tui.core.config", "argparse", "platformdirs", "json")
NEW_WORDS = ["meetings"]  # a word of generate.EN


def env(cache: Path) -> dict[str, str]:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "openclaw-tui-bench-pyc")
    e["PYTHONPATH"] = str(ROOT)
    e["XDG_CACHE_HOME"] = str(cache)
    e.pop("OPENCLAW_TUI_CONFIG", None)
    return e


def instructions(argv: list[str], e: dict[str, str], out: Path) -> int:
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], env=e,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    for line in out.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="entries in the generated profile")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts (bench/e2e.py times the same commands)")
        return 0
    with tempfile.TemporaryDirectory(prefix="oc-start-") as tmp_name:
        tmp = Path(tmp_name)
        prof = write_profile(tmp / "data", args.n)
        cache = tmp / "cache"
        e = env(cache)
        subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(ROOT / "openclaw_tui")], env=e,
                       stdout=subprocess.DEVNULL, check=False)
        search = [sys.executable, "-m", "openclaw_tui.cli", "search", str(prof)]
        subprocess.run([*search, "peanuts", "-n", "5"], env=e, stdout=subprocess.DEVNULL, check=True)  # the build
        subprocess.run([*search, "peanuts", "-n", "5"], env=e, stdout=subprocess.DEVNULL, check=True)
        cg = tmp / "cg.out"
        rows: list[tuple[str, int]] = [
            ("P = python -c pass", instructions([sys.executable, "-c", "pass"], e, cg)),
            ("python importing sqlite3, pathlib, datetime, re", instructions(
                [sys.executable, "-c", "import sqlite3, pathlib, datetime, re, threading, contextlib"], e, cg)),
            ("search PROFILE peanuts (index current, asked before)",
             instructions([*search, "peanuts", "-n", "5"], e, cg)),
        ]
        word = NEW_WORDS[0]  # (a throwaway cache: never asked)
        rows.append((f"search PROFILE {word} (index current, never asked)",
                     instructions([*search, word, "-n", "5"], e, cg)))
        subprocess.run([*search, "咖啡", "--json"], env=e, stdout=subprocess.DEVNULL, check=True)  # its best kept
        rows.append(("search PROFILE 咖啡 --json (index current, asked before)",
                     instructions([*search, "咖啡", "--json"], e, cg)))
        # the floor of any search written in Python: the interpreter running a module (as ``python -m``
        # does), importing what a search over SQLite cannot do without, and nothing else
        floor = tmp / "floor"
        floor.mkdir()
        (floor / "oc_empty.py").write_text("", encoding="utf-8")
        (floor / "oc_sqlite.py").write_text("import _sqlite3\n", encoding="utf-8")
        (floor / "oc_stdlib.py").write_text("import sqlite3, pathlib, re\n", encoding="utf-8")
        fe = {**e, "PYTHONPATH": str(floor)}
        for mod in ("oc_empty", "oc_sqlite", "oc_stdlib"):
            subprocess.run([sys.executable, "-m", mod], env=fe, check=True)  # (byte-code cached first)
        rows.append(("floor: python -m an empty module", instructions([sys.executable, "-m", "oc_empty"], fe, cg)))
        rows.append(("floor: python -m a module importing _sqlite3 (SQLite's library loaded)",
                     instructions([sys.executable, "-m", "oc_sqlite"], fe, cg)))
        rows.append(("floor: python -m a module importing sqlite3, pathlib, re",
                     instructions([sys.executable, "-m", "oc_stdlib"], fe, cg)))
        p = rows[0][1] or 1
        print(f"\n{args.n:,} entries; instructions (callgrind Ir) of one fresh process, beside P's\n")
        print("| what | instructions | x P |\n|---|---|---|")
        for what, ir in rows:
            print(f"| {what} | {ir / 1e6:.1f} M | {ir / p:.2f}x |")
        probe = ("import sys\nfrom openclaw_tui.cli import main\nrc = main(sys.argv[1:])\n"
                 "sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules))\n")
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", probe, "search", str(prof), "peanuts"],
                              env=e, capture_output=True, text=True, check=True)
        names = set(done.stderr.rsplit("MODULES ", 1)[1].split())
        ours = 0
        for line in done.stderr.splitlines():
            parts = line.split("|")
            if line.startswith("import time:") and len(parts) == 3 and parts[2].strip().startswith("openclaw_tui"):
                ours += int(parts[0].split(":")[1])
        print(f"\nour modules' own import time (one run, -X importtime): {ours / 1000:.1f} ms; "
              f"{len(names)} modules loaded")
        bad = [m for m in FORBIDDEN if m in names]
        print(f"modules a fresh search must not import, found: {', '.join(bad) if bad else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
