"""A cache of what the check reads from a big memory file, keyed by the file's exact bytes.

Parsing a 100k-entry memories.md, scanning its frontmatter and searching it for secrets and
instructions costs seconds; all of it is a pure function of the file's bytes (and of this
code).  ``load`` returns those facts from the user's cache folder (``config.cache_dir()``,
never the memory folder) when the bytes hash the same as when they were stored, and ``store``
saves them after a check.  One cache file per memory file path (a changed file overwrites it),
with a copy of the bytes they were read from; only the ``KEEP`` files checked last are kept.
A cache that cannot be read, written or does not match is ignored: the check then computes
everything, with the same findings.  Small files are never cached (reading them is as fast).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import marshal
import os
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..format.entries import Entry, MemoryFile, decode, reparse
from .refs import MemoryRefFacts
from .secrets import SecretMatch

MIN_BYTES = 1 << 20  # below this the check is fast enough without a cache
KEEP = 8  # memory files whose facts are kept (each costs about 1.3x its size on disk)
_VERSION = 4
_HERE = Path(__file__).resolve().parent
# the modules whose code decides these facts: a change to any of them invalidates every cache file
_CODE = (
    _HERE / "check.py", _HERE / "secrets.py", _HERE / "instructions.py", _HERE / "factcache.py", _HERE / "refs.py",
    _HERE.parent / "format" / "entries.py", _HERE.parent / "format" / "fields.py",
    _HERE.parent / "format" / "yamlio.py",
)


@dataclass
class Facts:
    """What the check reads from one memory file."""

    mf: MemoryFile
    exact: list[int]  # starts of the entries the field scan reads exactly
    by_tag: dict[str, list[tuple[int, str]]]
    secrets: list[SecretMatch]
    instructions: list[tuple[str, int, int]]
    refs: MemoryRefFacts  # what its text says about references (refs.py)


def _code_key() -> str:
    parts = [str(_VERSION), sys.version]
    for p in _CODE:
        try:
            st = p.stat()
        except OSError:
            parts.append(f"{p.name}:-")
            continue
        parts.append(f"{p.name}:{st.st_mtime_ns}:{st.st_size}")
    return "|".join(parts)


def _cache_file(path: Path) -> Path:
    from ..config import cache_dir

    name = hashlib.blake2b(os.fsencode(os.path.abspath(path)), digest_size=16).hexdigest()
    return cache_dir() / "check" / f"{name}.facts"


def _bytes_file(path: Path) -> Path:
    return _cache_file(path).with_suffix(".bytes")  # the bytes the facts were read from


_LAST_KEY: list[tuple[bytes, str]] = []  # the last bytes hashed (load, reparse and store ask for the same)


def content_key(data: bytes) -> str:
    if _LAST_KEY and _LAST_KEY[0][0] is data:
        return _LAST_KEY[0][1]
    key = hashlib.blake2b(data, digest_size=20).hexdigest()
    _LAST_KEY[:] = [(data, key)]
    return key


def _read(path: Path) -> tuple[tuple[str, str], tuple[Any, ...], tuple[Any, ...]]:
    """(content key, code key), the plain part and the pickled part of the cache file of ``path``."""
    with open(_cache_file(path), "rb") as fh:
        blob = fh.read()
    head_len = int.from_bytes(blob[:4], "little")
    head = marshal.loads(blob[4 : 4 + head_len])
    plain_len = int.from_bytes(blob[4 + head_len : 8 + head_len], "little")
    plain = marshal.loads(blob[8 + head_len : 8 + head_len + plain_len])
    extra = pickle.loads(blob[8 + head_len + plain_len :])  # noqa: S301 - our own cache file
    return head, plain, extra


def _parse_of(plain: tuple[Any, ...], extra: tuple[Any, ...], text: str, bom: bool) -> MemoryFile:
    starts, lines, fm_starts, fm_ends, body_starts, ids, preamble_end, newline, failed_fence = plain[:9]
    errors, loaded = extra
    ends = [*starts[1:], len(text)] if starts else []
    entries: list[Entry] = list(
        map(Entry, starts, ends, lines, fm_starts, fm_ends, body_starts, ids, itertools.repeat(text))
    )
    for i, error in errors.items():
        entries[i].error = error
    for i, (meta, key_lines) in loaded.items():
        entries[i]._meta, entries[i]._key_lines = meta, key_lines
    return MemoryFile(text=text, bom=bom, preamble_end=preamble_end, entries=entries, newline=newline,
                      failed_fence=failed_fence)


def load(path: Path, data: bytes, text: str, bom: bool) -> Facts | None:
    """The stored facts of ``path`` if they were computed from exactly ``data`` by this code."""
    if len(data) < MIN_BYTES:
        return None
    try:
        head, plain, extra = _read(path)
        if head != (content_key(data), _code_key()):
            return None
        exact, by_tag, secrets, instructions, id_rows, link_rows = plain[9:]
        return Facts(_parse_of(plain, extra, text, bom), exact, by_tag, [SecretMatch(*s) for s in secrets],
                     instructions, (id_rows, link_rows))
    except Exception:  # noqa: BLE001 - a missing, stale or damaged cache is only a slower check
        return None


def reparsed(path: Path, data: bytes, text: str, bom: bool) -> MemoryFile | None:
    """The parse of ``text``: the stored parse of the file's earlier bytes, re-read only where they changed.

    ``entries.reparse`` gives what a full parse gives; None when there is no usable earlier version.
    """
    if len(data) < MIN_BYTES:
        return None
    try:
        head, plain, extra = _read(path)
        if head[1] != _code_key():
            return None
        old_data = _bytes_file(path).read_bytes()
        if content_key(old_data) != head[0]:
            return None
        old_text, old_bom, _ok = decode(old_data)
        if old_bom != bom:
            return None
        return reparse(_parse_of(plain, extra, old_text, old_bom), text, consume=True)
    except Exception:  # noqa: BLE001 - a missing, stale or damaged cache is only a slower check
        return None


def store(path: Path, data: bytes, facts: Facts) -> None:
    """Save ``facts`` of ``path`` (computed from ``data``); failures are ignored."""
    if len(data) < MIN_BYTES:
        return
    key = (content_key(data), _code_key())
    with contextlib.suppress(Exception), open(_cache_file(path), "rb") as fh:
        if marshal.loads(fh.read(int.from_bytes(fh.read(4), "little"))) == key:
            return  # stored already (a check of a document parsed before it was asked)
    mf = facts.mf
    es = mf.entries
    if any(a.end != b.start for a, b in zip(es, es[1:], strict=False)) or (es and es[-1].end != len(mf.text)):
        return  # not the shape a whole-file parse gives
    plain = (
        [e.start for e in es], [e.line for e in es], [e.fm_start for e in es], [e.fm_end for e in es],
        [e.body_start for e in es], [e.id for e in es], mf.preamble_end, mf.newline, mf.failed_fence,
        facts.exact, facts.by_tag, [(s.kind, s.start, s.end, s.value) for s in facts.secrets], facts.instructions,
        facts.refs[0], facts.refs[1],
    )
    errors = {i: e.error for i, e in enumerate(es) if e.error is not None}
    loaded = {i: (e._meta, e._key_lines) for i, e in enumerate(es) if e._meta is not None or e._key_lines is not None}
    with contextlib.suppress(Exception):
        head = marshal.dumps(key)
        body = marshal.dumps(plain)
        blob = b"".join([
            len(head).to_bytes(4, "little"), head, len(body).to_bytes(4, "little"), body,
            pickle.dumps((errors, loaded), protocol=5),
        ])
        target = _cache_file(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        for dest, content in ((_bytes_file(path), data), (target, blob)):
            tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
            try:
                with open(tmp, "wb") as fh:
                    fh.write(content)
                os.replace(tmp, dest)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
        _prune(target.parent)


def _prune(folder: Path) -> None:
    """Keep the cache files of the ``KEEP`` memory files checked last (the others may be long gone)."""
    with contextlib.suppress(OSError):
        facts = sorted(folder.glob("*.facts"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in facts[KEEP:]:
            for p in (old, old.with_suffix(".bytes")):
                with contextlib.suppress(FileNotFoundError):
                    p.unlink()
