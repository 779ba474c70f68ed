"""The fast ``context`` (a fresh CLI process reading the search index) says, byte for byte, what the full path
says (the profile loaded and parsed, ``json.dumps`` with ``indent=2``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.profile import TextFile, load_profile
from openclaw_tui.core.search.context import (
    _task_text,
    agent_context,
    render_text,
)
from tests.search_corpus import TODAY, write

TAGS = ["work", "咖啡", "tea", "health", "on-call", "家庭", "travel", "misc", "tag_1", "a.b"]
WORDS = ["coffee 咖啡 every morning.", "用户喜欢喝美式咖啡，不加糖。", "The user is on-call this week.",
         "Green tea at work, 绿茶。", "A note about travel plans and 家庭.", "Nothing to see here."]


def _entry(i: int, rng: random.Random, n: int) -> str:
    ident = f"mem-{i:04d}"
    lines = ["---", f"id: {ident}"]
    status = rng.choice(["active"] * 6 + ["superseded", "superseded", "cold", "bogus", None])
    if status is not None:
        lines.append(f"status: {status}")
    if status == "superseded":
        by = rng.choice([f"mem-{rng.randrange(1, n + 1):04d}", "mem-9999", None])
        if by:
            lines.append(f"superseded_by: {by}")
    imp = rng.choice(["high", "medium", "low", "low", None, "urgent"])
    if imp is not None:
        lines.append(f"importance: {imp}")
    k = rng.randrange(0, 4)
    if k:
        lines.append("tags: [" + ", ".join(rng.sample(TAGS, k)) + "]")
    lines.append(f"timestamp: 2026-0{1 + i % 5}-1{i % 9}T08:00:00+08:00")
    lines += ["---", f"{rng.choice(WORDS)} ({i})", ""]
    return "\n".join(lines) + "\n"


def generated_profile(root: Path, n: int = 400, seed: int = 13) -> Path:
    """Active, superseded (by a live, a cold, a missing entry), cold, odd statuses; high, low, missing and odd
    importances; archived entries; a malformed block; a BOM-less CRLF-free bilingual file."""
    rng = random.Random(seed)
    p = root / "profiles" / "gen"
    body = "# memories\n\n" + "".join(_entry(i, rng, n) for i in range(1, n + 1))
    body += "---\nnot: an entry (no id)\n---\nmalformed block\n\n"
    write(p / "memories.md", body)
    write(p / "contexts" / "archive" / "memories.md",
          "".join(_entry(i, rng, n).replace("status: active", "status: archived") for i in range(n + 1, n + 40)))
    write(p / "identity.md", "# Gen\n\nA generated assistant. 简短。\n")
    write(p / "state.yaml", "current_task: the 2026-06-02 planning review\nfocus: mem-0005\n")
    write(p / "contexts" / "2026-06-02_planning.md", "# Planning\n\n- coffee budget\n")
    write(p / "contexts" / "2026-05-01_travel.md", "# Travel\n\n- pack tea\n")
    write(p / "contexts" / "archive" / "2025-01-01_work.md", "# Old work\n")
    return p


def cli(*args: str | Path) -> bytes:
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", *map(str, args)],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_profile(tmp_path_factory.mktemp("ctxfast"))


@pytest.mark.parametrize("query,tags", [("咖啡 work", ""), ("on-call tea", ""), ("", "travel,家庭"),
                                        ('"green tea" planning', "misc")])
def test_cli_fast_path_is_the_full_path_byte_for_byte(gen: Path, query: str, tags: str) -> None:
    full = agent_context(load_profile(gen), query, [t for t in tags.split(",") if t])
    reasons = {x.reason for x in full.left_out}
    if query == "咖啡 work":  # the generated profile has every kind of part and every reason for leaving out
        assert {p.layer for p in full.parts} == {"fixed", "memories", "contexts"}
        assert {"superseded", "cold", "bogus", "archived", "no tag match", "low without a match"} <= reasons
        assert any("(status " in x.detail for x in full.left_out if x.reason == "superseded")
    text = cli(gen, "--query", query, "--tags", tags)
    assert text.decode("utf-8") == render_text(full)
    doc = cli(gen, "--query", query, "--tags", tags, "--json")
    assert doc.decode("utf-8") == json.dumps(full.to_json(), ensure_ascii=False, indent=2) + "\n"


def test_workspace_cli_is_the_full_path_byte_for_byte(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "AGENTS.md", "# AGENTS.md\n\nRead SOUL.md.\n")
    write(ws / "SOUL.md", "# SOUL.md\n\n- Be useful. \"quoted\" \\ backslash\n")
    write(ws / "USER.md", "# USER.md\n\n" + "".join(f"- Prefer option {i} 偏好。\n" for i in range(300)))
    write(ws / "MEMORY.md", "# MEMORY.md\n\n" + "".join(f"- Item {i}: 用户的偏好 {i}.\n" for i in range(3000)))
    for d in range(1, 31):
        write(ws / "memory" / f"2026-05-{d:02d}.md", f"# 2026-05-{d:02d}\n\n- note {d} 偏好\n")
    write(ws / "memory" / f"{TODAY}.md", "# today\n\n- 偏好 today\n")
    full = agent_context(load_profile(ws), "偏好", today=__import__("datetime").date.fromisoformat(TODAY))
    assert {p.layer for p in full.parts} == {"bootstrap", "daily", "search"}
    assert any(p.truncated for p in full.parts)
    assert cli(ws, "--query", "偏好", "--today", TODAY).decode("utf-8") == render_text(full)
    assert cli(ws, "--query", "偏好", "--today", TODAY, "--json").decode("utf-8") == \
        json.dumps(full.to_json(), ensure_ascii=False, indent=2) + "\n"


def test_a_task_key_spelled_with_an_escape_still_names_the_task() -> None:
    """state.yaml is parsed only when a key can name a task; an escaped key can, without saying "task"."""
    plain = TextFile("state.yaml", Path("/x/state.yaml"), text="focus: mem-0001\nnote: planning\n")
    assert _task_text(plain) == ""
    escaped = TextFile("state.yaml", Path("/x/state.yaml"), text='"current_t\\x61sk": planning review\n')
    assert _task_text(escaped) == "planning review"
    upper = TextFile("state.yaml", Path("/x/state.yaml"), text="CURRENT_TASK: 2026-06-02\n当前任务: 咖啡\n")
    assert _task_text(upper) == "2026-06-02 咖啡"


def _expected_layer_2(prof: Path, query: str, tags: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The spec's rules for the memories layer, written out plainly over the parsed entries (an oracle for both
    paths): (loaded (id, reason), left out (id, reason)) in file order, the archive last."""
    from openclaw_tui.core.search.context import query_tags
    from openclaw_tui.core.search.text import QueryError, parse_query

    p = load_profile(prof)
    assert p.memories is not None and p.archive is not None
    entries, archived = list(p.memories.mf.well_formed()), list(p.archive.mf.well_formed())
    chosen = query_tags(query, tags, {t for e in entries + archived for t in e.tags})
    wanted = {t.casefold() for t in chosen}
    try:
        q = parse_query(query) if query.strip() else None
    except QueryError:
        q = None
    loaded: list[tuple[str, str]] = []
    left: list[tuple[str, str]] = []
    for e in entries:
        imp = e.meta.get("importance")
        imp = imp if imp in ("high", "medium", "low") else "medium"
        matched = [t for t in e.tags if t.casefold() in wanted]
        if e.status == "active":
            if imp == "high":
                loaded.append((str(e.id), "importance: high (always carried)"
                               + (f"; tag {', '.join(matched)}" if matched else "")))
            elif matched:
                loaded.append((str(e.id), f"tag {', '.join(matched)}"
                               + (" (low: loaded only on a tag match)" if imp == "low" else "")))
            elif q is not None and q.mentions(e.raw):
                left.append((str(e.id), "low without a match" if imp == "low" else "no tag match"))
        elif matched:
            left.append((str(e.id), e.status))
    left += [(str(e.id), "archived") for e in archived if any(t.casefold() in wanted for t in e.tags)]
    return loaded, left


