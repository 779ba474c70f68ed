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
    ["']?[ \t]*(?:[:=：][ \t]*|(?<=[码令])(?:是|为)[ \t]*)
    (?P<value>"[^"\n]+"|'[^'\n]+'|[^\s，。；、,;)）]+)
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


def find_secrets(text: str) -> list[SecretMatch]:
    """Every secret-looking span of ``text``, in order, without overlaps."""
    found: list[SecretMatch] = []
    add = found.append
    if "-----BEGIN" in text:
        for m in _PRIVATE_KEY.finditer(text):
            add(SecretMatch("api-key", m.start(), m.end(), m.group()))
    for m in _API_KEY.finditer(text):
        add(SecretMatch("api-key", m.start(), m.end(), m.group()))
    for m in _KEYWORD_TOKEN.finditer(text):
        value = m.group("value")
        if _has_digit_and_letter(value) and not value.startswith(("http", "mem-")):
            add(SecretMatch("api-key", m.start("value"), m.end("value"), value))
    for m in _PASSWORD.finditer(text):
        value = m.group("value")
        start, end = m.start("value"), m.end("value")
        if value[0] in "\"'":
            value, start, end = value[1:-1], start + 1, end - 1
        value = value.rstrip(".,!?")
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
    for m in _NATIONAL_ID.finditer(text):
        if national_id_ok(m.group()):
            add(SecretMatch("national-id", m.start(), m.end(), m.group()))
    for m in _CARD.finditer(text):
        digits = m.group().replace(" ", "").replace("-", "")
        if 13 <= len(digits) <= 19 and luhn_ok(digits) and not (len(digits) == 18 and national_id_ok(digits)):
            add(SecretMatch("card", m.start(), m.end(), m.group()))
    if "+" in text:
        for m in _INTL_PHONE.finditer(text):
            n = sum(c.isdigit() for c in m.group())
            if 8 <= n <= 15:
                add(SecretMatch("phone", m.start(), m.end(), m.group()))
    for m in _CN_MOBILE.finditer(text):
        add(SecretMatch("phone", m.start(), m.end(), m.group()))
    if not found:
        return found
    return _resolve(text, found)


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
