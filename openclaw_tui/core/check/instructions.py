"""Text that instructs the agent instead of recording a fact (``suspicious-instruction``).

``find_instructions(text)`` returns ``(kind, start, end)`` spans, in order,
for English and Chinese prompt-injection phrases and chat-template role
markers.  Kinds: ``override`` (ignore/forget previous instructions),
``command`` (from now on you must..., you are now...), ``role-marker``
(``<|system|>``, ``[INST]``, ``### System:``...), ``system-prompt``
(talk about the system prompt).
"""

from __future__ import annotations

import re

from .secrets import TextView

_EN_PREV = r"(?:all\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|former|original|existing|system)"
_EN_RULES = r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|constraints)"

_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "override",
        rf"\b(?:ignore|disregard|forget|override|bypass)\s+{_EN_PREV}\s+{_EN_RULES}\b"
        rf"|\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:you\s+were\s+told|above|before)\b"
        rf"|\bforget\s+(?:all\s+)?your\s+{_EN_RULES}\b",
    ),
    (
        "override",
        r"(?:忽略|无视|忘记|忘掉|忽视|不要理会|不用理会|跳过)(?:掉)?(?:你)?(?:之前|以前|先前|前面|上面|以上|此前|原来|原有|所有|全部|一切)"
        r"(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|提示词?|规则|设定|要求|约束|对话|内容)",
    ),
    (
        "command",
        r"\bfrom\s+now\s+on\b[,，]?\s*(?:you\s+(?:must|will|shall|should|have\s+to|are|need\s+to|can)|always|never|only|ignore|do\s+not|don't)\b"
        r"|\byou\s+are\s+now\s+(?:a|an|the|my|no\s+longer|free|unrestricted|DAN)\b"
        r"|\bnew\s+instructions?\s*:"
        r"|\b(?:do\s+not|don't|never)\s+tell\s+the\s+user\b(?!')",
    ),
    (
        "command",
        r"从(?:现在|今天|此刻|此)(?:起|开始)[，,]?\s*(?:你)?(?:必须|一律|只能|务必|要|应该|不要|不许|不能|永远|总是|都要|就是)"
        r"|你现在(?:是|的身份是|扮演)"
        r"|新的指令[:：]"
        r"|(?:不要|别|不准)(?:告诉|透露给)用户",
    ),
    (
        "role-marker",
        r"<\|(?:system|assistant|user|im_start|im_end|endoftext|start_header_id|end_header_id|eot_id)\|>"
        r"|\[/?INST\]|<</?SYS>>|</?system>"
        r"|^[ \t]*#{1,6}[ \t]*(?:System|Instruction|Instructions|Assistant|系统|指令)[ \t]*[:：]",
    ),
    (
        "system-prompt",
        r"\bsystem\s+prompt\b|\bsystem\s+message\b|系统提示词?|系统指令|系统消息",
    ),
)

_RES = tuple((kind, re.compile(rx, re.I | re.M)) for kind, rx in _PATTERNS)
# Every match holds one of these (ASCII-lowercased); the patterns run only on the lines around them.
_ANCHORS = tuple(
    w.encode()
    for w in (
        "ignore", "disregard", "forget", "override", "bypass", "from now", "you are now", "instruction",
        "tell the user", "system", "assistant", "<|", "inst]", "sys>>",
        "忽", "忘", "无视", "理会", "跳过", "从", "你现在", "指令", "系统", "告诉用户", "透露给用户",
    )
)


def find_instructions(text: str, *, view: TextView | None = None) -> list[tuple[str, int, int]]:
    """Spans of instruction-like text, ordered by start."""
    if view is None or view.text is not text:
        view = TextView(text)
    windows = view.windows(view.hits(view.lower, _ANCHORS), lines_after=1)
    if not windows:
        return []
    found: set[tuple[str, int, int]] = set()
    for kind, rx in _RES:
        for a, b in windows:
            found.update((kind, m.start(), m.end()) for m in rx.finditer(text, a, b))
    return sorted(found, key=lambda t: (t[1], t[2], t[0]))
