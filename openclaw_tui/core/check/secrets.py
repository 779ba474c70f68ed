"""Secret patterns the check reports and ``redact`` replaces (spec: Redaction).

``find_secrets(text)`` returns the spans of phone numbers, e-mail addresses, Chinese national ID
numbers (checksum), card numbers (Luhn) and credentials (``credentials.py``).  Placeholders
``{{secret:...}}`` are never secrets; entry ids, timestamps and ``chat#3412`` sources are not either.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property

from .credentials import TELEGRAM_ANCHOR, find_credentials

# values that grant access: an error wherever they are (spec: Secrets); the others are personal data
CREDENTIAL_KINDS: frozenset[str] = frozenset({"api-key", "password", "private-key", "url-credential"})

KIND_LABEL = {
    "phone": "phone number",
    "email": "e-mail address",
    "national-id": "national ID number",
    "card": "card number",
    "api-key": "API key or token",
    "password": "password",
    "private-key": "private key",
    "url-credential": "password in a URL or connection string",
}


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    start: int
    end: int
    value: str


def is_credential(match: SecretMatch) -> bool:
    """Whether ``match`` grants access (a password, key, token, private key, URL password)."""
    return match.kind in CREDENTIAL_KINDS


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
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def national_id_ok(value: str) -> bool:
    """Checksum of an 18-character Chinese resident ID number (GB 11643)."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17].upper()


def luhn_ok(digits: str) -> bool:
    doubled = (sum(divmod(2 * int(c), 10)) for c in digits[-2::-2])
    return (sum(int(c) for c in digits[::-2]) + sum(doubled)) % 10 == 0


class TextView:
    """Candidate lines of a big text: the detectors look for literal anchors (in the UTF-8 bytes, their
    ASCII-lowercased copy, or a copy with every digit made ``0``) and run patterns only around them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.raw = text.encode("utf-8", "surrogateescape")
        self.is_ascii = len(self.raw) == len(text)

    @cached_property
    def lower(self) -> bytes:
        return self.raw.lower()

    @cached_property
    def digits(self) -> bytes:
        return self.raw.translate(_DIGITS_TO_ZERO)

    def hits(self, hay: bytes, needles: tuple[bytes, ...]) -> list[int]:
        """Byte offsets of every needle in ``hay`` (non-overlapping)."""
        out: list[int] = []
        for needle in needles:
            at = hay.find(needle)
            while at >= 0:
                out.append(at)
                at = hay.find(needle, at + len(needle))
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


_ID_BEFORE_RE = re.compile(r"(?i)(?:\bid|\bno\.|编号|订单号?|单号)[ \t:#：=]*$")
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")


_DIGIT_ANCHORS = (b"00000000000", b"0000 0000", b"0000-0000")

# Not personal data (spec: Secrets): a git remote or scp/SSH login (user@host:path, ssh user@host),
# a URL's user part, a messaging target the agent's tools address, an OpenClaw session key.
_NOT_PERSONAL_RE = re.compile(
    r"""(?ix)
        (?<![A-Za-z0-9._-])[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,253}:(?!//)[~A-Za-z0-9_./-]*  # git@github.com:o/r.git, scp
      | (?:ssh|scp|sftp|rsync|mosh|ssh-copy-id)\b[^\n@]{0,80}?[A-Za-z0-9._-]+@[A-Za-z0-9.-]+  # ssh root@host
      | \b[a-z][a-z0-9+.-]{0,20}://[^\s/@]{1,256}@[^\s/]{1,253}         # a URL's userinfo
      | (?<![^\s@<>()`'"])[^\s@<>()`'"]{1,128}@(?:im\.wechat|chatroom|s\.whatsapp\.net|g\.us|c\.us|lid|broadcast|newsletter|thread\.v2|thread\.skype)\b
      | \bagent:[A-Za-z0-9_-]+:[^\s`'"<>)\]]+                         # agent:main:feishu:direct:ou_…
    """
)
_LOGIN_USERS = frozenset({"git", "root", "ubuntu", "ec2-user", "admin@localhost", "pi", "debian", "centos", "opc"})


def find_secrets(text: str, *, view: TextView | None = None, personal: bool = True) -> list[SecretMatch]:
    """Every secret-looking span of ``text``, in order, without overlaps (``personal=False``: credentials only)."""
    found: list[SecretMatch] = []
    add = found.append
    if view is None or view.text is not text:
        view = TextView(text)
    def windows(anchors: tuple[bytes, ...], lower: bool) -> list[tuple[int, int]]:
        assert view is not None
        if anchors == (TELEGRAM_ANCHOR,):
            return view.windows(view.hits(view.digits, anchors))
        return view.windows(view.hits(view.lower if lower else view.raw, anchors))

    for kind, start, end in find_credentials(text, windows):
        add(SecretMatch(kind, start, end, text[start:end]))
    found.sort(key=lambda s: (0 if s.kind == "private-key" else 1, s.start, -(s.end - s.start)))
    if not personal:
        return _resolve(text, found) if found else found
    n_credentials = len(found)
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
            if len(digits) == 15 and digits[:2] not in ("34", "37"):
                continue  # only Amex has 15 digits: a 15-digit Luhn-valid run is an id (``post ID 3053…``)
            if _ID_BEFORE_RE.search(text, max(0, m.start() - 12), m.start()):
                continue
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
    if len(found) > n_credentials:
        holes = [
            (m.start(), m.end())
            for a, b in view.windows(view.hits(view.raw, (b"@", b"agent:")))
            for m in _NOT_PERSONAL_RE.finditer(text, a, b)
        ]
        if holes:
            found[n_credentials:] = [s for s in found[n_credentials:] if not _overlaps(holes, s.start, s.end)]
        found[n_credentials:] = [
            s for s in found[n_credentials:] if not (s.kind == "email" and s.value.split("@")[0].lower() in _LOGIN_USERS)
        ]
    return _resolve(text, found)


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    i = bisect.bisect_right(spans, (start, 1 << 62))
    if i and spans[i - 1][1] > start:
        return True
    return i < len(spans) and spans[i][0] < end


_PLUS_DIGIT = re.compile(rb"\+[1-9]")


def _resolve(text: str, found: list[SecretMatch]) -> list[SecretMatch]:
    """Drop matches inside placeholders or overlapping an earlier-listed (stronger) match."""
    holes = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)] if "{{secret:" in text else []
    taken: list[tuple[int, int]] = []  # sorted, non-overlapping
    kept: list[SecretMatch] = []
    for s in found:
        if _overlaps(holes, s.start, s.end) or _overlaps(taken, s.start, s.end):
            continue
        bisect.insort(taken, (s.start, s.end))
        kept.append(s)
    kept.sort(key=lambda s: s.start)
    return kept
