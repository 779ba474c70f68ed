"""Credentials as people write them in notes (spec: Secrets): ``find_credentials(text)`` returns
``(kind, start, end)`` spans of values that grant access.

- ``password``: a value after a password label (``label: value``, ``**Label:** value``, a table
  cell, ``--password x``, ``mysql -pX``, ``sshpass -p X``, ``user `u` / pass `p` ``);
- ``api-key``: a value after a key or token label, and the token formats of detect-secrets'
  plugin catalogue plus those it lacks (``sk-…`` keys of model providers, Google, Hugging Face…);
- ``private-key``: a ``-----BEGIN … PRIVATE KEY-----`` block, or a value after 私钥/private key;
- ``url-credential``: the password of ``scheme://user:password@host``.

Where a secret is kept, that it is gone, placeholders and prose after a label are not credentials.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterator
from functools import cache
from itertools import accumulate
from pathlib import Path

from ..userdirs import cache_folder

Span = tuple[str, int, int]

# --- the token catalogue ---------------------------------------------------------------------
# detect-secrets' format plugins (their regexes only): (module, class, the literal bytes every match
# holds: a pattern runs only on the lines around them).  Left out: plugins that fire on prose,
# ordinary words or inside hex ids, or that lack a literal part; URL passwords are read below.
_PLUGINS: tuple[tuple[str, str, tuple[bytes, ...]], ...] = (
    ("aws", "AWSKeyDetector", (b"A3T", b"ABIA", b"ACCA", b"AKIA", b"ASIA")),
    ("azure_storage_key", "AzureStorageKeyDetector", (b"AccountKey=",)),
    ("github_token", "GitHubTokenDetector", (b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_")),
    ("gitlab_token", "GitLabTokenDetector", (b"gl", b"GR1348941")),
    ("jwt", "JwtTokenDetector", (b"eyJ",)),
    ("mailchimp", "MailchimpDetector", (b"-us",)),
    ("npm", "NpmDetector", (b"_authToken",)),
    ("openai", "OpenAIDetector", (b"T3BlbkFJ",)),
    ("pypi_token", "PypiTokenDetector", (b"pypi-",)),
    ("sendgrid", "SendGridDetector", (b"SG.",)),
    ("slack", "SlackDetector", (b"xox", b"hooks.slack.com")),
    ("square_oauth", "SquareOAuthDetector", (b"sq0csp-",)),
    ("stripe", "StripeDetector", (b"k_live_",)),
    ("telegram_token", "TelegramBotTokenDetector", ()),  # anchored on digits below
)
# formats the catalogue lacks: keys of current model providers and services notes name most
_EXTRA_FORMATS: tuple[tuple[str, tuple[bytes, ...]], ...] = (
    (r"sk-(?:ant-|proj-|or-v1-|svcacct-)?[A-Za-z0-9_-]{20,}", (b"sk-",)),
    (r"github_pat_[A-Za-z0-9_]{30,}", (b"github_pat_",)),
    (r"AIza[0-9A-Za-z_-]{35}", (b"AIza",)),
    (r"hf_[A-Za-z0-9]{30,}", (b"hf_",)),
    (r"(?:tvly|xai|gsk|pplx|nvapi)[-_][A-Za-z0-9_-]{24,}", (b"tvly", b"xai", b"gsk_", b"pplx", b"nvapi")),
    (r"xox[abposre]-[A-Za-z0-9-]{10,}", (b"xox",)),
    (r"glpat-[A-Za-z0-9_-]{20,}", (b"glpat-",)),
    (r"npm_[A-Za-z0-9]{36}", (b"npm_",)),
)
_B = r"(?<![A-Za-z0-9_])"
_E = r"(?![A-Za-z0-9_])"
TELEGRAM_ANCHOR = b"00000000:"  # in the text with every digit made 0


PATTERNS_CACHE = "detect-secrets-patterns.json"


def _plugin_patterns() -> list[tuple[str, int, tuple[bytes, ...]]]:
    """(pattern, flags, anchors) of every plugin regex, in ``_PLUGINS`` order: kept in the user's cache folder,
    keyed by the plugin files' path, size and mtime (importing a plugin imports all of detect-secrets)."""
    spec = importlib.util.find_spec("detect_secrets")  # where it is, without running its __init__
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("detect_secrets")
    folder = Path(spec.submodule_search_locations[0]) / "plugins"
    key = []
    for module, _, _ in _PLUGINS:
        file = folder / f"{module}.py"
        st = file.stat()
        key.append([str(file), st.st_size, st.st_mtime_ns])
    path = Path(cache_folder()) / PATTERNS_CACHE
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError, IndexError):
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept["key"] == key:
            return [(p, f, _PLUGINS[i][2]) for i, p, f in kept["patterns"]]
    found: list[tuple[int, str, int]] = []
    for i, (module, name, _) in enumerate(_PLUGINS):
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        for rx in plugin.denylist:
            if name == "AWSKeyDetector" and not rx.pattern.startswith("(?:A3T"):
                continue  # the second AWS pattern is a keyword rule: the labels below cover it
            found.append((i, rx.pattern, rx.flags & ~re.UNICODE))
    with contextlib.suppress(OSError):  # temp file + os.replace: another process never reads half a file
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "patterns": found}), encoding="utf-8")
        os.replace(tmp, path)
    return [(p, f, _PLUGINS[i][2]) for i, p, f in found]


