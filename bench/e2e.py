"""End to end: what a person waits for, each figure beside its floor measured in the same run.

    python bench/e2e.py                 # 100k entries: every goal of issue 25, as a table; writes docs/performance.md
    python bench/e2e.py --growth        # also 10k -> 100k (time and peak RSS of every figure)
    python bench/e2e.py --growth --1m   # ... and 1M entries (slow: minutes, ~1 GB of RAM)
    python bench/e2e.py --quick         # 10k entries, 3 rounds, one UI launch (a smoke run; writes nothing)
    python bench/e2e.py --no-ui         # the command line only

Every command runs as a fresh process, byte-code cached as an installed app's (``as_installed``;
the ``openclaw-tui`` console script beside ``sys.executable``, else ``sys.executable -m openclaw_tui.cli``),
exactly as a person or a script starts it, on a profile made by ``bench/generate.py`` and on a copy of the
bundled ``sample_profiles/workspace-zh`` in a git repository of its own, with a cache folder of the run's
own (``XDG_CACHE_HOME``).  Floors,
measured in the same run and interleaved with the figures so both see the same load on this shared machine:

- **F**: a bare Python process (the same interpreter) that reads memories.md and splits it at ``---``
  lines (``re.split``) and exits;
- **Q**: ``python -c "import argparse, json, pathlib, re, sqlite3, dataclasses, datetime, hashlib"``:
  what an ordinary Python command line loads.

Clocks (``time.perf_counter`` in this process):

- a command: starts just before the process is spawned (inside GNU ``time``, which reports its peak
  RSS), stops when it has exited and its output was read from a pipe; median of ``--runs`` rounds; each
  round runs F, ``check``, ``check`` again, then set/supersede/archive (which change memories.md), so the
  first ``check`` of a round always reads a file it has not seen (its fact cache misses: the cold figure)
  and "check again" reads the same bytes (core/check/factcache.py answers); then ``search`` twice: the
  first re-indexes the entries those edits changed (reported), the second finds the index current (the
  goal), then a word the index was never asked (a new one each round); ``--help``; ``check`` and
  ``context`` of the workspace.  Each command with a goal runs right after a run of its floor (F or Q),
  and its ratio is the median of the rounds' ratios: a short process on a loaded machine swings by tens of
  milliseconds, and a pair of neighbours sees the same load.  The CPU time of each process (user and
  system, from ``getrusage``) is reported beside, as a ratio to its floor's: the load changes it least;
- the UI is launched ``--launches`` times (default 3): one launch is one sample of the race between
  start-up work and the person; first id is the median of the launches, keystrokes and writes are
  pooled and their p95 taken over all of them;
- UI, first entry id: starts just before ``tmux new-session`` spawns the app in a 160x50
  pseudo-terminal (the tmux server is already up), stops at the first ``capture-pane`` (polled every
  ~10 ms) whose entry table shows an entry id: what the person sees, imports and all;
- UI, keystroke to repaint: right after the first id is on screen (start-up work -- check, indexes --
  still running) ``/`` focuses the filter, then 20 keys (digits and backspaces) are sent one at a
  time; each clock starts just before ``tmux send-keys`` and stops at the first capture showing the
  new filter text *and* a table whose rows are a contiguous run of the rows that filter must give
  (computed with the core's own ``filter_rows``); p95 of 20;
- UI, an external write: with the filter cleared, the importance of the first row on screen is
  changed in memories.md the way an agent does it (lock, temp file, fsync, ``os.replace``); each clock
  starts when that write has returned and stops at the first capture whose row shows the new value; p95;
- the search screen, keystroke to results: ``bench_search.keystroke_to_results`` in a child process
  (the screen headless, its debounce 1 ms, over the current index of the profile): from the input's
  new value to that query's results painted, 10 kinds of query, each 3 times; p95 (beside it, the p95 of
  the same keys echoed by a bare Input: Textual's own floor at the machine's load).
- Growth (``--growth``): every figure above at each size, three rounds; the first-ever ``check`` and
  ``search`` (no cached facts, no index) are round 1's plus two more, each run with an empty cache
  folder, median of the three.

Goals (issue 25): fresh ``search`` with a current index <= 2.5x Q, ``--help`` <= 1.5x Q, ``check`` and
``context`` of workspace-zh <= 3x Q each, ``check`` <= 3x F, set/supersede/archive <= 1x F, UI first id
<= 4x F, filter key p95 <= 100 ms, search screen key to results p95 <= 50 ms.  The external write has
no goal (reported).  A full run rewrites docs/performance.md below its marker line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from generate import write_profile  # noqa: E402

PY = sys.executable
TODAY = "2026-11-30"
WORD = "peanuts"
WORKSPACE = ROOT / "sample_profiles" / "workspace-zh"
WS_QUERY = "咖啡"
SOCKET = f"openclaw-e2e-{os.getpid()}"
F_CODE = (
    "import re, sys\n"
    "text = open(sys.argv[1], encoding='utf-8').read()\n"
    "parts = re.split(r'(?m)^---[ \\r]*$', text)\n"
)
Q_CODE = "import argparse, json, pathlib, re, sqlite3, dataclasses, datetime, hashlib"
PAIRED_Q = ("search", "search new word", "--help", "check workspace", "context workspace")  # goals against Q
PAIRED_F = ("check", "check again", "set", "supersede", "archive")  # goals against F
DOC = ROOT / "docs" / "performance.md"
MARKER = "<!-- written by bench/e2e.py: everything below this line is replaced by its next full run -->"
NEW_WORDS = ["Obsidian", "Rust", "Dana", "standups", "recipes", "reports", "exercises", "syncs", "meetings",
             "Monday", "allergic", "suggesting", "learning", "manager", "Fridays", "dislikes"]  # in generate.EN
KEYS = [*"99999", *["BSpace"] * 4, *"8765", *["BSpace"] * 3, *"4321"]  # 20 keys, every one changes the table


# --- processes ---------------------------------------------------------------------------


def as_installed() -> None:
    """Byte-code cached, as ``pip install`` leaves an app (it compiles every module at install).

    This machine sets PYTHONDONTWRITEBYTECODE and a source checkout has no ``.pyc``: every fresh
    process would compile the modules it imports again (~35 ms of ours; Textual's ~1 s on the UI's one
    launch), which no installed user pays.  The
    byte-code goes to a folder of its own (PYTHONPYCACHEPREFIX), never into the source tree; it is
    written once here, before any clock starts, for every process this script spawns (tmux included).
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "openclaw-tui-bench-pyc")
    import sysconfig

    # our modules and the installed libraries (textual, rich, ... : a venv filled with byte-code writes off
    # has none either, and the first UI launch, a single sample, would compile Textual for ~1 s)
    for folder in (ROOT / "openclaw_tui", Path(sysconfig.get_paths()["purelib"])):
        subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(folder)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.pop("OPENCLAW_TUI_POLLING", None)
    return e


