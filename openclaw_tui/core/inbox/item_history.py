"""The history of one MEMORY.md item or USER.md directive across commits, followed by key, then
the same text elsewhere (moved), then the most similar text (rewritten).
"""

from __future__ import annotations

import posixpath
from dataclasses import asdict, dataclass
from pathlib import Path

from ..diff.words import similarity
from ..format.entries import decode
from ..git.gitrepo import GitError, find_repo, read_blob
from .inbox import REWORD, _commits, render_words
from .segments import Segment, segments_of

ROW_KINDS = ("item", "directive", "text")


class NoItem(ValueError):
    """No row of the workspace matches what was asked for."""


@dataclass(frozen=True)
class ItemVersion:
    sha: str | None  # None: the working copy (not committed)
    author: str | None
    date: str | None
    subject: str | None
    kind: str  # added, changed, rewritten, moved
    file: str
    text: str
    heading_path: tuple[str, ...]
    diff: str = ""  # a word diff from the version before

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {"heading_path": list(self.heading_path)}


def _rows(rel: str, data: bytes | None) -> list[Segment]:
    return [s for s in segments_of(rel, decode(data or b"")[0]) if s.kind in ROW_KINDS]


def find_row(folder: Path, query: str, files: tuple[str, ...] = ("MEMORY.md", "USER.md")) -> tuple[str, Segment]:
    """The row of the working copy that ``query`` names: its text exactly, else containing it, else the most
    similar one (at least ``REWORD`` alike)."""
    found: list[tuple[float, str, Segment]] = []
    q = query.strip().casefold()
    for rel in files:
        path = folder / rel
        if not path.is_file():
            continue
        for s in _rows(rel, path.read_bytes()):
            t = s.text.casefold()
            score = 3.0 if t == q else 2.0 if q and q in t else similarity(q, t)
            found.append((score, rel, s))
    best = max(found, key=lambda x: x[0], default=None)
    if best is None or best[0] < REWORD:
        raise NoItem(f"no MEMORY.md item or USER.md directive matches {query!r}")
    return best[1], best[2]


def _follow(row: Segment, rows: list[Segment]) -> Segment | None:
    """``row``'s copy among an older version's ``rows``."""
    found = (next((s for s in rows if s.key == row.key), None)  # the same key, else the same text elsewhere
             or next((s for s in rows if s.kind == row.kind and s.text == row.text), None))
    if found is not None:
        return found
    best = max((s for s in rows if s.kind == row.kind), key=lambda s: similarity(row.text, s.text), default=None)
    return best if best is not None and similarity(row.text, best.text) >= REWORD else None


def _kind(new: Segment, old: Segment | None) -> str:
    if old is None:
        return "added"
    if old.text != new.text:
        return "rewritten"
    return "moved" if old.path != new.path else "changed"


def item_history(folder: Path | str, query: str, limit: int | None = None) -> list[ItemVersion]:
    """Every version of the row ``query`` names that differs from the one before, newest first."""
    folder = Path(folder).absolute()
    rel, row = find_row(folder, query)
    repo = find_repo(folder)
    if repo is None:
        raise GitError(["log"], 128, f"{folder} is not inside a git repository")
    in_repo = posixpath.join(repo.rel(folder), rel)
    commits = _commits(repo, folder, None, [in_repo])
    versions: list[ItemVersion] = []
    head = _follow(row, _rows(rel, read_blob(repo, "HEAD", in_repo)))
    if head is None or (head.raw, head.path) != (row.raw, row.path):  # the working copy differs from the last commit
        versions.append(ItemVersion(None, None, None, None, _kind(row, head), rel, row.text, row.path,
                                    render_words(head.text, row.text) if head else ""))
    current: Segment | None = head
    for i, c in enumerate(commits):
        if current is None:
            break
        older = commits[i + 1].sha if i + 1 < len(commits) else None
        before = _follow(current, _rows(rel, read_blob(repo, older, in_repo))) if older else None
        if before is None or (before.raw, before.path) != (current.raw, current.path):
            versions.append(ItemVersion(c.sha, c.author, c.date, c.subject, _kind(current, before), rel, current.text,
                                        current.path, render_words(before.text, current.text) if before else ""))
        current = before
        if limit and len(versions) >= limit:
            break
    return versions
