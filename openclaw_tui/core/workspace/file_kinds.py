"""What each file of a workspace is, from its place and name, including whether ``search`` covers
it (the index's own rule, ``format.places.indexed_rel``) and the date it is counted from.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from ..format.places import indexed_rel
from .injection import BOOTSTRAP_FILES, RETIRED_FILES

_DATED = re.compile(r"(\d{4}-\d{2}-\d{2})(?:-(.+))?\.md")
_HHMM = re.compile(r"\d{4}")


@dataclass(frozen=True)
class FileKind:
    rel: str
    kind: str  # "bootstrap", "retired", "diary", "daily", "session-note", "transcript", "topic-note",
    #            "archived-log", "dreaming-report", "import", "dreaming-state", "memory-note", "other"
    label: str  # in words
    day: dt.date | None  # the date it is counted from, when its name carries one
    searched: bool  # our search covers it

def _day(name: str) -> tuple[dt.date | None, str | None]:
    m = _DATED.fullmatch(name)
    if not m:
        return None, None
    try:
        return dt.date.fromisoformat(m.group(1)), m.group(2)
    except ValueError:
        return None, None


def classify(rel: str, first_line: str | None = None) -> FileKind:
    """The kind of the workspace file ``rel`` ("/"-separated); ``first_line`` tells a transcript."""
    parts = rel.split("/")
    name = parts[-1]
    searched = indexed_rel("openclaw", rel)
    day, slug = _day(name)

    def kind(k: str, label: str, d: dt.date | None = None) -> FileKind:
        return FileKind(rel, k, label, d, searched)

    if len(parts) == 1:
        if name in BOOTSTRAP_FILES:
            return kind("bootstrap", "a bootstrap file")
        if name in RETIRED_FILES or name == "memory.md":
            return kind("retired", "not injected by the current release")
        if name in ("DREAMS.md", "dreams.md"):
            return kind("diary", "the dream diary (dreaming's review notes)")
        return kind("other", "a workspace file")
    if parts[0] != "memory":
        return kind("other", "a workspace file")
    sub = parts[1] if len(parts) >= 3 else None  # the folder under memory/, and the one below it
    below = parts[2] if len(parts) >= 4 else "?"
    if sub == ".dreams":
        return kind("dreaming-state", "dreaming's machine state")
    if sub == "dreaming":
        return kind("dreaming-report", f"a dreaming report ({below} phase)", day)
    if sub == "imports":
        return kind("import", f"material imported from {below}", day)
    if sub == "archive":  # dated as search dates it (index._DAILY)
        return kind("archived-log", "an archived log" + (", dated by its name" if day else ", undated"), day)
    if len(parts) == 2 and day is not None:
        if slug is None:
            return kind("daily", "the daily log", day)
        if first_line is not None and first_line.startswith("# Session:"):
            return kind("transcript", "a session transcript", day)
        if _HHMM.fullmatch(slug):
            return kind("session-note", f"a session note ({slug[:2]}:{slug[2:]})", day)
        return kind("topic-note", f"a session note on {slug}", day)
    return kind("memory-note", "a note under memory/", day)


def classify_file(root: Path, rel: str) -> FileKind:
    """``classify`` with the file's first line read (transcripts start ``# Session:``)."""
    first = None
    if rel.startswith("memory/") and rel.endswith(".md"):
        try:
            with open(root / rel, "rb") as fh:
                first = fh.readline(200).decode("utf-8", "replace")
        except OSError:
            first = None
    return classify(rel, first)