GNU_TIME = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
RSS_FILE = Path(tempfile.gettempdir()) / f"openclaw-e2e-rss-{os.getpid()}"


def spawn(argv: Sequence[str], extra_env: dict[str, str] | None = None) -> tuple[float, int, int, float]:
    """Run ``argv``; return (seconds from spawn to exit, exit status, its peak RSS in KB, CPU seconds).

    Its standard output goes to a pipe that this process reads to the end, as a person's terminal or a
    script does.

    The peak RSS comes from GNU time wrapped around the command: Linux counts a child's memory
    before ``exec`` in its ``ru_maxrss``, which would be this (big) process's.  Without GNU time: 0.
    The CPU seconds (user and system, the command and the processes it waited for) are what the machine's
    load changes least.
    """
    wrapped = [GNU_TIME, "-f", "%M", "-o", str(RSS_FILE), *argv] if GNU_TIME else list(argv)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**env(), **(extra_env or {})})
    proc.communicate()  # its output read, as a terminal or a script reads it
    code = proc.returncode
    seconds = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime - cpu0.ru_utime + cpu1.ru_stime - cpu0.ru_stime
    rss = 0
    if GNU_TIME:
        try:
            rss = int(RSS_FILE.read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            rss = 0
    return seconds, code, rss, cpu


SCRIPT = Path(PY).with_name("openclaw-tui")  # the console script a person runs (PYTHONPATH picks this tree)


def cli(*args: str) -> list[str]:
    if SCRIPT.exists():
        return [str(SCRIPT), *args]
    return [PY, "-m", "openclaw_tui.cli", *args]


@dataclass
class Series:
    times: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)
    cpu: list[float] = field(default_factory=list)

    def add(self, result: tuple[float, int, int, float]) -> None:
        self.times.append(result[0])
        self.codes.add(result[1])
        self.rss.append(result[2])
        self.cpu.append(result[3])

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpu)

    @property
    def peak_mb(self) -> float:
        return max(self.rss) / 1024


