"""Hypothesis strategies that build ugly memory files together with the parse they must give.

``memory_files()`` draws a ``GenFile``: its bytes (BOM, CRLF or mixed line
endings, non-UTF-8 bytes, no trailing newline...) and the expected sequence
of blocks, ``("entry", id)`` or ``("malformed", None)``.  The pieces are
chosen so that the spec fixes the answer: fenced code hides fake entries, a
``---`` rule in a body is text, frontmatter-looking blocks without an id
are malformed, an unclosed fence hides nothing.
``ugly_bytes()`` draws arbitrary byte soup made of the same ingredients,
for properties that must hold on anything (lossless round trip).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

BAD = "\x00BAD\x00"  # replaced by invalid UTF-8 bytes in the final file

# --- frontmatter -----------------------------------------------------------------------

FIELD_LINES: dict[str, list[str]] = {
    "timestamp": [
        "timestamp: 2025-06-01T14:32:00+08:00",
        "timestamp: '2025-06-01 14:32:00+08:00'",
        'timestamp: "2024-01-02T03:04:05Z"  # utc',
    ],
    "source": ["source: chat#3412", "source: 'manual'", "source: \"a: b\""],
    "importance": ["importance: high", "importance: low  # rarely", "importance: 'medium'"],
    "ttl": ["ttl: 2025-12-31", "ttl: 2030-01-01T00:00:00+00:00"],
    "status": ["status: active", "status: superseded", "status: cold # zzz", "status: bogus"],
    "tags": [
        "tags: [preference, coffee, 健康]",
        "tags: []",
        "tags:\n  - a\n  - b",
        "tags:\n- x\n- 'y z'",
        "tags: [a, \"b, c\"]",
    ],
    "conflict": ["conflict: mem-0007", "conflict: [mem-0001, mem-0002]"],
    "superseded_by": ["superseded_by: mem-0100"],
    "merged_from": ["merged_from: [mem-1, mem-2]", "merged_from:\n  - mem-3\n  - mem-4"],
    "last_hit": ["last_hit: 2025-05-05"],
    "custom": ["custom: {a: 1, b: [2, 3]}", "custom: 010", "custom: yes", "custom: ~"],
    "nested": ["nested:\n  deep:\n    key: value\n  other: [1, 2]"],
    "quoted": ['quoted: "with: colon and \\"escapes\\" \\u00e9"', "quoted: 'it''s'"],
    "block_scalar": ["block_scalar: |\n  line one\n  ---\n  line three", "block_scalar: >-\n  folded\n  text"],
    "empty": ["empty:", "empty: ''"],
    "unicode": ["unicode: 中文值 😀", "名字: 值"],
    "url": ["url: http://x.y/z?a=b#frag"],
}
COMMENTS = ["# a comment", "#no space", "   # indented comment", ""]


@st.composite
def frontmatter(draw: st.DrawFn, id_line: str) -> str:
    keys = draw(st.lists(st.sampled_from(sorted(FIELD_LINES)), unique=True, max_size=7))
    lines = [draw(st.sampled_from(FIELD_LINES[k])) for k in keys]
    lines.insert(draw(st.integers(0, len(lines))), id_line)
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(COMMENTS)))
    return "\n".join(lines) + "\n"


# --- bodies ----------------------------------------------------------------------------

PROSE = [
    "用户表示自己现在不能摄入咖啡因，喝美式会有心悸反应。",
    "The user prefers tea. See mem-0003 and 参考mem-0099。",
    "id: not-an-entry (just text)",
    "status: active (in prose)",
    "  --- indented dashes are text",
    "--- dashes with words",
    "----",
    "<!-- openclaw-memory-promotion:memory:memory/2026-04-27.md:1:4 -->",
    "Emoji 🎉 and tabs\tinside",
    "key: value looking prose",
    "# a heading",
    "trailing spaces   ",
    "bad bytes here: " + BAD,
]
CLOSED_FENCES = [
    "```python\n---\nid: mem-9999\n---\nprint('hidden')\n```",
    "~~~~\n---\nid: fake\nstatus: active\n---\n~~~~",
    "````\n```\n---\nid: inner\n---\n```\n````",
    "```\n```",
    "   ```yaml\n---\nimportance: high\n---\n   ```",
]
RULES = [  # a --- line in a body: text, because the block it would open is not frontmatter
    "---\nMore text after a rule.",
    "Setext heading\n---",
    "---\nnote: unknown keys are not frontmatter\n---",
    "---   ",
    "---\n\n# heading after rule",
]
CONFLICT = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature"


KEYISH = {"id: not-an-entry (just text)", "status: active (in prose)"}


@st.composite
def body(draw: st.DrawFn, fences: bool = True) -> str:
    """A body: prose, rules, conflict markers, closed fences (spec-wise all text).

    After a ``---`` rule no prose line may look like ``id:`` / ``status:``:
    with the next ``---`` it would rightly form a (malformed) frontmatter block.
    """
    parts: list[str] = []
    after_rule = False
    for _ in range(draw(st.integers(0, 5))):
        kinds = ["prose", "blank", "rule", "conflict"] + (["fence"] if fences else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "prose":
            pool = [p for p in PROSE if not (after_rule and p in KEYISH)]
            parts.append(draw(st.sampled_from(pool)))
        elif kind == "blank":
            parts.append("")
        elif kind == "rule":
            parts.append(draw(st.sampled_from(RULES)))
            after_rule = True
        elif kind == "conflict":
            parts.append(CONFLICT)
        else:
            parts.append(draw(st.sampled_from(CLOSED_FENCES)))
    return "".join(p + "\n" for p in parts)


MALFORMED = [
    "---\nstatus: active\ntags: [a\n---\n",  # invalid YAML
    "---\nimportance: high\nsource: x\n---\n",  # no id
    "---\n# c\ntimestamp: 2025-01-01\nid: [a, b]\n---\n",  # id not a string
    "---\nid:\n---\n",  # empty id
    "---\ntags: [x]\nid: \"\"\n---\n",  # empty quoted id
    "---\nstatus: active\n  bad indent: [\n---\n",
]

# --- whole files ---------------------------------------------------------------------


@dataclass
class GenFile:
    data: bytes
    expected: list[tuple[str, str | None]] = field(default_factory=list)
    text_lf: str = ""  # the file as generated, LF endings, BAD marker kept


def _id_line(draw: st.DrawFn, n: int) -> tuple[str, str]:
    style = draw(st.sampled_from(["plain", "plain", "double", "single", "note", "comment"]))
    ident = f"mem-{n:04d}" if style != "note" else f"note-kyoto-{n}"
    line = {
        "plain": f"id: {ident}",
        "double": f'id: "{ident}"',
        "single": f"id: '{ident}'",
        "note": f"id: {ident}",
        "comment": f"id: {ident}  # the id",
    }[style]
    return ident, line


@st.composite
def memory_text(draw: st.DrawFn, max_blocks: int = 8) -> tuple[str, list[tuple[str, str | None]]]:
    """(text with LF endings, expected blocks)."""
    preamble = draw(
        st.sampled_from(["", "# Long-term memory\n\n", "<!-- intro -->\nSome text\n\n", "---\ntitle: x\n---\n\n"])
    )
    n = draw(st.integers(0, max_blocks))
    unclosed_at = draw(st.one_of(st.none(), st.integers(0, max(0, n - 1))))
    text = preamble
    expected: list[tuple[str, str | None]] = []
    for i in range(n):
        fences = unclosed_at is None or i < unclosed_at
        if draw(st.integers(0, 6)) == 0:
            text += draw(st.sampled_from(MALFORMED))
            expected.append(("malformed", None))
        else:
            ident, line = _id_line(draw, i + 1)
            text += "---\n" + draw(frontmatter(line)) + "---\n"
            expected.append(("entry", ident))
        b = draw(body(fences=fences))
        if i == unclosed_at:
            b += "```js\nlet x = 1;\n"  # never closed: hides nothing after it
        text += b
    return text, expected


def encode(text: str, newline: str, bom: bool, trailing: bool) -> bytes:
    if not trailing and text.endswith("\n"):
        text = text[:-1]
    if newline == "crlf":
        text = text.replace("\n", "\r\n")
    elif newline == "mixed":
        lines = text.split("\n")
        text = "".join(
            line + ("\r\n" if i % 3 == 1 else "\n") for i, line in enumerate(lines[:-1])
        ) + lines[-1]
    data = text.encode("utf-8").replace(BAD.encode(), b"\xff\xfe\x80 \xc3(")
    return (b"\xef\xbb\xbf" if bom else b"") + data


@st.composite
def memory_files(draw: st.DrawFn, max_blocks: int = 8, newlines: tuple[str, ...] = ("lf", "crlf", "mixed")) -> GenFile:
    text, expected = draw(memory_text(max_blocks))
    data = encode(
        text,
        draw(st.sampled_from(newlines)),
        draw(st.booleans()),
        draw(st.booleans()),
    )
    return GenFile(data, expected, text)


SOUP = [
    "---", "--- ", "---\r", "```", "~~~", "````", "```py", "id: mem-0001", "id: 'x'", "id:", "status: active",
    "tags: [a, b", "tags:", "  - a", "- b", "# c", "", "<<<<<<< ours", "=======", ">>>>>>> theirs",
    "中文", "key: {a: [1, 2]}", "\t", "...", "%YAML 1.2", "&anchor x", "*alias", "! tag", "|", ">", "'", '"',
]


@st.composite
def ugly_bytes(draw: st.DrawFn) -> bytes:
    """Arbitrary files made of memory-file ingredients and raw noise."""
    lines = draw(
        st.lists(
            st.one_of(
                st.sampled_from(SOUP),
                st.text(alphabet="-`~:#[]{}'\" \t\rabcid0123中\x00\u2028\x85", max_size=12),
            ),
            max_size=40,
        )
    )
    enders = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r", ""]), min_size=len(lines), max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, enders, strict=True))
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        noise = draw(st.binary(max_size=6))
        at = draw(st.integers(0, len(data)))
        data = data[:at] + noise + data[at:]
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data
