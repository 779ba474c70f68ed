"""The ``serve`` sub-command; DESCRIPTION below is what its --help says."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ...core.i18n import N_, _
from ._output import fail

DESCRIPTION = N_("""`openclaw-tui serve [PATH] [--port N] [--host 127.0.0.1]`: the UI in a web browser.

Binds 127.0.0.1 only (any other ``--host`` is refused, exit 2); for a remote
machine, forward the port over SSH.  Prints the URL with a fresh random
access token; requests without it are refused (403).  Each browser session
runs its own app process on PATH.  Runs until interrupted (Ctrl+C).
""")


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help=_("the same UI in a web browser, on 127.0.0.1 only"),
                       description=_(DESCRIPTION), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", nargs="?", metavar="PATH",
                   help=_("a profile, a profiles root, a folder holding profiles/, or a workspace"))
    p.add_argument("--port", type=int, default=8000, metavar="N", help=_("port on 127.0.0.1 (default 8000; 0: any free)"))
    p.add_argument("--host", default="127.0.0.1", help=_("only 127.0.0.1 (or localhost) is accepted"))
    p.add_argument("--today", metavar="YYYY-MM-DD", help=_("fix today's date in the app (as the UI's --today)"))
    p.add_argument("--demo", action="store_true", help=_("serve a throwaway copy of the demo repository (as --demo)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...ui.launch import default_path

    if args.host not in ("127.0.0.1", "localhost"):
        return fail(f"--host {args.host}: " + _("serve binds 127.0.0.1 only; forward the port over SSH for remote use"))
    if not 0 <= args.port <= 65535:
        return fail(f"--port {args.port}: " + _("not a port number"))
    cleanup: Path | None = None
    if args.demo:
        if args.path:
            return fail(_("--demo takes no PATH"))
        import shutil
        import tempfile

        from ...ui.adapters import build_demo

        cleanup = Path(tempfile.mkdtemp(prefix="openclaw-demo-"))
        try:
            path = build_demo(cleanup)
        except Exception as exc:  # noqa: BLE001 - one clear line, no traceback
            shutil.rmtree(cleanup, ignore_errors=True)
            return fail(_("cannot build the demo: %(reason)s") % {"reason": exc})
        try:
            return _serve(args, path)
        finally:
            shutil.rmtree(cleanup, ignore_errors=True)
    if args.path:
        path = Path(args.path)
    else:
        found = default_path(Path.cwd())
        if found is None:
            return fail(_("no memory here: give a PATH (a profile, a profiles root or a workspace)"))
        path = found
    return _serve(args, path)


def _serve(args: argparse.Namespace, path: Path) -> int:
    from ...ui.launch import memory_problem

    problem = memory_problem(path)
    if problem is not None:
        return fail(problem)
    if args.today:
        import datetime as dt

        try:
            dt.date.fromisoformat(args.today)
        except ValueError:
            return fail("--today: " + _("%(value)r is not a date (YYYY-MM-DD)") % {"value": args.today})

    import secrets

    from ...web.serve import app_command, bind, serve

    try:
        sock = bind(args.port)
    except OSError as exc:
        return fail(_("cannot listen on %(address)s: %(reason)s") % {"address": f"127.0.0.1:{args.port}",
                                                                     "reason": exc.strerror or exc})
    token = secrets.token_urlsafe(24)

    def announce(port: int) -> None:
        print(_("serving %(path)s on %(url)s") % {"path": path, "url": f"http://127.0.0.1:{port}/?token={token}"},
              flush=True)
        print(_("open that URL in a browser; Ctrl+C stops"), flush=True)

    serve(app_command(path, args.today), sock, token, f"openclaw-tui {path.resolve().name}", announce)
    sys.stdout.flush()
    return 0