def p95(values: Sequence[float]) -> float:
    """Nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def interleaved(runs: int, pairs: Sequence[tuple[str, Callable[[int], list[str]]]]) -> dict[str, Series]:
    """Run every argv of ``pairs`` once per round, ``runs`` rounds (argv builders get the round number)."""
    out = {name: Series() for name, _ in pairs}
    for i in range(runs):
        for name, argv in pairs:
            out[name].add(spawn(argv(i)))
    return out


def workspace_copy(tmp: Path) -> Path:
    """sample_profiles/workspace-zh in a git repository of its own (one commit), as a workspace is kept: its
    check reads the daily logs' history, and the figures do not depend on this project's history."""
    ws = tmp / "workspace-zh"
    shutil.copytree(WORKSPACE, ws)
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], [*ident, "commit", "-q", "-m", "workspace"]):
        subprocess.run(["git", *args], cwd=ws, check=True, stdout=subprocess.DEVNULL)
    return ws


def measure_cli(prof: Path, runs: int, n: int, ws: Path) -> dict[str, Series]:
    mem = prof / "memories.md"
    target = f"mem-{n // 2:06d}"
    values = ("high", "low")
    f_run: Callable[[int], list[str]] = lambda i: [PY, "-c", F_CODE, str(mem)]  # noqa: E731
    q_run: Callable[[int], list[str]] = lambda i: [PY, "-c", Q_CODE]  # noqa: E731
    # each figure with a goal runs right after a run of its floor (``PAIRED_F``, ``PAIRED_Q``): their ratio is
    # taken round by round, so a change of the shared machine's pace lands on both
    return interleaved(runs, [
        ("F check", f_run),
        ("check", lambda i: cli("check", str(prof), "--format", "json", "--today", TODAY)),
        ("F check again", f_run),
        ("check again", lambda i: cli("check", str(prof), "--format", "json", "--today", TODAY)),
        ("F set", f_run),
        ("set", lambda i: cli("set", str(prof), target, f"importance={values[i % 2]}")),
        ("F supersede", f_run),
        ("supersede", lambda i: cli("supersede", str(prof), f"mem-{n // 2 + 11 + i:06d}", f"mem-{n // 2 + 31 + i:06d}")),
        ("F archive", f_run),
        ("archive", lambda i: cli("archive", str(prof), f"mem-{n // 2 + 61 + i:06d}")),
        # the first search after set/supersede/archive changed memories.md re-indexes what changed; the
        # next one finds the index current (the goal is for a current index)
        ("search after edits", lambda i: cli("search", str(prof), WORD, "-n", "5")),
        ("Q search", q_run),
        ("search", lambda i: cli("search", str(prof), WORD, "-n", "5")),
        # the index current, a query it was never asked (its best BM25 not kept yet: one bm25 pass over its matches)
        ("Q search new word", q_run),
        ("search new word", lambda i: cli("search", str(prof), NEW_WORDS[i % len(NEW_WORDS)], "-n", "5")),
        ("Q --help", q_run),
        ("--help", lambda i: cli("--help")),
        ("Q check workspace", q_run),
        ("check workspace", lambda i: cli("check", str(ws), "--today", TODAY)),
        ("Q context workspace", q_run),
        ("context workspace", lambda i: cli("context", str(ws), "--query", WS_QUERY, "--today", TODAY)),
    ])


# --- the UI in a pseudo-terminal ---------------------------------------------------------


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=False).stdout


def screen() -> list[str]:
    return tmux("capture-pane", "-p", "-t", "ui").splitlines()


_ID_RE = re.compile(r"mem-\d{6}")


def table(lines: list[str]) -> tuple[str | None, list[str]]:
    """(filter line text, ids of the rows shown) of the entry table on screen."""
    head = next((i for i, line in enumerate(lines) if " ID " in line and "Status" in line), None)
    if head is None:
        return None, []
    filt = lines[head - 1].split("││", 1)[-1].rstrip(" │") if head > 0 else None
    ids = []
    for line in lines[head + 1 :]:
        if "╰" in line:
            break
        m = _ID_RE.search(line.split("││", 1)[-1])
        if m:
            ids.append(m.group(0))
    return filt, ids


def filter_look() -> str:
    """The filter line with its colours (focus shows only as a cursor colour)."""
    for raw in tmux("capture-pane", "-e", "-p", "-t", "ui").splitlines():
        at = raw.find("ilter: words")
        if at < 0:
            at = raw.find("ilter")
        if at >= 0:
            return raw[max(0, at - 40) :]
    return ""


def poll(predicate: Callable[[list[str]], bool], timeout: float, capture: bool = True) -> float | None:
    """Time at which a capture first satisfied ``predicate`` (None: timeout)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if predicate(screen() if capture else []):
            return time.perf_counter()
        time.sleep(0.01)
    return None


