"""Every sub-command's text output in Chinese, and its JSON the same bytes in every language.

Real processes on copies of the bundled Chinese samples, both layouts (``profiles/xiaoyu``, layout A;
``workspace-zh``, layout B), in one git repository, with the commands run in an order that leaves each one
something to show (an edit for the inbox, a merge conflict for ``merge``).  A text output fails when it holds
an English word: a run of 4+ ASCII letters that is not a finding code, a path or file name, a key, a field
or option name or value, or a word of the memory itself (the samples' own text).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.cli import LISTED
from openclaw_tui.core.check.codes import CODES as FINDING_CODES

# codes are never translated: the finding codes, and the review queue's flags (core/workspace/model.py: junk)
CODES = set(FINDING_CODES) | {"raw-candidate", "shell-command", "score-in-text", "source-missing", "secret-in-history"}

SAMPLES = Path(__file__).resolve().parents[2] / "sample_profiles"
ZH, C = "zh_CN.UTF-8", "C.UTF-8"
PERSON = {"GIT_AUTHOR_NAME": "小雨", "GIT_AUTHOR_EMAIL": "x@example.invalid",
          "GIT_COMMITTER_NAME": "小雨", "GIT_COMMITTER_EMAIL": "x@example.invalid"}

# words that are names, not prose: field names and values, config keys, OpenClaw's setting and tool names,
# technical terms a Chinese reader of developer tools reads as they are, secret and instruction kinds, git's
# own names (git config keys, a merge's "branch 'NAME'" from MERGE_MSG), a field diff's None, session kinds and
# sub-command names
KEYS = set("""
    status active superseded archived cold importance high medium timestamp source manual tags last_hit ttl
    superseded_by merged_from conflict context contexts body
    token tokens bm25 lambda YAML JSON UTF-8 UTF-16 OpenClaw openclaw bootstrapMaxChars maxTotalChars
    maxFileBytes memory_search doctor
    ours theirs both phone email password apikey idcard card override exfiltrate
    merge openclaw-memory name driver exclude gitattributes info lock post-commit git config None branch
    main shared subagent cron
""".split()) | {name for listed in LISTED.values() for name, _help in listed}  # the sub-commands' names


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` that are not names, paths, codes or memory text."""
    text = re.sub(r"`[^`]*`|\{\{[^}]*\}\}|\[score=[^\]]*\]|<!--.*?-->|(?<![\w-])--?[A-Za-z][\w-]*"
                  r"|\b(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", " ", text)  # (a commit's sha)
    words = []
    for token in text.split():
        if "/" in token or re.search(r"\.[A-Za-z]{1,5}\b", token) or token.startswith("-") or "_" in token:
            continue  # a path, a file name, an option, a key
        for word in re.findall(r"[A-Za-z][A-Za-z-]*[A-Za-z]", token):
            if word in CODES or word in KEYS or (len(word) >= 4 and word.lower() in allowed):
                continue
            words += [part for part in word.split("-") if len(part) >= 4 and part.lower() not in allowed
                      and part not in KEYS]
    return words


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env={**os.environ, **PERSON})


