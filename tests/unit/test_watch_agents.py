"""Living next to a running agent: concurrent writers in real processes, and examples/agent_writer.py."""

from __future__ import annotations

import ast
import contextlib
import queue
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import ARCHIVE_REL
from openclaw_tui.core.files.reload import diff_ids
from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.files.watch import ChangeBatch, MemoryWatcher
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle.operations import plan_set
from openclaw_tui.core.lifecycle.plan import Files, apply_changes

WRITER = Path(__file__).resolve().parents[2] / "examples" / "agent_writer.py"
TIMEOUT = 30.0

APPENDER = """
import sys
from pathlib import Path
from openclaw_tui.core.lifecycle.operations import add_entry
from openclaw_tui.core.lifecycle.plan import Files

path, start, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
archive = path.parent / "contexts" / "archive" / "memories.md"
for i in range(start, start + count):
    meta = {"id": f"mem-{i:04d}", "source": "agent", "importance": "low"}
    add_entry(Files.load(path, archive), meta, f"appended by the agent, number {i}\\n")
"""


def seed(path: Path, n: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Memory\n\n" + "".join(
        f"---\nid: mem-{i:04d}\nimportance: medium\ntags: [seed]\n---\nseed entry {i}\n\n" for i in range(1, n + 1)
    ), encoding="utf-8")


def edit_while(proc: subprocess.Popen[bytes], path: Path, ids: list[str], watcher: MemoryWatcher | None = None
               ) -> dict[str, str]:
    """Edit ``ids`` round-robin through the operations until ``proc`` ends (and each id at least once)."""
    last: dict[str, str] = {}
    k = 0
    while proc.poll() is None or len(last) < len(ids):
        ident = ids[k % len(ids)]
        value = f"round-{k}"
        plan = plan_set(Files.load(path, path.parent / ARCHIVE_REL), ident, {"tags": ["seed", value]})
        if watcher is not None:
            watcher.expect_write(path, plan.changes[0].after)
        apply_changes(plan)
        last[ident] = value
        k += 1
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.01)  # a person's pace: leave the lock to the agent now and then
    return last


def check_file(path: Path, edited: dict[str, str], appended: set[str]) -> None:
    mf = parse_bytes(path.read_bytes())
    assert not list(mf.malformed())
    ids = mf.ids()
    assert len(ids) == len(set(ids)), "no entry is duplicated"
    assert appended <= set(ids), f"lost {sorted(appended - set(ids))[:5]}"
    for ident, value in edited.items():
        e = mf.get(ident)
        assert e is not None and e.tags == ["seed", value], ident
    assert mf.preamble == "# Memory\n\n"


@pytest.mark.slow
def test_two_processes_commit_concurrently_without_losing_anything(tmp_path: Path) -> None:
    path = tmp_path / "profiles" / "assistant" / "memories.md"
    seed(path, 40)
    batches: queue.Queue[ChangeBatch] = queue.Queue()
    with MemoryWatcher(tmp_path, batches.put) as watcher:
        proc = subprocess.Popen([sys.executable, "-c", APPENDER, str(path), "1001", "1000"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            edited = edit_while(proc, path, [f"mem-{i:04d}" for i in range(1, 41)], watcher)
        finally:
            _out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()
        check_file(path, edited, {f"mem-{i:04d}" for i in range(1001, 2001)})
        # the agent's writes were reported as external changes
        seen: set[str] = set()
        while "profiles/assistant/memories.md" not in seen:
            seen |= batches.get(timeout=TIMEOUT).paths
    assert len(parse_bytes(path.read_bytes()).ids()) == 1040


# --- examples/agent_writer.py -----------------------------------------------------------------------


def run_writer(*args: str | Path) -> subprocess.CompletedProcess[str]:
    # -S -I: no site-packages at all, so the example cannot lean on openclaw_tui
    return subprocess.run([sys.executable, "-S", "-I", str(WRITER), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_agent_writer_needs_only_the_standard_library() -> None:
    tree = ast.parse(WRITER.read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "openclaw_tui" not in modules
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}


def test_the_core_sees_an_agent_append(tmp_path: Path) -> None:
    path = tmp_path / "assistant" / "memories.md"
    seed(path, 3)
    (tmp_path / "assistant" / "contexts" / "archive").mkdir(parents=True)
    (tmp_path / "assistant" / "contexts" / "archive" / "memories.md").write_text(
        "---\nid: mem-0007\nstatus: archived\n---\nold\n", encoding="utf-8")
    doc = MemoryDoc.load(path)
    batches: queue.Queue[ChangeBatch] = queue.Queue()
    with MemoryWatcher(tmp_path, batches.put):
        r = run_writer(path, "用户现在只喝低因咖啡。\n\nSee mem-0002.", "--tags", "咖啡,health",
                       "--importance", "high", "--source", "chat#3412")
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "mem-0008"  # after the archive's mem-0007
        seen: set[str] = set()
        while "assistant/memories.md" not in seen:
            b = batches.get(timeout=TIMEOUT)
            seen |= b.paths
            assert not b.own
    data = path.read_bytes()
    new = MemoryDoc.from_bytes(path, data, doc.mf).mf
    diff = diff_ids(doc.mf, new)
    assert diff.added == ("mem-0008",) and not diff.changed and not diff.removed
    e = new.get("mem-0008")
    assert e is not None and not list(new.malformed())
    assert e.meta["importance"] == "high" and e.tags == ["咖啡", "health"] and e.meta["source"] == "chat#3412"
    assert e.status == "active" and e.body == "用户现在只喝低因咖啡。\n\nSee mem-0002.\n"
    assert doc.data is not None and data.startswith(doc.data)
    assert (tmp_path / "assistant" / "memories.md.lock").exists()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_agent_writer_keeps_bom_crlf_and_a_missing_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "memories.md"
    original = b"\xef\xbb\xbf# m\r\n---\r\nid: mem-0041\r\n---\r\nno final newline"
    path.write_bytes(original)
    r = run_writer(path, "second line", "--tags", "a b,yes,x:y")
    assert r.returncode == 0 and r.stdout.strip() == "mem-0042"
    data = path.read_bytes()
    assert data.startswith(original + b"\r\n---\r\nid: mem-0042\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    e = parse_bytes(data).get("mem-0042")
    assert e is not None and e.tags == ["a b", "yes", "x:y"]


def test_agent_writer_leaves_a_non_utf8_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "memories.md"
    path.write_bytes(b"---\nid: mem-0001\n---\n\xff\xfe\n")
    r = run_writer(path, "hello")
    assert r.returncode == 2 and path.read_bytes() == b"---\nid: mem-0001\n---\n\xff\xfe\n"


def test_agent_writer_and_store_commit_in_two_processes(tmp_path: Path) -> None:
    path = tmp_path / "profiles" / "assistant" / "memories.md"
    seed(path, 20)
    proc = subprocess.Popen([sys.executable, "-S", "-I", str(WRITER), str(path), "agent note", "--repeat", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        edited = edit_while(proc, path, [f"mem-{i:04d}" for i in range(1, 21)])
    finally:
        out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err.decode()
    printed = out.decode().split()
    assert printed == [f"mem-{i:04d}" for i in range(21, 321)]
    check_file(path, edited, set(printed))
