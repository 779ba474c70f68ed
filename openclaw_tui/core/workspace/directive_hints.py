"""A hint for the USER.md tab: other active directives sharing many words with the selected one.
Words in common do not make a contradiction, so the check reports nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .model import Directive

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
    out = {w[:-1] if w.endswith("s") and len(w) > 4 else w
           for w in _WORD_RE.findall(text.lower()) if w not in _STOP and len(w) >= 3}
    for run in _CJK_RE.findall(text):
        out |= {run[i : i + 2] for i in range(len(run) - 1)} - _CJK_STOP
    return out


def same_topic(a: str, b: str) -> bool:
    """Two directives share a topic: at least three content tokens and half of the smaller set."""
    ta, tb = topic_tokens(a), topic_tokens(b)
    shared = ta & tb
    return len(shared) >= 3 and len(shared) * 2 >= min(len(ta), len(tb))


def look_alikes(directives: Sequence[Directive], target: Directive) -> list[Directive]:
    """The other active directives sharing a topic with ``target`` (none when it is not active)."""
    if not target.active:
        return []
    return [d for d in directives if d.active and d is not target and same_topic(d.text, target.text)]
