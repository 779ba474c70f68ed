"""Tag names in what the agent sees are the files' own: matched whatever their case, shown as written."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.search.context import agent_context, query_tags, resolve_root
from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_files import roots_of
from openclaw_tui.core.search.index_rows import tags_as_written
from tests.search_corpus import TODAY, entry, make_profile, write

DAY = dt.date.fromisoformat(TODAY)

TAGGED = "# memories\n\n" + "".join([
    entry("mem-0001", "Standup moved to 10am.", importance="medium", tags="[Work, tea]"),
    entry("mem-0002", "Quarterly review on Friday.", importance="high", tags="[WORK]"),
    entry("mem-0003", "Old office address.", importance="medium", status="superseded", superseded_by="mem-0001",
          tags="[Work]"),
    entry("mem-0004", "Café on the corner: the user's favourite.", importance="low", tags="[Café, Straße]"),
    entry("mem-0005", "Weekly one-to-one with Dana.", importance="low", tags="[work]"),
])


def _profile(tmp_path: Path) -> Path:
    prof = make_profile(tmp_path)
    write(prof / "memories.md", TAGGED)
    return prof


def test_the_index_keeps_tags_as_written_and_matches_them_case_folded(tmp_path: Path) -> None:
    prof = _profile(tmp_path)
    idx = Index(None)
    try:
        idx.refresh(roots_of(prof))
        mem = prof / "memories.md"
        rows = dict(idx._db.execute("SELECT ident, tags FROM chunks WHERE path = ? AND kind = 'entry'",
                                    (str(mem.absolute()),)).fetchall())
        assert {k: tags_as_written(v) for k, v in rows.items()} == {
            "mem-0001": ("Work", "tea"), "mem-0002": ("WORK",), "mem-0003": ("Work",),
            "mem-0004": ("Café", "Straße"), "mem-0005": ("work",)}
        assert rows["mem-0005"] == "|work|"  # nothing but the case-folded names when they are as written
        assert idx.tag_names([mem]) == {"Work", "tea", "WORK", "Café", "Straße", "work"}
        # a tag filter still matches whatever the case (search's LIKE on the case-folded part)
        like = sorted(i for (i,) in idx._db.execute(
            "SELECT ident FROM chunks WHERE tags LIKE '%|work|%' OR tags LIKE '%|strasse|%'"))
        assert like == ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"]
        # the names' counts follow edits: the only WORK gone, it is no longer known
        write(mem, TAGGED.replace("tags: [WORK]", "tags: [tea]"))
        idx.refresh(roots_of(prof))
        assert idx.tag_names([mem]) == {"Work", "tea", "Café", "Straße", "work"}
    finally:
        idx.close()


def test_context_shows_tags_as_written_through_the_index_as_when_loaded(tmp_path: Path) -> None:
    prof = _profile(tmp_path)
    for query, tags in (("what about work?", ()), ("", ("work",)), ("", ("WORK",)), ("café", ()), ("", ("straße",))):
        indexed = agent_context(resolve_root(prof), query, tags, today=DAY).to_json()
        parsed = agent_context(load_profile(prof), query, tags, today=DAY).to_json()
        assert indexed == parsed, (query, tags)
    ctx = agent_context(resolve_root(prof), "what about work?", today=DAY)
    assert ctx.tags == ["WORK"]  # the first of the ways entries write it, in sorted order
    reasons = {p.id: p.reason for p in ctx.parts if p.layer == "memories"}
    assert reasons["mem-0001"] == "tag Work"
    assert reasons["mem-0002"].endswith("; tag WORK")
    assert reasons["mem-0005"].startswith("tag work")
    assert [(x.id, x.reason) for x in ctx.left_out] == [("mem-0003", "superseded")]
    cafe = agent_context(resolve_root(prof), "the café", today=DAY)
    assert cafe.tags == ["Café"]
    assert {p.id: p.reason for p in cafe.parts if p.layer == "memories"}["mem-0004"].startswith("tag Café")


def test_tags_named_by_the_query_are_those_the_files_write() -> None:
    assert query_tags("work and TEA", [], ["Work", "Tea", "tea"]) == ["Tea", "Work"]
    assert query_tags("work", ["WORK"], ["Work"]) == ["WORK"]  # given: as given (once, whatever the case)


def test_the_cli_prints_tags_as_written(tmp_path: Path) -> None:
    prof = _profile(tmp_path)
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(prof), "--tags", "work", "--json"],
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["tags"] == ["work"]  # as given
    assert "tag Work" in {p["reason"] for p in data["parts"]}
    text = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "context", str(prof), "--tags", "work"],
                          capture_output=True, timeout=120)
    assert b"tag Work" in text.stdout and b"tag WORK" in text.stdout
