"""Ranking on a fixed bilingual corpus: phrase, tag filter, decay changing the order, MMR, the explanation."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.config import SearchSettings
from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.search.api import SearchIndex, parse_query, ranking_for, roots_of
from openclaw_tui.core.search.rank import Ranking, decay_factor, ranking_from
from tests.search_corpus import TODAY, make_profile, write

DAY = dt.date.fromisoformat(TODAY)


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    return SearchIndex.build(discover(make_profile(tmp_path)).profiles)


def ids(index: SearchIndex, query: str, n: int = 5, **ranking: float) -> list[str | None]:
    index.ranking = Ranking(**ranking)
    return [h.id for h in index.search(query, n, today=DAY)]


def test_a_quoted_phrase_needs_the_words_together(index: SearchIndex) -> None:
    assert parse_query('"green tea" 咖啡').fts == '"green tea" AND "咖啡"'
    assert set(ids(index, '"green tea"')) == {"mem-0001", "mem-0002"}  # mem-0006 has "tea green", not the phrase
    assert "mem-0006" in ids(index, "green tea", 10)  # without quotes each word may stand anywhere


def test_decay_changes_the_order(index: SearchIndex) -> None:
    # mem-0002 says "green tea" four times but is a year old; mem-0001 is from yesterday
    assert ids(index, '"green tea"', half_life_days=0) == ["mem-0002", "mem-0001"]
    assert ids(index, '"green tea"') == ["mem-0001", "mem-0002"]
    index.ranking = Ranking()
    new, old = index.search('"green tea"', 5, today=DAY)
    assert new.decay == pytest.approx(0.5 ** (1 / 30)) and new.date == "2026-05-31"
    assert old.decay == pytest.approx(0.5 ** (365 / 30)) and old.text_score == 1.0
    assert new.score == pytest.approx(new.text_score * new.decay)
    # undated text never decays, however old the entries around it
    hit = next(h for h in index.search("咖啡", 10, today=dt.date(2030, 1, 1)) if h.file == "contexts/2026-04-01_health.md")
    assert hit.decay == 1.0 and hit.date is None


def test_mmr_pushes_a_near_duplicate_down(index: SearchIndex) -> None:
    # mem-0003 and mem-0004 differ by one punctuation mark
    assert ids(index, "美式", 3, mmr_lambda=1.0) == ["mem-0003", "mem-0004", "mem-0010"]
    assert ids(index, "美式", 2) == ["mem-0003", "mem-0010"]  # the duplicate left the top 2
    index.ranking = Ranking()
    scores = {h.id: h.score for h in index.search("美式", 3, today=DAY)}
    assert scores["mem-0004"] > scores["mem-0010"]  # it is moved down by MMR, not scored down


def test_tag_filter(index: SearchIndex, tmp_path: Path) -> None:
    assert ids(index, "咖啡 tag:health") == ["mem-0005"]
    assert len(ids(index, "咖啡", 10)) > 3
    index.ranking = Ranking()
    assert [h.id for h in index.search("咖啡", 5, today=DAY, tags=["HEALTH"])] == ["mem-0005"]
    assert set(ids(index, "tag:咖啡", 10)) == {"mem-0000", "mem-0003", "mem-0004", "mem-0005", "mem-0007", "mem-0008"}
    assert ids(index, "tag:nope") == []


def test_results_explain_their_rank(index: SearchIndex) -> None:
    index.ranking = Ranking()
    best, *_ = index.search("美式", 3, today=DAY)
    assert (best.text_score, best.vector_score, best.decay) == (1.0, None, 1.0)
    assert best.explain().startswith("text 1.000 (bm25 ") and "vector -" in best.explain()
    doc = best.to_json()
    assert doc["text_score"] == 1.0 and doc["vector_score"] is None and doc["decay"] == 1.0
    assert doc["path"] == "memories.md" and doc["citation"] == f"memories.md#L{best.start_line}-L{best.end_line}"
    assert index.last is not None and index.last.note == "full text only: no embedding provider configured"


def test_decay_factor() -> None:
    assert decay_factor(None, DAY, 30) == 1.0
    assert decay_factor(DAY.toordinal(), DAY, 30) == 1.0
    assert decay_factor(DAY.toordinal() - 30, DAY, 30) == pytest.approx(0.5)
    assert decay_factor(DAY.toordinal() + 5, DAY, 30) == 1.0  # a date in the future is not rewarded
    assert decay_factor(DAY.toordinal() - 30, DAY, 0) == 1.0  # half-life 0: decay off


def test_daily_logs_decay_by_their_date_memory_md_never(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n\n- likes oolong tea\n")
    write(ws / "memory" / "2026-05-31.md", "# 2026-05-31\n\n- oolong tea again\n")
    write(ws / "memory" / "2026-01-01-trip.md", "# trip\n\n- oolong tea in Taipei\n")
    idx = SearchIndex.build(discover(ws).profiles)
    hits = {h.file: h for h in idx.search("oolong", 5, today=DAY)}
    assert hits["MEMORY.md"].decay == 1.0
    assert hits["memory/2026-05-31.md"].decay == pytest.approx(0.5 ** (1 / 30))
    assert hits["memory/2026-01-01-trip.md"].date == "2026-01-01"
    assert [h.file for h in idx.search("oolong", 5, today=DAY)][-1] == "memory/2026-01-01-trip.md"


def test_weights_from_config_and_the_workspace_openclaw_json_wins(tmp_path: Path) -> None:
    settings = SearchSettings(text_weight=0.5, vector_weight=0.5, half_life_days=10, mmr_lambda=0.9)
    r = ranking_from(settings, True)
    assert (r.text_weight, r.vector_weight, r.half_life_days, r.mmr_lambda, r.source) == (0.5, 0.5, 10, 0.9, "config")
    older = {"query": {"hybrid": {"vectorWeight": 0.7, "textWeight": 0.3, "mmr": {"enabled": False},
                                  "temporalDecay": {"enabled": True, "halfLifeDays": 14}}}}
    r = ranking_from(settings, True, older, "/x/openclaw.json")
    assert (r.text_weight, r.vector_weight, r.half_life_days, r.mmr_lambda, r.source) == (
        0.3, 0.7, 14, 1.0, "/x/openclaw.json")
    # found next to the workspace (its parent folder, as in ~/.openclaw/)
    ws = tmp_path / "state" / "workspace"
    write(ws / "MEMORY.md", "# Memory\n")
    write(tmp_path / "state" / "openclaw.json",
          "// JSON5, as OpenClaw writes it\n{agents: {defaults: {memorySearch: {query: {hybrid: "
          "{temporalDecay: {enabled: false}}}}}}}\n")
    r = ranking_for(roots_of(ws))
    assert r.half_life_days == 0 and r.text_weight == 0.7 and r.source.endswith("openclaw.json")


def test_cli_explain_tags_and_today(tmp_path: Path) -> None:
    p = make_profile(tmp_path)
    run = [sys.executable, "-m", "openclaw_tui.cli", "search", str(p)]
    out = subprocess.run([*run, '"green tea"', "--explain", "--today", TODAY], capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.decode().splitlines()
    assert lines[0].startswith("ranking: text 0.7 + vector 0.3, half-life 30 days, MMR lambda 0.7 (defaults)")
    assert "full text only" in lines[0]
    assert lines[1].startswith("memories.md:") and " mem-0001 " in lines[1]
    assert lines[3].startswith("    why: text ") and "decay 0.977 (from 2026-05-31)" in lines[3]
    out = subprocess.run([*run, "咖啡", "--tags", "health", "--json"], capture_output=True, timeout=120)
    assert [r["id"] for r in json.loads(out.stdout)["results"]] == ["mem-0005"]
    bad = subprocess.run([*run, "tea", "--today", "yesterday"], capture_output=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == b"" and bad.stderr.decode().startswith("openclaw-tui: --today")