@cache
def _formats() -> list[tuple[str, int, tuple[bytes, ...]]]:
    """The token catalogue: (pattern, flags, anchors), each pattern compiled only when its anchors occur."""
    out = [(f"{_B}(?:{p}){_E}", flags, anchors) for p, flags, anchors in _plugin_patterns()]
    out.extend((f"{_B}(?:{p}){_E}", 0, anchors) for p, anchors in _EXTRA_FORMATS)
    return out


def _jwt_valid(token: str) -> bool:
    """detect-secrets' own JWT check (its module imported only when a text holds a JWT-shaped token)."""
    from detect_secrets.plugins.jwt import JwtTokenDetector

    return bool(JwtTokenDetector.is_formally_valid(token))


# --- labels ----------------------------------------------------------------------------------

_PW_STRONG = r"password|passwd|passwort|passcode|passphrase|pwd|密码|口令"
_PW_WEAK = r"pass|pin"  # ordinary words too: their values must look like secrets
_KEY = (
    r"api[ _-]?keys?|apikey|access[ _-]?key(?:[ _-]?id)?|secret[ _-]?(?:access[ _-]?)?key|client[ _-]?secret"
    r"|app[ _-]?secret|(?:auth|access|refresh|bot|api|bearer)[ _-]?token|token|secret|bearer|密钥|秘钥|令牌|api密钥"
)
_PRIV = r"private[ _-]?key|私钥"
# a Chinese label starts with one of 密口秘令私 (a CJK range under re.I is slow to compile)
_LABEL_RE = re.compile(
    rf"""(?ix)
    (?:(?<![A-Za-z0-9])(?P<dash>--?|/)?(?=[A-Za-z])|(?=[密口秘令私]))(?P<label>{_PRIV}|{_PW_STRONG}|{_KEY}|{_PW_WEAK})(?![A-Za-z0-9_])["']?
    (?P<sep>
        [ \t]*(?:\*\*|__)?[ \t]*(?:[:=：]|\|)[ \t]*(?:\*\*|__)?[ \t]*      # label: value, **Label:** value, | cell |
      | [ \t]*(?:\*\*|__)[ \t]+                                        # **Password** value
      | [ \t]+(?:is|was)[ \t]+(?=[`"'])
      | (?<=[码令钥])[ \t]*(?:是|为)[ \t]*
      | [ \t]+                                                           # label value (checked harder)
    )
    (?P<value>`[^`\n]+`|"[^"\n]{{1,200}}"|'[^'\n]{{1,200}}'|[^\s`"'|，。；、,;()（）{{}}\[\]]+)
    """
)
# words after a label that say where the secret is, that it is gone, or that hold none
_NOT_VALUES = frozenset(
    """
    stored saved kept see in on at from is are was the a an set none null nil n/a na empty unknown required optional
    removed deleted rotated changed reset hidden masked redacted same tbd todo yes no true false env environment
    keychain vault 1password bitwarden lastpass config configured secret secrets password passwords token tokens
    placeholder example your yours my our default same-as not needed provided below above here there via using
    managed encrypted protected omitted elided withheld unset missing invalid expired revoked length file
    """.split()
)
_GONE_RE = re.compile(
    r"(?i)\b(?:stored|saved|kept|lives?|held|managed)\s+(?:in|at|on|securely|safely|by)\b|\bredact|\b(?:see|in)\s+1password"
    r"|\brotated\b|\bremoved\b|\benv(?:ironment)?\s+(?:var|config)|已(?:删除|脱敏|移除|更换|轮换)|保存在|存(?:放)?在|见"
)
_PLACEHOLDER_VALUE_RE = re.compile(
    r"""(?ix)^(?:
        \{\{.*\}\} | <[^<>]*> | \[[^\[\]]*\] | \$\{?[A-Za-z_][A-Za-z0-9_]*\}? | %[A-Za-z_]+% | process\.env\..*
      | [*xX•.#_?-]{3,} | (?:your|my|the|some|new|old)[-_ ]\w+ | \w*(?:password|passwd|token|secret|apikey|api_key)\w*
      | (?:xxx+|changeme|example|sample|dummy|placeholder|redacted|hidden|masked|none|null|todo|tbd)
    )$"""
)


