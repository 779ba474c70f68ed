"""Several real processes write the same memories.md at once: nothing is lost or mangled."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.format.entries import parse_bytes

HELPER = Path(__file__).resolve().parents[1] / "helpers_procs.py"
WORKERS = 4
ROUNDS = 24


def test_concurrent_adds_and_edits_lose_nothing(tmp_path: Path) -> None:
    p = tmp_path / "assistant"
    p.mkdir()
    own = "".join(f"---\nid: mem-{w:04d}\nimportance: medium\n---\nWorker {w}'s entry.\n" for w in range(1, WORKERS + 1))
    (p / "memories.md").write_text("# shared\n\n" + own, encoding="utf-8")
    procs = [
        subprocess.Popen([sys.executable, str(HELPER), "edit", str(p), str(w), str(ROUNDS)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for w in range(1, WORKERS + 1)
    ]
    added: list[str] = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()
        added.extend(out.decode().split())
    assert len(added) == WORKERS * ROUNDS

    data = (p / "memories.md").read_bytes()
    mf = parse_bytes(data)
    assert mf.to_bytes() == data
    assert not list(mf.malformed())
    ids = mf.ids()
    assert len(ids) == len(set(ids)), "an id was given twice"
    assert sorted(ids) == sorted([f"mem-{w:04d}" for w in range(1, WORKERS + 1)] + added)
    for w in range(1, WORKERS + 1):  # every worker's last edit is there, and only its own field changed
        e = mf.get(f"mem-{w:04d}")
        assert e is not None
        assert e.meta[f"counter_{w}"] == ROUNDS - 1
        assert e.meta["importance"] == "medium"
        assert e.body == f"Worker {w}'s entry.\n"
    assert mf.preamble == "# shared\n\n"
