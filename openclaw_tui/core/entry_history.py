"""One entry's history ("blame by id"): every commit that created, changed, moved or removed it.

Follows the entry between memories.md and the archive.  Reads the blobs of
the two files through ``git cat-file --batch`` streams, looking only at the
lines around the entry's ``id:`` line; ``entry_index`` remembers which
entries each pair of versions touched, so a later query reads only the
versions where the entry may have changed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .entries import classify_block, decode, parse
from .gitrepo import GitError, Repo, RepoLike, as_repo, git_env, git_executable, run_git
from .history import LOG_FORMAT, NULL_SHA, CommitInfo, commit_from, no_commits, profile_file, profile_rel
from .merge import split_trailing
from .semantic_diff import (
    ARCHIVE,
    MEMORIES,
    Buf,
    EntryChange,
    block_kind,
    delims_after,
    delims_before,
    has_fence,
    id_line_re,
    line_end,
    move_change,
    odd_id_line,
)


@dataclass(frozen=True)
class EntryVersion:
    """One commit that created, changed, moved or removed the entry."""

    commit: CommitInfo
    kind: str  # created, changed, archived, restored, removed
    file: str | None  # where the entry is after the commit (profile-relative), None when removed
    raw: str | None  # its text after the commit (None when removed)
    previous: str | None  # its text before the commit
    change: EntryChange | None = None  # field-level difference from ``previous``


class _BlobStream:
    """Stream blobs out of one ``git cat-file --batch`` process, one at a time.

    Reads straight from the pipe into one buffer per blob (no second copy):
    with a 10k-entry file and 1,000 versions, that is 2 GB going through.
    """

    def __init__(self, repo: Repo, shas: list[str]) -> None:
        exe = git_executable()
        if exe is None:
            raise GitError(["cat-file"], 127, "git is not installed")
        r, w = os.pipe()
        with contextlib.suppress(OSError, AttributeError):
            fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        self.proc = subprocess.Popen(
            [exe, "cat-file", "--batch"], cwd=repo.root, stdin=subprocess.PIPE, stdout=w,
            stderr=subprocess.DEVNULL, env=git_env(),
        )
        os.close(w)
        self.fd = r
        self.pending = bytearray()
        self.buf = bytearray()
        self.shas = shas
        request = "".join(s + "\n" for s in shas).encode()
        stdin = self.proc.stdin
        assert stdin is not None

        def feed() -> None:
            with contextlib.suppress(OSError, ValueError):
                stdin.write(request)
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

        self.feeder = threading.Thread(target=feed, daemon=True)
        self.feeder.start()

    def _line(self) -> bytes:
        while True:
            nl = self.pending.find(b"\n")
            if nl >= 0:
                line = bytes(self.pending[:nl])
                del self.pending[: nl + 1]
                return line
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise EOFError("git cat-file stopped early")
            self.pending += chunk

    def _body(self, size: int) -> bytearray:
        """The next blob, in a buffer reused from one blob to the next (valid until the next call)."""
        buf = self.buf
        if len(buf) > size + 1:
            del buf[size + 1 :]  # shrinking keeps the memory: no new pages for the next blob
        elif len(buf) < size + 1:
            buf += bytes(size + 1 - len(buf))
        have = min(len(self.pending), size + 1)
        buf[:have] = self.pending[:have]
        del self.pending[:have]
        view = memoryview(buf)
        try:
            while have < size + 1:
                n = os.readv(self.fd, [view[have:]])
                if n == 0:
                    raise EOFError("git cat-file stopped early")
                have += n
        finally:
            view.release()
        del buf[size:]  # the newline after the blob
        return buf

    def __iter__(self) -> Iterator[tuple[str, bytearray | None]]:
        """(sha, bytes) pairs; the bytes are only valid until the next pair is taken."""
        try:
            for sha in self.shas:
                header = self._line().split()
                if len(header) < 3 or header[1] == b"missing":
                    yield sha, None
                    continue
                yield sha, self._body(int(header[2]))
        finally:
            self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def find_entry_raw(data: bytes | bytearray, entry_id: str, id_re: re.Pattern[bytes] | None = None) -> str | None:
    """The content (trailing blank lines removed) of entry ``entry_id`` in a memory file's bytes.

    Looks around the ``id:`` line instead of parsing the whole file when the
    file is simple enough for that to be certain; else parses it.
    """
    idb = entry_id.encode()
    pos = data.find(idb)
    if pos < 0:
        return None
    id_re = id_re or id_line_re(entry_id)
    found: list[int] = []
    while pos >= 0:
        ls = data.rfind(b"\n", 0, pos) + 1
        le = data.find(b"\n", pos)
        le = len(data) if le < 0 else le
        if id_re.fullmatch(data, ls, le):
            found.append(ls)
        pos = data.find(idb, le)
    if len(found) == 1 and not has_fence(data):
        located = _locate(data, found[0], entry_id)
        if located is not None:
            return located
    if not found and not odd_id_line(data, idb):
        return None  # the id is only mentioned (a reference), never defined
    text, bom, _ok = decode(bytes(data))
    entry = parse(text, bom=bom).get(entry_id)
    return split_trailing(entry.raw)[0] if entry is not None else None


class _EntryFinder:
    """``find_entry_raw`` with a memory: a version usually holds the entry where the last one did.

    Looks for the previous version's exact text near its previous place
    first (a few kilobytes instead of megabytes), and checks it is still a
    whole entry there; only when that fails does it search the whole blob.
    """

    def __init__(self, entry_id: str) -> None:
        self.entry_id = entry_id
        self.id_re = id_line_re(entry_id)
        self.last: tuple[int, bytes, int, str] | None = None  # (start, content bytes, id line offset, content)

    def __call__(self, data: Buf) -> str | None:
        if self.last is not None and not has_fence(data):
            pos, content_b, id_off, content = self.last
            at = data.find(content_b, max(0, pos - (1 << 16)), pos + len(content_b) + (1 << 16))
            if at >= 0 and _locate(data, at + id_off, self.entry_id) == content:
                self.last = (at, content_b, id_off, content)
                return content
        content_or_none = find_entry_raw(data, self.entry_id, self.id_re)
        if content_or_none is not None:
            content_b = content_or_none.encode("utf-8", "surrogateescape")
            at = data.find(content_b)
            id_at = self.id_re.search(content_b)
            if at >= 0 and id_at is not None:
                line_start = content_b.rfind(b"\n", 0, id_at.start()) + 1
                self.last = (at, content_b, line_start, content_or_none)
        return content_or_none


def _read_versions(repo: Repo, shas: list[str], entry_id: str) -> dict[str, str | None]:
    """The entry's content in each blob; two ``cat-file`` streams in parallel when there are many."""
    found: dict[str, str | None] = {}

    def work(part: list[str]) -> None:
        finder = _EntryFinder(entry_id)
        for sha, data in _BlobStream(repo, part):
            found[sha] = finder(data) if data is not None else None

    if len(shas) < 64 or (os.cpu_count() or 1) < 2:
        work(shas)
        return found
    half = len(shas) // 2
    errors: list[BaseException] = []

    def guarded(part: list[str]) -> None:
        try:
            work(part)
        except BaseException as exc:  # noqa: BLE001 - re-raised below in the caller's thread
            errors.append(exc)

    helper = threading.Thread(target=guarded, args=(shas[half:],), daemon=True)
    helper.start()
    guarded(shas[:half])
    helper.join()
    if errors:
        raise errors[0]
    return found




