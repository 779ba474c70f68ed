"""English left on a screen in Chinese: the words of 4+ ASCII letters that are not memory text, a file
name, a key name, a finding code or the product name (tests/test_i18n_walk.py)."""

from __future__ import annotations

import re
from pathlib import Path

# a token: a letter, then letters, digits and the characters of file names, codes, ids and keys
TOKEN = re.compile(r"\$?[A-Za-z][A-Za-z0-9_.\-/+$:]*")
WORD = re.compile(r"[A-Za-z]{4,}")
KEYS = {  # Textual's key names as the footer, help and hints show them
    "ctrl", "shift", "enter", "escape", "esc", "space", "tab", "home", "end", "pageup", "pagedown",
    "delete", "backspace", "insert", "left", "right", "down", "up", "question_mark", "slash",
}
PRODUCT = {"openclaw", "openclaw-tui", "textual"}
# words that stay as they are in Chinese too (docs/glossary.md): field values, the format's and OpenClaw's terms,
# the config keys of OpenClaw (openclaw.json)
TERMS = {
    "active", "superseded", "cold", "archived", "malformed", "high", "medium", "low", "frontmatter", "token",
    "bootstrapmaxchars", "bootstraptotalmaxchars", "maxfilebytes", "maxtotalchars", "yaml", "markdown", "json",
    # the fields of an entry (docs/memory-format.md) and the review flags of a promotion (dreaming)
    "timestamp", "source", "importance", "status", "tags", "conflict", "superseded_by", "merged_from",
    "archived_at", "last_hit", "source-missing", "raw-candidate", "shell-command", "score-in-text",
}
CODES = {
    "api-key", "compaction-candidate", "daily-log-rewritten", "dangling-file", "dangling-ref", "duplicate-id",
    "expired-ttl", "git-file", "inactive-ref", "invalid-field", "malformed-entry", "merge-conflict",
    "national-id", "over-capacity", "oversized-bootstrap", "path-escape", "private-key", "role-marker",
    "secret-in-history", "sensitive-data", "stale-daily-log", "suspicious-instruction", "unreadable-file",
    "unresolved-conflict", "url-credential", "credential", "injection", "secret",
}


class Memory:
    """The memory the screens show: the text of every file under the roots (and the commits' messages), and
    the names of the files, folders and profiles."""

    def __init__(self, *roots: Path) -> None:
        texts: list[str] = []
        self.names: set[str] = set()
        for root in roots:
            self.names.add(root.name.lower())
            for path in root.rglob("*"):
                if ".git" in path.parts:
                    continue
                self.names.update(part.lower() for part in path.relative_to(root).parts)
                self.names.update(re.findall(r"[a-z]{4,}", path.stem.lower()))  # 2026-09-03-hangzhou
                self.names.add(path.stem.lower())
                if path.is_file():
                    try:
                        texts.append(path.read_text(encoding="utf-8"))
                    except (UnicodeDecodeError, OSError):
                        continue
            if (root / ".git").exists():  # the commits' messages and authors, the branches (history, merge)
                import subprocess

                texts.append(subprocess.run(["git", "log", "--all", "--format=%an %ae %s%n%b%n%D"], cwd=root,
                                            capture_output=True, text=True, check=True).stdout)
                self.names.update(subprocess.run(["git", "branch", "--format=%(refname:short)"], cwd=root,
                                                 capture_output=True, text=True, check=True).stdout.lower().split())
        # the values of the entries' fields (tags shown as a list, sources...)
        for m in re.finditer(r"^\s*(?:tags|source|status|importance):\s*(.+)$", "\n".join(texts), re.MULTILINE):
            self.names.update(w.lower() for w in re.findall(r"[A-Za-z][\w-]*", m.group(1)))
        self.corpus = squash("\n".join(texts))

    def has(self, segment: str) -> bool:
        """Whether ``segment`` (a run of a screen line, maybe cut at either end) is memory text."""
        found = squash(segment.strip(" …▁▂▃▄▅▆▇█▔▏▎▍▌▋▊▉"))
        return len(found) >= 4 and found in self.corpus

    def rest(self, segment: str) -> str:
        """``segment`` without the runs of two or more of its words that are memory text (a column of memory
        text beside a UI word, separated by one space)."""
        words = segment.split()
        covered = [False] * len(words)
        for i in range(len(words)):
            for j in range(len(words), i + 1, -1):
                if all(covered[i:j]):
                    break
                if self.has(" ".join(words[i:j])):
                    covered[i:j] = [True] * (j - i)
                    break
        return " ".join(w for w, c in zip(words, covered, strict=True) if not c)


def squash(text: str) -> str:
    return " ".join(text.split()).lower()


# a screen line is cut into runs at box drawing, at two or more spaces (columns) and at CJK text
SEGMENTS = re.compile(r"[│┃║╭╮╰╯─━═▏▕]|\s{2,}|[^\x00-\x7f…▁▂▃▄▅▆▇█▔▎▍▌▋▊▉]+")


# text that is not the UI's: OpenClaw's truncation marker inside the injected copy of a bootstrap file (what the
# agent reads, shown as it is), and, until the core's finding templates cover them (core/check/messages.py,
# the core's part of issue 30), two finding messages and the YAML parser's own words
NOT_UI = (
    re.compile(r"\[\.\.\.truncated, read \S+ for full content\.\.\.\]"),
    re.compile(r"…\(truncated \S+: kept [\d+a-z ]+ chars of \d+\)…"),
    re.compile(r"invalid YAML \(frontmatter line \d+\): [^│]*"),
    re.compile(r"\S+ has [\d,]+ characters as OpenClaw counts them \(UTF-16 units\)[^│]*"),
    re.compile(r"\bover its [\d,]+[^│]*"),
    re.compile(r"(?:could|did) not find expected[^│]*|\bexpected '[^']*'"),
    re.compile(r"`[^`\n]*`"),  # a command, quoted as code
)


def english(text: str, memory: Memory) -> list[str]:
    """The English words of ``text`` that none of the allowed kinds explains."""
    found = []
    for pattern in NOT_UI:
        text = pattern.sub(" ", text)
    runs = [memory.rest(run) for line in text.splitlines() for run in SEGMENTS.split(line) if run and not memory.has(run)]
    allowed = memory.names
    for token in TOKEN.findall("\n".join(runs)):
        if ":" in token.strip(":") or token.startswith("$"):  # filter syntax (is:problem), a variable ($EDITOR)
            continue
        if re.fullmatch(r"[a-z]+-\d+", token):  # an id: mem-0012, region-1
            continue
        bare = token.strip(".-/+$:").lower()
        if not WORD.search(bare) or bare in allowed or bare in KEYS or bare in PRODUCT or bare in CODES or bare in TERMS:
            continue
        if "." in bare or "/" in bare or "_" in bare:  # a file name, a path, a field or an id
            continue
        if bare.startswith(("ctrl+", "shift+", "mem-")) or "-" in bare and bare.split("-")[0] in allowed:
            continue
        if all(w.lower() in allowed or w.lower() in KEYS or w.lower() in TERMS for w in WORD.findall(bare)):
            continue
        found.append(token)
    return found
