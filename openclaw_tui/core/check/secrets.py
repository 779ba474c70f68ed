"""Secret patterns the check reports and ``redact`` replaces (spec: Redaction).

``find_secrets(text)`` returns the spans of phone numbers, e-mail addresses,
Chinese national ID numbers (checksum), card numbers (Luhn), API keys and
tokens, and ``password=``-style values.  Placeholders ``{{secret:...}}``
are never secrets.  The patterns are tuned to skip what memory files are
full of: entry ids (``mem-0012``), timestamps, dates and ``chat#3412``
sources.  Every regex runs once over the whole text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

KINDS = ("phone", "email", "national-id", "card", "api-key", "password")

KIND_LABEL = {
    "phone": "phone number",
    "email": "e-mail address",
    "national-id": "national ID number",
    "card": "card number",
    "api-key": "API key or token",
    "password": "password",
}


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    start: int
    end: int
    value: str


PLACEHOLDER_RE = re.compile(r"\{\{secret:([A-Za-z0-9_-]+?)-([0-9]+)\}\}")

# Characters that glue a digit run to an identifier, a source (chat#12), a path or a number.
_GLUE = r"A-Za-z0-9_#/.+\-"

_CN_MOBILE = re.compile(
    rf"(?<![{_GLUE}])1[3-9][0-9](?:[0-9]{{8}}|[ -][0-9]{{4}}[ -][0-9]{{4}})(?![A-Za-z0-9_]|[-.][0-9])"
)
_INTL_PHONE = re.compile(
    r"(?<![A-Za-z0-9_+#/.])\+[1-9][0-9]{0,2}(?:[ -]?\(?[0-9]{1,4}\)?){1,5}(?![A-Za-z0-9_]|[-.][0-9])"
)
_EMAIL_AT = re.compile(r"@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24})(?![A-Za-z0-9-])")
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
_NATIONAL_ID = re.compile(rf"(?<![{_GLUE}])[1-9][0-9]{{16}}[0-9Xx](?![A-Za-z0-9_]|[-.][0-9])")
_CARD = re.compile(
    rf"""(?<![{_GLUE}])(?:
        [2-9][0-9]{{12,18}}
      | [2-9][0-9]{{3}}(?P<sep>[ -])[0-9]{{4}}(?:(?P=sep)[0-9]{{4}}){{1,2}}(?:(?P=sep)[0-9]{{1,4}})?
      | 3[47][0-9]{{2}}(?P<sep2>[ -])[0-9]{{6}}(?P=sep2)[0-9]{{5}}
    )(?![A-Za-z0-9_]|[-.][0-9])""",
    re.X,
)
_API_KEY = re.compile(
    r"""(?<![A-Za-z0-9_-])(?:
        sk-(?:[A-Za-z0-9]+-){0,3}[A-Za-z0-9_-]{20,}
      | gh[pousr]_[A-Za-z0-9]{30,}
      | github_pat_[A-Za-z0-9_]{30,}
      | (?:AKIA|ASIA)[0-9A-Z]{16}
      | xox[abposr]-[A-Za-z0-9-]{10,}
      | AIza[0-9A-Za-z_-]{35}
      | glpat-[A-Za-z0-9_-]{20,}
      | eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}
    )(?![A-Za-z0-9_-])""",
    re.X,
)
_KEYWORD_TOKEN = re.compile(
    r"""(?ix)
    (?<![A-Za-z0-9_])
    (?:api[ _-]?key|apikey|access[ _-]?key|secret[ _-]?key|client[ _-]?secret|auth[ _-]?token
      |access[ _-]?token|token|secret|bearer|密钥|秘钥|令牌)
    ["']?(?:[ \t]*[:=：][ \t]*|[ \t]+(?:is[ \t]+)?|[ \t]*(?:是|为)[ \t]*)["']?
    (?P<value>[A-Za-z0-9+/_=.\-]{20,})(?![A-Za-z0-9+/_=.\-])
    """
)
_PRIVATE_KEY = re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )?PRIVATE KEY-----")
_PASSWORD = re.compile(
    r"""(?ix)
    (?<![A-Za-z0-9_])(?:password|passwd|passwort|passcode|pwd|密码|口令)
    ["']?[ \t]*
    (?:[:=：][ \t]*(?P<value>"[^"\n]+"|'[^'\n]+'|[^\s，。；、,;)）]+)
      |(?<=[码令])(?:是|为)[ \t]*(?P<ascii>[!-~]+))  # 密码是abc12: only an ASCII value, not 密码是什么
    """
)

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def national_id_ok(value: str) -> bool:
    """Checksum of an 18-character Chinese resident ID number (GB 11643)."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17].upper()


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = ord(c) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _has_digit_and_letter(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _is_placeholder(value: str) -> bool:
    return "{{secret:" in value


class TextView:
    """Fast candidate search over a big text.

    Python's regex engine tries a pattern at every position unless it starts
    with a literal, so the detectors first look for cheap anchors (literal
    byte strings in the UTF-8 text, its ASCII-lowercased copy, or a copy
    with every digit turned into ``0``) and run the exact patterns only on
    the lines around them.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.raw = text.encode("utf-8", "surrogateescape")
        self.is_ascii = len(self.raw) == len(text)
        self._lower: bytes | None = None
        self._digits: bytes | None = None

    @property
    def lower(self) -> bytes:
        if self._lower is None:
            self._lower = self.raw.lower()
        return self._lower

    @property
    def digits(self) -> bytes:
        if self._digits is None:
            self._digits = self.raw.translate(_DIGITS_TO_ZERO)
        return self._digits

    def hits(self, hay: bytes, needles: tuple[bytes, ...]) -> list[int]:
        """Byte offsets of every needle in ``hay``."""
        out: list[int] = []
        for needle in needles:
            out.extend(m.start() for m in _literal(needle).finditer(hay))
        return out

    def to_chars(self, offsets: list[int]) -> list[int]:
        """Char offsets of sorted byte offsets (each at a character boundary)."""
        if self.is_ascii:
            return offsets
        out: list[int] = []
        pb = pc = 0
        raw = self.raw
        for b in offsets:
            if b < pb:
                pb = pc = 0
            pc += len(raw[pb:b].decode("utf-8", "surrogateescape"))
            pb = b
            out.append(pc)
        return out

    def windows(self, byte_offsets: list[int], lines_after: int = 0) -> list[tuple[int, int]]:
        """Merged (start, end) char ranges of the lines holding the offsets (plus ``lines_after``)."""
        if not byte_offsets:
            return []
        text = self.text
        n = len(text)
        spans: list[tuple[int, int]] = []
        for c in self.to_chars(sorted(set(byte_offsets))):
            if spans and c < spans[-1][1]:
                continue
            start = text.rfind("\n", 0, c) + 1
            end = c
            for _ in range(lines_after + 1):
                nl = text.find("\n", end)
                end = n if nl < 0 else nl + 1
                if end >= n:
                    break
            if spans and start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        return spans


_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LITERALS: dict[bytes, re.Pattern[bytes]] = {}


def _literal(needle: bytes) -> re.Pattern[bytes]:
    """A pattern for ``needle``; it may be a regex that starts with a literal (``gh(?:p_|o_)``)."""
    rx = _LITERALS.get(needle)
    if rx is None:
        rx = _LITERALS[needle] = re.compile(needle if needle.startswith(b"(?x)") else re.escape(needle))
    return rx


_API_ANCHORS = (b"sk-", rb"(?x)gh(?:[pousr]_|ithub_pat_)", rb"(?x)A(?:KIA|SIA|Iza)", b"xox", b"glpat-", b"eyJ")
_KEYWORD_ANCHORS = tuple(w.encode() for w in ("token", "secret", "key", "bearer", "密钥", "秘钥", "令牌"))
_PASSWORD_ANCHORS = tuple(w.encode() for w in ("pass", "pwd", "密码", "口令"))
_DIGIT_ANCHORS = (b"00000000000", b"0000 0000", b"0000-0000")


def find_secrets(text: str, *, view: TextView | None = None) -> list[SecretMatch]:
    """Every secret-looking span of ``text``, in order, without overlaps."""
    found: list[SecretMatch] = []
    add = found.append
    if view is None or view.text is not text:
        view = TextView(text)
    if "-----BEGIN" in text:
        for m in _PRIVATE_KEY.finditer(text):
            add(SecretMatch("api-key", m.start(), m.end(), m.group()))
    for a, b in view.windows(view.hits(view.raw, _API_ANCHORS)):
        for m in _API_KEY.finditer(text, a, b):
            add(SecretMatch("api-key", m.start(), m.end(), m.group()))
    for a, b in view.windows(view.hits(view.lower, _KEYWORD_ANCHORS)):
        for m in _KEYWORD_TOKEN.finditer(text, a, b):
            value = m.group("value")
            if _has_digit_and_letter(value) and not value.startswith(("http", "mem-")):
                add(SecretMatch("api-key", m.start("value"), m.end("value"), value))
    for a, b in view.windows(view.hits(view.lower, _PASSWORD_ANCHORS)):
        for m in _PASSWORD.finditer(text, a, b):
            group = "value" if m.group("value") is not None else "ascii"
            value = m.group(group)
            start, end = m.start(group), m.end(group)
            if value[0] in "\"'":
                value, start, end = value[1:-1], start + 1, end - 1
            value = value.rstrip(".,")
            end = start + len(value)
            if value and not _is_placeholder(value) and set(value) != {"*"} and not value.startswith("{{"):
                add(SecretMatch("password", start, end, value))
    if "@" in text:
        for m in _EMAIL_AT.finditer(text):
            i = m.start()
            while i > 0 and text[i - 1] in _LOCAL_CHARS:
                i -= 1
            while i < m.start() and text[i] in ".-":
                i += 1
            if i < m.start():
                add(SecretMatch("email", i, m.end(), text[i : m.end()]))
    digit_windows = view.windows(view.hits(view.digits, _DIGIT_ANCHORS))
    for a, b in digit_windows:
        for m in _NATIONAL_ID.finditer(text, a, b):
            if national_id_ok(m.group()):
                add(SecretMatch("national-id", m.start(), m.end(), m.group()))
    for a, b in digit_windows:
        for m in _CARD.finditer(text, a, b):
            digits = m.group().replace(" ", "").replace("-", "")
            if 13 <= len(digits) <= 19 and luhn_ok(digits) and not (len(digits) == 18 and national_id_ok(digits)):
                add(SecretMatch("card", m.start(), m.end(), m.group()))
    if "+" in text:
        for a, b in view.windows([m.start() for m in _PLUS_DIGIT.finditer(view.raw)]):
            for m in _INTL_PHONE.finditer(text, a, b):
                n = sum(c.isdigit() for c in m.group())
                if 8 <= n <= 15:
                    add(SecretMatch("phone", m.start(), m.end(), m.group()))
    for a, b in digit_windows:
        for m in _CN_MOBILE.finditer(text, a, b):
            add(SecretMatch("phone", m.start(), m.end(), m.group()))
    if not found:
        return found
    return _resolve(text, found)


_PLUS_DIGIT = re.compile(rb"\+[1-9]")


def _resolve(text: str, found: list[SecretMatch]) -> list[SecretMatch]:
    """Drop matches inside placeholders or overlapping an earlier-listed (stronger) match."""
    holes = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)] if "{{secret:" in text else []
    taken: list[tuple[int, int]] = []  # sorted, non-overlapping
    kept: list[SecretMatch] = []
    for s in found:
        if any(a < s.end and s.start < b for a, b in holes):
            continue
        i = bisect.bisect_right(taken, (s.start, 1 << 62))
        if i and taken[i - 1][1] > s.start:
            continue
        if i < len(taken) and taken[i][0] < s.end:
            continue
        taken.insert(i, (s.start, s.end))
        kept.append(s)
    kept.sort(key=lambda s: s.start)
    return kept
