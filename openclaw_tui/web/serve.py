"""The UI in a web browser: ``textual-serve`` behind an access token, on 127.0.0.1 only.

Every websocket starts its own app process, as textual-serve does.  Added here: the socket binds 127.0.0.1
only; every request needs the token (in the URL once, then in a cookie for that host) else 403; the ``Host``
header must name a loopback address (no DNS rebinding); the page's URLs follow the ``Host`` the browser used.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import shlex
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# a ``Host`` naming a loopback address (and nothing else: it is written into the page)
LOOPBACK_HOST_HEADER = re.compile(r"(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?")


class TokenServer(Server):
    """textual-serve's Server, every route behind ``token``."""

    def __init__(self, command: str, token: str, title: str) -> None:
        super().__init__(command, host="127.0.0.1", port=0, title=title)
        self.token = token
        # cookies are not per port: a name of its own keeps two servers on one host apart
        self.cookie = "openclaw_tui_" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]
        self.sessions: set[tuple[web.WebSocketResponse, AppService]] = set()

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """textual-serve's loop, with the session recorded so that a shutdown can end its app."""
        session = (websocket, app_service)
        self.sessions.add(session)
        try:
            await super()._process_messages(websocket, app_service)
        finally:
            self.sessions.discard(session)

    async def end_sessions(self, grace: float = 5.0) -> None:
        """Ask every app to quit (each saves or discards as it does on ctrl+c), then close the sockets."""

        async def end(websocket: web.WebSocketResponse, app_service: AppService) -> None:
            try:
                await asyncio.wait_for(app_service.stop(), grace)
            except Exception:  # noqa: BLE001 - an app that does not quit (or times out) is killed
                process = getattr(app_service, "_process", None)
                if process is not None and process.returncode is None:
                    process.kill()
            await websocket.close()

        await asyncio.gather(*(end(ws, svc) for ws, svc in list(self.sessions)), return_exceptions=True)

    def _token_ok(self, request: web.Request) -> bool:
        given = request.query.get("token") or request.cookies.get(self.cookie) or ""
        return hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if LOOPBACK_HOST_HEADER.fullmatch(request.host) is None:
            return web.Response(status=403, text="forbidden: not a loopback host\n")
        if not self._token_ok(request):
            return web.Response(status=403, text="forbidden: a valid token is required\n")
        response = await handler(request)
        if not response.prepared:
            response.headers["Referrer-Policy"] = "no-referrer"  # the URL holds the token
            if request.query.get("token"):
                response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
                response.headers["Cache-Control"] = "no-store"
        return response

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.guard)
        # textual-serve's page, read through local_page: no request leaves 127.0.0.1
        aiohttp_jinja2.setup(app, loader=jinja2.FunctionLoader(self._template))
        return app

    def _template(self, name: str) -> str | None:
        try:
            text = (self.templates_path / name).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None
        return local_page(text) if name == "app_index.html" else text

    async def on_startup(self, app: web.Application) -> None:
        """No logo: the command prints its own URL line."""

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, with its websocket and static URLs on the host the browser asked for."""
        base = f"http://{request.host}"
        static = base + str(request.app.router["static"].url_for(filename="/")).rstrip("/") + "/"
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": "ws://" + request.host + str(request.app.router["websocket"].url_for()),
            "config": {"static": {"url": static}},
            "application": {"name": self.title},
        }


# a <link> (stylesheet, font, preconnect) to any other host; textual-serve's page fetches Roboto Mono so
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref=[\"']?(?:https?:)?//[^>]*>", re.IGNORECASE)
# the same font, from the fonts textual-serve ships in its static folder
LOCAL_FONTS = """<style>
      @font-face { font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
      @font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }
    </style>
"""


def local_page(template: str) -> str:
    """textual-serve's page template without its links to other hosts, with its font served from here."""
    text = _REMOTE_LINK.sub("", template)
    head = re.search(r"<head[^>]*>\s*", text, re.IGNORECASE)
    at = head.end() if head else 0
    return text[:at] + LOCAL_FONTS + "    " + text[at:]


def app_command(path: Path, today: str | None = None) -> str:
    """The shell command that starts one app process on ``path``."""
    from ..core.i18n import language

    parts = [sys.executable, "-m", "openclaw_tui.cli", str(path.resolve())]
    if today:
        parts += ["--today", today]
    parts += ["--lang", language()[0]]  # the language of `serve` (its --lang, config or locale) in each session
    return " ".join(shlex.quote(p) for p in parts)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:``port`` (0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


async def _serve(server: TokenServer, sock: socket.socket, announce: Callable[[int], None]) -> None:
    app = await server._make_app()
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=5.0)
    await runner.setup()
    site = web.SockSite(runner, sock)
    await site.start()
    announce(sock.getsockname()[1])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.end_sessions()
        await runner.cleanup()


def serve(command: str, sock: socket.socket, token: str, title: str, announce: Callable[[int], None]) -> None:
    """Serve until SIGINT/SIGTERM; ``announce(port)`` once the socket accepts connections."""
    server = TokenServer(command, token, title)
    asyncio.run(_serve(server, sock, announce))
