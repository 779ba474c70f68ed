"""An OpenClaw workspace as rows: MEMORY.md sections and items, USER.md directives, daily logs.

Rows are located by character offsets in the decoded text (``decode``), so an edit replaces exactly
one row's characters.  Lines split on ``\\n`` only (a ``\\r`` stays in the line ending).  A list item
owns its continuation lines, the comment-only lines right above it (dreaming's promotion marker) and
its trailing ``<!-- … -->`` / ``[score=…]`` metadata; in USER.md ``<!-- observed: DATE | status: S -->``
precedes one directive.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..format.entries import decode
from .injection import to_js

HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
BULLET_RE = re.compile(r"^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)")
COMMENT_LINE_RE = re.compile(r"^[ \t]*<!--.*-->[ \t]*$")
PROMO_RE = re.compile(r"<!--[ \t]*openclaw-memory-promotion:([^\n]*?)-->")
PROMO_PATH_RE = re.compile(r"(memory/[^\s:]+?\.md)(?::(\d+)(?::(\d+))?)?")
SCORE_RE = re.compile(r"\[score=[^\]\n]*\]")
TRAIL_META_RE = re.compile(r"(?:[ \t]*(?:<!--[^\n]*?-->|\[score=[^\]\n]*\]))+[ \t]*$")
TRIGGER_RE = re.compile(r"<!--[ \t]*trigger:[ \t]*(.*?)[ \t]*-->")
IMPORTANCE_RE = re.compile(r"<!--[ \t]*importance:[ \t]*(\d+(?:\.\d+)?)[ \t]*-->")
SOURCE_RE = re.compile(r"<!--[ \t]*source:[ \t]*(memory/[^\s:]+?\.md|contexts/[^\s:]+?\.md)(?::(\d+))?[ \t]*-->")
OBSERVED_RE = re.compile(
    r"^[ \t]*<!--[ \t]*observed:[ \t]*([^|\n]*?)[ \t]*\|[ \t]*status:[ \t]*([A-Za-z_-]+)[ \t]*(?:\|[^\n]*?)?-->[ \t]*$"
)
DAILY_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:-(.+))?\.md$")
DISTILLED_RE = re.compile(r"<!--[ \t]*(distilled|dropped):[ \t]*([\d, ]*)(?:->[^\n]*?)?[ \t]*-->")


@dataclass(slots=True)
class Line:
    start: int  # offset of the first character
    end: int  # offset after the line ending ("\n" included)
    text: str  # without its line ending ("\r" removed too)
    number: int  # 1-based


def split_lines(text: str) -> list[Line]:
    out: list[Line] = []
    pos = 0
    for n, body in enumerate(text.split("\n"), 1):
        if pos >= len(text):
            break
        end = pos + len(body) + 1  # after its "\n" (past the text when the last line has none)
        ended = end <= len(text)
        out.append(Line(pos, min(end, len(text)), body[:-1] if ended and body.endswith("\r") else body, n))
        pos = end
    return out


def newline_of(text: str) -> str:
    """The document's line ending ("\\r\\n" when its first line ends so)."""
    nl = text.find("\n")
    return "\r\n" if nl > 0 and text[nl - 1] == "\r" else "\n"


@dataclass
class Promotion:
    path: str  # memory/2026-04-27.md
    start_line: int | None
    end_line: int | None
    raw: str


@dataclass(slots=True)
class MemRow:
    kind: str  # "section", "item" or "text"
    heading_path: tuple[str, ...]
    text: str  # what it says (item: bullet and metadata removed; section: its title)
    start: int  # first character (the marker lines above an item included)
    end: int  # after its last line ending
    line: int  # 1-based line of the heading / bullet / first text line
    end_line: int
    level: int = 0  # heading level (sections); nesting depth of the section an item is in
    body_start: int = 0  # the editable text: after the bullet (items) or the #'s (sections)
    body_end: int = 0  # before trailing metadata
    section_end: int = 0  # sections: the end of everything under the heading
    markers: list[str] = field(default_factory=list)
    promotions: list[Promotion] = field(default_factory=list)
    score: dict[str, str] = field(default_factory=dict)
    score_raw: str | None = None
    trigger: str | None = None
    importance: float | None = None
    source: str | None = None  # our distil reference: "memory/2026-04-27.md:3"
    metadata: list[str] = field(default_factory=list)  # trailing comments and brackets, as written

    @property
    def key(self) -> str:
        """The identity of a row: its heading path plus its text."""
        return " › ".join(self.heading_path) + " :: " + (self.text if self.kind != "section" else "")

    @property
    def promoted(self) -> bool:
        return bool(self.promotions or self.score_raw or self.trigger or self.importance is not None)

    @property
    def junk(self) -> list[str]:
        """What a reviewer would delete from a promoted item's prose (its trailing metadata is not junk):
        "raw-candidate", "shell-command", "score-in-text"."""
        if not self.promoted or self.kind != "item":
            return []
        return [name for name, pattern in JUNK if pattern.search(self.text)]

    @property
    def has_residue(self) -> bool:
        """Machine text left in the prose the agent reads (``junk``)."""
        return bool(self.junk)


