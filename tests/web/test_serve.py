"""`openclaw-tui serve`: the app in a real headless Chromium, behind a token, on 127.0.0.1 only."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from openclaw_tui.web.serve import app_command

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ANSI_RE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd)


@pytest.fixture
def profile(tmp_path: Path, samples: Path) -> Path:
    shutil.copytree(samples, tmp_path / "samples")
    return tmp_path / "samples" / "profiles" / "xiaoyu"


@pytest.fixture
def server(profile: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A running ``serve --port 0``; yields the URL it printed (token included)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "openclaw_tui.cli", "serve", str(profile), "--port", "0", "--today", "2026-12-01"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{20,})", line)
        assert m, f"no URL in {line!r}; stderr: {proc.stderr.read() if proc.poll() is not None else ''}"
        yield m.group(1), proc
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            pass


def _fetch(url: str, host: str | None = None, cookie: str | None = None) -> tuple[int, str]:
    """(status, Set-Cookie header) of a GET; a page that is served never sends its URL (token) on as Referer."""
    req = urllib.request.Request(url)
    if host:
        req.add_header("Host", host)
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.headers.get("Referrer-Policy") == "no-referrer"
            return int(resp.status), resp.headers.get("Set-Cookie", "")
    except urllib.error.HTTPError as exc:
        return int(exc.code), ""


def _status(url: str, host: str | None = None, cookie: str | None = None) -> int:
    return _fetch(url, host, cookie)[0]


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _app_processes(server_pid: int, profile: Path) -> list[int]:
    """Descendants of the server running the app on ``profile`` (not the server itself)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], list(children.get(server_pid, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            argv = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"python") or b"python" in argv[0]:
            if b"openclaw_tui.cli" in argv and str(profile.resolve()).encode() in argv and b"serve" not in argv:
                found.append(pid)
    return found


def test_requests_without_the_token_are_refused(server: tuple[str, subprocess.Popen[str]]) -> None:
    url, proc = server
    base = url.split("?", 1)[0]
    token = url.split("token=", 1)[1]
    assert _status(url) == 200
    assert _status(base) == 403
    assert _status(base + "?token=" + "x" * len(token)) == 403
    assert _status(base + "static/js/textual.js") == 403
    assert _status(base + "ws") == 403
    assert _status(base + "static/js/textual.js?token=" + token) == 200
    # the first page load sets a cookie; the page's own requests carry the token in it
    status, set_cookie = _fetch(url)
    assert status == 200 and "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    cookie = set_cookie.split(";", 1)[0]
    assert cookie.split("=", 1)[1] == token
    assert _status(base + "static/js/textual.js", cookie=cookie) == 200
    assert _status(base + "static/js/textual.js", cookie=cookie.split("=")[0] + "=" + "y" * len(token)) == 403
    # a rebinding attack comes with a foreign Host header: refused even with the token
    assert _status(url, host="attacker.example:80") == 403
    assert _status(url, host='127.0.0.1:1"><script>alert(1)</script>') == 403  # the Host goes into the page
    assert _status(url, host="localhost:" + url.split(":")[2].split("/")[0]) == 200
    assert proc.poll() is None  # refusals do not bring the server down


def test_the_page_names_no_other_host(server: tuple[str, subprocess.Popen[str]]) -> None:
    """The page's links and sources all stay on the server (its font too); checked without a browser."""
    url, _proc = server
    with urllib.request.urlopen(url, timeout=10) as resp:
        page = resp.read().decode("utf-8")
    links = re.findall(r"(?:href|src)=[\"']([^\"']+)", page) + re.findall(r"url\([\"']?([^\"')]+)", page)
    assert links and all(u.startswith(url.split("?", 1)[0]) or not re.match(r"(?:[a-z]+:)?//", u)
                         for u in links), links
    assert "fonts/RobotoMono-VariableFont_wght.ttf" in page


def _listeners(port: int) -> list[str]:
    """Local addresses (hex, as /proc/net/tcp* gives them) listening on ``port``."""
    found = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(name, encoding="ascii") as fh:
            for line in fh.readlines()[1:]:
                cols = line.split()
                addr, hexport = cols[1].rsplit(":", 1)
                if int(hexport, 16) == port and cols[3] == "0A":  # 0A: LISTEN
                    found.append(addr)
    return found


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="needs Linux /proc/net/tcp")
def test_the_listening_socket_is_loopback_only(server: tuple[str, subprocess.Popen[str]]) -> None:
    url, _ = server
    port = int(url.split(":")[2].split("/")[0])
    assert _listeners(port) == ["0100007F"]  # 127.0.0.1, little-endian hex; nothing on 0.0.0.0 or ::


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "::", "example.com"])
def test_any_other_address_is_refused(profile: Path, host: str) -> None:
    r = _cli("serve", str(profile), "--host", host, "--port", "0")
    assert r.returncode == 2
    assert r.stderr.startswith("openclaw-tui: ") and r.stderr.count("\n") == 1
    assert r.stdout == ""


