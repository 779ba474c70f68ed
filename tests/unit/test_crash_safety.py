"""A writer killed with SIGKILL at a random moment leaves each file whole: the old version or
the new one, never a mix; a move between files duplicates an entry at worst, never loses it."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse_bytes
from tests.helpers_procs import version_text

HELPER = Path(__file__).resolve().parents[1] / "helpers_procs.py"


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(HELPER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _kill(proc: subprocess.Popen[bytes]) -> bytes:
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    return out


@pytest.mark.slow
def test_killed_writer_leaves_an_old_or_new_version(tmp_path: Path) -> None:
    rng = random.Random(1234)
    path = tmp_path / "p" / "memories.md"
    path.parent.mkdir()
    path.write_text(version_text(0), encoding="utf-8")
    for _ in range(10):
        proc = _start("versions", str(path))
        assert proc.stdout is not None
        first = proc.stdout.readline()  # it is writing now
        assert first.strip() == b"1", proc.stderr.read() if proc.stderr else b""
        time.sleep(rng.uniform(0.0, 0.25))
        out = first + _kill(proc)
        written = [int(x) for x in out.split()]
        data = path.read_bytes()
        m = re.search(rb"version: (\d+)", data)
        assert m is not None
        k = int(m.group(1))
        assert data == version_text(k).encode(), "a partial or mixed file"
        assert written[-1] <= k <= written[-1] + 1  # the last confirmed write, or the one in flight
        assert parse_bytes(data).ids() == [f"mem-{i:04d}" for i in range(1, 401)]


@pytest.mark.slow
def test_killed_archive_restore_loop_never_loses_an_entry(tmp_path: Path) -> None:
    rng = random.Random(99)
    p = tmp_path / "assistant"
    (p / "contexts" / "archive").mkdir(parents=True)
    everyone = [f"mem-{i:04d}" for i in range(1, 31)]
    (p / "memories.md").write_text(
        "".join(f"---\nid: {i}\nstatus: active\n---\n{'text ' * 200}\n" for i in everyone), encoding="utf-8"
    )
    for trial in range(8):
        proc = _start("shuffle", str(p))
        time.sleep(rng.uniform(0.6, 1.5))
        _kill(proc)
        mem = parse_bytes((p / "memories.md").read_bytes())
        arc_path = p / "contexts" / "archive" / "memories.md"
        arc = parse_bytes(arc_path.read_bytes()) if arc_path.exists() else parse_bytes(b"")
        assert not list(mem.malformed()) and not list(arc.malformed())
        assert len(set(mem.ids())) == len(mem.ids()) and len(set(arc.ids())) == len(arc.ids())
        both = Counter(mem.ids() + arc.ids())
        assert sorted(both) == everyone, "an entry was lost"
        assert sum(1 for n in both.values() if n > 1) <= trial + 1  # at most one in-flight move per kill
        for e in list(mem.entries) + list(arc.entries):
            assert e.body == "text " * 200 + "\n"
