"""Text that instructs the agent instead of recording a fact (``suspicious-instruction``).

``find_instructions(text)`` returns ``(kind, start, end)`` spans of English and Chinese
prompt-injection phrases: ``override``, ``command``, ``role-marker``, ``system-prompt``.  A mention
that instructs no one is not one (spec), nor OpenClaw's own startup prompt in a session transcript.
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
        r"|(?:^|[.!?。]\s+|\*\*|#\s*)(?:[-*>]\s+)?new\s+instructions?\s*:"  # a header, not "the user gave new instructions:"
        r"|\b(?:do\s+not|don't|never)\s+tell\s+the\s+user\b(?!')"
        r"|\b(?:you\s+(?:must|will|need\s+to)\s+(?:now\s+|immediately\s+)?|immediately\s+|now\s+)(?:execute|run)\s+(?:the\s+)?(?:following|this|these)\s+"
        r"(?:shell\s+|bash\s+|terminal\s+)?(?:commands?|scripts?|code)\b"
        r"|\b(?:send|upload|post|forward|exfiltrate|e-?mail|leak)\s+(?:(?:all|every|the|your|my|his|her|their|user'?s?)\s+)*"
        r"(?:data|files?|memor(?:y|ies)|credentials?|secrets?|passwords?|api\s+keys?|keys?|tokens?|conversations?|chat\s+history|"
        r"contents?|MEMORY\.md|USER\.md|env(?:ironment)?\s+variables|\.env)\s+to\s+(?:https?://|\S+@\S+|this\s+|the\s+following|me\b)",
    ),
    (
        "command",
        r"从(?:现在|今天|此刻|此)(?:起|开始)[，,]?\s*(?:你)?(?:必须|一律|只能|务必|要|应该|不要|不许|不能|永远|总是|都要|就是)"
        r"|你现在(?:是|的身份是|扮演)"
        r"|新的指令[:：]"
        r"|(?:不要|别|不准)(?:告诉|透露给)用户"
        r"|(?:立即|立刻|马上|你必须|你现在必须|你要)(?:执行|运行)(?:以下|下面|下列|这个|这段)(?:的)?(?:命令|指令|脚本|代码)"
        r"|(?:把|将)(?:所有|全部|用户的?|你的)?(?:的)?(?:数据|文件|记忆|密码|密钥|凭证|令牌|聊天记录|对话记录|内容)(?:都|全部)?(?:发送|上传|发|转发|泄露)(?:到|给)"
        r"|(?:发送|上传|转发)(?:所有|全部)(?:的)?(?:数据|文件|记忆|密码|密钥|凭证|聊天记录)(?:到|给)",
    ),
    (
        "role-marker",
        r"<\|(?:system|assistant|user|im_start|im_end|endoftext|start_header_id|end_header_id|eot_id)\|>"
        r"|\[/?INST\]|<</?SYS>>|</?system>"
        r"|^[ \t]*#{1,6}[ \t]*(?:System|Instruction|Instructions|Assistant|系统|指令)[ \t]*[:：]",
    ),
    (
        "system-prompt",  # asking the agent to give its system prompt away
        r"\b(?:print|show|reveal|repeat|output|dump|leak|tell\s+me|give\s+me|send\s+me)\s+(?:me\s+)?(?:your|the)\s+"
        r"(?:full\s+|entire\s+|original\s+|hidden\s+|initial\s+)?(?:system\s+prompt|system\s+message|initial\s+prompt)"
        r"|(?:输出|打印|告诉我|透露|发给我|泄露|显示)(?:你的)?系统(?:提示词?|指令|消息)"
        r"|(?:把|将)(?:你的)?系统(?:提示词?|指令|消息)(?:发给|告诉|输出|打印|透露)",
    ),
    (
        "role-marker",
        r"^[ \t]*(?:\[|<)?(?:system\s+prompt|系统提示词?|new\s+system\s+prompt)(?:\]|>)?[ \t]*[:：][ \t]*(?:you\b|你)",
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
        "execute", "run", "send", "upload", "post", "forward", "exfiltrate", "mail", "leak",
        "执行", "运行", "发送", "上传", "转发", "泄露", "发给", "发到",
    )
)
# OpenClaw's own startup prompt, as its session transcripts record it (a user turn): one paragraph
_STARTUP_RE = re.compile(
    r"(?m)^(?:user:[ \t]*)?(?:\[[^\]\n]*\][ \t]*)?A new session was started via /new or /reset\.[^\n]*(?:\n(?![ \t]*\n)[^\n]*)*"
)
_TRANSCRIPT_NAME_RE = re.compile(r"(?:^|/)memory/(?:.*/)?\d{4}-\d{2}-\d{2}-(?:\d{4}|[^/]*session-startup)[^/]*\.md$")
_SESSION_META_RE = re.compile(r"^- \*\*Session (?:Key|ID)\*\*:", re.M)


def is_session_transcript(rel: str, text: str) -> bool:
    """An OpenClaw session transcript: ``# Session: …`` followed by session metadata, or a file named
    ``memory/YYYY-MM-DD-HHMM.md`` / ``…-session-startup.md`` (how OpenClaw's session-memory hook names them)."""
    head = text.lstrip("\ufeff")[:2000]
    if head.startswith("# Session:") and _SESSION_META_RE.search(head):
        return True
    return _TRANSCRIPT_NAME_RE.search(rel) is not None


def find_instructions(
    text: str, *, view: TextView | None = None, rel: str | None = None
) -> list[tuple[str, int, int]]:
    """Spans of instruction-like text, ordered by start (``rel``: the file, to know a transcript)."""
    if view is None or view.text is not text:
        view = TextView(text)
    windows = view.windows(view.hits(view.lower, _ANCHORS), lines_after=1)
    if not windows:
        return []
    found: set[tuple[str, int, int]] = set()
    for kind, rx in _RES:
        for a, b in windows:
            found.update((kind, m.start(), m.end()) for m in rx.finditer(text, a, b))
    if found and rel is not None and "A new session was started" in text and is_session_transcript(rel, text):
        skip = [(m.start(), m.end()) for m in _STARTUP_RE.finditer(text)]  # OpenClaw's startup prompt
        found = {f for f in found if not any(a <= f[1] < b for a, b in skip)}
    return sorted(found, key=lambda t: (t[1], t[2], t[0]))
