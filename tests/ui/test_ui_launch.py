"""``openclaw-tui [PATH] [--demo]``: what opens, and the one-line refusals (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.launch import default_path, memory_problem
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from tests.support import pty_reader
from tests.ui_support import SIZE, TODAY, copy_samples, settle, write_profile


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", *args],
        capture_output=True, text=True, cwd=cwd, timeout=60, stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("kind", ["missing", "empty", "file", "plain-folder"])
def test_a_path_that_is_not_memory_exits_2_with_one_line(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "x"
    if kind == "empty":
        target.mkdir()
    elif kind == "file":
        target.write_text("hello\n", encoding="utf-8")
    elif kind == "plain-folder":
        (target / "docs").mkdir(parents=True)
        (target / "docs" / "notes.md").write_text("# notes\n", encoding="utf-8")
    proc = run_cli(str(target))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("openclaw-tui: ")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert list(tmp_path.iterdir()) == ([target] if kind != "missing" else [])


def test_bad_options_exit_2(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "p", "---\nid: mem-1\n---\nx\n")
    for args in (["--today", "yesterday", str(prof)], ["--demo", str(prof)], ["--nope"]):
        proc = run_cli(*args)
        assert proc.returncode == 2, args
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("openclaw-tui: ")


def test_no_path_and_no_memory_here_exits_2(tmp_path: Path) -> None:
    proc = run_cli(cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("openclaw-tui: no memory here")


def test_what_opens(tmp_path: Path) -> None:
    root = copy_samples(tmp_path)
    assert memory_problem(root / "xiaoyu") is None  # a profile
    assert memory_problem(root) is None  # a profiles root
    assert memory_problem(root.parent) is None  # a folder holding profiles/
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    assert memory_problem(ws) is None  # a workspace
    assert default_path(root.parent) == root.parent / "profiles"
    assert default_path(root / "xiaoyu") == root / "xiaoyu"
    assert default_path(ws) == ws
    empty = tmp_path / "empty"
    empty.mkdir()
    assert default_path(empty) is None
    assert "not a profile" in (memory_problem(empty) or "")


@pytest.mark.parametrize("kind", ["missing", "file", "empty", "plain-folder", "profile", "root", "holder", "workspace"])
def test_the_launcher_and_the_commands_discover_alike(tmp_path: Path, kind: str) -> None:
    """One discovery (core.files.profile.locate): the UI opens exactly what the commands accept."""
    from openclaw_tui.core.files.profile import NotMemory, discover, locate

    root = copy_samples(tmp_path)
    target = {"profile": root / "xiaoyu", "root": root, "holder": root.parent}.get(kind, tmp_path / "x")
    if kind == "file":
        target.write_text("x\n", encoding="utf-8")
    elif kind == "empty":
        target.mkdir()
    elif kind == "plain-folder":
        (target / "docs").mkdir(parents=True)
    elif kind == "workspace":
        target.mkdir()
        (target / "AGENTS.md").write_text("# agents\n", encoding="utf-8")
    try:
        found = discover(target)
    except NotMemory as exc:
        assert memory_problem(target) == str(exc)
        with pytest.raises(NotMemory):
            locate(target)
        assert kind in ("missing", "file", "empty", "plain-folder")
    else:
        assert memory_problem(target) is None
        kind_found, places = locate(target)
        assert kind_found == found.kind == {"holder": "root"}.get(kind, kind)
        assert [(p.path.absolute(), p.rel, p.layout) for p in places] == [
            (p.path, p.rel, p.layout) for p in found.profiles]


async def test_the_demo_opens_with_its_pending_merge(tmp_path: Path) -> None:
    from openclaw_tui.ui.adapters import build_demo

    path = build_demo(tmp_path / "demo")  # git and the samples are requirements: any failure here is a failure
    assert memory_problem(path) is None
    app = OpenClawApp(path, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = app.screen
        assert isinstance(m, MainScreen)
        assert m.loaded and m.table.row_count > 0
        codes = {f.code for f in m.audit.findings}
        assert "merge-conflict" in codes or "malformed-entry" in codes


def test_the_sample_helpers_fail_loudly_when_the_samples_are_missing(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import ui_support

    monkeypatch.setattr(ui_support, "SAMPLES", tmp_path / "gone")
    with pytest.raises(pytest.fail.Exception, match="samples are incomplete"):
        ui_support.copy_samples(tmp_path)
    assert not (tmp_path / "samples").exists()  # no stand-in was made


# --- quitting the demo: its folder is deleted, unless it has changes and the user keeps it -------------------


def _asked(answer: str | BaseException) -> tuple[list[str], object]:
    questions: list[str] = []

    def ask(question: str) -> str:
        questions.append(question)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    return questions, ask


def test_an_unchanged_demo_is_deleted_without_a_question(tmp_path: Path) -> None:
    from openclaw_tui.ui.adapters import build_demo
    from openclaw_tui.ui.launch import finish_demo

    demo = build_demo(tmp_path / "demo")
    (demo / "profiles" / "xiaoyu" / "memories.md.lock").write_bytes(b"")  # the app's lock files are no change
    questions, ask = _asked("y")
    assert finish_demo(demo, ask=ask) is None  # type: ignore[arg-type]
    assert questions == [] and not demo.exists()


@pytest.mark.parametrize("answer,kept", [("", True), ("y", True), ("YES\n", True), ("n", False), (" No ", False),
                                         (EOFError(), True), (KeyboardInterrupt(), True)])
def test_a_changed_demo_is_asked_about(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       answer: str | BaseException, kept: bool) -> None:
    from openclaw_tui.ui.adapters import build_demo
    from openclaw_tui.ui.launch import KEEP_QUESTION, finish_demo

    demo = build_demo(tmp_path / "demo")
    mem = demo / "profiles" / "atlas" / "memories.md"
    mem.write_bytes(mem.read_bytes() + b"\n")
    questions, ask = _asked(answer)
    result = finish_demo(demo, ask=ask)  # type: ignore[arg-type]
    assert questions == [KEEP_QUESTION]
    assert demo.exists() == kept and (result == demo) == kept
    out = capsys.readouterr().out
    assert (out == f"The demo is kept in {demo}\n") if kept else out == ""


def test_the_ui_s_answer_wins_and_no_terminal_means_delete(tmp_path: Path) -> None:
    from openclaw_tui.ui.adapters import build_demo
    from openclaw_tui.ui.launch import finish_demo

    for keep in (True, False, None):
        demo = build_demo(tmp_path / f"demo-{keep}")
        (demo / "profiles" / "atlas" / "new.md").write_text("x\n", encoding="utf-8")
        questions, ask = _asked("y")
        finish_demo(demo, keep=keep, ask=ask if keep is not None else None)  # type: ignore[arg-type]
        assert questions == [] and demo.exists() == bool(keep)


def test_quitting_a_changed_demo_on_a_terminal_asks_and_keeps_it(tmp_path: Path) -> None:
    """The whole way a user goes: `openclaw-tui --demo` on a terminal, a change, `q`, Enter."""
    import os
    import pty
    import signal

    env = dict(os.environ, TMPDIR=str(tmp_path), TERM="xterm-256color", COLUMNS="120", LINES="40")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program as a user starts it
        os.execvpe(sys.executable, [sys.executable, "-m", "openclaw_tui.cli", "--demo", "--today", "2026-11-30"], env)
    out = bytearray()

    read_until = pty_reader(fd, out)

    try:
        demos = lambda: sorted(tmp_path.glob("openclaw-demo-*"))  # noqa: E731
        assert read_until(lambda: demos() and b"xiaoyu" in out, 60), bytes(out[-500:])
        demo = demos()[0]
        (demo / "profiles" / "atlas" / "new.md").write_text("a note of mine\n", encoding="utf-8")
        read_until(lambda: False, 1.0)
        os.write(fd, b"q")
        assert read_until(lambda: b"Keep its folder? [Y/n]" in out, 30), bytes(out[-500:])
        os.write(fd, b"\r")
        assert read_until(lambda: b"The demo is kept in" in out, 30), bytes(out[-500:])
        _, status = os.waitpid(pid, 0)
        pid = 0
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert f"The demo is kept in {demo}".encode() in out
        assert (demo / "profiles" / "atlas" / "new.md").read_text(encoding="utf-8") == "a note of mine\n"
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


def test_a_bad_config_file_stops_the_ui_before_it_starts(tmp_path: Path) -> None:
    import os

    prof = write_profile(tmp_path, "p", "---\nid: mem-0001\n---\nx\n")
    config = tmp_path / "config.toml"
    config.write_text("[limits]\ncold_days = 'soon'\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", str(prof)], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, env=dict(os.environ, OPENCLAW_TUI_CONFIG=str(config)))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"openclaw-tui: {config}") and "cold_days" in proc.stderr


def test_the_ui_s_check_uses_the_config_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openclaw_tui.core.config import Limits
    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.ui.adapters import run_check

    prof = write_profile(tmp_path, "p", "".join(f"---\nid: mem-{i:04d}\n---\nx\n" for i in range(1, 4)))
    config = tmp_path / "config.toml"
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(config))
    assert "over-capacity" not in {f.code for f in run_check(load_profile(prof), TODAY)[0]}
    config.write_text("[limits]\ncap = 2\n", encoding="utf-8")
    assert "over-capacity" in {f.code for f in run_check(load_profile(prof), TODAY)[0]}
    assert "over-capacity" not in {f.code for f in run_check(load_profile(prof), TODAY, Limits(cap=3))[0]}
    config.write_text("[limits]\ncap = two\n", encoding="utf-8")
    findings, why = run_check(load_profile(prof), TODAY)
    assert findings == [] and why is not None and "not valid TOML" in why