def _strip_value(raw: str, start: int) -> tuple[str, int, bool]:
    """The value without quotes or trailing punctuation, its start, and whether it was quoted."""
    if raw[0] in "`\"'" and raw[-1] == raw[0] and len(raw) > 2:
        return raw[1:-1].strip(), start + 1 + (len(raw[1:-1]) - len(raw[1:-1].lstrip())), True
    value = raw.rstrip(".,:;*_~")
    return value, start, False


def _has_cjk(value: str) -> bool:
    """Whether ``value`` holds a CJK character or full-width form (U+3000-U+9FFF, U+FF00-U+FFEF)."""
    return not value.isascii() and any("\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in value)


def _looks_secret(value: str, *, quoted: bool, label: str, strong_sep: bool, login_before: bool = False) -> bool:
    """Whether a labelled value is a credential and not a word, placeholder, number or path."""
    v = value.strip()
    low = v.lower()
    if not v or "{{secret:" in v or _PLACEHOLDER_VALUE_RE.match(v) or low in _NOT_VALUES:
        return False
    if len(set(v)) == 1 or low.startswith(("http://", "https://", "/", "~/", "./", "../", "mem-")):
        return False
    if v.endswith((".md", ".json", ".yaml", ".yml", ".txt", ".env", ".py", ".sh")):
        return False
    if _has_cjk(v) or (" " in v and not quoted) or v[0] in "-([{<$%" or _NOT_SECRET_RE.search(v):
        return False
    letters = sum(c.isalpha() for c in v)
    digits = sum(c.isdigit() for c in v)
    others = len(v) - letters - digits
    kind = label_kind(label)
    lab = label.lower()
    if lab == "pin":
        return v.isdigit() and 4 <= len(v) <= 8
    if kind == "api-key" or kind == "private-key":
        if " " in v or v.isdigit() or (letters and not digits and len(v) < 32) or _EXAMPLE_RE.search(v):
            return False
        if kind == "api-key" and _ADDRESS_RE.fullmatch(v):
            return False  # a public address (a token contract, a wallet), not a key
        return len(v) >= (8 if quoted else 12)
    # a password
    if lab == "pass" and not strong_sep and not login_before:
        # ``jdoe pass `Xy12ab` ``: a quoted value holding letters and digits, else a verb
        if not (quoted and len(v) >= 6 and letters and digits and " " not in v):
            return False
    if " " in v and len(v.split()) > 3:
        return False  # a sentence in quotes
    if not quoted and digits == 0 and others == 0:
        return strong_sep and lab in ("password", "passwd", "pwd", "密码", "口令", "passphrase") and len(v) >= 6
    if not strong_sep and not quoted and (len(v) < 6 or not (letters and digits)):
        return False
    if v.isdigit() and len(v) < 4:
        return False
    return len(v) >= 3 or (strong_sep and letters > 0 and digits > 0)


# elided, masked, example or code values: ``sk-cp-Q2w-...``, ``AIza****``, ``DEMO_PASSPHRASE``,
# ``your-secure-password-here``, ``_passwordController.text``, ``z.string().min(8)``
_NOT_SECRET_RE = re.compile(
    r"(?i)\.\.\.|…|\*\*\*|password|passwd|passphrase|token|secret|api_?key|^(?:your|my|insert|enter|put)[-_ ]"
    r"|(?-i:^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$)|^_?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(.*)?$|\("
    r"|^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/|^(?:abcd?|abc|test|demo)$"
    r"|\.(?:xsd|xml|html?|js|ts|css|png|jpe?g|pdf|docx?|csv|log|toml|ini|cfg|conf)$"
)
_EXAMPLE_RE = re.compile(r"(?i)abcd|1234|xxxx|0000000|example|sample|dummy|test[-_]?key|replace")
_ADDRESS_RE = re.compile(r"0x[0-9a-fA-F]{40}")
# a login before ``pass`` on the line: ``user `u` / pass `p` ``, ``root pass `p` ``
_LOGIN_BEFORE_RE = re.compile(r"(?i)`[^`\n]+`[^`\n]{0,12}$|\b(?:user(?:name)?|login|account|root|admin)\b[^\n]{0,40}$|(?:账号|用户名?)[^\n]{0,40}$")


def label_kind(label: str) -> str:
    lab = label.lower().replace("_", " ").replace("-", " ")
    if re.fullmatch(_PRIV, lab, re.I) or lab in ("private key", "私钥"):
        return "private-key"
    if re.fullmatch(_PW_STRONG + "|" + _PW_WEAK, lab, re.I):
        return "password"
    return "api-key"


def _labelled(text: str, a: int, b: int) -> Iterator[Span]:
    for m in _LABEL_RE.finditer(text, a, b):
        label, sep = m.group("label"), m.group("sep")
        strong = bool(re.search(r"[:=：|]|是|为", sep))
        if m.group("dash") and not strong:
            strong = True  # --password VALUE, a command flag
        value, start, quoted = _strip_value(m.group("value"), m.start("value"))
        # the line around the label, at most 2,000 characters before it (a huge line stays linear)
        line_start = text.rfind("\n", max(0, m.start() - 2000), m.start()) + 1 or max(0, m.start() - 2000)
        line_end = text.find("\n", m.end(), m.end() + 2000)
        before = text[line_start : m.start()]
        word_start = max(before.rfind(" "), before.rfind("\t"), before.rfind("("), before.rfind("<"))
        if "://" in before[word_start + 1 :]:
            continue  # a parameter of a link (``?invitation_token=…``): the page's, not a note's
        rest = text[m.start("label"): line_end if line_end >= 0 else m.end() + 2000]
        if not quoted and not any(c.isdigit() for c in value) and _GONE_RE.search(rest[: 80 + len(value)]):
            continue
        if "|" in sep and label.lower() in ("pass", "pin", "token", "secret"):
            continue  # a table header cell, not a label
        login = label.lower() == "pass" and _LOGIN_BEFORE_RE.search(before[-200:]) is not None
        if _looks_secret(value, quoted=quoted, label=label, strong_sep=strong, login_before=login):
            yield label_kind(label), start, start + len(value)


_TABLE_SEP_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CELL_LABEL_RE = re.compile(rf"(?i)^(?:[\w\s]*?\s)?(?:{_PW_STRONG}|{_KEY}|{_PRIV})$")


def _table_cells(text: str) -> Iterator[Span]:
    """Cells under a password/key column of a Markdown table."""
    lines = text.split("\n")
    offsets = [0, *accumulate(len(line) + 1 for line in lines)]
    i = 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _TABLE_SEP_RE.match(lines[i + 1]):
            header = [c.strip().strip("*_` ") for c in lines[i].strip().strip("|").split("|")]
            cols = {k: label for k, c in enumerate(header) if c and _CELL_LABEL_RE.match(c) for label in [c.split()[-1]]}
            k = i + 2
            while k < len(lines) and "|" in lines[k]:
                if cols:
                    row = lines[k]
                    lead = len(row) - len(row.lstrip())
                    body = row.strip()
                    off = offsets[k] + lead + (1 if body.startswith("|") else 0)
                    cells = (body[1:] if body.startswith("|") else body).split("|")
                    for ci, cell in enumerate(cells):
                        if ci in cols:
                            raw = cell.strip().strip("*")
                            if raw:
                                cstart = off + cell.find(raw)
                                value, vstart, quoted = _strip_value(raw, cstart)
                                if not _GONE_RE.search(raw) and _looks_secret(
                                    value, quoted=quoted, label=cols[ci], strong_sep=True
                                ):
                                    yield label_kind(cols[ci]), vstart, vstart + len(value)
                        off += len(cell) + 1
                k += 1
            i = k
        else:
            i += 1


_URL_CRED_RE = re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^:/\s@\[\]]+):([^@\s/]+)@[A-Za-z0-9\[]")
# ``login@example.com / Zx81kLmQ``: an account and its password, written as a pair
_EMAIL_PASS_RE = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}[ \t]*/[ \t]*(`[^`\s]{4,}`|[^\s`/,;，。；]{6,})(?=[\s,;，。；)]|$)")
_MYSQL_RE = re.compile(r"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n`]*?\s-p(`[^`\n]+`|'[^'\n]+'|\"[^\"\n]+\"|[^\s'\"`-]\S*)")
_SSHPASS_RE = re.compile(r"(?i)\bsshpass\s+-p\s*('[^'\n]+'|\"[^\"\n]+\"|\S+)")
_PRIVATE_BLOCK_RE = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
)