def expected_filters(mem: Path) -> list[tuple[str, list[str]]]:
    """(filter text, ids it must list) after each of KEYS, by the core's own filter."""
    from openclaw_tui.core.files.store import MemoryDoc
    from openclaw_tui.ui.rows import fill_all, filter_rows, make_rows, parse_query

    rows = make_rows(MemoryDoc.load(mem).mf, "memories.md")
    fill_all(rows)
    out, text = [], ""
    for key in KEYS:
        text = text[:-1] if key == "BSpace" else text + key
        out.append((text, [r.id for r in filter_rows(rows, parse_query(text))]))
    return out


def shows(filt_text: str, want: list[str]) -> Callable[[list[str]], bool]:
    def ok(lines: list[str]) -> bool:
        filt, ids = table(lines)
        if filt is None or filt.strip() != filt_text:
            return False
        if not want:
            return not ids
        if len(ids) < min(3, len(want)) or ids[0] not in want:
            return False
        k = want.index(ids[0])
        return want[k : k + len(ids)] == ids

    return ok


def external_write(mem: Path, entry_id: str, value: str) -> None:
    """Change one field of one entry as an agent does: lock, temp file, fsync, os.replace."""
    from openclaw_tui.core.files.safe_write import atomic_write, locked

    with locked(mem):
        data = mem.read_bytes()
        at = data.index(f"\nid: {entry_id}\n".encode())
        a = data.index(b"\nimportance: ", at) + len(b"\nimportance: ")
        b = data.index(b"\n", a)
        atomic_write(mem, data[:a] + value.encode() + data[b:])


def peak_rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class UiResult:
    first_id: float | None = None
    rss_kb: int = 0
    keys: list[float] = field(default_factory=list)
    keys_missed: int = 0
    focus: float | None = None  # "/" to the cursor in the filter
    keys_before_check_done: int = 0
    check_done: float | None = None
    writes: list[float] = field(default_factory=list)
    writes_missed: int = 0
    miss_screen: str = ""  # the screen when a write was missed (for --verbose)


