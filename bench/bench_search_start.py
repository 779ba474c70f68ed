"""Where a fresh ``openclaw-tui search`` process spends its time, counted in instructions (printed, never asserted).

    python bench/bench_search_start.py            # 100k entries
    python bench/bench_search_start.py --n 10000  # another size

Wall-clock ratios on this shared machine swing with the load of the other processes (``bench/e2e.py`` and
``bench/bench_search.py`` print them, interleaved with their floors); instruction counts do not.  Under
``valgrind --tool=callgrind`` (skipped, with a note, when valgrind is missing) each command runs once, as the
console script a person runs (``python -m`` without it), byte-code cached as an installed app's, in a
throwaway cache folder whose index is built before any count:

- P: ``python -c pass`` (the interpreter alone, the floor), and the interpreter importing ``_sqlite3``
  (SQLite's library: the floor of any search of a SQLite index written in Python);
- the interpreter importing the standard modules the full way imports (sqlite3, pathlib, datetime, re...);
- ``search PROFILE peanuts`` with a current index, the query asked before (its best BM25 kept);
- ``search PROFILE WORD`` with a current index, a word never asked (one pass of SQLite's bm25 over its matches);
- ``search PROFILE 咖啡 --json`` with a current index (11k matches at 100k entries; the --json output):
  answered from the index alone (``core/search/quick.py``), then the full way (its witness removed first:
  ``locate``, the walk of the folders, the freshness check, the witness written again);
- the same command's imports alone (``-X importtime``: our modules' own share, in ms, one run).

Each count is printed beside P's as a ratio.  Also printed: the modules of a quick ``search 咖啡`` that a fresh
process must not import (typing, dataclasses, inspect, the config module, argparse, platformdirs, json, and the
full way's pathlib, re, datetime, the sqlite3 package and the index module).
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

FORBIDDEN = ("typing", "dataclasses", "inspect", "openclaw_tui.core.config", "argparse", "platformdirs", "json",
             "pathlib", "re", "datetime", "sqlite3", "threading", "openclaw_tui.core.search.index")
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
        script = Path(sys.executable).with_name("openclaw-tui")  # the console script a person runs
        search = [str(script) if script.exists() else sys.executable, *([] if script.exists() else
                  ["-m", "openclaw_tui.cli"]), "search", str(prof)]
        subprocess.run([*search, "peanuts", "-n", "5"], env=e, stdout=subprocess.DEVNULL, check=True)  # the build
        subprocess.run([*search, "peanuts", "-n", "5"], env=e, stdout=subprocess.DEVNULL, check=True)
        cg = tmp / "cg.out"
        rows: list[tuple[str, int]] = [
            ("P = python -c pass", instructions([sys.executable, "-c", "pass"], e, cg)),
            ("floor: python importing _sqlite3 (SQLite's library loaded)",
             instructions([sys.executable, "-c", "import _sqlite3"], e, cg)),
            ("python importing sqlite3, pathlib, datetime, re (the full way's standard modules)", instructions(
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
        from openclaw_tui.core.search.reader import FOLDERS_FILE, index_file_for

        os.environ["XDG_CACHE_HOME"] = str(cache)  # (index_file_for reads it)
        witness = Path(index_file_for(prof) + FOLDERS_FILE)
        witness.unlink()
        rows.append(("search PROFILE 咖啡 --json, the full way (no witness: written again)",
                     instructions([*search, "咖啡", "--json"], e, cg)))
        assert witness.exists(), "the full way keeps its witness again"
        p = rows[0][1] or 1
        print(f"\n{args.n:,} entries; instructions (callgrind Ir) of one fresh process, beside P's\n")
        print("| what | instructions | x P |\n|---|---|---|")
        for what, ir in rows:
            print(f"| {what} | {ir / 1e6:.1f} M | {ir / p:.2f}x |")
        probe = ("import sys\nfrom openclaw_tui.cli import main\nrc = main(sys.argv[1:])\n"
                 "sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules))\n")
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", probe, "search", str(prof), "咖啡", "--json"],
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
