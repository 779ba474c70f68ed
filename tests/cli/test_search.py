"""Search: tokens (Chinese bigrams), what is indexed, ranking, incremental updates, the CLI contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import discover, load_profile
from openclaw_tui.core.search.api import QueryError, SearchIndex, index_text, parse_query, text_chunks
from tests.search_corpus import write


def cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *map(str, args)],
                          capture_output=True, cwd=cwd, timeout=120)


def entry(ident: str, body: str, **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\nid: {ident}\nimportance: medium\n{extra}---\n{body}\n\n"




@pytest.fixture
def profile(tmp_path: Path) -> Path:
    p = tmp_path / "profiles" / "xiaoyu"
    write(p / "memories.md", "# 记忆\n\n"
          + entry("mem-0001", "用户喜欢喝咖啡因很高的美式。", tags="[咖啡, 习惯]")
          + entry("mem-0002", "咖和啡分开写的句子。")
          + entry("mem-0003", "The user prefers green tea in the afternoon.\nCoffee only before noon.")
          + entry("mem-0004", "Tea, tea and more tea: the user loves tea.")
          + "---\nimportance: high\n---\nA malformed block about zeppelins.\n")
    write(p / "contexts" / "archive" / "memories.md",
          entry("mem-0000", "Archived: the user once lived in Kyoto.", status="archived"))
    write(p / "contexts" / "2025-06-01_todo.md", "# Todo\n\n- call the dentist\n- buy 乌龙茶 for mem-0003\n")
    write(p / "skills" / "recipe.md", "# Recipes\n\nBraised pork with rock sugar.\n")
    write(p / "identity.md", "# 小雨\n\nA warm assistant who writes haiku.\n")
    write(p / "state.yaml", "current_task: plan the trip\nfocus:\n  - mem-0001\nnotes: pelican\n")
    write(p / "secrets_refs.yaml", "- placeholder: '{{secret:phone-1}}'\n  kind: phone  # walrus\n")
    write(p / "audit.log", "2025-01-01T00:00:00Z warning walrus\n")
    return p


def run_json(*args: str | Path) -> dict[str, object]:
    r = cli("search", *args, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.decode("utf-8"))
    assert isinstance(out, dict)
    return out


def results(path: Path, query: str, n: int = 20) -> list[dict[str, object]]:
    idx = SearchIndex.build(discover(path).profiles)
    return [h.to_json() for h in idx.search(query, n)]


# --- tokens and queries -----------------------------------------------------------------------


def test_cjk_runs_become_unigrams_and_bigrams() -> None:
    assert index_text("喝咖啡因") == " 喝 咖 啡 因 喝咖 咖啡 啡因 "
    assert index_text("参考mem-0099。") == " 参 考 参考 mem-0099。"  # CJK punctuation is a separator
    assert index_text("plain words") == "plain words"


def test_query_parts_are_phrases_joined_by_and() -> None:
    assert parse_query("咖啡因").fts == '"咖啡 啡因"'
    assert parse_query("咖").fts == '"咖"'
    assert parse_query("mem-0012  coffee").fts == '"mem 0012" AND "coffee"'
    assert parse_query("参考mem-0099").fts == '"参考" AND "mem 0099"'
    for bad in ("", "   ", "!!! ---", "**"):
        with pytest.raises(QueryError):
            parse_query(bad)


# --- Chinese ----------------------------------------------------------------------------------


def test_two_character_chinese_query_matches_the_substring_only(profile: Path) -> None:
    hits = results(profile, "咖啡")
    ids = [h["id"] for h in hits]
    assert ids == ["mem-0001"]  # mem-0002 has 咖 and 啡 but never 咖啡


def test_single_characters_and_longer_runs(profile: Path) -> None:
    assert {h["id"] for h in results(profile, "咖")} == {"mem-0001", "mem-0002"}
    assert [h["id"] for h in results(profile, "因")] == ["mem-0001"]  # the last character of a run
    assert [h["id"] for h in results(profile, "咖啡因很高")] == ["mem-0001"]
    assert results(profile, "咖啡因很低") == []
    todo = results(profile, "乌龙茶")
    assert [(h["file"], h["start_line"], h["end_line"], h["id"]) for h in todo] == [
        ("contexts/2025-06-01_todo.md", 4, 4, None)]
    assert todo[0]["snippet"] == "- buy 乌龙茶 for mem-0003"


def test_samples_chinese_query_finds_the_coffee_entry(samples: Path) -> None:
    out = run_json(samples, "咖啡")
    found = out["results"]
    assert isinstance(found, list) and found
    assert any(r["profile"] == "xiaoyu" and r["file"] == "memories.md" and r["id"] for r in found)
    assert all("咖啡" in r["snippet"] or "咖啡" in (r.get("snippet") or "") for r in found[:1])


# --- what is indexed --------------------------------------------------------------------------


def test_every_profile_file_is_searched_but_not_secrets_or_audit_log(profile: Path) -> None:
    where = {q: [(h["file"], h["id"]) for h in results(profile, q)] for q in
             ("Kyoto", "dentist", "pork", "haiku", "pelican", "zeppelins", "walrus", "记忆")}
    assert where["Kyoto"] == [("contexts/archive/memories.md", "mem-0000")]
    assert where["dentist"] == [("contexts/2025-06-01_todo.md", None)]
    assert where["pork"] == [("skills/recipe.md", None)]
    assert where["haiku"] == [("identity.md", None)]
    assert where["pelican"] == [("state.yaml", None)]
    assert where["zeppelins"] == [("memories.md", None)]  # a malformed block: no id
    assert where["walrus"] == []
    assert where["记忆"] == [("memories.md", None)]  # the preamble


def test_line_ranges_point_at_the_block(profile: Path) -> None:
    (hit,) = results(profile, "green tea")
    text = (profile / "memories.md").read_text(encoding="utf-8").split("\n")
    assert hit["id"] == "mem-0003"
    assert text[hit["start_line"] - 1] == "---"
    assert text[hit["start_line"]] == "id: mem-0003"
    assert text[hit["end_line"] - 1] == "Coffee only before noon."  # trailing blank lines left out
    assert hit["snippet"] == "The user prefers green tea in the afternoon."


def test_all_parts_must_match_and_tf_ranks(profile: Path) -> None:
    assert [h["id"] for h in results(profile, "tea noon")] == ["mem-0003"]
    ranked = [h["id"] for h in results(profile, "tea")]
    assert ranked == ["mem-0004", "mem-0003"]
    scores = [h["score"] for h in results(profile, "tea")]
    assert scores == sorted(scores, reverse=True) and all(isinstance(s, float) and s > 0 for s in scores)


def test_workspace_layout_b_is_chunked_by_item(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    write(ws / "MEMORY.md", "# Memory\n\n## Preferences\n- likes oolong tea\n"
          "<!-- openclaw-memory-promotion:memory:memory/2026-03-14.md:1:4 -->\n- hates cilantro\n\n## Work\n- ships on Fridays\n")
    write(ws / "USER.md", "<!-- observed: 2026-03-01 | status: active -->\nCall me Sam.\n")
    write(ws / "memory" / "2026-03-14.md", "# 2026-03-14\n\n- 今天讨论了乌龙茶\n")
    write(ws / "AGENTS.md", "# Agents\n\nBe brief.\n")
    hits = results(ws, "oolong")
    assert [(h["profile"], h["file"], h["start_line"], h["end_line"]) for h in hits] == [("workspace", "MEMORY.md", 4, 5)]
    assert [(h["file"], h["start_line"]) for h in results(ws, "cilantro")] == [("MEMORY.md", 6)]
    assert [(h["file"], h["start_line"]) for h in results(ws, "Sam")] == [("USER.md", 1)]
    assert [h["file"] for h in results(ws, "乌龙")] == ["memory/2026-03-14.md"]


def test_text_chunks_keep_fences_whole_and_split_yaml_keys() -> None:
    md = "intro line\n```\n- not an item\n\n# not a heading\n```\nafter\n\n- one\n- two\n"
    spans = [(c.line, c.end_line) for c in text_chunks(md)]
    assert spans == [(1, 7), (9, 9), (10, 10)]
    # an OpenClaw marker line above an item belongs to it; observed-markers start their directive
    md = ("## Promoted\n\n<!-- openclaw-memory-promotion:memory:memory/2026-04-27.md:1:4 -->\n- item one\n"
          "- item two\n\n<!-- observed: 2026-01-01 | status: active -->\nDo X.\n"
          "<!-- observed: 2026-01-02 | status: superseded -->\nDo Y.\n")
    assert [(c.line, c.end_line) for c in text_chunks(md)] == [(1, 1), (3, 4), (5, 5), (7, 8), (9, 10)]
    yaml_text = "a: 1\nlist:\n  - x\n  - y\n# comment\nb: 2\n"
    assert [(c.line, c.end_line) for c in text_chunks(yaml_text, yaml=True)] == [(1, 1), (2, 5), (6, 6)]


def test_unreadable_bytes_and_control_characters_stay_out_of_snippets(tmp_path: Path) -> None:
    p = tmp_path / "p"
    write(p / "memories.md", b"---\nid: mem-0001\n---\nbad \xff\xfe byte near marmot \x1b[31mred\n")
    (hit,) = results(p, "marmot")
    assert "\ufffd" in hit["snippet"] and "\x1b" not in hit["snippet"]
    out = run_json(p, "marmot")
    assert out["results"][0]["id"] == "mem-0001"


# --- incremental updates (the UI) -------------------------------------------------------------


def test_update_file_equals_a_fresh_build(profile: Path) -> None:
    idx = SearchIndex.build(discover(profile).profiles)
    mem = profile / "memories.md"
    text = mem.read_text(encoding="utf-8").replace("loves tea", "loves mate") + entry("mem-0005", "Yerba mate daily.")
    mem.write_text(text, encoding="utf-8")
    assert idx.index.update_file(mem) is True
    fresh = SearchIndex.build(discover(profile).profiles)
    for q in ("mate", "tea", "咖啡", "zeppelins"):
        assert [h.to_json() for h in idx.search(q)] == [h.to_json() for h in fresh.search(q)]
    assert {h.id for h in idx.search("mate")} == {"mem-0004", "mem-0005"}
    # an entry inserted above the others moves their lines; unchanged rows are reused yet report new lines
    mem.write_text("# 记忆\n\n" + entry("mem-0009", "first now") + text.split("\n\n", 1)[1], encoding="utf-8")
    idx.index.update_file(mem)
    fresh = SearchIndex.build(discover(profile).profiles)
    assert [h.to_json() for h in idx.search("tea")] == [h.to_json() for h in fresh.search("tea")]
    # deletion and files the index does not hold
    (profile / "skills" / "recipe.md").unlink()
    assert idx.index.update_file(profile / "skills" / "recipe.md") is True
    assert idx.search("pork") == []
    assert idx.index.update_file(profile / "audit.log") is False
    assert idx.index.update_file(profile.parent.parent / "elsewhere.md") is False
    write(profile / "skills" / "new.md", "# New\n\nquokka facts\n")
    assert idx.index.update_file(profile / "skills" / "new.md") is True
    assert [h.file for h in idx.search("quokka")] == ["skills/new.md"]


def test_profiles_can_be_added(profile: Path, tmp_path: Path) -> None:
    other = tmp_path / "profiles" / "atlas"
    write(other / "memories.md", entry("mem-0001", "Atlas likes quokkas."))
    idx = SearchIndex.build([load_profile(profile, "profiles/xiaoyu")])
    assert idx.search("quokkas") == []
    idx.index.add_profile(load_profile(other, "profiles/atlas"))
    assert [(h.profile, h.profile_rel) for h in idx.search("quokkas")] == [("atlas", "profiles/atlas")]


# --- the command line -------------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"", p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*"))}


def test_cli_json_contract_and_read_only(profile: Path, tmp_path: Path) -> None:
    root = tmp_path / "profiles"
    write(root / "atlas" / "memories.md", entry("mem-0001", "Atlas drinks tea at dawn."))
    before = snapshot(tmp_path)
    out = run_json(tmp_path, "tea", "-n", "2")
    assert snapshot(tmp_path) == before  # nothing written in the memory: the index is in the cache folder
    assert list(out)[:2] == ["query", "results"] and out["query"] == "tea"
    assert out["provider"] is None and "full text only" in str(out["note"])
    found = out["results"]
    assert isinstance(found, list) and len(found) == 2
    for r in found:
        assert list(r)[:7] == ["profile", "file", "start_line", "end_line", "id", "score", "snippet"]
        # OpenClaw's memory_search names, beside ours
        assert r["path"] == f"profiles/{r['profile']}/{r['file']}" and r["startLine"] == r["start_line"]
        assert r["citation"] == f"{r['path']}#L{r['start_line']}-L{r['end_line']}"
    assert found[0]["score"] >= found[1]["score"]
    assert {r["profile"] for r in run_json(tmp_path, "tea")["results"]} == {"xiaoyu", "atlas"}


def test_cli_text_output_names_profile_paths(profile: Path, tmp_path: Path) -> None:
    write(tmp_path / "profiles" / "atlas" / "memories.md", entry("mem-0001", "Atlas drinks tea."))
    r = cli("search", tmp_path / "profiles", "咖啡")
    assert r.returncode == 0
    lines = r.stdout.decode("utf-8").splitlines()
    assert lines[0].startswith("xiaoyu/memories.md:") and " mem-0001 " in lines[0]
    assert "咖啡" in lines[1] and lines[-1] == "1 result"
    single = cli("search", profile, "dentist").stdout.decode("utf-8").splitlines()
    assert single[0].startswith("contexts/2025-06-01_todo.md:3 ")
    none = cli("search", profile, "nothingmatches")
    assert none.returncode == 0 and none.stdout.decode().strip() == "0 results"


@pytest.mark.parametrize(
    "args",
    [("{missing}", "tea"), ("{empty}", "tea"), ("{profile}", "!!!"), ("{profile}", "tea", "-n", "0"),
     ("{profile}",)],
)
def test_cli_bad_input_exits_2_with_one_line(profile: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "empty").mkdir()
    values = {"missing": tmp_path / "nope", "empty": tmp_path / "empty", "profile": profile}
    r = cli("search", *[a.format(**values) for a in args])
    assert r.returncode == 2 and r.stdout == b""
    assert len(r.stderr.decode().strip().splitlines()) == 1


def test_cli_runs_from_the_profile_folder(profile: Path) -> None:
    r = cli("search", ".", "pelican", "--json", cwd=profile)
    assert json.loads(r.stdout)["results"][0]["file"] == "state.yaml"
    assert os.path.exists(profile / "state.yaml")


# --- incremental re-indexing equals a fresh build, for any edit -----------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

BLOCKS = [
    entry("mem-0001", "tea and 咖啡"), entry("mem-0002", "a rule\n---\nmore tea"), entry("mem-0001", "duplicate"),
    entry("mem-0003", "```\n---\nid: mem-0099\n---\n```"), "---\nimportance: high\n---\nmalformed tea\n",
    "```\nunclosed\n", "some text\n---\n", entry("mem-0004", "用户喜欢乌龙茶"),
]
PIECES = ["---\n", "```\n", "id: mem-0007\n", "tea\n", "\n", "importance: low\n", "咖啡\n", "x"]


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, list[str]]:
    text = draw(st.sampled_from(["", "# 记忆 tea\n\n"])) + "".join(draw(st.lists(st.sampled_from(BLOCKS), max_size=8)))
    versions = []
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        text = text[:i] + "".join(draw(st.lists(st.sampled_from(PIECES), max_size=3))) + text[j:]
        versions.append(text)
    return versions[0], versions


@given(edits())
def test_incremental_update_equals_fresh_index(case: tuple[str, list[str]]) -> None:
    import tempfile

    first, versions = case
    with tempfile.TemporaryDirectory() as tmp:
        prof = Path(tmp) / "p"
        mem = write(prof / "memories.md", first)
        idx = SearchIndex.build([load_profile(prof)])
        for text in versions:
            mem.write_text(text, encoding="utf-8")
            idx.index.update_file(mem)
            fresh = SearchIndex.build([load_profile(prof)])
            assert idx.index.documents(mem) == fresh.index.documents(mem)
            for q in ("tea", "咖啡", "mem-0001"):
                assert [h.to_json() for h in idx.search(q)] == [h.to_json() for h in fresh.search(q)]
            fresh.close()
        idx.close()