def _locate(data: Buf, id_line: int, entry_id: str) -> str | None:
    opener = next(delims_before(data, id_line), None)
    if opener is None:
        return None
    closer = next((d for d in delims_after(data, id_line) if d > id_line), None)
    if closer is None:
        return None
    block = data[line_end(data, opener) : closer].decode("utf-8", "surrogateescape")
    kind, ident, _m, _k, _e = classify_block(block, 1)
    if kind != "entry" or ident != entry_id:
        return None
    prev = next(delims_before(data, opener), None)
    if prev is not None and block_kind(data, prev, opener) != "text":
        return None  # the opener might be another block's closer: let the parser decide
    end = len(data)
    delims = delims_after(data, line_end(data, closer))
    d = next(delims, None)
    while d is not None:
        nxt = next(delims, None)
        if nxt is not None and block_kind(data, d, nxt) != "text":
            end = d
            break
        d = nxt
    return split_trailing(data[opener:end].decode("utf-8", "surrogateescape"))[0]


def entry_history(
    repo: RepoLike, profile: Any, entry_id: str, max_commits: int | None = None
) -> list[EntryVersion]:
    """Every commit that created or changed ``entry_id`` (newest first), with each version.

    Follows the entry between memories.md and the archive.  Reads each blob of
    the two files once through one ``git cat-file --batch``, looking only at
    the lines around the entry's ``id:`` line.
    """
    r = as_repo(repo)
    if no_commits(r):
        return []
    rel = profile_rel(r, profile)
    mem, arch = profile_file(rel, MEMORIES), profile_file(rel, ARCHIVE)
    args = ["log", f"--format={LOG_FORMAT}", "--raw", "--no-abbrev", "--diff-merges=first-parent", "HEAD"]
    if max_commits is not None:
        args[1:1] = ["-n", str(max_commits)]
    out = run_git([*args, "--", mem, arch], r.root).stdout.decode("utf-8", "surrogateescape")
    commits: list[tuple[CommitInfo, dict[str, tuple[str, str]]]] = []
    for chunk in out.split("\x1e"):
        if not chunk.strip():
            continue
        header, _, rest = chunk.partition("\n")
        changes: dict[str, tuple[str, str]] = {}
        for line in rest.splitlines():
            if not line.startswith(":"):
                continue
            meta, _, path = line.partition("\t")
            f = meta.split()
            which = MEMORIES if path == mem else ARCHIVE if path == arch else None
            if which is not None and len(f) >= 4:
                changes[which] = (f[2], f[3])
        if changes:
            commits.append((commit_from(header), changes))
    wanted = list(dict.fromkeys(s for _, ch in commits for pair in ch.values() for s in pair if s != NULL_SHA))
    found = _read_versions(r, wanted, entry_id)
    versions: list[EntryVersion] = []
    for info, changes in commits:
        before: dict[str, str | None] = {}
        after: dict[str, str | None] = {}
        for which, (old, new) in changes.items():
            before[which] = found.get(old) if old != NULL_SHA else None
            after[which] = found.get(new) if new != NULL_SHA else None
        if before == after:
            continue
        version = _classify_version(info, entry_id, before, after)
        if version is not None:
            versions.append(version)
    return versions


def _classify_version(
    info: CommitInfo, entry_id: str, before: dict[str, str | None], after: dict[str, str | None]
) -> EntryVersion | None:
    prev = before.get(MEMORIES) or before.get(ARCHIVE)
    now_file = MEMORIES if after.get(MEMORIES) else ARCHIVE if after.get(ARCHIVE) else None
    now = after.get(now_file) if now_file else None
    was_file = MEMORIES if before.get(MEMORIES) else ARCHIVE if before.get(ARCHIVE) else None
    if now is None and prev is None:
        return None
    if now is None:
        kind = "removed"
    elif prev is None:
        kind = "created"
    elif was_file == MEMORIES and now_file == ARCHIVE and MEMORIES in after and after[MEMORIES] is None:
        kind = "archived"
    elif was_file == ARCHIVE and now_file == MEMORIES and ARCHIVE in after and after[ARCHIVE] is None:
        kind = "restored"
    elif prev == now:
        return None
    else:
        kind = "changed"
    change = move_change(entry_id, prev, now) if prev is not None and now is not None else None
    return EntryVersion(info, kind, now_file, now, prev, change)
