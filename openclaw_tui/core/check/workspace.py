"""Layout B checks beyond the spec's table rows that check.py runs for every workspace.

- ``dangling-file``: a distil reference ``<!-- source: memory/….md:N -->`` in MEMORY.md whose log
  is gone (dreaming's promotion markers are references already, refs.py).
- ``unresolved-conflict``: two active USER.md directives on the same topic (the later one is
  reported, naming the earlier's line).

Machine residue on promoted items (a ``[score=…]`` bracket, a raw candidate line) is not a finding:
the spec says such brackets are metadata, shown and preserved.  The review queue flags it
(``core/workspace/dreaming.py``, ``review``'s output and the workspace view's Review tab).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..format.profile import Profile, inside
from ..workspace.model import Directive, parse_directives

Add = Callable[[str, str, "int | None", "str | None", str], None]

_STOP = frozenset(
    "a an the and or but for to of in on at by with as is are be it its this that these those when only "
    "her his she he they them their our your you i me my we not no do does use using also than then "
    "always never prefer prefers preferred should must can will all any some into from about over "
    "give gives".split()
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]+")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]+")
_CJK_STOP = frozenset("回答 总是 不要 优先 喜欢 希望 时候 一下 的话 所有 可以 使用 用户".split())


def topic_tokens(text: str) -> set[str]:
    """Content words (English, crudely stemmed) and Chinese character pairs of a directive."""
    out = set()
    for w in _WORD_RE.findall(text.lower()):
        if w in _STOP or len(w) < 3:
            continue
        out.add(w[:-1] if w.endswith("s") and len(w) > 4 else w)
    for run in _CJK_RE.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if pair not in _CJK_STOP:
                out.add(pair)
    return out


def same_topic(a: str, b: str) -> bool:
    """Two directives share a topic: at least three content tokens and half of the smaller set."""
    ta, tb = topic_tokens(a), topic_tokens(b)
    shared = ta & tb
    return len(shared) >= 3 and len(shared) * 2 >= min(len(ta), len(tb))


def conflicting_directives(directives: list[Directive]) -> list[tuple[Directive, Directive]]:
    """(earlier, later) pairs of active directives on the same topic."""
    active = [d for d in directives if d.active]
    out = []
    for j, later in enumerate(active):
        for earlier in active[:j]:
            if same_topic(earlier.text, later.text):
                out.append((earlier, later))
                break
    return out


_SOURCE_ANY_RE = re.compile(r"<!--[ \t]*source:[ \t]*(memory/[^\s:>]+?\.md)(?::\d+)?[ \t]*-->")


def check_workspace_extra(profile: Profile, add: Add) -> None:
    by_rel = {f.rel: f for f in [*profile.bootstrap, *profile.other]}
    user = by_rel.get("USER.md")
    if user is not None and user.error is None and user.utf8:
        for earlier, later in conflicting_directives(parse_directives(user.text)):
            add(
                "unresolved-conflict", "USER.md", later.line, None,
                f"USER.md: two active directives on the same topic (lines {earlier.line} and {later.line});"
                " supersede one of them",
            )
    for rel in ("MEMORY.md", "memory.md"):
        mem = by_rel.get(rel)
        if mem is None or mem.error is not None or not mem.utf8:
            continue
        text = mem.text
        if "source:" in text:
            for m in _SOURCE_ANY_RE.finditer(text):
                target = profile.path / m.group(1)
                if inside(profile.path, target) and not target.exists():
                    line = text.count("\n", 0, m.start()) + 1
                    add("dangling-file", rel, line, None, f"{rel} references {m.group(1)}, which does not exist")


