"""Atomic, locked, compare-and-swap file writes.

The protocol (shared with agents that write the same files): take an exclusive ``fcntl.flock`` on
``<file>.lock`` beside the file; re-read the file and compare it with the bytes the writer loaded;
write a temp file in the same folder, fsync, ``os.replace`` it over the file, fsync the folder;
release the lock (the lock file stays).  The lock is never held while waiting on a person.

Guards at this single write path, so that no command can forget them:

- *confinement*: a file, lock or temp file whose real path leaves its memory folder (``confine``)
  is never written: ``WriteOutside`` (an OSError; the CLI exits 2);
- *stale temp files*: a writer holding a file's lock removes the ``.<name>.*.tmp`` files a killed
  writer left beside it (temp files are only written under the lock);
- *journal*: a change to several files (a move between memories.md and the archive) writes every
  new version as a temp file, then an intent record (``.openclaw-tui.journal`` in their common
  folder), then replaces the files.  A crash before the record leaves the old files; after it,
  ``recover`` (on loading a profile, and by the next writer) finishes the replacements.  Never an
  entry in both files.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from . import write_hooks
from .lock_exclude import EXCLUDE_LINES, git_common_dir


class ConcurrentModification(RuntimeError):
    """The file changed on disk since it was read, and the edit cannot be re-applied."""

    def __init__(self, path: Path, reason: str = "") -> None:
        self.path = Path(path)
        msg = f"{self.path.name} was changed by another program since it was read"
        super().__init__(msg + (f": {reason}" if reason else ""))


class WriteOutside(OSError):
    """A write whose real path would leave the memory folder: refused before anything is written."""


JOURNAL = ".openclaw-tui.journal"
_RECOVERED: list[Path] = []  # folders whose interrupted multi-file write this process finished (to tell the user)
_ROOTS: set[Path] = set()  # the memory folders (profiles, workspaces) opened in this process, as given


def confine(root: Path) -> None:
    """Declare ``root`` a memory folder: no file below it may be written through a link that leaves it."""
    _ROOTS.add(Path(os.path.abspath(root)))


def _within(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def check_confined(path: Path) -> None:
    """Raise WriteOutside when ``path``, its lock file or its folder, links resolved, leaves the real
    path of the innermost confined folder holding ``path`` (as written)."""
    p = Path(os.path.abspath(path))
    roots = [r for r in _ROOTS if p.is_relative_to(r)]
    if not roots:
        return
    root = max(roots, key=lambda r: len(r.parts))
    real_root = os.path.realpath(root)
    for candidate in (p.parent, p, lock_path(p)):
        real = os.path.realpath(candidate)
        if not _within(real, real_root):
            rel = p.relative_to(root).as_posix()
            raise WriteOutside(
                f"{rel}: refusing to write through a link that leaves {root.name} (it leads to {real}); nothing was written"
            )


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _remove_stale_temps(path: Path) -> None:
    """Remove temp files a killed writer of ``path`` left (the caller holds its lock)."""
    pending = _journal_near(path) is None  # a journal's temp files wait for recovery
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and (name.endswith(".tmp") or (pending and name.endswith(".pending"))):
            with contextlib.suppress(OSError):
                os.unlink(path.parent / name)


def _journal_near(path: Path) -> Path | None:
    """A journal in the folder of ``path`` or up to two folders above (an archive's profile)."""
    folder = Path(os.path.abspath(path)).parent
    for f in (folder, folder.parent, folder.parent.parent):
        j = f / JOURNAL
        if os.path.lexists(j):
            return j
    return None


@contextlib.contextmanager
def locked(*paths: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold exclusive flocks on the ``.lock`` files of ``paths`` (sorted, no deadlock); every path is
    confined first (no lock file is created), and once locked its stale temp files are removed."""
    import time

    for p in paths:
        check_confined(p)
    if len({os.path.abspath(p) for p in paths}) > 1:  # the journal replace_all would write: refused before any lock
        check_confined(_journal_of(paths))
    fds: list[int] = []
    try:
        for p in sorted({Path(p).resolve() for p in paths}):
            p.parent.mkdir(parents=True, exist_ok=True)  # a new file's folder (the archive's) may not exist yet
            created = not lock_path(p).exists()
            fd = os.open(lock_path(p), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            fds.append(fd)
            if created:  # a first lock file in this folder: keep it (and the others) out of git status
                exclude_locks(p.parent)
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
            _remove_stale_temps(p)
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
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, suffix: str = ".tmp") -> str:
    """Write ``data`` to a new fsynced temp file beside ``path`` (with its mode); returns its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically (caller holds the lock)."""
    path = Path(path)
    check_confined(path)
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def exclude_locks(folder: Path) -> list[str]:
    """Add the lock patterns missing from ``info/exclude`` of the repository holding ``folder``;
    returns the lines added (none outside a repository, or when it cannot be written)."""
    common = git_common_dir(folder)
    if common is None or not common.is_dir():
        return []
    exclude = common / "info" / "exclude"
    with contextlib.suppress(OSError):  # a read-only repository keeps its status as it is
        try:
            data = exclude.read_bytes()
        except FileNotFoundError:
            data = b""
        have = {line.strip() for line in data.splitlines()}
        missing = [line for line in EXCLUDE_LINES if line.encode() not in have]
        if not missing:
            return []
        nl = b"\r\n" if b"\r\n" in data else b"\n"
        sep = b"" if not data or data.endswith(b"\n") else nl
        exclude.parent.mkdir(exist_ok=True)
        # atomic, but no lock file of its own: that is git's folder, not memory
        atomic_write(exclude, data + sep + b"".join(line.encode() + nl for line in missing))
        return missing
    return []


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


class _Digests:
    """``_digest`` of each of ``datas``: the big ones in threads (hashlib lets go of the GIL), started now."""

    BIG = 1 << 20

    def __init__(self, datas: Sequence[bytes | None]) -> None:
        self.datas = datas
        self.done: dict[int, str | None] = {}
        self.early = {i: _EARLY[id(d)][1] for i, d in enumerate(datas) if d is not None and _EARLY.get(id(d), (None,))[0] is d}
        self.threads = [
            threading.Thread(target=self._work, args=(i,), daemon=True)
            for i, d in enumerate(datas) if d is not None and len(d) >= self.BIG and i not in self.early
        ]
        for t in self.threads:
            t.start()

    def _work(self, i: int) -> None:
        self.done[i] = _digest(self.datas[i])

    def get(self, i: int) -> str | None:
        early = self.early.get(i)
        if early is not None:
            return early.get(0)
        for t in self.threads:
            t.join()
        got = self.done.get(i)
        return got if got is not None or self.datas[i] is None else _digest(self.datas[i])


_EARLY: dict[int, tuple[bytes, _Digests]] = {}  # id(bytes) -> (those bytes, their digest being computed)


def digest_early(data: bytes | None) -> None:
    """Start hashing ``data`` now, in a thread: a journaled write whose old bytes it is finds it done."""
    if data is not None and len(data) >= _Digests.BIG and id(data) not in _EARLY:
        _EARLY[id(data)] = (data, _Digests([data]))


def _journal_of(paths: Sequence[Path]) -> Path:
    """Where the journal of a write to several files goes: their common folder."""
    return Path(os.path.commonpath([os.path.abspath(Path(p).parent) for p in paths])) / JOURNAL


def replace_all(todo: Sequence[tuple[Path, bytes | None, bytes | None]], *, verify: bool = False) -> None:
    """Write (or, for None, delete) several files crash-consistently; the caller holds their locks.

    ``todo`` holds (path, bytes now, new bytes).  Several files: temp files, then the journal (the
    commit point), then the replacements.  ``verify``: each file is compared with its "bytes now"
    after the temp files and before the journal (ConcurrentModification, nothing written).
    """
    todo = [(Path(p), before, after) for p, before, after in todo if before != after]
    for p, _, _ in todo:
        check_confined(p)
    if not todo:
        return
    _replace_all(todo, verify)
    write_hooks.notify(todo)


def _replace_all(todo: Sequence[tuple[Path, bytes | None, bytes | None]], verify: bool) -> None:
    if len(todo) == 1:
        p, before, after = todo[0]
        if after is None:
            os.unlink(p)
            fsync_dir(p.parent)
        else:
            atomic_write(p, after)
        return
    journal = _journal_of([p for p, _, _ in todo])
    folder = journal.parent
    check_confined(journal)
    records: list[dict[str, str | None]] = []
    digests = _Digests([d for _p, before, after in todo for d in (before, after)])  # hashed while the temps are written
    temps: list[str | None] = []
    try:
        for p, _before, after in todo:
            temps.append(None if after is None else _write_temp(p, after, ".pending"))
        if verify:
            for p, before, _after in todo:
                if read_bytes(p) != before:
                    raise ConcurrentModification(p)
        for i, ((p, _before, _after), tmp) in enumerate(zip(todo, temps, strict=True)):
            records.append({
                "path": os.path.relpath(os.path.abspath(p), folder),
                "before": digests.get(2 * i),
                "after": digests.get(2 * i + 1),
                "tmp": None if tmp is None else os.path.basename(tmp),
            })
        atomic_write(journal, json.dumps({"version": 1, "files": records}, indent=1).encode())
    except BaseException:
        for tmp in temps:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        raise
    _roll_forward(folder, records, known=[(before, after) for _p, before, after in todo], checked=verify)
    os.unlink(journal)
    fsync_dir(folder)


def _roll_forward(
    folder: Path, records: list[dict[str, str | None]], known: Sequence[tuple[bytes | None, bytes | None]] | None = None,
    *, checked: bool = False,
) -> None:
    """Replace each file of a journal by its new version, unless it already has it (idempotent).
    ``known``: each record's (old, new) bytes, when the caller wrote its temp files just now (compared,
    not hashed); ``checked``: the caller compared the files with the old bytes."""
    for i, r in enumerate(records):
        p = folder / str(r["path"])
        tmp = p.parent / str(r["tmp"]) if r["tmp"] else None
        if known is not None:
            before, after = known[i]
            now = before if checked else read_bytes(p)
            skip = now == after or now != before
        else:
            current = _digest(read_bytes(p))
            skip = current == r["after"] or current != r["before"]
        if skip:  # done already, or changed by someone who ignored the lock: the file as it is stays
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            continue
        if tmp is None:
            os.unlink(p)
        elif known is not None or _digest(read_bytes(tmp)) == r["after"]:
            os.replace(tmp, p)
        fsync_dir(p.parent)


def _read_journal(journal: Path) -> list[dict[str, str | None]] | None:
    """The records of a journal, or None when it is not one this module wrote: a regular file naming
    files below its own folder (no ``..``, absolute path or link out) and temp files with our names."""
    try:
        if not os.path.isfile(journal) or os.path.islink(journal):
            return None
        data = json.loads(journal.read_bytes())
        files = data["files"]
        if not isinstance(files, list):
            return None
        folder = journal.parent
        for r in files:
            path, tmp = r["path"], r["tmp"]
            if not isinstance(path, str) or os.path.isabs(path) or ".." in Path(path).parts:
                return None
            name = os.path.basename(path)
            if tmp is not None and (
                not isinstance(tmp, str) or "/" in tmp or not (tmp.startswith(f".{name}.") and tmp.endswith(".pending"))
            ):
                return None
            if not all(isinstance(r.get(k), (str, type(None))) for k in ("before", "after")):
                return None
            check_confined(folder / path)
            real = os.path.realpath(folder / path)
            if not _within(real, os.path.realpath(folder)):
                return None
        return files
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def recover(folder: Path, timeout: float = 10.0) -> bool:
    """Finish a multi-file write a crash interrupted in ``folder``, under the locks of its files; True
    when a journal was completed (one that cannot be read or locked is left for a later run)."""
    journal = Path(folder) / JOURNAL
    if not os.path.lexists(journal):
        return False
    records = _read_journal(journal)
    if records is None:
        return False
    paths = [Path(folder) / str(r["path"]) for r in records]
    try:
        with locked(*paths, timeout=timeout):
            records = _read_journal(journal) if os.path.lexists(journal) else None
            if records is None:  # the writer finished meanwhile
                return False
            _finish(journal, records)
            for p in paths:
                _remove_stale_temps(p)
    except (OSError, TimeoutError):
        return False
    return True


def _finish(journal: Path, records: list[dict[str, str | None]]) -> None:
    """Roll a journal forward and remove it (the caller holds the locks of the files it names)."""
    _roll_forward(journal.parent, records)
    os.unlink(journal)
    fsync_dir(journal.parent)
    _RECOVERED.append(journal.parent)


def take_recovered() -> list[Path]:
    """The folders where this process finished an interrupted move since the last call (then forgotten)."""
    done = list(dict.fromkeys(_RECOVERED))
    _RECOVERED.clear()
    return done


def _recover_near(paths: Sequence[Path]) -> None:
    """Under the locks of ``paths``: finish a journal that names only files among them."""
    held = {Path(os.path.abspath(p)) for p in paths}
    for p in paths:
        journal = _journal_near(p)
        if journal is None:
            continue
        records = _read_journal(journal)
        if records is None:
            continue
        named = {Path(os.path.abspath(journal.parent / str(r["path"]))) for r in records}
        if named <= held:
            _finish(journal, records)
        else:
            raise ConcurrentModification(p, "an interrupted write of other files must be finished first; open it again")


def write_many(changes: Sequence[tuple[Path, bytes | None, bytes]]) -> None:
    """Write several files under all their locks, nothing unless every file still holds its expected
    bytes, in the order given: additions (the archive) before removals, so a crash never loses."""
    paths = [Path(p) for p, _, _ in changes]
    with locked(*paths):
        _recover_near(paths)
        if sum(1 for _p, expected, new in changes if expected != new) > 1:
            for p, expected, new in changes:
                if expected == new and read_bytes(p) != expected:
                    raise ConcurrentModification(p)
            replace_all(changes, verify=True)  # the others: compared there, after the temp files, before the journal
            return
        for p, expected, _ in changes:
            if read_bytes(p) != expected:
                raise ConcurrentModification(p)
        replace_all(changes)
