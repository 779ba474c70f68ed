"""Watching the opened folder while an agent writes to it.

``MemoryWatcher(root, on_change)`` calls ``on_change(ChangeBatch)`` once a burst of events has been
quiet for ``debounce`` seconds (never later than ``max_delay`` after it began).  **The callback runs
on the watcher's own thread**: a Textual app must post a message there, not touch widgets; it must
return quickly (batches are not delivered concurrently).

Noise is dropped (``classify``): lock and temp files of the write protocol, editor droppings and
everything under ``.git`` except ``HEAD``, ``MERGE_HEAD``, ``index`` and ``refs/heads/*``, which set
``ChangeBatch.git``.  A path announced with ``expect_write(path, data)`` whose file holds exactly
``data`` goes to ``ChangeBatch.own``; a batch with nothing else is not delivered.

When the native observer cannot start (e.g. ``ENOSPC``) or ``OPENCLAW_TUI_POLLING=1`` is set, a
``PollingObserver`` is used; ``mode`` says which and ``fallback_reason`` why.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

log = logging.getLogger(__name__)

POLLING_ENV = "OPENCLAW_TUI_POLLING"
GIT_FILES = frozenset({"HEAD", "MERGE_HEAD", "index"})
EDITOR_SUFFIXES = ("~", ".swp", ".swo", ".swx", ".lock")

NATIVE_OBSERVER: Callable[[], BaseObserver] = Observer  # replaced in tests to simulate a failure

# watchdog's recursive inotify group registers a folder of a tree made at once (``mkdir -p``) twice and
# warns "Callback with id ... already exists for watch" on its thread (over the app's screen); the
# "overwrite" puts back the very same callback, so that one message, from that module, is ignored.
_REREGISTERED = r"Callback with id '\d+' already exists for watch "
_REREGISTERED_MODULE = r"watchdog\.observers\.inotify\Z"


def _ignore_reregistration() -> None:
    """Installed when a watcher starts (idempotent: the same filter replaces itself, the list does not grow)."""
    warnings.filterwarnings("ignore", message=_REREGISTERED, category=RuntimeWarning, module=_REREGISTERED_MODULE)


@dataclass(frozen=True)
class ChangeBatch:
    """What changed on disk during one burst, relative to the watched root (``/`` separators)."""

    paths: frozenset[str] = frozenset()  # files (and folders) created, changed, deleted or moved
    dirs: frozenset[str] = frozenset()  # the folders among ``paths`` (a profile created or removed...)
    git: bool = False  # the repository's HEAD, MERGE_HEAD, index or a branch moved
    own: frozenset[str] = frozenset()  # files whose change was the app's own announced write

    def __bool__(self) -> bool:
        return bool(self.paths) or self.git

    def files(self) -> frozenset[str]:
        return self.paths - self.dirs


def classify(rel: str) -> str:
    """``"file"``, ``"git"`` or ``"ignore"`` for a path relative to the root."""
    parts = rel.split("/")
    if ".git" in parts:
        tail = parts[parts.index(".git") + 1 :]
        if len(tail) == 1 and tail[0] in GIT_FILES:
            return "git"
        if len(tail) >= 3 and tail[0] == "refs" and tail[1] == "heads" and not tail[-1].endswith(".lock"):
            return "git"
        return "ignore"
    name = parts[-1]
    if name == "4913" or name.endswith(EDITOR_SUFFIXES) or name.startswith(".#"):
        return "ignore"
    if name.startswith(".") and name.endswith((".tmp", ".pending")) or name == ".openclaw-tui.journal":
        return "ignore"  # safe_write's temp files and the journal of a move between files
    return "file"


@dataclass
class _Expected:
    data: bytes | None  # None: the app expects the file to be gone
    at: float
    until: float


@dataclass
class _Pending:
    paths: dict[str, None] = field(default_factory=dict)  # insertion-ordered set
    dirs: set[str] = field(default_factory=set)
    git: bool = False
    first: float = 0.0
    last: float = 0.0

    def __bool__(self) -> bool:
        return bool(self.paths) or self.git


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: MemoryWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.watcher._on_event(event)


class MemoryWatcher:
    """Debounced, noise-free change notifications for a folder; see the module docstring."""

    def __init__(
        self,
        root: Path | str,
        on_change: Callable[[ChangeBatch], None],
        debounce: float = 0.15,
        *,
        max_delay: float = 1.0,
        poll_interval: float = 1.0,
        expect_ttl: float = 30.0,
    ) -> None:
        self.root = Path(os.path.abspath(root))
        self.on_change = on_change
        self.debounce = debounce
        self.max_delay = max(max_delay, debounce)
        self.poll_interval = poll_interval
        self.expect_ttl = expect_ttl
        self.mode: str | None = None  # "inotify" | "native" | "polling" once started
        self.fallback_reason: str | None = None
        self._prefix = str(self.root).rstrip(os.sep) + os.sep
        self._real_prefix = os.path.realpath(self.root).rstrip(os.sep) + os.sep
        self._cond = threading.Condition()
        self._pending = _Pending()
        self._expected: dict[str, list[_Expected]] = {}
        self._observer: BaseObserver | None = None
        self._thread: threading.Thread | None = None
        self._state = "new"  # new -> running -> stopped
        self._state_lock = threading.Lock()

    # -- lifecycle --

    @property
    def running(self) -> bool:
        return self._state == "running"

    def start(self) -> None:
        """Start watching (idempotent). Raises OSError when the root cannot be watched at all."""
        with self._state_lock:
            if self._state == "running":
                return
            if self._state == "stopped":
                raise RuntimeError("a stopped MemoryWatcher cannot be started again")
            if not self.root.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(self.root))
            _ignore_reregistration()
            observer = None
            if os.environ.get(POLLING_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
                self.fallback_reason = f"{POLLING_ENV} is set"
            else:
                observer = self._start_native()
            if observer is None:
                observer = PollingObserver(timeout=self.poll_interval)
                observer.schedule(_Handler(self), str(self.root), recursive=True)
                observer.start()
                self.mode = "polling"
            self._observer = observer
            self._thread = threading.Thread(target=self._dispatch, name="openclaw-tui-watch", daemon=True)
            self._state = "running"
            self._thread.start()

    def _start_native(self) -> BaseObserver | None:
        observer = NATIVE_OBSERVER()
        try:
            observer.schedule(_Handler(self), str(self.root), recursive=True)
            observer.start()
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                self.fallback_reason = "the inotify watch limit is reached (fs.inotify.max_user_watches)"
            elif exc.errno == errno.EMFILE:
                self.fallback_reason = "too many inotify instances or open files"
            else:
                self.fallback_reason = f"the native watcher failed: {exc.strerror or exc}"
            log.warning("file watching falls back to polling: %s", self.fallback_reason)
            return None
        self.mode = "inotify" if "Inotify" in type(observer).__name__ else "native"
        return observer

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching and join the threads (idempotent; pending events are dropped)."""
        with self._state_lock:
            if self._state != "running":
                self._state = "stopped"
                return
            self._state = "stopped"
            observer, thread = self._observer, self._thread
        with self._cond:
            self._cond.notify_all()
        if observer is not None:
            observer.stop()
            if observer.is_alive():
                observer.join(timeout)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def __enter__(self) -> MemoryWatcher:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    # -- own writes --

    def rel(self, path: Path | str) -> str | None:
        """``path`` relative to the root with ``/`` separators ("." for the root), None when outside."""
        p = os.path.abspath(path)
        for prefix in (self._prefix, self._real_prefix):
            if p + os.sep == prefix:
                return "."
            if p.startswith(prefix):
                return p[len(prefix):].replace(os.sep, "/")
        real = os.path.realpath(p)
        if real.startswith(self._real_prefix):
            return real[len(self._real_prefix):].replace(os.sep, "/")
        return None

    def expect_write(self, path: Path | str, data: bytes | None) -> None:
        """Announce that the app writes ``data`` to ``path`` (None: deletes it) — not an external change."""
        rel = self.rel(path)
        if rel is None:
            return
        now = time.monotonic()
        with self._cond:
            items = [e for e in self._expected.get(rel, []) if e.until > now]
            items.append(_Expected(data, now, now + self.expect_ttl))
            self._expected[rel] = items[-8:]

    def _is_own(self, rel: str, batch_start: float) -> bool:
        with self._cond:
            items = self._expected.get(rel)
        if not items:
            return False
        path = self.root / rel
        try:
            disk: bytes | None = path.read_bytes() if not path.is_dir() else b"\0dir"
        except FileNotFoundError:
            disk = None
        except OSError:
            return False
        now = time.monotonic()
        with self._cond:
            items = [e for e in self._expected.get(rel, []) if e.until > now]
            match = next((i for i in range(len(items) - 1, -1, -1) if items[i].data == disk), None)
            if match is not None:
                kept = items[match:]
                kept[0].until = min(kept[0].until, now + 2.0)  # a short grace for late events
            else:
                kept = [e for e in items if e.at >= batch_start]  # older ones had their chance
            if kept:
                self._expected[rel] = kept
            else:
                self._expected.pop(rel, None)
        return match is not None

    # -- events --

    def _on_event(self, event: FileSystemEvent) -> None:
        kind = event.event_type
        if kind in ("opened", "closed_no_write") or (event.is_directory and kind == "modified"):
            return
        srcs: list[Any] = [event.src_path]
        if kind == "moved" and event.dest_path:
            srcs.append(event.dest_path)
        now = time.monotonic()
        with self._cond:
            if self._state != "running":
                return
            pend = self._pending
            was_empty = not pend
            touched = False
            for raw in srcs:
                p = os.fsdecode(raw)
                rel = self.rel(p)
                if rel is None:
                    continue
                what = "file" if rel == "." else classify(rel)
                if what == "ignore":
                    continue
                if what == "git":
                    pend.git = True
                else:
                    pend.paths[rel] = None
                    if event.is_directory:
                        pend.dirs.add(rel)
                touched = True
            if touched:
                if was_empty:
                    pend.first = now
                pend.last = now
                self._cond.notify_all()

    def _dispatch(self) -> None:
        while True:
            with self._cond:
                while self._state == "running" and not self._pending:
                    self._cond.wait()
                while self._state == "running":
                    now = time.monotonic()
                    due = min(self._pending.last + self.debounce, self._pending.first + self.max_delay)
                    if now >= due:
                        break
                    self._cond.wait(due - now)
                if self._state != "running":
                    return
                pend, self._pending = self._pending, _Pending()
            batch = self._make_batch(pend)
            if batch:
                try:
                    self.on_change(batch)
                except Exception:  # the watcher must survive a faulty callback
                    log.exception("the change callback failed")

    def _make_batch(self, pend: _Pending) -> ChangeBatch:
        own = {rel for rel in pend.paths if rel not in pend.dirs and self._is_own(rel, pend.first)}
        paths = frozenset(p for p in pend.paths if p not in own)
        return ChangeBatch(paths=paths, dirs=frozenset(pend.dirs), git=pend.git, own=frozenset(own))
