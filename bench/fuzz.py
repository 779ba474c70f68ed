"""Hostile mutations of the sample profiles against parse -> check -> search -> get -> set.

    python bench/fuzz.py                 # 2,000 mutations, counts per failure class
    python bench/fuzz.py -n 200 --seed 5

Each case copies a sample profile, applies one mutation (a class below),
then runs check, search, get, context, repair (the listing), set and archive in this process (``openclaw_tui.cli.main``, each
command under a timeout) and records failures by class:

- ``traceback``: an exception escaped a command;
- ``bad-exit``: an exit status other than 0, 1 or 2 (or 2 without a one-line reason);
- ``invalid-json``: ``check --format json`` / ``search --json`` / ``context --json`` / ``repair --json``
  printed no valid JSON;
- ``wrote-read-only``: check, search, get, context or the repair listing changed, created or removed anything;
- ``refused-but-wrote``: an edit that exited 2 changed something anyway;
- ``outside-touched``: a file outside the profile was created, changed or removed;
- ``leaked-outside``: text of a file outside the profile was printed;
- ``hang``: a command ran over its timeout;
- ``silent-recovery``: a command finished an interrupted move (class ``journal``) without a notice on stderr;
- ``bad-recovery``: finishing it left anything but the completed move (the journal's new versions in
  place, journal and temp files gone; lock files aside).  A forged journal must change nothing.

Read-only commands write nothing, except that any command finishes a move a crash interrupted
(the issue asks for it): the journal class checks that this is all they write.

Run as root, it re-executes itself without capabilities (``setpriv``) so
that mode-000 files really cannot be read.  Not run in CI; the property
test in tests/unit/test_fuzz.py runs the same cases on a small budget.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

SAMPLES = REPO / "sample_profiles" / "profiles"
CANARY = "CANARY-OUTSIDE-THE-PROFILE-5f1c"
FAILURES = (
    "traceback", "bad-exit", "invalid-json", "wrote-read-only", "refused-but-wrote",
    "outside-touched", "leaked-outside", "hang", "silent-recovery", "bad-recovery",
)
NOTICE = "finished a move between files that was interrupted"


# --- mutations ------------------------------------------------------------------------------------


def _files(prof: Path) -> list[Path]:
    out = []
    for dirpath, _dirs, names in os.walk(prof):
        for n in names:
            p = Path(dirpath) / n
            if p.is_file() and not p.is_symlink():
                out.append(p)
    return sorted(out)


def _memory_file(rng: random.Random, prof: Path) -> Path:
    p = prof / "memories.md"
    return p if p.exists() and rng.random() < 0.7 else rng.choice(_files(prof))


def byte_flip(rng: random.Random, prof: Path, outside: Path) -> str:
    p = _memory_file(rng, prof)
    data = bytearray(p.read_bytes() or b"x")
    for _ in range(rng.randint(1, 20)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    p.write_bytes(bytes(data))
    return p.name


def truncate(rng: random.Random, prof: Path, outside: Path) -> str:
    p = _memory_file(rng, prof)
    data = p.read_bytes()
    p.write_bytes(data[: rng.randint(0, max(0, len(data) - 1))])
    return p.name


def nul(rng: random.Random, prof: Path, outside: Path) -> str:
    p = _memory_file(rng, prof)
    data = p.read_bytes()
    k = rng.randint(0, len(data))
    p.write_bytes(data[:k] + b"\x00" * rng.randint(1, 50) + data[k:])
    return p.name


def invalid_utf8(rng: random.Random, prof: Path, outside: Path) -> str:
    p = _memory_file(rng, prof)
    data = p.read_bytes()
    k = rng.randint(0, len(data))
    junk = rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xe4\xb8", b"\x80\x80\x80", b"\xf8\x88\x80\x80\x80"])
    p.write_bytes(data[:k] + junk + data[k:])
    return p.name


def bomb_text(levels: int = 9) -> str:
    rows = ["l0: &l0 [" + ", ".join(["lol"] * 9) + "]"]
    for i in range(1, levels + 1):
        rows.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "\n".join(rows) + "\n"


def alias_bomb(rng: random.Random, prof: Path, outside: Path) -> str:
    if rng.random() < 0.5:
        with (prof / "state.yaml").open("a", encoding="utf-8") as fh:
            fh.write("\n" + bomb_text())
        return "state.yaml"
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-0990\n" + bomb_text() + "---\nbomb\n")
    return "memories.md"


def long_line(rng: random.Random, prof: Path, outside: Path) -> str:
    size = 5_000_000
    p = prof / rng.choice(["memories.md", "identity.md", "state.yaml", "contexts/long.md"])
    p.parent.mkdir(exist_ok=True)
    line = rng.choice(["A", "用", "mem-0001 ", "a b ", "[x](y.md) "]) * (size // 4)
    with p.open("a", encoding="utf-8") as fh:
        fh.write(("\n---\nid: mem-0991\n---\n" if p.name == "memories.md" else "\n# ") + line + "\n")
    return p.name


def deep_nesting(rng: random.Random, prof: Path, outside: Path) -> str:
    n = rng.choice([200, 5000, 50000])
    flow = "a: " + "[" * n + "]" * n + "\n"
    block = "a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, min(n, 3000)))
    text = rng.choice([flow, block])
    if rng.random() < 0.5:
        (prof / "state.yaml").write_text(text, encoding="utf-8")
        return "state.yaml"
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-0992\n" + text + "---\ndeep\n")
    return "memories.md"


ODD_IDS = [
    "", "''", "[mem-1, mem-2]", "{a: 1}", "0x10", "null", "~", "true", "1e309", "mem-", "mem-00000000000000000000001",
    "../../../etc/passwd", "/etc/passwd", "mem-0001\u202e", "'mem-0001'", "\"mem-0001\"", "mem-0001 # comment",
    "mem 0001", "mem-0001\tx", "!!binary aGVsbG8=", "&a mem-1", "*a", "- mem-1", "mem-0001:", "💾",
    "x" * 10_000, "mem-0001\r", "!!python/name:os.system",
]


def odd_id(rng: random.Random, prof: Path, outside: Path) -> str:
    ident = rng.choice(ODD_IDS)
    extra = rng.choice(["", f"conflict: {ident}\n", f"superseded_by: {ident}\n", "merged_from: [mem-0001, ../x]\n"])
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write(f"\n---\nid: {ident}\n{extra}---\nodd id\n")
    return "memories.md"


PY_TAGS = [
    "!!python/object/apply:os.system ['touch {out}/pwned']",
    "!!python/object:__main__.X {{a: 1}}",
    "!!python/name:os.system",
    "!!python/object/new:subprocess.Popen [['touch', '{out}/pwned']]",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {out}/pwned']",
]


def python_tag(rng: random.Random, prof: Path, outside: Path) -> str:
    tag = rng.choice(PY_TAGS).format(out=outside)
    if rng.random() < 0.4:
        with (prof / "state.yaml").open("a", encoding="utf-8") as fh:
            fh.write(f"\nexploit: {tag}\n")
        return "state.yaml"
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write(f"\n---\nid: mem-0993\nimportance: {tag}\n---\ntagged\n")
    return "memories.md"


def symlink_in(rng: random.Random, prof: Path, outside: Path) -> str:
    (prof / "contexts").mkdir(exist_ok=True)
    (prof / "skills").mkdir(exist_ok=True)
    choice = rng.randrange(5)
    if choice == 0:
        (prof / "contexts" / "alias.md").symlink_to(Path("../identity.md"))
    elif choice == 1:
        (prof / "skills" / "memories-again.md").symlink_to(Path("../memories.md"))
    elif choice == 2:
        (prof / "contexts" / "loop").symlink_to(Path("."), target_is_directory=True)
    elif choice == 3:  # a link to itself (ELOOP) in place of a file every command reads
        name = rng.choice(["state.yaml", "identity.md", "contexts/self.md", "memories.md"])
        (prof / name).unlink(missing_ok=True)
        (prof / name).symlink_to(Path(name).name)
        return f"link-loop {name}"
    else:  # two links pointing at each other
        (prof / "contexts" / "a.md").symlink_to(Path("b.md"))
        (prof / "contexts" / "b.md").symlink_to(Path("a.md"))
    return "link"


def symlink_out(rng: random.Random, prof: Path, outside: Path) -> str:
    (prof / "contexts").mkdir(exist_ok=True)
    choice = rng.randrange(6)
    target = outside / "secret.md"
    if choice == 0:
        (prof / "contexts" / "leak.md").symlink_to(target)
    elif choice == 1:
        (prof / "memories.md").unlink()
        (prof / "memories.md").symlink_to(outside / "memories.md")
    elif choice == 2:
        (prof / "state.yaml").unlink(missing_ok=True)
        (prof / "state.yaml").symlink_to(target)
    elif choice == 3:
        shutil.rmtree(prof / "contexts" / "archive", ignore_errors=True)
        (prof / "contexts" / "archive").symlink_to(outside / "empty", target_is_directory=True)
    elif choice == 4:
        shutil.rmtree(prof / "skills", ignore_errors=True)
        (prof / "skills").symlink_to(outside, target_is_directory=True)
    else:
        (prof / "memories.md.lock").unlink(missing_ok=True)
        (prof / "memories.md.lock").symlink_to(outside / "lock-target")
    return "link-out"


def fifo(rng: random.Random, prof: Path, outside: Path) -> str:
    (prof / "contexts").mkdir(exist_ok=True)
    name = rng.choice(["contexts/pipe.md", "identity.md", "state.yaml", "memories.md", "contexts/archive/memories.md"])
    p = prof / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.unlink(missing_ok=True)
    os.mkfifo(p)
    return name


def unreadable(rng: random.Random, prof: Path, outside: Path) -> str:
    (prof / "contexts").mkdir(exist_ok=True)
    target = rng.choice([prof / "contexts", prof / "memories.md", prof / "identity.md", prof / "state.yaml",
                         prof / "skills", prof / "contexts" / "archive"])
    if target.exists():
        target.chmod(0)
    return target.name


JOURNAL = ".openclaw-tui.journal"


def journal(rng: random.Random, prof: Path, outside: Path) -> str:
    """A move a SIGKILL interrupted (archive: journal written, 0, 1 or 2 files replaced), or a forged journal."""
    import hashlib

    from openclaw_tui.core.files import safe_write as sw
    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.core.lifecycle.archive import plan_archive

    def digest(data: bytes | None) -> str | None:
        return None if data is None else hashlib.sha256(data).hexdigest()

    choice = rng.randrange(6)
    if choice >= 3:  # forged: must be ignored, nothing written anywhere
        if choice == 3:
            records = [{"path": "../outside/secret.md", "before": digest((outside / "secret.md").read_bytes()),
                        "after": digest(b"pwned\n"), "tmp": ".secret.md.x.pending"},
                       {"path": "memories.md", "before": None, "after": None, "tmp": None}]
            (outside / ".secret.md.x.pending").write_bytes(b"pwned\n")
            (prof / JOURNAL).write_text(json.dumps({"version": 1, "files": records}), encoding="utf-8")
        elif choice == 4:
            (prof / JOURNAL).write_bytes(rng.choice([b"", b"{", b"\xff\xfe", b'{"files": 3}', b"[]" * 1000]))
        else:
            (prof / JOURNAL).symlink_to(outside / "secret.md")
        return f"journal-forged-{choice}"
    try:
        prof_obj = load_profile(prof)
        ids = [e.id for e in prof_obj.memories.mf.entries if e.id and e.error is None] if prof_obj.memories else []
        plan = plan_archive(prof_obj, ids[:1])
    except Exception:  # noqa: BLE001 - a sample that cannot be archived from: no journal
        return "journal-none"
    todo = [(c.path, c.before, c.after) for c in plan.changes if c.changed]
    if len(todo) < 2:
        return "journal-none"
    records = []
    for path, before, after in todo:
        tmp = sw._write_temp(path, after, ".pending")
        records.append({"path": os.path.relpath(path, prof), "before": digest(before), "after": digest(after),
                        "tmp": os.path.basename(tmp)})
    (prof / JOURNAL).write_text(json.dumps({"version": 1, "files": records}, indent=1), encoding="utf-8")
    for (path, _, _), r in list(zip(todo, records, strict=True))[:choice]:
        os.replace(path.parent / str(r["tmp"]), path)
    return f"journal-after-{choice}-replaced"


def expected_after_recovery(prof: Path, before: dict[str, tuple[object, ...]]) -> dict[str, tuple[object, ...]] | None:
    """What the profile must look like once a (valid) journal is finished; None: no valid journal
    (then nothing may change).  Lock files are left out of the comparison."""
    import hashlib

    j = prof / JOURNAL
    if j.is_symlink() or not j.is_file():
        return None
    try:
        records = json.loads(j.read_bytes())["files"]
        for r in records:
            if os.path.isabs(r["path"]) or ".." in Path(r["path"]).parts:
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    want = {k: v for k, v in before.items() if not k.endswith(".lock")}
    want.pop(JOURNAL, None)
    for r in records:
        rel = Path(r["path"]).as_posix()
        tmp_rel = (Path(r["path"]).parent / r["tmp"]).as_posix() if r["tmp"] else None
        current = want.get(rel)
        now = current[1] if current and current[0] == "file" else None
        done = hashlib.sha256(now).hexdigest() if isinstance(now, bytes) else None
        if tmp_rel is not None:
            tmp = want.pop(tmp_rel, None)
            if done == r["before"] and tmp is not None and tmp[0] == "file":
                want[rel] = tmp
        elif done == r["before"]:
            want.pop(rel, None)
    return want


CLASSES: dict[str, Callable[[random.Random, Path, Path], str]] = {
    "byte-flip": byte_flip, "truncate": truncate, "nul": nul, "invalid-utf8": invalid_utf8,
    "alias-bomb": alias_bomb, "long-line": long_line, "deep-nesting": deep_nesting, "odd-id": odd_id,
    "python-tag": python_tag, "symlink-in": symlink_in, "symlink-out": symlink_out, "fifo": fifo,
    "unreadable": unreadable, "journal": journal,
}


# --- running ----------------------------------------------------------------------------------------


class Hang(BaseException):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise Hang()


def run_cli(argv: list[str], timeout: int = 60) -> tuple[int | None, str, str, str | None]:
    """(exit status, stdout, stderr, failure) of ``openclaw-tui ARGV`` run in this process."""
    from openclaw_tui.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    failure: str | None = None
    code: int | None = None
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except Hang:
        failure = "hang"
    except BaseException:  # noqa: BLE001 - that is what we look for
        failure = "traceback"
        err.write(traceback.format_exc())
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

    def text(stream: io.TextIOWrapper) -> str:
        stream.flush()
        raw = stream.buffer.getvalue()  # type: ignore[attr-defined]
        return raw.decode("utf-8", "replace")

    return code, text(out), text(err), failure


def snapshot(folder: Path) -> dict[str, tuple[object, ...]]:
    """Every entry under ``folder`` (not following links): kind and bytes or link target."""
    out: dict[str, tuple[object, ...]] = {}
    stack = [folder]
    while stack:
        d = stack.pop()
        try:
            names = sorted(os.listdir(d))
        except OSError:
            continue
        for n in names:
            p = d / n
            rel = p.relative_to(folder).as_posix()
            try:
                st = os.lstat(p)
            except OSError:
                out[rel] = ("gone",)
                continue
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir",)
                stack.append(p)
            elif stat.S_ISREG(st.st_mode):
                try:
                    out[rel] = ("file", p.read_bytes())
                except OSError:
                    out[rel] = ("file-unreadable", st.st_size, st.st_mtime_ns)
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


@contextlib.contextmanager
def case_folder(work: Path) -> Iterator[tuple[Path, Path]]:
    base = Path(tempfile.mkdtemp(prefix="case-", dir=work))
    try:
        yield base / "p", base / "outside"
    finally:
        for dirpath, dirnames, filenames in os.walk(base):
            for n in dirnames + filenames:
                with contextlib.suppress(OSError):
                    p = Path(dirpath) / n
                    if not p.is_symlink():
                        os.chmod(p, 0o700)
        with contextlib.suppress(OSError):
            os.chmod(base, 0o700)
        shutil.rmtree(base, ignore_errors=True)


def prepare(rng: random.Random, kind: str, prof: Path, outside: Path) -> str:
    sample = rng.choice(sorted(p for p in SAMPLES.iterdir() if p.is_dir()))
    shutil.copytree(sample, prof, symlinks=True)
    outside.mkdir()
    (outside / "empty").mkdir()
    (outside / "secret.md").write_text(f"# outside\n{CANARY}\nid: mem-0001\n", encoding="utf-8")
    (outside / "memories.md").write_text(f"---\nid: mem-0001\n---\n{CANARY}\n", encoding="utf-8")
    return f"{sample.name}: " + CLASSES[kind](rng, prof, outside)


def first_id(prof: Path) -> str:
    from openclaw_tui.core.format.entries import parse_bytes

    try:
        data = (prof / "memories.md").read_bytes() if (prof / "memories.md").is_file() else b""
    except OSError:
        data = b""
    ids = [e.id for e in parse_bytes(data).entries if e.id and e.error is None]
    return ids[0] if ids else "mem-0001"


def run_case(prof: Path, outside: Path, rng: random.Random, timeout: int = 60) -> list[tuple[str, str]]:
    """Run the commands on a mutated profile; returns (failure class, detail) pairs."""
    failures: list[tuple[str, str]] = []
    outside_before = snapshot(outside)
    ident = first_id(prof)
    read_only = [
        (["check", str(prof), "--format", "json", "--today", "2026-11-30"], True),
        (["search", str(prof), rng.choice(["coffee", "mem-0001", "咖啡", "the user", "lol"]), "--json"], True),
        (["get", str(prof), rng.choice(["memories.md", "state.yaml", "contexts/leak.md", "../outside/secret.md"])], False),
        (["context", str(prof), "--json", "--today", "2026-11-30",
          "--query", rng.choice(["coffee", "trip", "mem-0001", "咖啡", ""])], True),
        (["repair", str(prof), "--json", "--today", "2026-11-30", "--no-history"], True),
    ]
    for argv, is_json in read_only:
        before = snapshot(prof)
        recovered = expected_after_recovery(prof, before)  # an interrupted move: finished by any command
        code, out, err, failure = run_cli(argv, timeout)
        if recovered is not None:
            if NOTICE not in err:
                failures.append(("silent-recovery", f"{argv[0]} finished a journal without saying so"))
            err = "".join(ln for ln in err.splitlines(keepends=True) if NOTICE not in ln)
        failures += _judge(argv, code, out, err, failure, is_json)
        after = snapshot(prof)
        if recovered is not None:
            if {k: v for k, v in after.items() if not k.endswith(".lock")} != recovered:
                failures.append(("bad-recovery", f"{argv[0]} left {sorted(set(after) ^ set(recovered))[:4]}"))
        elif after != before:
            failures.append(("wrote-read-only", f"{argv[0]} changed the profile"))
    for argv in (
        ["set", str(prof), ident, f"importance={rng.choice(['low', 'high'])}"],
        ["archive", str(prof), ident],
    ):
        before = snapshot(prof)
        code, out, err, failure = run_cli(argv, timeout)
        failures += _judge(argv, code, out, err, failure, False)
        if code == 2 and snapshot(prof) != before:
            failures.append(("refused-but-wrote", f"{argv[0]} exited 2 but changed the profile"))
    if snapshot(outside) != outside_before:
        failures.append(("outside-touched", "a file outside the profile changed"))
    return failures


def _judge(argv: list[str], code: int | None, out: str, err: str, failure: str | None, is_json: bool) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    name = argv[0]
    if failure is not None:
        found.append((failure, f"{name}: {err.strip().splitlines()[-1] if err.strip() else failure}"))
        return found
    if "Traceback (most recent call last)" in err:
        found.append(("traceback", f"{name}: {err.strip().splitlines()[-1]}"))
    if code not in (0, 1, 2):
        found.append(("bad-exit", f"{name} exited {code}"))
    elif code == 2 and (not err.startswith("openclaw-tui: ") or err.count("\n") != 1):
        found.append(("bad-exit", f"{name} exited 2 with {err!r:.200}"))
    if is_json and code in (0, 1):
        try:
            json.loads(out)
        except ValueError:
            found.append(("invalid-json", f"{name} printed {out[:100]!r}"))
    if CANARY in out or CANARY in err:
        found.append(("leaked-outside", f"{name} printed the outside file"))
    return found


def fuzz(n: int, seed: int, work: Path, say: Callable[[str], None] = print,
         classes: tuple[str, ...] = tuple(CLASSES)) -> tuple[Counter[str], Counter[str], list[str]]:
    """Run ``n`` cases; returns (failures per class, cases per mutation class, details)."""
    rng = random.Random(seed)
    failures: Counter[str] = Counter({k: 0 for k in FAILURES})
    kinds: Counter[str] = Counter()
    details: list[str] = []
    for i in range(n):
        kind = classes[i % len(classes)]
        kinds[kind] += 1
        case_rng = random.Random(rng.random())
        with case_folder(work) as (prof, outside):
            what = prepare(case_rng, kind, prof, outside)
            for cls, detail in run_case(prof, outside, case_rng):
                failures[cls] += 1
                details.append(f"case {i} {kind} ({what}): {cls}: {detail}")
                say(details[-1])
        if (i + 1) % 250 == 0:
            say(f"... {i + 1} cases, {sum(failures.values())} failures")
    return failures, kinds, details


def _unprivileged() -> None:
    """Re-run this script without capabilities when run as root (mode 000 must mean unreadable)."""
    if os.geteuid() != 0 or os.environ.get("OPENCLAW_FUZZ_UNPRIVILEGED") or shutil.which("setpriv") is None:
        return
    env = dict(os.environ, OPENCLAW_FUZZ_UNPRIVILEGED="1")
    os.execvpe("setpriv", ["setpriv", "--bounding-set", "-all", "--inh-caps", "-all",
                           sys.executable, *sys.argv], env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=2000, help="number of mutations (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    _unprivileged()
    with tempfile.TemporaryDirectory(prefix="oc-fuzz-") as tmp:
        work = Path(tmp)
        for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
            os.environ[var] = str(work / var.lower())
        start = time.monotonic()
        failures, kinds, _details = fuzz(args.n, args.seed, work)
        took = time.monotonic() - start
    print(f"\n{args.n} mutations in {took:.0f} s ({'without' if os.environ.get('OPENCLAW_FUZZ_UNPRIVILEGED') else 'with'} "
          "root's file-reading power)")
    print("cases per mutation class: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print("failures per class:")
    for cls in FAILURES:
        print(f"  {cls:18s} {failures[cls]}")
    return 1 if sum(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