@pytest.mark.parametrize("query,tags", [("咖啡 work", []), ("on-call tea", []), ("", ["travel", "家庭"]),
                                        ("tag_1 a.b", []), ("nothing matches", ["health"])])
def test_both_paths_follow_the_rules(gen: Path, query: str, tags: list[str]) -> None:
    from openclaw_tui.core.search.context import resolve_root

    loaded, left = _expected_layer_2(gen, query, tags)
    assert loaded and left
    statuses = {e.id: e.status for e in load_profile(gen).memories.mf.well_formed()}  # type: ignore[union-attr]
    for ctx in (agent_context(resolve_root(gen), query, tags), agent_context(load_profile(gen), query, tags)):
        assert [(p.id, p.reason) for p in ctx.parts if p.layer == "memories"] == loaded
        assert [(x.id, x.reason) for x in ctx.left_out if x.id is not None] == left
        for x in ctx.left_out:
            if x.reason == "superseded" and x.detail.startswith("superseded by "):
                by = x.detail.split()[2]
                assert x.detail == f"superseded by {by}" + (f" (status {statuses[by]})" if by in statuses else "")


@settings(max_examples=500, deadline=None, database=None)
@given(st.text(st.characters(), max_size=40) | st.text("ab \n，。咖啡ア한𠀀é\udc80\u3000\u30ff\u3040\U0002ffff\U00030000",
                                                        max_size=40))
def test_token_estimate_is_its_definition(text: str) -> None:
    """CJK characters (the ranges of ``text.CJK``, supplementary ones too) count 1, any other character a quarter;
    lone surrogates (undecodable bytes) and non-CJK non-ASCII characters are "other"."""
    import math
    import re

    from openclaw_tui.core.search.context_model import estimate_tokens
    from openclaw_tui.core.search.text import CJK

    cjk = len(re.findall(f"[{CJK}]", text))
    assert estimate_tokens(text) == math.ceil(cjk + (len(text) - cjk) / 4)


def test_cli_after_agent_edits_is_the_full_path_byte_for_byte(tmp_path: Path) -> None:
    """``context`` right after another program changed entries (the index re-indexes around each edit and moves
    the blocks after it: 600 entries make three blocks) still says what the full path says, line numbers
    and all; an edit that adds lines before most entries moves every line after it."""
    prof = generated_profile(tmp_path, n=600, seed=7)
    mem = prof / "memories.md"
    cli(prof, "--query", "咖啡 work")  # the index built
    edits = [("id: mem-0010\n", "id: mem-0010\nnote: 第一行\nnote: second line\n"),
             ("id: mem-0300\n", "id: mem-0300\ntags: [work, 咖啡]\n"),
             ("id: mem-0599\n", "id: mem-0599x\n"),
             ("id: mem-0257\n", "id: mem-0257\nimportance: high\n")]
    for old, new in edits:
        text = mem.read_text(encoding="utf-8")
        assert old in text
        mem.write_text(text.replace(old, new, 1), encoding="utf-8")
        full = agent_context(load_profile(prof), "咖啡 work", [])
        assert cli(prof, "--query", "咖啡 work").decode("utf-8") == render_text(full)
    doc = cli(prof, "--query", "咖啡 work", "--json")
    assert doc.decode("utf-8") == json.dumps(agent_context(load_profile(prof), "咖啡 work", []).to_json(),
                                             ensure_ascii=False, indent=2) + "\n"