RAW_CANDIDATE_RE = re.compile(
    r"(?:^|\s)(?:candidate|snippet)[=:]\s*\S|^\s*\d{2}:\d{2}\s|\bmemory/\d{4}-\d{2}-\d{2}[^\s]*\.md:\d+"
)
SHELL_RE = re.compile(
    r"^\s*(?:\$\s+\S|`?(?:git|npm|npx|pnpm|yarn|pip3?|python3?|node|cd|sudo|curl|wget|rm|mv|cp|ls|cat|chmod|docker"
    r"|kubectl|make|brew|apt(?:-get)?|systemctl|openclaw)\s+-{0,2}\w)|\s&&\s|\|\s*(?:grep|xargs|sh|bash)\b"
)
SCORE_TEXT_RE = re.compile(r"\[score=|\b(?:score|recalls|avg)=\d")
JUNK = (("raw-candidate", RAW_CANDIDATE_RE), ("shell-command", SHELL_RE), ("score-in-text", SCORE_TEXT_RE))


@dataclass
class MemoryModel:
    rel: str
    path: Path
    data: bytes
    text: str
    bom: bool
    utf8: bool
    rows: list[MemRow]

    @property
    def sections(self) -> list[MemRow]:
        return [r for r in self.rows if r.kind == "section"]

    @property
    def items(self) -> list[MemRow]:
        return [r for r in self.rows if r.kind == "item"]


def _meta(row: MemRow, tail_text: str) -> None:
    m = TRAIL_META_RE.search(tail_text)
    if m:
        row.metadata = re.findall(r"<!--[^\n]*?-->|\[score=[^\]\n]*\]", m.group())
    for blob in [*row.markers, *row.metadata]:
        pm = PROMO_RE.search(blob)
        p = PROMO_PATH_RE.search(pm.group(1)) if pm else None
        if p:
            start, end = (int(g) if g else None for g in p.group(2, 3))
            row.promotions.append(Promotion(p.group(1), start, end, blob))
    sm = SCORE_RE.search(tail_text)
    if sm:
        row.score_raw = sm.group()
        row.score = {k: v for k, _eq, v in (pair.partition("=") for pair in sm.group()[1:-1].split() if "=" in pair)}
        src = row.score.get("source")
        if src and not row.promotions:
            p = PROMO_PATH_RE.search(src)
            if p:
                row.promotions.append(Promotion(p.group(1), int(p.group(2)) if p.group(2) else None, None, src))
    tm, im, so = TRIGGER_RE.search(tail_text), IMPORTANCE_RE.search(tail_text), SOURCE_RE.search(tail_text)
    row.trigger = tm.group(1) if tm else None
    row.importance = float(im.group(1)) if im else None
    row.source = so.group(1) + (f":{so.group(2)}" if so.group(2) else "") if so else None


