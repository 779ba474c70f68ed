"""English left on a screen in Chinese: the words of 4+ ASCII letters that are not memory text, a file
name, a key name, a finding code or the product name (tests/test_i18n_walk.py)."""

from __future__ import annotations

import re
from pathlib import Path

# a token: a letter, then letters, digits and the characters of file names, codes, ids and keys
TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_.\-/+$]*")
WORD = re.compile(r"[A-Za-z]{4,}")
KEYS = {  # Textual's key names as the footer, help and hints show them
    "ctrl", "shift", "enter", "escape", "esc", "space", "tab", "home", "end", "pageup", "pagedown",
    "delete", "backspace", "insert", "left", "right", "down", "up", "question_mark", "slash",
}
PRODUCT = {"openclaw", "openclaw-tui", "textual"}
CODES = {
    "api-key", "compaction-candidate", "daily-log-rewritten", "dangling-file", "dangling-ref", "duplicate-id",
    "expired-ttl", "git-file", "inactive-ref", "invalid-field", "malformed-entry", "merge-conflict",
    "national-id", "over-capacity", "oversized-bootstrap", "path-escape", "private-key", "role-marker",
    "secret-in-history", "sensitive-data", "stale-daily-log", "suspicious-instruction", "unreadable-file",
    "unresolved-conflict", "url-credential", "credential", "injection", "secret",
}


def memory_words(*roots: Path) -> set[str]:
    """Every token of the files under ``roots`` (the memory the screens show), lower-cased."""
    words: set[str] = set()
    for root in roots:
        words.add(root.name.lower())
        for path in root.rglob("*"):
            if ".git" in path.parts or not path.is_file():
                continue
            words.add(path.name.lower())
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            words.update(t.lower().strip(".-/") for t in TOKEN.findall(text))
            words.update(w.lower() for w in WORD.findall(text))
    if any((root / ".git").exists() for root in roots):  # the commits' messages and authors (history screens)
        import subprocess

        log = subprocess.run(["git", "log", "--all", "--format=%an %ae %s %b %D"], cwd=roots[0], capture_output=True,
                             text=True, check=True).stdout
        words.update(t.lower().strip(".-/") for t in TOKEN.findall(log))
        words.update(w.lower() for w in WORD.findall(log))
    # a column cuts memory text mid-word: a prefix of a memory word is memory text too
    return words | {w[:n] for w in words for n in range(4, len(w))}


def english(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` that none of the allowed kinds explains."""
    found = []
    for token in TOKEN.findall(text):
        bare = token.strip(".-/+$").lower()
        if not WORD.search(bare) or bare in allowed or bare in KEYS or bare in PRODUCT or bare in CODES:
            continue
        if "." in bare or "/" in bare or "_" in bare:  # a file name, a path, a field or an id
            continue
        if bare.startswith(("ctrl+", "shift+", "mem-")) or "-" in bare and bare.split("-")[0] in allowed:
            continue
        if all(w.lower() in allowed or w.lower() in KEYS for w in WORD.findall(bare)):
            continue
        found.append(token)
    return found