LABEL_ANCHORS = tuple(
    w.encode() for w in ("pass", "pwd", "pin", "密码", "口令", "key", "token", "secret", "bearer", "密钥", "秘钥", "令牌", "私钥")
)


def _token_ok(text: str, start: int, end: int) -> bool:
    """A format match is a token unless it sits in a link (a scraped page's URL), is cut short
    (``ghp_9ZzQ...``) or masked, or reads as words (``xai-engineer-says-he-works``)."""
    value = text[start:end]
    if text.startswith(("...", "…", "***"), end) or not any(c.isdigit() for c in value):
        return False
    line_start = text.rfind("\n", max(0, start - 2000), start) + 1 or max(0, start - 2000)
    before = text[line_start:start]
    cut = max(before.rfind(c) for c in " \t(<\"'`[")
    return "://" not in before[cut + 1 :]


Windows = Callable[[tuple[bytes, ...], bool], list[tuple[int, int]]]


def find_credentials(text: str, windows: Windows) -> list[Span]:
    """Every credential span of ``text``, overlaps possible (``windows(anchors, lower)``: the ranges of
    the lines holding one of ``anchors``, as ``TextView`` finds them)."""
    out: list[Span] = []
    if "PRIVATE KEY" in text:
        out.extend(("private-key", m.start(), m.end()) for m in _PRIVATE_BLOCK_RE.finditer(text))
    for pattern, flags, anchors in _formats():
        spans = windows(anchors or (TELEGRAM_ANCHOR,), False)
        if not spans:
            continue
        rx = re.compile(pattern, flags)  # compiled once: ``re`` keeps its recent patterns
        for m in (m for a, b in spans for m in rx.finditer(text, a, b)):
            if pattern.startswith(f"{_B}(?:eyJ") and not _jwt_valid(m.group()):
                continue
            if not _token_ok(text, m.start(), m.end()):
                continue
            out.append(("api-key", m.start(), m.end()))
    if "://" in text:
        for m in (m for a, b in windows((b"://",), False) for m in _URL_CRED_RE.finditer(text, a, b)):
            value, start, quoted = _strip_value(m.group(2), m.start(2))
            if _looks_secret(value, quoted=True, label="password", strong_sep=True) and value.lower() != "pass":
                out.append(("url-credential", start, start + len(value)))
    for a, b in windows(LABEL_ANCHORS, True):
        out.extend(_labelled(text, a, b))
    if "|" in text and "-" in text:
        out.extend(_table_cells(text))
    if "@" in text and "/" in text:
        for m in (m for a, b in windows((b"@",), False) for m in _EMAIL_PASS_RE.finditer(text, a, b)):
            value, start, quoted = _strip_value(m.group(1), m.start(1))
            if "@" not in value and any(c.isdigit() for c in value) and any(c.isalpha() for c in value) and _looks_secret(
                value, quoted=quoted, label="password", strong_sep=True
            ):
                out.append(("password", start, start + len(value)))
    low = text.lower() if "-p" in text else ""
    for rx in (_MYSQL_RE, _SSHPASS_RE) if ("mysql" in low or "mariadb" in low or "sshpass" in low) else ():
        for m in rx.finditer(text):
            value, start, quoted = _strip_value(m.group(1), m.start(1))
            if _looks_secret(value, quoted=True, label="password", strong_sep=True):
                out.append(("password", start, start + len(value)))
    return out
