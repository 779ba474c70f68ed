"""Atomic, locked, compare-and-swap file writes.

The protocol (shared with agents that write the same files):

1. take an exclusive ``fcntl.flock`` on ``<file>.lock`` beside the file;
2. re-read the file and compare it with the bytes the writer loaded;
3. write a temp file in the same folder, flush, fsync, ``os.replace`` it
   over the file, fsync the folder;
4. release the lock (the lock file stays).

Nobody holds the lock while waiting on a person: the lock is taken only
around steps 2-3.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path


class ConcurrentModification(RuntimeError):
    """The file changed on disk since it was read, and the edit cannot be re-applied."""

    def __init__(self, path: Path, reason: str = "") -> None:
        self.path = Path(path)
        msg = f"{self.path.name} was changed by another program since it was read"
        super().__init__(msg + (f": {reason}" if reason else ""))


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def locked(*paths: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold exclusive flocks on the ``.lock`` files of ``paths`` (sorted, no deadlock)."""
    import time

    fds: list[int] = []
    try:
        for p in sorted({Path(p).resolve() for p in paths}):
            p.parent.mkdir(parents=True, exist_ok=True)  # a new file's folder (the archive's) may not exist yet
            fd = os.open(lock_path(p), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            fds.append(fd)
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | (0 if deadline is None else fcntl.LOCK_NB))
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EACCES) or deadline is None:
                        raise
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"could not lock {p.name}: another writer holds it") from exc
                    time.sleep(0.005)
        yield
    finally:
        for fd in reversed(fds):
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def read_bytes(path: Path) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        return None


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically (caller holds the lock)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def write_if_unchanged(
    path: Path,
    expected: bytes | None,
    new: bytes | Callable[[bytes | None], bytes],
    *,
    rebase: Callable[[bytes | None], bytes] | None = None,
) -> bytes:
    """Write ``new`` if the file still holds ``expected`` (None: must not exist).

    When the file changed meanwhile, ``rebase(current)`` is asked for the bytes
    to write instead (it raises ConcurrentModification when it cannot);
    without ``rebase`` the write is refused.  Returns the bytes written.
    """
    path = Path(path)
    with locked(path):
        current = read_bytes(path)
        if current == expected:
            data = new(current) if callable(new) else new
        elif rebase is not None:
            data = rebase(current)
        else:
            raise ConcurrentModification(path)
        if data != current:
            atomic_write(path, data)
        return data


def write_many(changes: Sequence[tuple[Path, bytes | None, bytes]]) -> None:
    """Write several files under all their locks, each compare-and-swapped first.

    Nothing is written unless every file still holds its expected bytes.
    Files are written in the order given: put additions (the archive) before
    removals (memories.md) so that a crash in between duplicates, never loses.
    """
    paths = [Path(p) for p, _, _ in changes]
    with locked(*paths):
        for p, expected, _ in changes:
            if read_bytes(p) != expected:
                raise ConcurrentModification(p)
        for p, expected, data in changes:
            if data != expected:
                atomic_write(p, data)
