"""What the agent sees: each layer and each reason for leaving out, for both layouts; the CLI contract."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.search.context import agent_context, query_tags, render_text
from openclaw_tui.core.search.context_model import estimate_tokens
from tests.search_corpus import MEMORIES, TODAY, entry, make_profile, write

DAY = dt.date.fromisoformat(TODAY)


def cli(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", *map(str, args)],
                          capture_output=True, timeout=120)


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    return make_profile(tmp_path)


def test_token_estimate_counts_chinese_more() -> None:
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("咖啡咖啡") == 4
    assert estimate_tokens("") == 0


def test_query_tags_are_given_or_named_as_words() -> None:
    known = ["tea", "咖啡", "health", "te"]
    assert query_tags("Does he drink tea? 咖啡呢", [], known) == ["tea", "咖啡"]  # "te" is not a word of the query
    assert query_tags("steam", [], known) == []
    assert query_tags("", ["Health"], known) == ["Health"]


def test_layout_a_three_layers_in_order(profile: Path) -> None:
    ctx = agent_context(load_profile(profile), "咖啡 planning", today=DAY)
    assert ctx.layout == "A" and ctx.tags == ["咖啡"]
    assert [layer for layer, _ in ctx.layers()] == ["fixed", "memories", "contexts"]
    fixed, memories, contexts = (parts for _, parts in ctx.layers())
    assert [(p.file, p.start_line, p.end_line, p.reason) for p in fixed] == [
        ("identity.md", 1, 3, "always loaded"), ("state.yaml", 1, 2, "always loaded")]
    assert {p.id: p.reason for p in memories} == {
        "mem-0003": "tag 咖啡", "mem-0004": "tag 咖啡",
        "mem-0005": "importance: high (always carried); tag 咖啡",
    }
    text = (profile / "memories.md").read_text(encoding="utf-8").split("\n")
    p5 = next(p for p in memories if p.id == "mem-0005")
    assert text[p5.start_line - 1] == "---" and text[p5.start_line] == "id: mem-0005"
    assert p5.chars == len(p5.text) and p5.tokens_est == estimate_tokens(p5.text)
    assert [(p.file, p.reason) for p in contexts] == [("contexts/2026-06-02_planning.md", "named by the query (planning)")]
    assert ctx.total_chars == sum(p.chars for p in ctx.parts)


def test_layout_a_every_reason_for_leaving_out(profile: Path) -> None:
    ctx = agent_context(load_profile(profile), "咖啡", today=DAY)
    left = {(x.id, x.reason): x for x in ctx.left_out}
    assert set(left) == {("mem-0007", "superseded"), ("mem-0008", "cold"), ("mem-0000", "archived"),
                         ("mem-0009", "low without a match")}
    assert left["mem-0007", "superseded"].detail == "superseded by mem-0005 (status active)"
    assert left["mem-0000", "archived"].file == "contexts/archive/memories.md"
    assert left["mem-0009", "low without a match"].line > 1
    # a medium entry the words find but no tag selects
    ctx = agent_context(load_profile(profile), "菜单 美式", today=DAY)
    assert {(x.id, x.reason) for x in ctx.left_out} >= {("mem-0010", "low without a match"),
                                                         ("mem-0003", "no tag match")}
    # an archived context file the query names
    ctx = agent_context(load_profile(profile), "trip", today=DAY)
    assert [(p.file, p.reason) for p in ctx.parts if p.layer == "contexts"] == [
        ("contexts/2026-05-01_trip.md", "named by the query (trip)"),
        ("contexts/2026-06-02_planning.md", "named by state.yaml's current task (2026-06-02)")]
    assert [(x.id, x.reason, x.file) for x in ctx.left_out] == [(None, "archived", "contexts/archive/2025-01-01_trip.md")]


def test_layout_a_without_a_query_high_entries_and_the_current_task(profile: Path) -> None:
    ctx = agent_context(load_profile(profile), "", today=DAY)
    assert [p.id for p in ctx.parts if p.layer == "memories"] == ["mem-0005"]
    assert [(p.file, p.reason) for p in ctx.parts if p.layer == "contexts"] == [
        ("contexts/2026-06-02_planning.md", "named by state.yaml's current task (2026-06-02)")]
    assert ctx.left_out == []
    ctx = agent_context(load_profile(profile), "", ["tea"], today=DAY)
    assert {p.id: p.reason for p in ctx.parts if p.layer == "memories"} == {
        "mem-0001": "tag tea", "mem-0002": "tag tea (low: loaded only on a tag match)",
        "mem-0005": "importance: high (always carried)"}
    assert [(x.id, x.reason) for x in ctx.left_out] == [("mem-0007", "superseded")]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "state" / "workspace"
    write(ws / "AGENTS.md", "# Agents\n\n" + "Be brief. " * 500 + "\nLAST LINE\n")
    write(ws / "SOUL.md", "# Soul\n\nCalm.\n")
    write(ws / "USER.md", "<!-- observed: 2026-05-01 | status: active -->\n" + "用户喜欢乌龙茶。" * 600 + "\n")
    write(ws / "MEMORY.md", "# Memory\n\n## Preferences\n- likes oolong tea\n- walks at dawn\n")
    write(ws / "memory" / "2026-06-01.md", "# 2026-06-01\n\n- oolong again\n")
    write(ws / "memory" / "2026-05-31-trip.md", "# trip\n\n- packed\n")
    write(ws / "memory" / "2026-05-01.md", "# old\n\n- oolong long ago\n")
    return ws


def test_layout_b_injection_logs_and_search(workspace: Path) -> None:
    ctx = agent_context(load_profile(workspace), "oolong", today=DAY)
    assert ctx.layout == "B" and ctx.session == "main" and ctx.limits["source"] == "defaults"
    assert [(p.layer, p.file) for p in ctx.parts if p.layer != "search"] == [
        ("bootstrap", "AGENTS.md"), ("bootstrap", "SOUL.md"), ("bootstrap", "IDENTITY.md"), ("bootstrap", "USER.md"),
        ("bootstrap", "MEMORY.md"), ("daily", "memory/2026-06-01.md"), ("daily", "memory/2026-05-31-trip.md")]
    identity = next(p for p in ctx.parts if p.file == "IDENTITY.md")  # OpenClaw 2026.9.6 marks it missing
    assert identity.text == f"[MISSING] Expected at: {workspace / 'IDENTITY.md'}"
    user = next(p for p in ctx.parts if p.file == "USER.md")
    assert user.truncated and "USER.md's cap" in user.reason and "[...truncated, read USER.md" in user.text
    agents = next(p for p in ctx.parts if p.file == "AGENTS.md")
    # the agent drops the file's trailing newline before measuring it (openclaw bootstrap.ts: trimEnd)
    assert not agents.truncated and agents.chars == (workspace / "AGENTS.md").stat().st_size - 1
    assert user.tokens_est > user.chars / 2  # Chinese text: about a token a character
    search = [p for p in ctx.parts if p.layer == "search"]
    assert {p.file for p in search} == {"MEMORY.md", "memory/2026-06-01.md", "memory/2026-05-01.md"}
    assert all(p.reason.startswith("search score ") and "decay" in p.reason for p in search)
    assert ctx.left_out == []
    shared = agent_context(load_profile(workspace), "oolong", session="shared", today=DAY)
    assert "MEMORY.md" not in [p.file for p in shared.parts if p.layer == "bootstrap"]
    assert [(x.file, x.reason) for x in shared.left_out] == [
        ("MEMORY.md", "MEMORY.md is loaded only in the main, private session")]


def test_layout_b_limits_from_openclaw_json_truncate_and_fill_the_total(workspace: Path) -> None:
    write(workspace.parent / "openclaw.json",
          "{agents: {defaults: {bootstrapMaxChars: 3000, bootstrapTotalMaxChars: 5000}}}\n")
    ctx = agent_context(load_profile(workspace), "", today=DAY)
    assert ctx.limits["source"].endswith("openclaw.json") and ctx.limits["bootstrap_max_chars"] == 3000
    agents, soul, _identity, user = (p for p in ctx.parts if p.layer == "bootstrap")
    assert agents.truncated and "bootstrapMaxChars" in agents.reason
    assert agents.text.startswith("# Agents") and agents.text.rstrip().endswith("LAST LINE")
    assert "[...truncated, read AGENTS.md for full content...]" in agents.text
    assert user.truncated and "what the bootstrap total left" in user.reason
    # USER.md is cut to what the total left, so nothing is left for MEMORY.md (OpenClaw 2026.9.6)
    assert 5000 - 64 < sum(p.chars for p in ctx.parts if p.layer == "bootstrap") <= 5000
    assert [(x.file, x.reason.split(":")[0]) for x in ctx.left_out] == [("MEMORY.md", "left out")]
    write(workspace.parent / "openclaw.json", "{agents: {defaults: {bootstrapTotalMaxChars: 1000}}}\n")
    ctx = agent_context(load_profile(workspace), "", today=DAY)
    # AGENTS.md's digest cut keeps well under its 1,000 (one long prose line is no policy line); USER.md gets
    # what is left, clamped with "…", and MEMORY.md nothing
    assert [p.file for p in ctx.parts if p.layer == "bootstrap"] == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"]
    assert next(p for p in ctx.parts if p.file == "USER.md").truncated
    assert sum(p.chars for p in ctx.parts if p.layer == "bootstrap") <= 1000
    assert [(x.file, x.reason.split(":")[0]) for x in ctx.left_out] == [("MEMORY.md", "left out")]
    out = render_text(ctx)
    assert "TRUNCATED" in out and "(estimate)" in out and "of a 1,000-character budget" in out


def test_cli_json_contract(profile: Path, workspace: Path, tmp_path: Path) -> None:
    r = cli(profile, "--query", "咖啡", "--today", TODAY, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert list(doc)[:6] == ["layout", "session", "limits", "parts", "left_out", "total"]
    assert doc["layout"] == "profile"
    assert list(doc["parts"][0]) == ["layer", "file", "start_line", "end_line", "id", "chars", "tokens_est",
                                     "truncated", "reason"]
    assert {"id": "mem-0008", "reason": "cold"}.items() <= next(x for x in doc["left_out"] if x["id"] == "mem-0008").items()
    assert doc["total"] == {"chars": sum(p["chars"] for p in doc["parts"]),
                            "tokens_est": sum(p["tokens_est"] for p in doc["parts"])}
    r = cli(workspace, "--query", "oolong", "--session", "shared", "--today", TODAY, "--json")
    doc = json.loads(r.stdout)
    assert doc["layout"] == "openclaw" and doc["session"] == "shared" and doc["limits"]["bootstrap_max_chars"] == 20000
    text = cli(profile, "--query", "咖啡", "--today", TODAY).stdout.decode()
    assert text.startswith("layout A (profile) mia, query '咖啡', tags 咖啡\n")
    assert "left out: 4" in text and "tokens (estimate)" in text


def test_cli_bad_input(profile: Path, tmp_path: Path) -> None:
    write(tmp_path / "profiles" / "other" / "memories.md", "")
    for args in ((tmp_path / "nope",), (tmp_path / "profiles",), (profile, "--today", "x"),
                 (profile, "--session", "group")):
        r = cli(*args)
        assert r.returncode == 2 and r.stdout == b"" and len(r.stderr.decode().strip().splitlines()) == 1, args
    assert cli(tmp_path / "profiles", "--profile", "mia").returncode == 0


@pytest.mark.parametrize("query,tags", [("咖啡 planning", ()), ("菜单 美式", ()), ("trip", ()), ("", ("tea",)),
                                        ("on-call", ()), ("ON-CALL", ()), ("green-tea", ()), ("tea, green!", ()),
                                        ('"green tea" 咖啡馆', ()), ("Green_Tea", ()), ("x AND y", ()),
                                        ('"tea AND green"', ()), ("(咖啡)-馆", ()), ("on call", ("tea",))])
def test_read_through_the_index_equals_read_parsed(profile: Path, query: str, tags: tuple[str, ...]) -> None:
    from openclaw_tui.core.search.context import resolve_root

    write(profile / "memories.md", MEMORIES + entry("mem-0011", "Priya is on-call this week; runs on EKS.",
                                                    importance="medium", tags="[team]")
          + entry("mem-0012", "Call the on–call person (EN DASH) or On_Call: tea and green, x and y.",
                  importance="low", tags="[team]"))
    parsed = agent_context(load_profile(profile), query, tags, today=DAY)
    indexed = agent_context(resolve_root(profile), query, tags, today=DAY)
    assert indexed.to_json() == parsed.to_json()
    assert [p.text for p in indexed.parts] == [p.text for p in parsed.parts]


def test_on_call_is_a_phrase_not_two_words(profile: Path) -> None:
    """``on-call`` leaves out the entry that says on-call, not every entry holding "on" (the atlas case)."""
    write(profile / "memories.md", MEMORIES + entry("mem-0011", "Priya is on-call this week.", tags="[team]")
          + entry("mem-0012", "Production runs on EKS; call the vendor.", tags="[infra]"))
    ctx = agent_context(load_profile(profile), "on-call", today=DAY)
    assert [(x.id, x.reason) for x in ctx.left_out] == [("mem-0011", "no tag match")]


# text and queries drawn from the characters where the regex and FTS5's tokenizer could disagree
_ALPHABET = "aAbBnNoOcClL 0-_.,!?'\"()/:;\n\t咖啡馆用户–é"
_WORDS = ["on", "call", "on-call", "On_Call", "咖啡", "咖", "啡馆", "tea", "TEA", "a1", "é", "x-y-z"]


def _fts_any(text: str, q: object) -> bool:
    import sqlite3

    from openclaw_tui.core.search.text import Query, clean, index_text

    assert isinstance(q, Query)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61 remove_diacritics 0')")
    db.execute("INSERT INTO docs(rowid, body) VALUES (1, ?)", (index_text(clean(text)),))
    return bool(db.execute("SELECT count(*) FROM docs WHERE docs MATCH ?", (q.fts_any,)).fetchone()[0])


def test_the_parsed_match_is_the_index_match() -> None:
    """``Query.mentions`` (the parsed path) says what FTS5 says (the index path), for any text and query."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from openclaw_tui.core.search.text import QueryError, parse_query

    piece = st.one_of(st.sampled_from(_WORDS), st.text(_ALPHABET, min_size=1, max_size=6))
    text = st.lists(piece, max_size=12).map(" ".join) | st.text(_ALPHABET, max_size=40)
    query = st.lists(piece, min_size=1, max_size=3).map(" ".join)

    @settings(max_examples=400, deadline=None, database=None)
    @given(text, query)
    def check(t: str, qs: str) -> None:
        try:
            q = parse_query(qs)
        except QueryError:
            return
        assert q.mentions(t) == _fts_any(t, q), (t, qs, q.fts_any)

    check()


