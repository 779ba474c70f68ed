"""Benchmarks of the git history features on large fixtures (targets from the brief).

    python bench/bench_git.py [--keep DIR]

1. history listing: the first page of a profile's log in a 10,000-commit repository (target 300 ms);
2. semantic diff of one commit on a 100,000-entry memories.md (target 1 s);
3. one entry's history over 1,000 commits of a 10,000-entry memories.md (target 1 s), with the
   entry index the app builds in the background when it opens a repository; the same query
   without the index, and the index build itself, are printed for information.

Fixtures are built fast: ``git fast-import`` for 1 and 2; for 3, whose 1,000
versions of a 1.8 MB file would take fast-import half a minute, a pack is
written directly (each version a small delta on the previous one, chains
no deeper than git's default of 50) and indexed by ``git index-pack``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import entry_text, memories_text  # noqa: E402

from openclaw_tui.core.format.entries import common_prefix, common_suffix  # noqa: E402
from openclaw_tui.core.git import (
    entry_history,
    history,  # noqa: E402
)
from openclaw_tui.core.git.gitrepo import find_repo  # noqa: E402

PROFILE = "profiles/assistant"
MEM = f"{PROFILE}/memories.md"
ARCH = f"{PROFILE}/contexts/archive/memories.md"
ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    proc = subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, env={**os.environ, **ENV})
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {proc.stderr.decode()}")
    return proc.stdout


def _init(repo: Path) -> None:
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "bench")
    _git(repo, "config", "user.email", "bench@example.invalid")


def _blob_cmd(path: str, data: bytes) -> bytes:
    return b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data)


def _commit_cmd(n: int, message: str) -> bytes:
    msg = message.encode()
    return b"commit refs/heads/main\ncommitter bench <bench@example.invalid> %d +0000\ndata %d\n%s\n" % (
        1_700_000_000 + n * 60, len(msg), msg)


def build_many_commits(repo: Path, n: int = 10_000) -> None:
    """``n`` commits, each changing the profile (state.yaml; memories.md every 10th)."""
    _init(repo)
    rng = random.Random(7)
    entries = [entry_text(i, rng) for i in range(1, 101)]
    out = [_commit_cmd(0, "initial") + _blob_cmd(MEM, "".join(entries).encode()) + _blob_cmd(f"{PROFILE}/state.yaml",
                                                                                               b"step: 0\n")]
    for c in range(1, n):
        cmd = _commit_cmd(c, f"feat(mem): step {c}") + _blob_cmd(f"{PROFILE}/state.yaml", b"step: %d\n" % c)
        if c % 10 == 0:
            i = rng.randrange(len(entries))
            entries[i] = entries[i].replace("status: active", f"status: active\nlast_hit: 2025-{1 + c % 12:02d}-01", 1)
            cmd += _blob_cmd(MEM, "".join(entries).encode())
        out.append(cmd)
    _git(repo, "fast-import", "--quiet", data=b"".join(out))
    _git(repo, "reset", "-q", "--hard", "main")


def build_big_file(repo: Path, n: int = 100_000) -> str:
    """Two commits of an ``n``-entry memories.md: the second edits, supersedes and adds entries."""
    _init(repo)
    text = memories_text(n)
    first = _commit_cmd(0, "initial") + _blob_cmd(MEM, text.encode())
    mid = f"id: mem-{n // 2:06d}\n"
    changed = text.replace(mid + "timestamp", mid + "importance_note: reviewed\ntimestamp", 1)
    changed = changed.replace(f"id: mem-{n // 3:06d}\n", f"id: mem-{n // 3:06d}\nsuperseded_by: mem-{n + 1:06d}\n", 1)
    changed += entry_text(n + 1, random.Random(1))
    second = _commit_cmd(1, "feat(mem): review") + _blob_cmd(MEM, changed.encode())
    _git(repo, "fast-import", "--quiet", data=first + second)
    _git(repo, "reset", "-q", "--hard", "main")
    return _git(repo, "rev-parse", "HEAD").decode().strip()


# --- a pack written by hand: 1,000 versions of a 10k-entry file -------------------------------------------


def _obj_header(kind: int, size: int) -> bytes:
    out = bytearray([(kind << 4) | (size & 15) | (0x80 if size > 15 else 0)])
    size >>= 4
    while size:
        out.append((size & 0x7F) | (0x80 if size > 0x7F else 0))
        size >>= 7
    return bytes(out)


def _ofs(delta: int) -> bytes:
    out = [delta & 0x7F]
    delta >>= 7
    while delta:
        delta -= 1
        out.insert(0, 0x80 | (delta & 0x7F))
        delta >>= 7
    return bytes(out)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _copy(offset: int, size: int) -> bytes:
    op, args = 0x80, bytearray()
    for i in range(4):
        byte = (offset >> (8 * i)) & 0xFF
        if byte:
            op |= 1 << i
            args.append(byte)
    for i in range(3):
        byte = (size >> (8 * i)) & 0xFF
        if byte:
            op |= 1 << (4 + i)
            args.append(byte)
    return bytes([op]) + bytes(args)


def _delta(src_len: int, tgt_len: int, a: int, b: int, insert: bytes) -> bytes:
    """Target = source[:a] + insert + source[b:]."""
    out = bytearray(_varint(src_len) + _varint(tgt_len))
    if a:
        out += _copy(0, a)
    for i in range(0, len(insert), 127):
        chunk = insert[i : i + 127]
        out.append(len(chunk))
        out += chunk
    if b < src_len:
        out += _copy(b, src_len - b)
    return bytes(out)


class _Pack:
    def __init__(self) -> None:
        self.body = bytearray()
        self.count = 0

    def add(self, kind: int, data: bytes, base: tuple[int, bytes] | None = None) -> int:
        """Append an object (``base``: (pack offset, delta) to store it as an OFS_DELTA); returns its offset."""
        pos = 12 + len(self.body)
        if base is None:
            self.body += _obj_header(kind, len(data)) + zlib.compress(data, 1)
        else:
            offset, delta = base
            self.body += _obj_header(6, len(delta)) + _ofs(pos - offset) + zlib.compress(delta, 1)
        self.count += 1
        return pos

    def bytes(self) -> bytes:
        head = b"PACK" + (2).to_bytes(4, "big") + self.count.to_bytes(4, "big")
        data = head + bytes(self.body)
        return data + hashlib.sha1(data).digest()


def _sha(kind: str, data: bytes) -> bytes:
    return hashlib.sha1(b"%s %d\0" % (kind.encode(), len(data)) + data).digest()


def _tree(items: dict[str, tuple[str, bytes]]) -> bytes:
    def key(name: str) -> str:
        return name + "/" if items[name][0] == "40000" else name

    return b"".join(b"%s %s\0%s" % (items[n][0].encode(), n.encode(), items[n][1]) for n in sorted(items, key=key))


def build_entry_history(repo: Path, commits: int = 1_000, entries: int = 10_000, target: int = 5_000) -> str:
    """``commits`` versions of an ``entries``-entry memories.md; the target entry changes a few times,
    moves to the archive and comes back.  Returns the target id."""
    _init(repo)
    rng = random.Random(3)
    texts = [entry_text(i, rng).encode() for i in range(1, entries + 1)]
    ids = list(range(1, entries + 1))
    head = b"# Long-term memory\n\n"
    tid = f"mem-{target:06d}"
    archive = b""
    pack = _Pack()
    blob = b""
    blob_pos, depth = -1, 0
    parent: bytes | None = None
    arch_sha = _sha("blob", archive)
    pack.add(3, archive)
    for c in range(commits):
        if c:  # one change per commit
            if c % 97 == 0 and target in ids:
                i = ids.index(target)
                t = texts[i]
                texts[i] = (t.replace(b"status: active", b"status: active\nlast_hit: 2025-01-01", 1)
                            if b"last_hit" not in t else t.replace(b"last_hit: 2025-", b"last_hit: 2025-1", 1))
            elif c == commits - 100 and target in ids:
                i = ids.index(target)
                archive = texts[i].replace(b"status: active", b"status: archived", 1)
                del texts[i], ids[i]
            elif c == commits - 50 and archive:
                texts.append(archive.replace(b"status: archived", b"status: active", 1))
                ids.append(target)
                archive = b""
            elif c % 4 == 0:
                texts.append(entry_text(entries + c, rng).encode())
                ids.append(entries + c)
            else:
                i = rng.randrange(len(texts))
                texts[i] = texts[i].replace(b"source: chat#", b"source: chat#1", 1)
        new_blob = head + b"".join(texts)
        if c == 0 or depth >= 50:
            blob_pos, depth = pack.add(3, new_blob), 0
        else:
            a = common_prefix(blob, new_blob)
            s = common_suffix(blob, new_blob, min(len(blob), len(new_blob)) - a)
            delta = _delta(len(blob), len(new_blob), a, len(blob) - s, new_blob[a : len(new_blob) - s])
            blob_pos, depth = pack.add(3, new_blob, (blob_pos, delta)), depth + 1
        blob = new_blob
        if _sha("blob", archive) != arch_sha:
            arch_sha = _sha("blob", archive)
            pack.add(3, archive)
        archive_tree = _tree({"memories.md": ("100644", arch_sha)})
        contexts = _tree({"archive": ("40000", _sha("tree", archive_tree))})
        prof = _tree({"memories.md": ("100644", _sha("blob", blob)), "contexts": ("40000", _sha("tree", contexts))})
        profiles = _tree({"assistant": ("40000", _sha("tree", prof))})
        root = _tree({"profiles": ("40000", _sha("tree", profiles))})
        for t_data in (archive_tree, contexts, prof, profiles, root):
            pack.add(2, t_data)
        lines = [b"tree " + _sha("tree", root).hex().encode()]
        if parent:
            lines.append(b"parent " + parent.hex().encode())
        who = b"bench <bench@example.invalid> %d +0000" % (1_700_000_000 + c * 60)
        commit = b"\n".join(lines) + b"\nauthor " + who + b"\ncommitter " + who + b"\n\nstep %d\n" % c
        pack.add(1, commit)
        parent = _sha("commit", commit)
    _git(repo, "index-pack", "--stdin", data=pack.bytes())
    assert parent is not None
    _git(repo, "update-ref", "refs/heads/main", parent.hex())
    _git(repo, "reset", "-q", "--hard", "main")
    return tid


# --- measuring ---------------------------------------------------------------------------------------------------


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _time(fn: Callable[[], object], runs: int = 3) -> tuple[float, float, object]:
    """Median wall time, median CPU time (this process and its git children), last result.

    On a loaded machine the CPU figure is the steadier one.
    """
    walls, cpus, result = [], [], None
    for _ in range(runs):
        c0, t0 = _cpu(), time.perf_counter()
        result = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
    return statistics.median(walls), statistics.median(cpus), result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="build the fixtures here (or reuse them) and leave them")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="openclaw-bench-git-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, float, float, float]] = []
    try:
        t0 = time.perf_counter()
        if not (work / "many" / ".git").exists():
            build_many_commits(work / "many")
            print(f"fixture: 10,000 commits built in {time.perf_counter() - t0:.1f} s", flush=True)
        repo = find_repo(work / "many")
        assert repo is not None
        secs, cpu, page = _time(lambda: history.log_page(repo, repo.root / PROFILE, 0, 50), args.runs)
        assert isinstance(page, list) and len(page) == 50
        rows.append(("history: first page of 50 (10,000 commits)", secs, cpu, 0.3))
        secs, cpu, page = _time(lambda: history.log_page(repo, repo.root / PROFILE, 9_000, 50), args.runs)
        rows.append(("history: page at skip 9,000 (info)", secs, cpu, float("nan")))

        t0 = time.perf_counter()
        if not (work / "big" / ".git").exists():
            build_big_file(work / "big")
            print(f"fixture: 100,000-entry file in 2 commits built in {time.perf_counter() - t0:.1f} s", flush=True)
        sha = _git(work / "big", "rev-parse", "HEAD").decode().strip()
        repo = find_repo(work / "big")
        assert repo is not None
        secs, cpu, diff = _time(lambda: history.commit_semantic_diff(repo, sha, repo.root / PROFILE), args.runs)
        lines = diff.diff.lines()  # type: ignore[attr-defined]
        assert len(lines) == 3, lines
        rows.append(("semantic diff of a commit (100,000 entries)", secs, cpu, 1.0))

        t0 = time.perf_counter()
        tid = "mem-005000"
        if not (work / "hist" / ".git").exists():
            tid = build_entry_history(work / "hist")
            print(f"fixture: 1,000 commits of a 10,000-entry file built in {time.perf_counter() - t0:.1f} s", flush=True)
        repo = find_repo(work / "hist")
        assert repo is not None
        index_dir = repo.git_dir / "openclaw-tui"
        shutil.rmtree(index_dir, ignore_errors=True)
        secs, cpu, versions = _time(lambda: entry_history.entry_history(repo, repo.root / PROFILE, tid), args.runs)
        kinds = [v.kind for v in versions]  # type: ignore[attr-defined]
        assert "archived" in kinds and "restored" in kinds and kinds[-1] == "created", kinds
        rows.append((f"entry history, no index yet (info; {len(kinds)} versions)", secs, cpu, float("nan")))
        secs, cpu, pairs = _time(lambda: entry_history.index_entry_history(repo, repo.root / PROFILE), 1)
        rows.append((f"index build, in the app's background worker (info; {pairs} pairs)", secs, cpu, float("nan")))
        secs, cpu, indexed = _time(lambda: entry_history.entry_history(repo, repo.root / PROFILE, tid), args.runs)
        assert [(v.commit.sha, v.raw) for v in indexed] == [(v.commit.sha, v.raw) for v in versions]  # type: ignore
        rows.append((f"entry history of {tid} over 1,000 commits, indexed", secs, cpu, 1.0))
        other = "mem-000001"
        secs, cpu, _v = _time(lambda: entry_history.entry_history(repo, repo.root / PROFILE, other), args.runs)
        rows.append((f"entry history of {other}, indexed", secs, cpu, 1.0))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; CPU = this process + git")
    width = max(len(r[0]) for r in rows)
    for name, secs, cpu, target in rows:
        tgt = "" if target != target else f"  target {target * 1000:.0f} ms: " + ("ok" if secs <= target else "OVER")
        print(f"{name:<{width}}  wall {secs * 1000:8.1f} ms  CPU {cpu * 1000:8.1f} ms{tgt}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