def measure_ui(prof: Path, *, keys: bool = True, writes: int = 10, timeout: float = 300.0) -> UiResult:
    res = UiResult()
    mem = prof / "memories.md"
    plan = expected_filters(mem) if keys else []
    tmux("new-session", "-d", "-s", "keep", "-x", "20", "-y", "5", "sleep 3600")  # the server, up first
    command = f"cd {ROOT} && exec env PYTHONPATH={ROOT} {PY} -m openclaw_tui.cli {prof}"
    try:
        t0 = time.perf_counter()
        tmux("new-session", "-d", "-s", "ui", "-x", "160", "-y", "50", command)
        seen = poll(lambda lines: bool(table(lines)[1]), timeout)
        if seen is None:
            return res
        res.first_id = seen - t0
        answered: list[float] = []
        pid = int(tmux("display-message", "-p", "-t", "ui", "#{pane_pid}").strip() or 0)
        if keys:
            before = filter_look()
            tmux("send-keys", "-t", "ui", "/")  # focus the filter; typing starts once the cursor is in it
            focused = poll(lambda _lines: filter_look() != before, 30, capture=False)
            res.focus = None if focused is None else focused - (t0 + res.first_id)
            for key, (text, want) in zip(KEYS, plan, strict=True):
                start = time.perf_counter()
                if key == "BSpace":
                    tmux("send-keys", "-t", "ui", key)
                else:
                    tmux("send-keys", "-t", "ui", "-l", key)
                done = poll(shows(text, want), 30)
                if done is None:
                    res.keys_missed += 1
                    continue
                res.keys.append(done - start)
                answered.append(done - t0)
            for _ in range(40):  # clear the filter, one key at a time (a burst of 8 left 7 unapplied)
                filt, _ = table(screen())
                if filt is None or filt.strip().startswith("Filter:"):
                    break
                tmux("send-keys", "-t", "ui", "BSpace")
                time.sleep(0.1)
        checked = poll(lambda lines: any("Audit ·" in line and "warnings" in line for line in lines), timeout)
        res.check_done = None if checked is None else checked - t0
        res.keys_before_check_done = sum(1 for a in answered if res.check_done is None or a < res.check_done)
        for i in range(writes):
            lines = screen()
            _, ids = table(lines)
            if not ids:
                res.writes_missed += 1
                res.miss_screen = "\n".join(lines)
                continue
            row = ids[0]
            value = ("high", "low", "medium")[i % 3]
            pattern = re.compile(rf"{row}\s+\S+\s+{value}\b")
            if poll(lambda lines, p=pattern: any(p.search(x) for x in lines), 0.05) is not None:
                value = ("low", "medium", "high")[i % 3]
                pattern = re.compile(rf"{row}\s+\S+\s+{value}\b")
            external_write(mem, row, value)
            start = time.perf_counter()
            done = poll(lambda lines, p=pattern: any(p.search(x) for x in lines), 120)
            if done is None:
                res.writes_missed += 1
                res.miss_screen = "\n".join(screen())
            else:
                res.writes.append(done - start)
            time.sleep(0.3)  # let the reload settle: the next write is a new event
        res.rss_kb = peak_rss_kb(pid)
    finally:
        tmux("kill-server")
    return res


# --- the search screen --------------------------------------------------------------------


def measure_search_screen(prof: Path) -> tuple[list[float], list[float]]:
    """Keystroke to results painted on the search screen (``bench_search.keystroke_to_results``) and its floor,
    the same keys echoed by a bare Input and a line (``keystroke_floor``), in a child process: Textual and the
    open index stay out of this one."""
    code = ("import json, sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import bench_search; "
            "shown, _ = bench_search.keystroke_to_results(Path(sys.argv[2])); "
            "print(json.dumps([shown, bench_search.keystroke_floor()]))")
    out = subprocess.run([PY, "-c", code, str(HERE), str(prof)], capture_output=True, text=True, env=env(),
                         check=False)
    if out.returncode != 0 or not out.stdout.strip():
        print(f"search screen: exit {out.returncode}: {out.stderr[-500:]}", file=sys.stderr)
        return [], []
    shown, floor = json.loads(out.stdout.strip().splitlines()[-1])
    return [float(t) for t in shown], [float(t) for t in floor]


# --- report ------------------------------------------------------------------------------


