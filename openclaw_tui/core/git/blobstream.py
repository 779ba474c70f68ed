"""Many blobs out of one ``git cat-file --batch`` process."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterable, Iterator

from .gitrepo import GitError, Repo, RepoLike, as_repo, git_env, git_executable


class BlobStream:
    """Blobs out of one ``git cat-file --batch`` process; a thread writes the requests so no pipe fills up."""

    def __init__(self, repo: Repo, shas: list[str]) -> None:
        exe = git_executable()
        if exe is None:
            raise GitError(["cat-file"], 127, "git is not installed")
        self.proc = subprocess.Popen(
            [exe, "cat-file", "--batch"], cwd=repo.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=git_env(),
        )
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

    def __iter__(self) -> Iterator[tuple[str, bytes | None]]:
        """(sha, bytes) pairs, ``None`` for a blob git does not have."""
        out = self.proc.stdout
        assert out is not None
        try:
            for sha in self.shas:
                header = out.readline().split()
                if not header:
                    raise GitError(["cat-file", "--batch"], -1, "git cat-file stopped early")
                if len(header) < 3 or header[1] == b"missing":
                    yield sha, None
                    continue
                size = int(header[2])
                data = out.read(size)
                if len(data) < size or out.read(1) != b"\n":
                    raise GitError(["cat-file", "--batch"], -1, "git cat-file stopped early")
                yield sha, data
        finally:
            self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdout is not None:
            with contextlib.suppress(OSError):
                self.proc.stdout.close()


def read_blobs(repo: RepoLike, shas: Iterable[str]) -> dict[str, bytes]:
    """Several blobs at once (those git has) through one ``git cat-file --batch``."""
    wanted = list(dict.fromkeys(shas))
    return {sha: data for sha, data in BlobStream(as_repo(repo), wanted) if data is not None} if wanted else {}
