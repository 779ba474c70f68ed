"""The unified diff of a commit, parsed into files, hunks and numbered lines, and paired side by side.

Big patches are cut at ``max_lines`` lines (``Patch.truncated`` says so).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Literal

from .gitrepo import RepoLike, as_repo, rel_path, run_git

MAX_LINES = 4000
Kind = Literal[" ", "-", "+", "\\"]


@dataclass(frozen=True)
class PatchLine:
    kind: Kind  # " " context, "-" removed, "+" added, "\\" a "\ No newline at end of file" note
    text: str
    old_no: int | None
    new_no: int | None


@dataclass
class Hunk:
    header: str
    lines: list[PatchLine] = field(default_factory=list)


@dataclass
class FilePatch:
    old_path: str | None  # None: the file was added
    new_path: str | None  # None: the file was deleted
    notes: list[str] = field(default_factory=list)  # "new file mode", "Binary files differ", renames
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or "?"

    @property
    def counts(self) -> tuple[int, int]:
        """(lines added, lines removed)."""
        kinds = [ln.kind for h in self.hunks for ln in h.lines]
        return kinds.count("+"), kinds.count("-")


@dataclass
class Patch:
    text: str
    files: list[FilePatch]
    truncated: bool = False


def commit_patch(repo: RepoLike, sha: str, path: str = "", max_lines: int = MAX_LINES) -> Patch:
    """The unified diff of ``path`` (a profile folder; "" = everything) in commit ``sha``."""
    r = as_repo(repo)
    rel = rel_path(r, path) if path else ""
    parents = run_git(["rev-list", "--parents", "-n", "1", sha], r.root).stdout.decode().split()[1:]
    args = ["diff", parents[0], sha] if parents else ["diff-tree", "-p", "--root", sha]
    args += ["--no-color", "--no-ext-diff", "--no-textconv", "-M", "--", rel or "."]
    out = run_git(args, r.root).stdout.decode("utf-8", "surrogateescape")
    lines = out.split("\n")
    truncated = len(lines) > max_lines
    if truncated:
        out = "\n".join(lines[:max_lines]) + "\n"
    return Patch(out, parse_patch(out), truncated)


_HUNK_RE = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)")
# a hunk line's first character -> (its kind, old lines it uses up, new lines it uses up)
_STEPS: dict[str, tuple[Kind, int, int]] = {"-": ("-", 1, 0), "+": ("+", 0, 1), " ": (" ", 1, 1), "": (" ", 1, 1),
                                            "\\": ("\\", 0, 0)}


def _unquote(path: str) -> str:
    if path.startswith('"') and path.endswith('"'):
        body = path[1:-1]
        try:
            return body.encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode(
                "utf-8", "replace")
        except (UnicodeDecodeError, UnicodeEncodeError):
            return body
    return path


def _strip_prefix(path: str) -> str | None:
    path = _unquote(path.strip())
    if path == "/dev/null":
        return None
    return path[2:] if path[:2] in ("a/", "b/") else path


def parse_patch(text: str) -> list[FilePatch]:
    """Files, hunks and numbered lines of a ``git diff`` output."""
    files: list[FilePatch] = []
    cur: FilePatch | None = None
    hunk: Hunk | None = None
    old_no = new_no = old_left = new_left = 0
    for line in text.split("\n"):
        if hunk is not None and (old_left > 0 or new_left > 0 or line.startswith("\\")):
            step = _STEPS.get(line[:1])
            if step is not None and old_left >= step[1] and new_left >= step[2]:
                kind, d_old, d_new = step
                hunk.lines.append(PatchLine(kind, line[1:], old_no if d_old else None, new_no if d_new else None))
                old_no, old_left, new_no, new_left = old_no + d_old, old_left - d_old, new_no + d_new, new_left - d_new
                continue
        hunk = None
        if line.startswith("diff --git "):
            cur = FilePatch(None, None)
            files.append(cur)
            m = re.match(r'diff --git (a/.*?|".*?") (b/.*|".*")$', line)
            if m:
                cur.old_path, cur.new_path = _strip_prefix(m.group(1)), _strip_prefix(m.group(2))
            continue
        if cur is None:
            continue
        if line.startswith("--- ") and not cur.hunks:
            cur.old_path = _strip_prefix(line[4:])
            continue
        if line.startswith("+++ ") and not cur.hunks:
            cur.new_path = _strip_prefix(line[4:])
            continue
        m = _HUNK_RE.match(line)
        if m:
            hunk = Hunk(line)
            cur.hunks.append(hunk)
            old_no, old_left, new_no, new_left = (int(m.group(i) or 1) for i in (1, 2, 3, 4))
            continue
        if line and not cur.hunks:
            cur.notes.append(line)
    return files


@dataclass(frozen=True)
class SideRow:
    """One row of a side-by-side view."""

    kind: Literal["file", "note", "hunk", "context", "change"]
    left: PatchLine | None = None
    right: PatchLine | None = None
    label: str = ""  # for file / note / hunk rows


def _pair(rows: list[SideRow], minus: list[PatchLine], plus: list[PatchLine]) -> None:
    rows.extend(SideRow("change", old, new) for old, new in itertools.zip_longest(minus, plus))
    minus.clear()
    plus.clear()


def side_by_side(files: list[FilePatch]) -> list[SideRow]:
    """Rows pairing each run of removed lines with the run of added lines after it."""
    rows: list[SideRow] = []
    for f in files:
        rows.append(SideRow("file", label=f.path if f.old_path in (None, f.new_path) else f"{f.old_path} → {f.new_path}"))
        rows.extend(SideRow("note", label=n) for n in f.notes if not n.startswith(("index ", "similarity")))
        for h in f.hunks:
            rows.append(SideRow("hunk", label=h.header))
            minus: list[PatchLine] = []
            plus: list[PatchLine] = []
            for ln in h.lines:
                if ln.kind == "-":
                    if plus:
                        _pair(rows, minus, plus)
                    minus.append(ln)
                elif ln.kind == "+":
                    plus.append(ln)
                elif ln.kind == " ":
                    _pair(rows, minus, plus)
                    rows.append(SideRow("context", ln, ln))
            _pair(rows, minus, plus)
    return rows

