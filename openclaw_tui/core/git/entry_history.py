"""One entry's history ("blame by id") across memories.md and the archive.

Blobs come through ``git cat-file --batch``; only the text around the entry's ``id:`` line is read, and
versions that ``entry_index`` says cannot have touched the entry are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..format.entries import classify_block, decode, parse, split_trailing
from .blobstream import BlobStream
from .entry_index import EntryIndex, Pair, Touched, touched_ids
from .gitrepo import Repo, RepoLike, as_repo, head_sha, run_git
from .history import LOG_FORMAT, NULL_SHA, CommitInfo, commit_from, profile_file, profile_rel
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


def find_entry_raw(data: bytes | bytearray, entry_id: str, id_re: re.Pattern[bytes] | None = None) -> str | None:
    """The content (trailing blank lines removed) of entry ``entry_id`` in a memory file's bytes.

    Reads only around the ``id:`` line when that is certain to give the entry; else parses the file.
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
    """``find_entry_raw`` that first looks for the previous version's text near its previous place."""

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


INDEX_ON_THE_WAY = 64  # a query indexes the unindexed pairs it reads when there are at most this many
Changes = dict[str, tuple[str, str]]  # MEMORIES / ARCHIVE -> (old blob, new blob); NULL_SHA when absent


def _log(r: Repo, profile: Any, max_commits: int | None = None) -> list[tuple[CommitInfo, Changes]]:
    """Commits (newest first, first-parent diffs) that changed either memory file, with the blobs."""
    if head_sha(r) is None:
        return []
    rel = profile_rel(r, profile)
    mem, arch = profile_file(rel, MEMORIES), profile_file(rel, ARCHIVE)
    args = ["log", f"--format={LOG_FORMAT}", "--raw", "--no-abbrev", "--diff-merges=first-parent", "HEAD"]
    if max_commits is not None:
        args[1:1] = ["-n", str(max_commits)]
    out = run_git([*args, "--", mem, arch], r.root).stdout.decode("utf-8", "surrogateescape")
    commits: list[tuple[CommitInfo, Changes]] = []
    for chunk in out.split("\x1e"):
        if not chunk.strip():
            continue
        header, _, rest = chunk.partition("\n")
        changes: Changes = {}
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
    return commits


def _indexable(pair: Pair) -> bool:
    return NULL_SHA not in pair and pair[0] != pair[1]


def _request_order(pairs: Iterable[Pair]) -> list[str]:
    """Blobs to ask for, each pair's new version then its old one, so that in a straight history
    consecutive blobs are the two sides of one commit (and git's delta cache is walked in order)."""
    return list(dict.fromkeys(sha for old, new in pairs for sha in (new, old) if sha != NULL_SHA))


def _stream(
    repo: Repo, shas: list[str], entry_id: str | None, unknown: set[Pair], parallel: bool,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[dict[str, str | None], dict[Pair, Touched]]:
    """Read ``shas`` once: the entry's text in each (when ``entry_id``), and ``touched_ids`` of
    every pair in ``unknown`` whose two blobs come one after the other."""
    found: dict[str, str | None] = {}
    answers: dict[Pair, Touched] = {}

    def work(part: list[str]) -> None:
        finder = _EntryFinder(entry_id) if entry_id is not None else None
        prev_sha, prev = "", None
        stream = BlobStream(repo, part)
        for sha, data in stream:
            if should_stop is not None and should_stop():
                stream.close()
                return
            if finder is not None:
                found[sha] = finder(data) if data is not None else None
            if data is not None and prev is not None:
                side = {sha: data, prev_sha: prev}
                for pair in ((sha, prev_sha), (prev_sha, sha)):
                    if pair in unknown and pair not in answers:
                        answers[pair] = touched_ids(side[pair[0]], side[pair[1]])
            prev_sha, prev = sha, data

    if not (parallel and len(shas) >= 64 and (os.cpu_count() or 1) >= 2):
        work(shas)
        return found, answers
    half = (len(shas) + 1) // 2
    with ThreadPoolExecutor(1) as pool:  # two halves at once; a failure in either is raised here
        helper = pool.submit(work, shas[half:])
        work(shas[:half])
        helper.result()
    return found, answers


def entry_history(
    repo: RepoLike, profile: Any, entry_id: str, max_commits: int | None = None, *, use_index: bool = True,
) -> list[EntryVersion]:
    """Every commit that created or changed ``entry_id`` (newest first), with each version.

    Commits the index says cannot have touched the entry are skipped unread; a few unindexed pairs
    read on the way are indexed (``index_entry_history`` does the rest in the background).
    """
    r = as_repo(repo)
    commits = _log(r, profile, max_commits)
    if not commits:
        return []
    index = EntryIndex.for_repo(r) if use_index else None
    try:
        known = index.lookup(p for _, ch in commits for p in ch.values() if _indexable(p)) if index else {}

        def may_touch(pair: Pair) -> bool:
            if pair[0] == pair[1]:
                return False
            ids = known.get(pair)
            return ids is None or entry_id in ids

        # a commit is read whole (both files) when any of its pairs may touch the entry
        chosen = [(info, ch) for info, ch in commits if any(may_touch(p) for p in ch.values())]
        pairs = [p for _, ch in chosen for p in ch.values()]
        unknown = {p for p in pairs if _indexable(p) and p not in known}
        if len(unknown) > INDEX_ON_THE_WAY:
            unknown = set()  # mostly unindexed: read as fast as possible, ``index_entry_history`` fills the index
        found, answers = _stream(r, _request_order(pairs), entry_id, unknown, parallel=True)
        if index is not None:
            index.store(answers)
    finally:
        if index is not None:
            index.close()
    versions: list[EntryVersion] = []
    for info, changes in chosen:
        before = {which: found.get(old) for which, (old, _new) in changes.items()}  # NULL_SHA is never found
        after = {which: found.get(new) for which, (_old, new) in changes.items()}
        if before == after:
            continue
        version = _classify_version(info, entry_id, before, after)
        if version is not None:
            versions.append(version)
    return versions


def index_entry_history(
    repo: RepoLike, profile: Any, should_stop: Callable[[], bool] | None = None, batch: int = 200,
) -> int:
    """Index the pairs of versions of the profile's memory files not indexed yet; returns how many.

    ``should_stop`` is asked before each blob; what was indexed by then is kept.
    """
    r = as_repo(repo)
    commits = _log(r, profile)
    if not commits:
        return 0
    index = EntryIndex.for_repo(r)
    done = 0
    try:
        pairs = [p for _, ch in commits for p in ch.values() if _indexable(p)]
        known = index.lookup(pairs)
        todo = [p for p in dict.fromkeys(pairs) if p not in known]
        for start in range(0, len(todo), batch):
            if should_stop is not None and should_stop():
                break
            part = todo[start : start + batch]
            _found, answers = _stream(r, _request_order(part), None, set(part), parallel=False,
                                      should_stop=should_stop)
            # a pair whose blobs were not next to each other (a merge, the end of a batch): read it alone
            for pair in part:
                if pair not in answers and not (should_stop is not None and should_stop()):
                    answers.update(_stream(r, [pair[1], pair[0]], None, {pair}, parallel=False)[1])
            index.store(answers)
            done += len(answers)
    finally:
        index.close()
    return done


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
