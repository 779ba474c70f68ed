"""A memory file as keyed segments (entries by id, MEMORY.md rows by kind, heading path and text,
USER.md directives; a repeated key gets an occurrence number), and ``transplant``: give one segment
the bytes it has in another version of the file, every other byte kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..format.entries import decode, parse
from ..workspace.edits import encode
from ..workspace.model import newline_of, parse_directives, parse_memory_text

Key = tuple[str, tuple[str, ...], str, int]  # kind, heading path, text, occurrence


@dataclass(frozen=True)
class Segment:
    key: Key
    start: int
    end: int
    raw: str  # text[start:end]
    promoted: bool = False  # a row dreaming promoted (promotion marker, score, trigger, importance)

    @property
    def kind(self) -> str:
        return self.key[0]

    @property
    def path(self) -> tuple[str, ...]:
        return self.key[1]

    @property
    def text(self) -> str:
        return self.key[2]


def _numbered(raw: list[tuple[str, tuple[str, ...], str, int, int, bool]], text: str) -> list[Segment]:
    seen: dict[tuple[str, tuple[str, ...], str], int] = {}
    out = []
    for kind, path, label, start, end, promoted in raw:
        n = seen.get((kind, path, label), 0)
        seen[(kind, path, label)] = n + 1
        out.append(Segment((kind, path, label, n), start, end, text[start:end], promoted))
    return out


def entry_segments(text: str) -> list[Segment]:
    """Entries by id (malformed blocks by their text), and the preamble, of a layout A memory file."""
    mf = parse(text)
    raw: list[tuple[str, tuple[str, ...], str, int, int, bool]] = []
    first = mf.entries[0].start if mf.entries else len(text)
    if first:
        raw.append(("preamble", (), "", 0, first, False))
    for e in mf.entries:
        if e.error or not e.id:
            raw.append(("malformed", (), text[e.start:e.end].strip(), e.start, e.end, False))
        else:
            raw.append(("entry", (), e.id, e.start, e.end, False))
    return _numbered(raw, text)


def row_segments(text: str, directives: bool = False) -> list[Segment]:
    """MEMORY.md-like rows (a section is its heading line) and, for USER.md, directives."""
    raw: list[tuple[str, tuple[str, ...], str, int, int, bool]] = []
    taken: list[tuple[int, int]] = []
    if directives:
        for d in parse_directives(text):
            raw.append(("directive", d.heading_path, d.text, d.start, d.end, False))
            taken.append((d.start, d.end))
    for r in parse_memory_text(text):
        if any(a < r.end and r.start < b for a, b in taken):
            continue
        raw.append((r.kind, r.heading_path, r.text, r.start, r.end, r.promoted))
    raw.sort(key=lambda x: x[3])
    return _numbered(raw, text)


def segments_of(rel: str, text: str) -> list[Segment]:
    name = rel.rsplit("/", 1)[-1]
    return entry_segments(text) if name == "memories.md" else row_segments(text, directives=name == "USER.md")


def _insert_at(tgt: list[Segment], src: list[Segment], key: Key, text: str, pairs: dict[Key, Key]) -> int:
    """Where ``key`` goes in the target ``text``: after the nearest segment before it in the source that
    the target holds too (by key, or its pair in ``pairs``), else before the next one, else at the end."""
    tgt_by = {s.key: s for s in tgt}

    def held(s: Segment) -> Segment | None:
        return tgt_by.get(s.key) or tgt_by.get(pairs.get(s.key, s.key))

    idx = next(i for i, s in enumerate(src) if s.key == key)
    for s in reversed(src[:idx]):
        t = held(s)
        if t is not None and t.kind == "section":  # the first row of its section
            return len(text) - len(text[t.end:].lstrip("\r\n"))
        if t is not None:
            return t.end
    for s in src[idx + 1:]:
        t = held(s)
        if t is not None:
            return t.start
    return 0 if idx == 0 and tgt else len(text)


def transplant(rel: str, target: bytes | None, source: bytes | None, remove: Key | None, put: Key | None,
               in_place: bool = True, pairs: dict[Key, Key] | None = None, keep: bool = False) -> bytes | None:
    """``target`` with its segment ``remove`` taken out and the source's segment ``put`` put in (where
    ``remove`` was when ``in_place``, else after its predecessor in the source).  ``keep``: a move, the
    target's own bytes of ``remove`` go where the source has ``put``.  Every other byte stays; None:
    the target file does not exist and gets nothing."""
    t_text, t_bom, _ = decode(target or b"")
    s_text, _s_bom, _ = decode(source or b"")
    t_segs = segments_of(rel, t_text)
    s_segs = segments_of(rel, s_text)
    gone = next((s for s in t_segs if s.key == remove), None) if remove else None
    new = next((s for s in s_segs if s.key == put), None) if put else None
    if keep:  # a move: the row under either key (its text may have been given back already), else nothing
        gone = gone or next((s for s in t_segs if s.key == put), None)
        if gone is None or new is None:
            return target
    if gone is None and new is None:
        return target
    pos = None
    if gone is not None:
        t_text = t_text[:gone.start] + t_text[gone.end:]
        if new is None:
            return encode(t_text, t_bom) if (target is not None) else None
        pos = gone.start if in_place else None
        t_segs = segments_of(rel, t_text)
    assert new is not None
    if pos is None:
        pos = _insert_at(t_segs, s_segs, new.key, t_text, pairs or {})
    piece = gone.raw if keep and gone is not None else new.raw
    nl = newline_of(t_text) if t_text else newline_of(s_text)
    if pos < len(t_text) and not piece.endswith("\n"):
        piece += nl  # it was the source's last line: a line of its own here
    if pos == len(t_text) and t_text and not t_text.endswith("\n"):
        piece = nl + piece
    if pos > 0 and not t_text[:pos].endswith("\n") and pos < len(t_text):
        piece = nl + piece
    bom = t_bom if target is not None else source is not None and source.startswith(b"\xef\xbb\xbf")
    return encode(t_text[:pos] + piece + t_text[pos:], bom)
