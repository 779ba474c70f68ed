"""`get --from N --lines M`: OpenClaw's memory_get names for --line/--count."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.search_corpus import write


def get(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "get", *map(str, args)],
                          capture_output=True, timeout=120)


def test_from_and_lines_equal_line_and_count(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", b"# Memory\r\n\r\n- one\r\n- two\r\n- three\r\n")
    assert get(ws, "MEMORY.md", "--from", "3", "--lines", "2").stdout == b"- one\r\n- two\r\n"
    assert get(ws, "MEMORY.md", "--from", "3", "--lines", "2").stdout == get(ws, "MEMORY.md", "--line", "3", "--count", "2").stdout
    assert get(ws, "MEMORY.md", "--from", "5").stdout == b"- three\r\n"
    assert get(ws, "MEMORY.md", "--lines", "1").stdout == b"# Memory\r\n"
    for bad in (("--from", "2", "--line", "2"), ("--lines", "1", "--count", "1"), ("--from", "0"), ("--lines", "0"),
                ("--from", "9")):
        r = get(ws, "MEMORY.md", *bad)
        assert r.returncode == 2 and r.stdout == b"" and len(r.stderr.splitlines()) == 1, bad