def verdict(figure: float, goal: float | None) -> str:
    if goal is None:
        return "reported"
    return "met" if figure <= goal else "NOT MET"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def line(what: str, figure: float | None, floor_name: str, floor: float | None, goal: float | None,
         unit_goal: str, ratio: float | None = None, cpu_ratio: float | None = None) -> str:
    """A row of the table; ``ratio`` defaults to figure / floor."""
    if figure is None:
        return f"| {what} | none (timeout or failure) | | | | {unit_goal} | NOT MET |"
    if floor is None:
        return f"| {what} | {ms(figure)} | — | — | — | {unit_goal} | {verdict(figure, goal)} |"
    ratio = figure / floor if ratio is None else ratio
    cpu = f"{cpu_ratio:.2f}x" if cpu_ratio is not None else "—"
    return (f"| {what} | {ms(figure)} | {floor_name} = {ms(floor)} | {ratio:.2f}x | {cpu} | {unit_goal} | "
            f"{verdict(ratio, goal)} |")


def machine() -> str:
    """This machine in one line: CPU model and count, Python, OS."""
    model = ""
    with contextlib.suppress(OSError):
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                model = text.split(":", 1)[1].strip()
                break
    return (f"{model or platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
            f"Python {platform.python_version()}; {platform.platform()}")


