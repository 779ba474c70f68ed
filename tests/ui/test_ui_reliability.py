"""The UI never freezes on hostile memory (issue 10): `q` quits within a second."""

from __future__ import annotations

import contextlib
import shutil
import time
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from openclaw_tui.ui.widgets.safe_text import LONG_LINE, clean, clean_line
from tests.cli.test_reliability import alias_bomb
from tests.conftest import SAMPLES
from tests.support import pty_reader, until
from tests.ui_support import SIZE, TODAY, widget_text

LONG = 5_000_000


def _long_line_profile(tmp_path: Path) -> Path:
    prof = tmp_path / "long"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    text = (prof / "memories.md").read_text(encoding="utf-8")
    start = text.index("id: mem-0001")
    body = text.index("---\n", start) + 4
    (prof / "memories.md").write_text(text[:body] + "A" * LONG + " end\n" + text[body:], encoding="utf-8")
    return prof


def _bomb_profile(tmp_path: Path) -> Path:
    prof = tmp_path / "bomb"
    shutil.copytree(SAMPLES / "profiles" / "atlas", prof)
    with (prof / "state.yaml").open("a", encoding="utf-8") as fh:
        fh.write("\n" + alias_bomb())
    with (prof / "memories.md").open("a", encoding="utf-8") as fh:
        fh.write("\n---\nid: mem-0999\n" + alias_bomb() + "---\nlaughs\n")
    return prof


def test_long_lines_are_cut_with_their_length() -> None:
    shown = clean("short\n" + "x" * 10_000 + "\nafter")
    first, cut, after = shown.split("\n")
    assert first == "short" and after == "after"
    assert cut.startswith("x" * LONG_LINE) and "10,000 characters" in cut and len(cut) < LONG_LINE + 60
    assert "10,000" in clean_line("y" * 10_000) and len(clean_line("y" * 10_000)) < LONG_LINE + 40


@pytest.mark.parametrize("make", [_long_line_profile, _bomb_profile], ids=["5MB-line", "alias-bomb"])
async def test_q_quits_within_a_second(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    prof = make(tmp_path)
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await until(lambda: screen.table.row_count > 0, "the first rows")
        await pilot.pause()
        if make is _long_line_profile:
            await until(lambda: "mem-0001" in widget_text(screen.detail.query_one("#detail-title")), "the entry")
            body = screen.detail.query_one("#detail-body").content
            assert f"line cut: {LONG + 4:,} characters" in body.source  # type: ignore[union-attr]
            assert len(body.source) < 3 * LONG_LINE  # type: ignore[union-attr]
        await pilot.press("q")
        await until(lambda: not app.is_running, "the app to quit")  # q quits without waiting for the workers


async def test_the_audit_pane_reports_the_alias_bomb(tmp_path: Path) -> None:
    prof = _bomb_profile(tmp_path)
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await until(lambda: screen.session.current is not None and screen.session.current.findings is not None, "the findings")
        await pilot.pause()
        codes = {(f.code, f.file) for f in screen.session.current.findings}
        assert ("unreadable-file", "state.yaml") in codes and ("malformed-entry", "memories.md") in codes


def test_the_real_program_leaves_at_once_on_q(tmp_path: Path) -> None:
    """The installed UI in a pseudo-terminal: `q` ends the process, not only the screen.

    asyncio.run would wait for every worker thread and the interpreter would then free the
    whole profile object by object; the launcher does neither.  The bound leaves room for a
    loaded CI machine (the process took 60 s before).
    """
    import os
    import pty
    import select
    import sys

    from tests.conftest import REPO_ROOT

    prof = _long_line_profile(tmp_path)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real program
        os.environ.update(TERM="xterm-256color", PYTHONPATH=str(REPO_ROOT))
        os.execv(sys.executable, [sys.executable, "-m", "openclaw_tui.cli", str(prof)])
    seen = bytearray()
    try:
        assert pty_reader(fd, seen)(lambda: b"mem-0001" in seen, 60), "the UI did not show the profile"
        time.sleep(1.0)
        start = time.monotonic()
        os.write(fd, b"q")
        while time.monotonic() - start < 30:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
        assert done, "still running 30 s after q"
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