def parse_memory_text(text: str) -> list[MemRow]:
    """The rows of a MEMORY.md-like text (see the module docstring)."""
    lines = split_lines(text)
    rows: list[MemRow] = []
    stack: list[tuple[int, str, MemRow]] = []  # (level, title, row)
    pending: list[Line] = []  # comment-only lines waiting for the item below
    i = 0
    path: tuple[str, ...] = ()  # the titles of the open sections

    def close_sections(level: int, at: int) -> None:
        nonlocal path
        while stack and stack[-1][0] >= level:
            stack.pop()[2].section_end = at
        path = tuple(t for _lvl, t, _r in stack)

    def flush_pending() -> None:
        for c in pending:
            body = c.text.strip()
            rows.append(MemRow("text", path, body, c.start, c.end, c.number, c.number, len(stack),
                               c.start + (len(c.text) - len(c.text.lstrip())), c.start + len(c.text.rstrip()),
                               metadata=[body]))
            _meta(rows[-1], body)
        pending.clear()

    while i < len(lines):
        ln = lines[i]
        t = ln.text
        head = t[:6]
        fence = FENCE_RE.match(t) if ("`" in head or "~" in head) else None
        if fence:  # a fenced block is one text row
            flush_pending()
            start = i
            marker = fence.group(1)[:3]
            i += 1
            while i < len(lines) and not lines[i].text.lstrip().startswith(marker):
                i += 1
            i = min(i + 1, len(lines))
            last = lines[i - 1]
            rows.append(MemRow("text", path, "\n".join(x.text for x in lines[start:i]), ln.start, last.end,
                               ln.number, last.number, len(stack), ln.start, last.start + len(last.text)))
            continue
        h = HEADING_RE.match(t) if "#" in t[:4] else None
        if h:
            flush_pending()
            level = len(h.group(1))
            title = (h.group(2) or "").strip()
            close_sections(level, ln.start)
            row = MemRow("section", (*path, title), title, ln.start, ln.end, ln.number, ln.number, level)
            hs = t.find(h.group(1)) + level
            rest = t[hs:]
            row.body_start = ln.start + hs + (len(rest) - len(rest.lstrip(" \t")))
            row.body_end = row.body_start + len(title)
            row.section_end = len(text)
            stack.append((level, title, row))
            path = (*path, title)
            rows.append(row)
            i += 1
            continue
        if not t.strip():
            flush_pending()
            i += 1
            continue
        if "<!--" in t and COMMENT_LINE_RE.match(t) and not OBSERVED_RE.match(t):
            pending.append(ln)
            i += 1
            continue
        b = BULLET_RE.match(t)
        kind = "item" if b else "text"
        j = i + 1
        while j < len(lines):
            nt = lines[j].text
            if not nt.strip():
                # a blank line continues an item only when an indented line follows
                k = j
                while k < len(lines) and not lines[k].text.strip():
                    k += 1
                if kind == "item" and k < len(lines) and re.match(r"^(?: {2,}|\t)\S", lines[k].text):
                    j = k
                    continue
                break
            lead = nt[:6]  # a heading, fence, bullet or unindented comment line ends the row
            if (("#" in lead and HEADING_RE.match(nt)) or (("`" in lead or "~" in lead) and FENCE_RE.match(nt))
                    or BULLET_RE.match(nt) or ("<!--" in nt and COMMENT_LINE_RE.match(nt) and not nt.startswith((" ", "\t")))):
                break
            j += 1
        first, last = ln, lines[j - 1]
        markers = [c.text.strip() for c in pending]
        start = pending[0].start if pending else first.start
        pending.clear()
        body_start = first.start + (b.end() if b else len(t) - len(t.lstrip()))
        body_end_full = last.start + len(last.text)
        block = text[body_start:body_end_full]
        tail = block.rstrip()
        tm = TRAIL_META_RE.search(block) if tail.endswith(("-->", "]")) else None
        body_end = body_start + (tm.start() if tm else len(block))
        shown = text[body_start:body_end]
        shown = " ".join(x.strip() for x in shown.split("\n")).strip() if "\n" in shown else shown.strip()
        row = MemRow(kind, path, shown, start, last.end, first.number, last.number, len(stack),
                     body_start, body_end, markers=markers)
        if markers or "<!--" in block or "[score=" in block:
            _meta(row, block)
        rows.append(row)
        i = j
    flush_pending()
    close_sections(0, len(text))
    return rows


def load_memory(workspace: Path) -> MemoryModel | None:
    """MEMORY.md (or memory.md) of a workspace as rows; None when there is none."""
    for name in ("MEMORY.md", "memory.md"):
        p = workspace / name
        if p.is_file():
            data = p.read_bytes()
            text, bom, ok = decode(data)
            return MemoryModel(name, p, data, text, bom, ok, parse_memory_text(text))
    return None


# --- USER.md ---------------------------------------------------------------------------------