def table_100k(n: int, runs: int, ui: bool, writes: int, launches: int = 3, screen: bool = True) -> list[str]:
    """Run every measure on a profile of ``n`` entries; return the report's lines (also printed as they come)."""
    out: list[str] = []

    def emit(text: str = "") -> None:
        out.append(text)
        print(text, flush=True)

    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="openclaw-e2e-") as tmp:
        prof = write_profile(Path(tmp), n)
        c = measure_cli(prof, runs, n, workspace_copy(Path(tmp)))
        launched: list[UiResult] = []
        if ui and shutil.which("tmux"):
            # one launch is one sample of the start-up race (where the full parse meets the keys); several are pooled
            launched = [measure_ui(prof, writes=writes) for _ in range(launches)]
        shown, echo = measure_search_screen(prof) if screen else ([], [])
        size_mb = (prof / "memories.md").stat().st_size / 1e6
    F = statistics.median([t for name in PAIRED_F for t in c[f"F {name}"].times])
    Q = statistics.median([t for name in PAIRED_Q for t in c[f"Q {name}"].times])
    f_cpu = statistics.median([t for name in PAIRED_F for t in c[f"F {name}"].cpu])
    floors = [f"{f} {name}" for f, names in (("F", PAIRED_F), ("Q", PAIRED_Q)) for name in names]
    bad = {k: v.codes for k, v in c.items() if k not in floors and not v.codes <= {0, 1}}

    def paired(what: str, name: str, floor: str, goal: float, unit_goal: str) -> str:
        s, f = c[name], c[f"{floor} {name}"]
        ratio = statistics.median([a / b for a, b in zip(s.times, f.times, strict=True)])
        return line(what, s.median, floor, f.median, goal, unit_goal, ratio=ratio, cpu_ratio=s.median_cpu / f.median_cpu)

    def reported(what: str, figure: float, cpu: float | None) -> str:
        return line(what, figure, "F", F, None, "— (reported)", cpu_ratio=None if cpu is None else cpu / f_cpu)
    load_after = os.getloadavg()
    emit(f"Run of {started} on {machine()}; load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} "
         f"before, {', '.join(f'{x:.2f}' for x in load_after)} after.")
    emit()
    emit(f"{n:,} entries ({size_mb:.0f} MB memories.md); medians of {runs} rounds of fresh processes; floors "
         f"F = {ms(F)} (split memories.md in Python), Q = {ms(Q)} (`python -c \"{Q_CODE}\"`), medians of all their "
         f"runs. A figure with a goal is set beside the run of its floor just before it in each round, and its "
         f"ratio is the median of the rounds' ratios. CPU ratio: the median CPU time (user and system) of the "
         f"command against its floor's.")
    emit()
    emit("| what a user runs | figure | floor | ratio | CPU ratio | goal | |")
    emit("|---|---|---|---|---|---|---|")
    emit(paired(f"`search PROFILE {WORD}` (fresh process, index current)", "search", "Q", 2.5, "≤ 2.5x Q"))
    emit(paired("`search PROFILE WORD`, a word never asked of the index (index current)", "search new word", "Q",
                2.5, "≤ 2.5x Q"))
    emit(paired("`--help`", "--help", "Q", 1.5, "≤ 1.5x Q"))
    emit(paired("`check sample_profiles/workspace-zh`", "check workspace", "Q", 3, "≤ 3x Q"))
    emit(paired(f"`context sample_profiles/workspace-zh --query {WS_QUERY}`", "context workspace", "Q", 3,
                "≤ 3x Q"))
    emit(paired("`check PROFILE --format json`", "check", "F", 3, "≤ 3x F"))
    emit(paired("the same `check` again (file unchanged: cached facts)", "check again", "F", 3, "≤ 3x F"))
    emit(paired("`set PROFILE ID importance=…`", "set", "F", 1, "≤ 1x F"))
    emit(paired("`supersede PROFILE OLD NEW`", "supersede", "F", 1, "≤ 1x F"))
    emit(paired("`archive PROFILE ID`", "archive", "F", 1, "≤ 1x F"))
    after = c["search after edits"]
    emit(reported(f"`search PROFILE {WORD}` right after those edits (re-indexes them)", after.median, after.median_cpu))
    emit(reported("`check` the first time (no cached facts: round 1)", c["check"].times[0], None))
    emit(reported(f"`search PROFILE {WORD}` the first time (builds the index: round 1)", after.times[0], None))
    if launched:
        firsts = [r.first_id for r in launched]
        first = statistics.median(firsts) if None not in firsts else None  # type: ignore[type-var]
        emit(line(f"UI: first entry id on screen (median of {launches} launches)", first, "F", F, 4, "≤ 4x F"))
        keys = [k for r in launched for k in r.keys]
        emit(line(f"UI: filter key to repaint, p95 of {len(keys)} during start-up ({launches} launches x 20 keys)",
                  p95(keys) if keys else None, "", None, 0.1, "≤ 100 ms p95"))
        ws = [w for r in launched for w in r.writes]
        emit(line(f"UI: external write to the row on screen, p95 of {len(ws)}", p95(ws) if ws else None, "", None,
                  None, "—"))
    elif ui:
        emit("| UI | tmux not installed | | | | | |")
    if screen:
        emit(line(f"search screen: keystroke to results painted, p95 of {len(shown)}", p95(shown) if shown else None,
                  "", None, 0.05, "≤ 50 ms p95"))
    emit()
    if bad:
        emit(f"Exit statuses other than 0/1: {bad}")
        emit()
    for i, r in enumerate(launched, 1):
        emit(f"- UI launch {i}: first id {ms(r.first_id or float('nan'))} "
             f"({(r.first_id or float('nan')) / F:.1f}x F), key p95 "
             f"{ms(p95(r.keys)) if r.keys else 'none'} (max {ms(max(r.keys)) if r.keys else 'none'}); "
             f"{r.keys_before_check_done} of {len(r.keys)} keys answered before the check's marks were on screen "
             f"(at {r.check_done or float('nan'):.1f} s); keys missed {r.keys_missed}, writes missed "
             f"{r.writes_missed}; '/' focused the filter in {ms(r.focus or float('nan'))}; "
             f"peak RSS {r.rss_kb / 1024:.0f} MB")
        if r.keys:  # which keys are slow matters more than their p95 alone
            emit("  keys (ms, in the order typed): " + " ".join(f"{k * 1000:.0f}" for k in r.keys))
    if shown:
        emit(f"- search screen: median {ms(statistics.median(shown))}, max {ms(max(shown))}; its floor, the same keys "
             f"echoed by a bare Input and a line: p95 {ms(p95(echo)) if echo else 'none'}")
    shown = [k for k in c if k not in floors or k in (floors[0], floors[len(PAIRED_F)])]  # one F, one Q
    emit("- peak RSS: " + ", ".join(f"{k} {c[k].peak_mb:.0f} MB" for k in shown))
    return out


