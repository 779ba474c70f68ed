"""Issue 24 point 20: a crash inside the UI exits non-zero with its traceback shown (a real process on a pty)."""

from __future__ import annotations

import os
import pty
import re
import signal
import sys
from pathlib import Path

from tests.support import pty_reader

# The program as a user starts it, with one action made to fail: pressing f2 (light/dark) raises.
CRASHING = (
    "import sys\n"
    "from openclaw_tui.ui.app import OpenClawApp\n"
    "def boom(self):\n"
    "    raise RuntimeError('planted failure 24-20')\n"
    "OpenClawApp.action_toggle_theme = boom\n"
    "from openclaw_tui.cli import main\n"
    "sys.argv = ['openclaw-tui', '--demo', '--today', '2026-11-30']\n"
    "sys.exit(main())\n"
)


def _run_on_pty(tmp_path: Path, keys: list[bytes]) -> tuple[int, bytes]:
    env = dict(os.environ, TMPDIR=str(tmp_path), TERM="xterm-256color", COLUMNS="120", LINES="40")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-c", CRASHING], env)
    out = bytearray()

    read_until = pty_reader(fd, out)

    try:
        assert read_until(lambda: b"xiaoyu" in out, 60), bytes(out[-500:])
        demo = sorted(tmp_path.glob("openclaw-demo-*"))[0]
        (demo / "profiles" / "atlas" / "new.md").write_text("a note of mine\n", encoding="utf-8")
        read_until(lambda: False, 1.0)
        for key in keys:
            os.write(fd, key)
        read_until(lambda: False, 60)  # until the process closes the pty
        _, status = os.waitpid(pid, 0)
        pid = 0
        assert os.WIFEXITED(status)
        return os.WEXITSTATUS(status), bytes(out)
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


def test_a_crash_exits_non_zero_with_its_traceback_and_keeps_the_demo(tmp_path: Path) -> None:
    status, out = _run_on_pty(tmp_path, [b"\x1bOQ"])  # f2
    assert status != 0, out[-2000:]
    text = re.sub(rb"\x1b\[[0-9;?<>=$]*[a-zA-Z~]", b"", out)  # the screen's escape codes out
    assert b"Traceback" in text and b"RuntimeError: planted failure 24-20" in text
    demo = sorted(tmp_path.glob("openclaw-demo-*"))[0]
    assert (demo / "profiles" / "atlas" / "new.md").read_text(encoding="utf-8") == "a note of mine\n"
    assert f"The demo is kept in {demo}".encode() in out