def test_context_and_search_write_nothing_in_the_memory(profile: Path, workspace: Path, tmp_path: Path) -> None:
    def snapshot() -> dict[str, tuple[bytes, int]]:
        return {str(p.relative_to(tmp_path)): (p.read_bytes() if p.is_file() else b"", p.stat().st_mtime_ns)
                for p in sorted(tmp_path.rglob("*"))}

    before = snapshot()
    for target in (profile, workspace):
        assert cli(target, "--query", "oolong 咖啡", "--today", TODAY, "--json").returncode == 0
        r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", str(target), "oolong", "--json"],
                           capture_output=True, timeout=120)
        assert r.returncode == 0
    assert snapshot() == before
    doc = json.loads(r.stdout)
    assert {x["citation"] for x in doc["results"]} >= {"MEMORY.md#L4", "memory/2026-06-01.md#L3"}


def test_query_terms_and_snippet_pattern_are_the_regexes_they_replace() -> None:
    """The fast query scanner and snippet pattern (no CJK ranges case-folded at start-up) find what the regexes did."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from openclaw_tui.core.search.text import CJK, QueryError, parse_query, query_terms

    term_re = re.compile(f"([{CJK}]+)|([^\\W_{CJK}]+)")
    alphabet = _ALPHABET + "\u30fb\u3041\U00020000\U00030000²Ⅷ٣\u0301Kk\u212aſß"
    words = st.one_of(st.sampled_from(_WORDS), st.text(alphabet, min_size=1, max_size=5))

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(words, min_size=1, max_size=3).map(" ".join), st.text(alphabet + "".join(_WORDS), max_size=30))
    def check(qs: str, t: str) -> None:
        assert query_terms(qs) == term_re.findall(qs)
        try:
            q = parse_query(qs)
        except QueryError:
            return
        terms = sorted({f"(?<![^\\W_{CJK}]){re.escape(w)}(?![^\\W_{CJK}])" if w else re.escape(c)
                        for part in qs.split() for c, w in term_re.findall(part)}, key=len, reverse=True)
        old = re.compile("|".join(terms), re.IGNORECASE)
        assert [m.span() for m in q.pattern.finditer(t)] == [m.span() for m in old.finditer(t)]

    check()


def test_parsed_and_index_agree_on_generated_queries(tmp_path: Path) -> None:
    """Queries made of hyphens, CJK, punctuation and mixed case: the loaded profile and the index say the same."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from openclaw_tui.core.search.context import resolve_root

    prof = make_profile(tmp_path)
    write(prof / "memories.md", MEMORIES + entry("mem-0011", "Priya is on-call; runs on EKS. 咖啡馆 on_call", tags="[team]")
          + entry("mem-0012", "Call ON–CALL (en dash), x-y-z, a1.b2, é!", importance="low", tags="[tea-time]"))
    agent_context(resolve_root(prof), "warm", today=DAY)  # the index built once
    word = st.sampled_from(["on", "call", "on-call", "ON_CALL", "tea", "Green", "咖啡", "咖", "馆", "x-y", "a1", "é",
                            "tea-time", "team", "EKS", "菜单", "美式"])
    sep = st.sampled_from([" ", "-", "_", ", ", "!", "'", '"', "(", ")", "–", ""])
    query = st.lists(st.tuples(word, sep), min_size=1, max_size=4).map(lambda ps: "".join(w + s for w, s in ps))

    @settings(max_examples=40, deadline=None, database=None)
    @given(query)
    def check(q: str) -> None:
        parsed = agent_context(load_profile(prof), q, today=DAY).to_json()
        indexed = agent_context(resolve_root(prof), q, today=DAY).to_json()
        assert indexed == parsed, q

    check()