def write_doc(path: Path, lines: Sequence[str]) -> None:
    """Replace what follows the marker line of ``path`` (the hand-written text above it stays)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    head = text.split(MARKER, 1)[0].rstrip("\n") if MARKER in text else text.rstrip("\n")
    path.write_text((head + "\n\n" if head else "") + MARKER + "\n\n" + "\n".join(lines).rstrip("\n") + "\n",
                    encoding="utf-8")


def growth(sizes: Sequence[int], runs: int, ui: bool) -> None:
    print("\ngrowth (median time / peak RSS; (x) = time per entry relative to the smallest size: "
          "above 1: the time grows faster than linear)\n")
    rows: dict[str, list[str]] = {}
    base: dict[str, float] = {}
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="openclaw-e2e-") as tmp:
            prof = write_profile(Path(tmp), n)
            c = measure_cli(prof, runs, n, workspace_copy(Path(tmp)))
            figures = {k: (v.median, v.peak_mb) for k, v in c.items()
                       if not k.startswith(("F ", "Q ")) or k in (f"F {PAIRED_F[0]}", f"Q {PAIRED_Q[0]}")}
            # round 1 meets a profile nobody has seen: no cached facts, no search index (the median hides it);
            # a single sample swings with the machine's load, so two more, each with an empty cache folder
            cold = {"check": Series(), "search after edits": Series()}
            for name in cold:
                cold[name].add((c[name].times[0], 0, c[name].rss[0], c[name].cpu[0]))
            for _ in range(2):
                with tempfile.TemporaryDirectory(prefix="openclaw-e2e-cache-") as cache:
                    fresh = {"XDG_CACHE_HOME": cache}
                    cold["check"].add(spawn(cli("check", str(prof), "--format", "json", "--today", TODAY), fresh))
                    cold["search after edits"].add(spawn(cli("search", str(prof), WORD, "-n", "5"), fresh))
            figures["check, first ever (no cached facts; median of 3)"] = (cold["check"].median,
                                                                           cold["check"].peak_mb)
            figures["search, first ever (builds the index; median of 3)"] = (cold["search after edits"].median,
                                                                             cold["search after edits"].peak_mb)
            if ui and shutil.which("tmux"):
                r = measure_ui(prof, keys=False, writes=0, timeout=900)
                if r.first_id is not None:
                    figures["UI first id"] = (r.first_id, r.rss_kb / 1024)
            for k, (t, mb) in figures.items():
                per = t / n
                base.setdefault(k, per)
                rows.setdefault(k, []).append(f"{t:.2f} s / {mb:.0f} MB ({per / base[k]:.2f}x)")
    print("| figure | " + " | ".join(f"{n:,}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for k, cells in rows.items():
        print(f"| {k} | " + " | ".join(cells) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="10k entries, 3 rounds, one UI launch; writes no doc")
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=7, help="rounds of fresh processes (medians)")
    ap.add_argument("--writes", type=int, default=10, help="external writes in the UI (p95)")
    ap.add_argument("--no-ui", action="store_true", help="skip the UI measures")
    ap.add_argument("--no-screen", action="store_true", help="skip the search screen's keystrokes")
    ap.add_argument("--launches", type=int, default=3, help="UI launches pooled (first id: median; keys, writes: p95)")
    ap.add_argument("--growth", action="store_true", help="also report 10k -> 100k growth")
    ap.add_argument("--1m", dest="million", action="store_true", help="with --growth: add 1M entries")
    ap.add_argument("--out", type=Path, help=f"the page to write (default: {DOC.relative_to(ROOT)} on a full run; "
                    "none with --quick)")
    args = ap.parse_args(list(argv) if argv is not None else None)
    n, runs, launches = (10_000, 3, 1) if args.quick else (args.entries, args.runs, args.launches)
    out = args.out or (None if args.quick else DOC)
    as_installed()
    user_cache = os.environ.get("XDG_CACHE_HOME")
    with tempfile.TemporaryDirectory(prefix="openclaw-e2e-cache-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache  # the run's own cache folder: the user's stays as it was
        try:
            lines = table_100k(n, runs, not args.no_ui, args.writes, launches, not args.no_screen)
            if args.growth:
                growth([10_000, 100_000] + ([1_000_000] if args.million else []), 3, not args.no_ui)
        finally:
            if user_cache is None:
                os.environ.pop("XDG_CACHE_HOME", None)
            else:
                os.environ["XDG_CACHE_HOME"] = user_cache
    if out is not None:
        write_doc(out, lines)
        print(f"\nwritten: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