def test_a_path_that_is_not_memory_is_refused(tmp_path: Path) -> None:
    r = _cli("serve", str(tmp_path / "nope"), "--port", "0")
    assert r.returncode == 2 and r.stderr.startswith("openclaw-tui: ") and r.stderr.count("\n") == 1


def test_each_session_runs_the_app_on_the_absolute_path(tmp_path: Path) -> None:
    cmd = app_command(Path("some dir") / "x", "2026-12-01")
    assert cmd.startswith(sys.executable) or cmd.startswith("'" + sys.executable)
    assert str((Path("some dir") / "x").resolve()) in cmd.replace("'", "")
    assert "--today 2026-12-01" in cmd


@pytest.mark.slow  # a browser: run by .ci/run after the README's command
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian package 'chromium'; .ci/run installs it)")
def test_the_app_in_headless_chromium(server: tuple[str, subprocess.Popen[str]], profile: Path, tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package drives Chromium")
    url, proc = server
    received: list[str] = []

    def on_socket(ws: object) -> None:
        def frame(payload: object) -> None:
            data = payload if isinstance(payload, bytes) else str(payload).encode("utf-8", "replace")
            received.append(data.decode("utf-8", "replace"))

        ws.on("framereceived", frame)  # type: ignore[attr-defined]

    with playwright.sync_playwright() as p:
        # a fresh, empty --user-data-dir (playwright passes it for a persistent context)
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_FLAGS[1:], viewport={"width": 1280, "height": 800},
        )
        # nothing may leave 127.0.0.1 (a local tool makes no outside request): every request is recorded,
        # any other host's is refused before it goes out, and the test fails on it below
        requested: list[str] = []

        def route(r: object) -> None:
            request_url = r.request.url  # type: ignore[attr-defined]
            requested.append(request_url)
            if urllib.parse.urlsplit(request_url).hostname == "127.0.0.1":
                r.continue_()  # type: ignore[attr-defined]
            else:
                r.abort()  # type: ignore[attr-defined]

        context.route("**/*", route)
        fonts: list[tuple[str, int]] = []
        context.on("response", lambda r: fonts.append((r.url, r.status)) if "/fonts/" in r.url else None)
        try:
            page = context.new_page()
            page.on("websocket", on_socket)
            page.goto(url, wait_until="load", timeout=30_000)
            deadline = time.monotonic() + 60
            screen = ""
            while time.monotonic() < deadline:
                screen = ANSI_RE.sub("", "".join(received))
                if "mem-0001" in screen and "mem-0003" in screen:
                    break
                page.wait_for_timeout(250)
            page.wait_for_timeout(1000)  # let the canvas paint the last frames
            shot = tmp_path / "serve.png"
            page.screenshot(path=str(shot))
            print(f"screenshot: {shot}")
            # a second browser session gets an app process of its own
            assert len(_app_processes(proc.pid, profile)) == 1
            second = context.new_page()
            second.goto(url, wait_until="load", timeout=30_000)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and len(_app_processes(proc.pid, profile)) < 2:
                second.wait_for_timeout(200)
            apps = _app_processes(proc.pid, profile)
            assert len(apps) == 2
            # stopping the server (SIGTERM to it alone) ends both sessions' apps, quickly
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and any(_alive(pid) for pid in apps):
                time.sleep(0.1)
            assert not any(_alive(pid) for pid in apps)
        finally:
            context.close()
    assert "mem-0001" in screen, screen[-2000:]
    assert shot.stat().st_size > 10_000
    outside = [u for u in requested if urllib.parse.urlsplit(u).hostname != "127.0.0.1"]
    assert outside == [], outside
    assert any("/static/fonts/RobotoMono" in u and status == 200 for u, status in fonts), fonts  # served from here


def test_serve_demo_serves_a_throwaway_repository_and_removes_it(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "openclaw_tui.cli", "serve", "--demo", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        m = re.match(r"serving (\S+) on (http://127\.0\.0\.1:\d+/\?token=\S+)", proc.stdout.readline())
        assert m, proc.stderr.read() if proc.poll() is not None else "no URL"
        demo = Path(m.group(1))
        assert (demo / "profiles" / "xiaoyu" / "memories.md").is_file() and (demo / ".git").exists()
        assert _status(m.group(2)) == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert not demo.exists()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    one = _cli("serve", "--demo", str(tmp_path), "--port", "0")
    assert one.returncode == 2 and one.stderr == "openclaw-tui: --demo takes no PATH\n"