@dataclass
class Directive:
    observed: str
    status: str
    text: str
    start: int  # the comment line
    end: int  # after the directive's last line
    line: int  # the comment's line
    end_line: int
    status_start: int  # the status word, for an in-place supersede
    status_end: int
    body_start: int
    body_end: int
    heading_path: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass
class UserModel:
    rel: str
    path: Path
    data: bytes
    text: str
    bom: bool
    directives: list[Directive]
    rows: list[MemRow]  # the rest of USER.md as MEMORY.md-like rows

def parse_directives(text: str) -> list[Directive]:
    lines = split_lines(text)
    out: list[Directive] = []
    heading: tuple[str, ...] = ()
    for i, ln in enumerate(lines):
        h = HEADING_RE.match(ln.text)
        if h:
            heading = ((h.group(2) or "").strip(),)
            continue
        m = OBSERVED_RE.match(ln.text)
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].text.strip():
            j += 1
        k = j
        while k < len(lines) and lines[k].text.strip() and not OBSERVED_RE.match(lines[k].text) \
                and not HEADING_RE.match(lines[k].text) and (k == j or not BULLET_RE.match(lines[k].text)):
            k += 1
        if k == j:  # a comment with no directive after it
            continue
        first, last = lines[j], lines[k - 1]
        b = BULLET_RE.match(first.text)
        body_start = first.start + (b.end() if b else len(first.text) - len(first.text.lstrip()))
        body_end = last.start + len(last.text)
        shown = " ".join(x.strip() for x in text[body_start:body_end].split("\n")).strip()
        out.append(Directive(
            m.group(1), m.group(2), shown, ln.start, last.end, ln.number, last.number,
            ln.start + m.start(2), ln.start + m.end(2), body_start, body_end, heading,
        ))
    return out


def load_user(workspace: Path) -> UserModel | None:
    p = workspace / "USER.md"
    if not p.is_file():
        return None
    data = p.read_bytes()
    text, bom, _ok = decode(data)
    return UserModel("USER.md", p, data, text, bom, parse_directives(text), parse_memory_text(text))


# --- daily logs --------------------------------------------------------------------------------


@dataclass
class LogLine:
    number: int
    text: str
    start: int
    end: int
    distilled: bool = False
    dropped: bool = False


@dataclass
class DailyLog:
    rel: str
    path: Path
    date: dt.date
    slug: str | None
    chars: int  # UTF-16 units, as OpenClaw counts (``context``'s session-start block does)
    lines: list[LogLine]  # the content lines (list items and text; headings, blanks and comments left out)
    at_session_start: bool = False  # today's or yesterday's
    age_days: int = 0

    @property
    def fully_distilled(self) -> bool:
        return bool(self.lines) and all(ln.distilled or ln.dropped for ln in self.lines)


def parse_log(text: str) -> list[LogLine]:
    lines = split_lines(text)
    distilled: set[int] = set()
    dropped: set[int] = set()
    for m in DISTILLED_RE.finditer(text):
        nums = {int(x) for x in re.findall(r"\d+", m.group(2))}
        (distilled if m.group(1) == "distilled" else dropped).update(nums)
    out: list[LogLine] = []
    in_fence = False
    for ln in lines:
        t = ln.text
        if FENCE_RE.match(t):
            in_fence = not in_fence
            continue
        if in_fence or not t.strip() or HEADING_RE.match(t) or COMMENT_LINE_RE.match(t):
            continue
        out.append(LogLine(ln.number, t, ln.start, ln.end, ln.number in distilled, ln.number in dropped))
    return out


def load_daily_logs(workspace: Path, today: dt.date | None = None) -> list[DailyLog]:
    """The dated logs of ``memory/`` (not its sub-folders), oldest first."""
    today = today or dt.date.today()
    folder = workspace / "memory"
    out: list[DailyLog] = []
    if not folder.is_dir():
        return out
    for p in sorted(folder.iterdir()):
        m = DAILY_RE.match(p.name)
        if not m or not p.is_file():
            continue
        try:
            day = dt.date.fromisoformat(m.group(1))
        except ValueError:
            continue
        text, _bom, _ok = decode(p.read_bytes())
        age = (today - day).days
        out.append(DailyLog(f"memory/{p.name}", p, day, m.group(2), len(to_js(text)), parse_log(text),
                            age in (0, 1), age))
    return out