def run(cwd: Path, lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    env.update(LANG=lang, COLUMNS="100", OPENCLAW_TUI_CONFIG=str(cwd / "no-such-config.toml"), **PERSON)
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("zh")
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", root / "profiles" / "xiaoyu")
    shutil.copytree(SAMPLES / "workspace-zh", root / "workspace-zh")
    (root / "body.md").write_text("早餐规则合并成一条。\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "初始")
    return root


def memory_words(root: Path) -> set[str]:
    """Every ASCII word of the memory files as they are now (memory text stays as it is written)."""
    words: set[str] = set()
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            words |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", path.read_bytes().decode("utf-8", "replace"))}
    return words


X, W = "profiles/xiaoyu", "workspace-zh"
TODAY = ("--today", "2026-11-30")
# (arguments, exit status) in the order they run: read-only first, then the writes, then what shows them
TEXT_COMMANDS: list[tuple[tuple[str, ...], int]] = [
    (("check", "profiles", *TODAY), 1), (("check", W, *TODAY), 1),
    (("repair", X, *TODAY), 1), (("repair", X, "--all-safe", "--dry-run", *TODAY), 1),
    (("repair", X, "--finding", "2", "--dry-run", *TODAY), 1), (("repair", W, *TODAY), 1),
    (("search", "profiles", "咖啡", "--explain", *TODAY), 0), (("search", W, "咖啡", "--explain", *TODAY), 0),
    (("search", W, "没有这个词"), 0),
    (("get", X, "memories.md", "--line", "1", "--count", "5"), 0),
    (("history", X), 0), (("history", X, "--entry", "mem-0012"), 0), (("history", W), 0),
    (("history", W, "--item", "年糕"), 0),
    (("config",), 0),
    (("context", X, "--query", "咖啡", *TODAY), 0), (("context", X, "--session-start", *TODAY), 0),
    (("context", W, "--session-start", *TODAY), 0), (("context", W, "--query", "咖啡", "--turn", *TODAY), 0),
    (("context", W, "--session", "shared", *TODAY), 0),
    (("review", W), 0), (("review", W, "--accept", "379", "--dry-run"), 0),
    (("review", W, "--reject", "374", "--dry-run"), 0),
    (("distil", W, "--log", "memory/2026-11-29.md", "--lines", "3", "--dry-run"), 0),
    (("distil", W, "--remove-old", "--dry-run", *TODAY), 0),
    (("gc", X, "--dry-run", *TODAY), 0), (("redact", X, "--dry-run"), 0),
    (("add", X, "--body", "小雨下午只喝绿茶。", "--tags", "饮食", "--dry-run"), 0),
    (("resolve", X, "mem-0007", "mem-0012", "--keep", "mem-0012", "--dry-run"), 0),
    (("compact", X, "--ids", "mem-0019,mem-0023", "--body-file", "body.md", "--dry-run"), 0),
    (("rollback", X, "HEAD", "--dry-run"), 0), (("revert", X, "HEAD", "--dry-run"), 0),
    (("merge", "."), 0), (("inbox", X), 0),
    (("set", X, "mem-0001", "importance=high"), 0), (("supersede", X, "mem-0010", "mem-0017"), 0),
    (("archive", X, "mem-0020"), 0), (("restore", X, "mem-0020"), 0),
    (("add", X, "--body", "小雨下午只喝绿茶。", "--tags", "饮食"), 0),
    (("resolve", X, "mem-0007", "mem-0012", "--keep", "mem-0012"), 0),
    (("gc", X, *TODAY), 0), (("redact", X), 0),
    (("inbox", X), 0), (("inbox", X, "--diff"), 0), (("inbox", W), 0),
    (("rollback", X, "HEAD", "--dry-run"), 2),
    (("git-setup", "."), 0),
    # errors (exit 2, one line on stderr)
    (("repair", X, "--finding", "99", *TODAY), 2), (("get", X, "memories.md", "--line", "99999"), 2),
    (("compact", X, "--tag", "没有", "--body-file", "body.md"), 2), (("context", X, "--session", "cron"), 2),
    (("merge", ".", "--pick", "bad"), 2), (("serve", "--host", "0.0.0.0"), 2), (("redact", X, "--skip", "99"), 2),
    (("distil", W, "--log", "memory/2026-11-29.md", "--lines", "x"), 2), (("search", X, "咖啡", "-n", "0"), 2),
    (("set", X, "mem-9999", "importance=high"), 2), (("set", X, "mem-0001", "importance=urgent"), 2),
    (("supersede", X, "mem-0001", "mem-0001"), 2), (("supersede", X, "mem-0001", "mem-0048"), 2),
    (("archive", X, "mem-9999"), 2), (("restore", X, "mem-0001"), 2),
    (("add", X, "--body", "新的", "--conflict", "mem-9999", "--dry-run"), 2),
    (("inbox", X, "--approve", "mem-9999"), 2), (("get", X, "../x.md"), 2), (("rollback", X, "abc1234"), 2),
]


def test_every_sub_command_speaks_chinese(repo: Path) -> None:
    (repo / W / "TOOLS.md").write_bytes((repo / W / "TOOLS.md").read_bytes() + "- jq：处理 JSON\n".encode())
    failures = []
    for args, status in TEXT_COMMANDS:
        out = run(repo, ZH, *args)
        assert out.returncode == status, (args, out.stdout, out.stderr)
        allowed = memory_words(repo)
        shown = out.stdout + out.stderr
        if args[0] == "config":  # the settings in TOML: section and key names, values
            shown = "\n".join(line for line in shown.splitlines() if not re.match(r"\[\w+\]$|\w+ = ", line))
        if args[0] == "check":  # a malformed entry's reason is the YAML parser's own English
            shown = "\n".join(line for line in shown.splitlines() if " malformed-entry " not in line)
        if args[0] in ("repair", "review", "distil", "add", "resolve", "compact", "redact") and "--- a/" in shown:
            shown = "\n".join(line for line in shown.splitlines() if not line.startswith((" ", "+", "-", "@")))
        left = english_words(shown, allowed)
        if left:
            failures.append((" ".join(args), sorted(set(left)), shown[:600]))
    assert failures == [], "\n\n".join(f"{a}: {w}\n{t}" for a, w, t in failures)


def conflicted(root: Path) -> Path:
    """A copy of the repository in the middle of a merge that conflicts on entry mem-0012 of xiaoyu."""
    memories = root / X / "memories.md"
    git(root, "checkout", "-q", "-b", "other")
    memories.write_bytes(memories.read_bytes().replace("医生建议先停一个月再看。".encode(), "医生建议停两个月。".encode()))
    git(root, "commit", "-q", "-am", "对方")
    git(root, "checkout", "-q", "main")
    memories.write_bytes(memories.read_bytes().replace("医生建议先停一个月再看。".encode(), "医生建议停三周。".encode()))
    git(root, "commit", "-q", "-am", "我方")
    subprocess.run(["git", "merge", "other"], cwd=root, capture_output=True, env={**os.environ, **PERSON})
    return root


def test_merge_lists_a_conflict_in_chinese_and_its_json_stays(tmp_path: Path) -> None:
    root = tmp_path / "r"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", root / X)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "初始")
    conflicted(root)
    out = run(root, ZH, "merge", ".")
    assert out.returncode == 1 and "mem-0012" in out.stdout
    assert "还剩 1 处冲突" in out.stdout and english_words(out.stdout, memory_words(root)) == [], out.stdout
    assert run(root, ZH, "merge", ".", "--json").stdout == run(root, C, "merge", ".", "--json").stdout
    picked = run(root, ZH, "merge", ".", "--pick", "mem-0012=ours", "--dry-run")
    assert picked.returncode == 0 and "（演练：未写入任何内容）" in picked.stdout
    aborted = run(root, ZH, "merge", ".", "--abort")
    assert aborted.returncode == 0 and english_words(aborted.stdout, set()) == [], aborted.stdout


# every read-only command that has JSON: the same bytes whatever the language
JSON_COMMANDS: list[tuple[str, ...]] = [
    ("check", "profiles", *TODAY, "--format", "json"), ("check", W, *TODAY, "--format", "json"),
    ("check", W, *TODAY, "--format", "sarif"),
    ("repair", X, *TODAY, "--json"), ("repair", X, "--all-safe", "--dry-run", *TODAY, "--json"),
    ("search", "profiles", "咖啡", *TODAY, "--json"), ("search", W, "咖啡", *TODAY, "--json"),
    ("history", X, "--json"), ("history", X, "--entry", "mem-0012", "--json"),
    ("history", W, "--item", "年糕", "--json"), ("config", "--json"),
    ("context", X, "--query", "咖啡", *TODAY, "--json"), ("context", W, "--session-start", *TODAY, "--json"),
    ("review", W, "--json"), ("review", W, "--reject", "374", "--dry-run", "--json"),
    ("distil", W, "--log", "memory/2026-11-29.md", "--lines", "3", "--dry-run", "--json"),
    ("resolve", X, "mem-0007", "mem-0012", "--keep", "mem-0012", "--dry-run", "--json"),
    ("compact", X, "--ids", "mem-0019,mem-0023", "--body-file", "body.md", "--dry-run", "--json"),
    ("rollback", X, "HEAD", "--dry-run", "--json"), ("revert", X, "HEAD", "--dry-run", "--json"),
    ("merge", ".", "--json"), ("inbox", X, "--json"), ("inbox", W, "--json"),
]


def test_json_is_the_same_bytes_in_both_languages(tmp_path: Path) -> None:
    root = tmp_path / "r"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", root / X)
    shutil.copytree(SAMPLES / "workspace-zh", root / W)
    (root / "body.md").write_text("早餐规则合并成一条。\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "初始")
    (root / W / "TOOLS.md").write_bytes((root / W / "TOOLS.md").read_bytes() + b"- jq\n")
    for args in JSON_COMMANDS:
        zh, c = run(root, ZH, *args), run(root, C, *args)
        assert zh.returncode == c.returncode and zh.stdout, (args, zh.stderr)
        assert zh.stdout == c.stdout, args
        assert not re.search(r"[\u4e00-\u9fff]", re.sub(r'"(?:[^"\\]|\\.)*"', "", zh.stdout)), args
