#!/usr/bin/env python3
"""Append a memory entry the way openclaw-tui (and every careful writer) does it.

For agent authors: standard library only, copy it into your agent.  The
protocol, shared with openclaw-tui so that a person reviewing the memory
and the agent writing it never lose each other's work:

1. take an exclusive ``fcntl.flock`` on ``<file>.lock`` beside the file
   (create it if needed; it may stay afterwards);
2. re-read the file *under the lock* (never append to a copy read earlier);
3. write the whole new content to a temp file in the same folder
   (``.memories.md.XXXX.tmp``), flush, fsync, ``os.replace`` it over the
   file, fsync the folder;
4. release the lock.  Hold it for milliseconds, never while waiting for a
   model or a person.

Usage::

    python agent_writer.py profiles/assistant/memories.md "The user now drinks decaf." \\
        --tags coffee,health --importance high --source chat#3412

It prints the new entry's id (``mem-`` + the highest number in memories.md
and the archive + 1, zero-padded to 4).  Bytes already in the file (BOM,
CRLF line endings, comments) are kept exactly; a file that is not UTF-8 is
left alone (exit 2).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import fcntl
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ARCHIVE = Path("contexts") / "archive" / "memories.md"
_ID_NUMBER_RE = re.compile(r"""^id:[ \t]*['"]?mem-([0-9]+)['"]?[ \t]*\r?$""", re.M)
_PLAIN_RE = re.compile(r"[^\s\[\]{},:#'\"&*!|>%@`?-][^\[\]{},:#'\"]*")


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the exclusive flock of ``<path>.lock``."""
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def replace_atomically(path: Path, data: bytes) -> None:
    """Temp file in the same folder, flush, fsync, os.replace, fsync the folder (the lock is held)."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def yaml_scalar(value: str) -> str:
    """A one-line YAML string: plain when safe, else double-quoted (JSON strings are valid YAML)."""
    if _PLAIN_RE.fullmatch(value) and value == value.strip() and value.lower() not in {
        "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"
    } and not re.fullmatch(r"[0-9.+\-eE_:]+", value):
        return value
    return json.dumps(value, ensure_ascii=False)


def highest_number(*texts: str) -> int:
    return max((int(n) for t in texts for n in _ID_NUMBER_RE.findall(t)), default=0)


def render(entry_id: str, body: str, tags: Sequence[str], importance: str, source: str | None,
           timestamp: str, nl: str) -> str:
    lines = ["---", f"id: {entry_id}", f"timestamp: {timestamp}"]
    if source:
        lines.append(f"source: {yaml_scalar(source)}")
    lines.append(f"importance: {importance}")
    lines.append("status: active")
    if tags:
        lines.append("tags: [" + ", ".join(yaml_scalar(t) for t in tags) + "]")
    lines.append("---")
    lines.extend(body.strip("\n").replace("\r\n", "\n").split("\n"))
    return nl.join(lines) + nl


def append_entry(path: Path | str, body: str, *, tags: Sequence[str] = (), importance: str = "medium",
                 source: str | None = None, entry_id: str | None = None) -> str:
    """Append one entry to ``path`` under the lock; returns its id."""
    path = Path(path)
    archive = path.parent / ARCHIVE
    with locked(path):
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = b""
        bom = data.startswith(b"\xef\xbb\xbf")
        text = data[3:].decode("utf-8") if bom else data.decode("utf-8")  # raises on non-UTF-8: left alone
        archived = archive.read_text(encoding="utf-8", errors="replace") if archive.is_file() else ""
        nl = "\r\n" if "\r\n" in text.split("\n", 1)[0] + "\n" else "\n"
        if entry_id is None:
            entry_id = f"mem-{highest_number(text, archived) + 1:04d}"
        stamp = dt.datetime.now().astimezone().isoformat(timespec="seconds")
        if text and not text.endswith("\n"):
            text += nl
        new = text + render(entry_id, body, tags, importance, source, stamp, nl)
        replace_atomically(path, (b"\xef\xbb\xbf" if bom else b"") + new.encode("utf-8"))
    return entry_id


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Append one entry to an agent's memories.md (flock protocol).")
    ap.add_argument("file", type=Path, help="the memories.md to append to")
    ap.add_argument("body", help="the entry's text")
    ap.add_argument("--tags", default="", help="comma-separated tags")
    ap.add_argument("--importance", default="medium", choices=("high", "medium", "low"))
    ap.add_argument("--source", default=None, help="where it came from (chat#3412)")
    ap.add_argument("--id", dest="entry_id", default=None, help="use this id instead of the next free one")
    ap.add_argument("--repeat", type=int, default=1, help="append N entries (body gets ' #k'); for tests")
    args = ap.parse_args(argv)
    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    try:
        for k in range(args.repeat):
            body = args.body if args.repeat == 1 else f"{args.body} #{k + 1}"
            print(append_entry(args.file, body, tags=tags, importance=args.importance, source=args.source,
                               entry_id=args.entry_id), flush=True)
    except UnicodeDecodeError:
        print(f"agent_writer: {args.file} is not UTF-8; not touched", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
