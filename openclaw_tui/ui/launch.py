"""Starting the terminal UI: ``openclaw-tui [PATH] [--demo] [--today DATE]``.

PATH is a profile, a profiles root, a folder holding ``profiles/`` or an OpenClaw workspace (default:
``./profiles``, else the current folder).  A path that is not memory gives one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.config import ConfigError, load_config
from ..core.files.profile import NotMemory, is_profile_dir, is_workspace_dir, locate

PROG = "openclaw-tui"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{PROG}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Review, correct and audit an AI agent's file-based memory.")
    p.add_argument("path", nargs="?", help="a profile, a profiles root, a folder holding profiles/, or a workspace")
    p.add_argument("--demo", action="store_true", help="open a throwaway copy of the bundled sample profiles")
    p.add_argument("--today", help="fix today's date (YYYY-MM-DD) for TTL and cold checks")
    from .. import __version__

    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    p.add_argument("--openclaw-config", metavar="FILE", help="an OpenClaw workspace's openclaw.json (JSON5)")
    return p


def memory_problem(path: Path) -> str | None:
    """Why ``path`` cannot be opened (None when it can), without reading any memory file."""
    try:
        locate(path, workspaces=True)
    except NotMemory as exc:
        return str(exc)
    return None


def default_path(cwd: Path) -> Path | None:
    if (cwd / "profiles").is_dir():
        return cwd / "profiles"
    if is_profile_dir(cwd) or is_workspace_dir(cwd):
        return cwd
    return None


def launch_ui(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    today = None
    if args.today:
        try:
            today = dt.date.fromisoformat(args.today)
        except ValueError:
            print(f"{PROG}: --today: {args.today!r} is not a date (YYYY-MM-DD)", file=sys.stderr)
            return 2
    try:
        load_config()  # the UI's limits and keys: a file that cannot be used stops here, with one line
    except ConfigError as exc:
        print(f"{PROG}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    cleanup: Path | None = None
    if args.demo:
        if args.path:
            print(f"{PROG}: --demo takes no PATH", file=sys.stderr)
            return 2
        from .adapters import build_demo

        cleanup = Path(tempfile.mkdtemp(prefix="openclaw-demo-"))
        try:
            path = build_demo(cleanup)
        except Exception as exc:  # noqa: BLE001 - one clear line, no traceback
            shutil.rmtree(cleanup, ignore_errors=True)
            print(f"{PROG}: cannot build the demo: {exc}", file=sys.stderr)
            return 2
    elif args.path:
        path = Path(args.path)
    else:
        found = default_path(Path.cwd())
        if found is None:
            print(f"{PROG}: no memory here: give a PATH (a profile, a profiles root or a workspace)",
                  file=sys.stderr)
            return 2
        path = found
    problem = memory_problem(path)
    if problem is not None:
        if cleanup is not None:
            shutil.rmtree(cleanup, ignore_errors=True)
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    from .app import OpenClawApp

    app = OpenClawApp(path, today=today, cleanup=cleanup)
    if is_workspace_dir(path) and not is_profile_dir(path) and not (path / "profiles").is_dir():
        from .screens.workspace.workspace_screen import (
            WorkspaceScreen,  # an OpenClaw workspace opens on its own view
        )

        config = Path(args.openclaw_config) if args.openclaw_config else None
        app.start_screen = lambda: WorkspaceScreen(path, today=today, openclaw_config=config)
    sys.setswitchinterval(0.001)  # the event loop gets the interpreter back from worker threads sooner
    app.freeze_heap = True  # what start-up built is frozen out of the cycle collector after the first rows
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor()  # the thread workers' pool, ours to shut down without waiting (below)
    loop.set_default_executor(executor)
    try:
        result = app.run(loop=loop)  # unlike asyncio.run, does not wait for the worker threads
    except BaseException:
        if cleanup is not None:  # a crash (or ctrl+c) never takes the user's changes with it
            _keep_demo_if_changed(cleanup)
        raise
    # Textual catches a crash inside the app, prints its traceback and returns None from run(): the
    # status it keeps (app.return_code, 1 after a crash) is what the process must exit with.
    code = app.return_code if app.return_code is not None else int(result or 0)
    if cleanup is not None:
        if code != 0:  # a crash never takes the user's changes with it, as above
            _keep_demo_if_changed(cleanup)
        else:
            ask = input if sys.stdin.isatty() and sys.stdout.isatty() else None
            finish_demo(cleanup, keep=getattr(app, "keep_demo", None), ask=ask)
    _threads_finish(executor, 0.2)
    # Leave now: a worker may still be reading and Python cannot stop a thread; every write is atomic
    # and moves between files are journaled, so this is as safe as being killed.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _keep_demo_if_changed(folder: Path) -> None:
    from ..core.git.demo import demo_has_changes

    finish_demo(folder, keep=demo_has_changes(folder))


def _threads_finish(executor: ThreadPoolExecutor, timeout: float) -> bool:
    """Let idle worker threads go and wait up to ``timeout`` for busy ones; True when all ended."""
    import threading
    import time

    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for t in threading.enumerate():
        if t is threading.main_thread() or t.daemon:
            continue
        t.join(max(0.0, deadline - time.monotonic()))
        if t.is_alive():
            return False
    return True


KEEP_QUESTION = "The demo has changes. Keep its folder? [Y/n] "


def finish_demo(folder: Path, keep: bool | None = None, ask: Callable[[str], str] | None = None) -> Path | None:
    """After the demo: delete its folder, unless it is kept (then its path is printed on stdout and returned).

    ``keep`` is the UI's answer when it asked; else a demo with changes is asked about through ``ask``
    (an empty answer, end of input or ctrl+c keep it); with no way to ask, it is deleted.
    """
    if keep is None:
        from ..core.git.demo import demo_has_changes  # only a demo needs git's commit machinery

        keep = False
        if ask is not None and demo_has_changes(folder):
            try:
                answer = ask(KEEP_QUESTION)
            except (EOFError, KeyboardInterrupt):
                answer = ""
            keep = answer.strip().lower() not in ("n", "no")
    if keep:
        print(f"The demo is kept in {folder}")
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    return None
