"""The review queue flags what a reviewer would delete, says why an item was promoted, and says why
it is empty."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.workspace import dreaming

PROMO = "<!-- openclaw-memory-promotion:memory:memory/2026-11-29.md:{n}:{n} -->\n"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def review(ws: Path, home: Path) -> dict:
    r = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "review", str(ws), "--json"], capture_output=True,
                       text=True, env={"HOME": str(home), "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(home / "c"),
                                       "PYTHONPATH": str(Path(__file__).resolve().parents[2])}, check=False)
    assert r.returncode == 0, r.stderr
    doc: dict = json.loads(r.stdout)
    return doc


def test_flags_only_what_a_reviewer_would_delete(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "memory" / "2026-11-29.md", "- a\n- b\n- c\n- d\n- e\n")
    write(ws / "MEMORY.md", "# M\n\n## Promoted From Short-Term Memory (2026-11-29)\n\n"
          + PROMO.format(n=1) + "- Likes green tea in the afternoon. [score=0.912 recalls=6 avg=0.531]\n"
          + PROMO.format(n=2) + "- git push --force origin main\n"
          + PROMO.format(n=3) + "- Prefers oolong (score=0.8 in recall) over coffee.\n"
          + PROMO.format(n=4) + "- 09:30 user said to stop the coffee\n"
          + PROMO.format(n=5) + "- A clean fact with its importance. <!-- importance: 3 -->\n")
    write(ws / "memory" / ".dreams" / "short-term-recall.json", json.dumps({"version": 1, "entries": {
        "k1": {"path": "memory/2026-11-29.md", "startLine": 1, "endLine": 1, "source": "memory", "recallCount": 6,
               "totalScore": 3.186, "maxScore": 0.93, "queryHashes": ["a", "b", "c"], "recallDays": ["2026-11-28"],
               "conceptTags": ["tea"]}}}))
    doc = review(ws, tmp_path / "home")
    # dreaming's trailing [score=…] (the first item) and comments are metadata: no flag
    assert [q["flags"] for q in doc["queue"]] == [[], ["shell-command"], ["score-in-text"], ["raw-candidate"], []]
    why = doc["queue"][0]["why"]
    assert why.startswith("recalled 6x; avg score 0.531; max 0.930; 3 distinct queries; on 1 days")
    assert "short-term-recall.json" in why
    assert doc["queue"][4]["why"] is None  # no recall entry, no score bracket


def test_an_empty_queue_says_why(tmp_path: Path) -> None:
    ws = tmp_path / "state" / "workspace"
    write(ws / "MEMORY.md", "# M\n- a fact a human wrote\n")
    assert review(ws, tmp_path / "home")["empty_reason"].endswith(
        "(dreaming is not configured in openclaw.json, or no openclaw.json was found)")
    write(ws.parent / "openclaw.json",
          '{plugins: {entries: {"memory-core": {config: {dreaming: {enabled: false}}}}}}')
    doc = review(ws, tmp_path / "home")
    assert doc["queue"] == [] and doc["empty_reason"] == (
        "no item of MEMORY.md carries a promotion marker or a [score=…] bracket (dreaming is off in openclaw.json)")
    assert dreaming.empty_reason(ws, None, None) == "no MEMORY.md: nothing was promoted"
