"""`openclaw-tui repair` and the check's suggestions, through real subprocesses (exit 0/1/2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli.test_cli_check import cli, snapshot
from tests.unit.test_check_support import active, make_profile

SAMPLES = Path(__file__).resolve().parents[2] / "sample_profiles"


def _superseded(tmp_path: Path) -> Path:
    return make_profile(
        tmp_path,
        memories=active("mem-0001", status="superseded", superseded_by="mem-0002") + active("mem-0002"),
        state="focus: mem-0001\nlist:\n  - mem-0001\n",
    )


def test_listing_numbers_findings_and_candidates_and_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "s"
    shutil.copytree(SAMPLES, root)
    prof = root / "profiles" / "xiaoyu"
    before = snapshot(root)
    res = cli("repair", str(prof), "--today", "2026-11-30", "--no-history")
    assert res.returncode == 1 and res.stderr == ""
    lines = res.stdout.splitlines()
    assert lines[-1] == "5 reference problems, 1 with a safe repair"
    i = lines.index("[3] state.yaml:22: warning inactive-ref state.yaml references mem-0048, which is superseded"
                    " (superseded by mem-0051)")
    assert lines[i + 1] == "    1. rewrite to mem-0051: mem-0048 was superseded by mem-0051  (safe)"
    doc = json.loads(cli("repair", str(prof), "--json", "--no-history", "--today", "2026-11-30").stdout)
    assert [p["number"] for p in doc["problems"]] == [1, 2, 3, 4, 5]
    assert doc["problems"][2]["candidates"][0] == {
        "action": "rewrite", "target": "mem-0051", "why": "mem-0048 was superseded by mem-0051",
        "kind": "superseded", "safe": True,
    }
    assert snapshot(root) == before


def test_all_safe_fixes_the_unambiguous_one_and_exits_1_for_what_is_left(tmp_path: Path) -> None:
    root = tmp_path / "s"
    shutil.copytree(SAMPLES, root)
    prof = root / "profiles" / "xiaoyu"
    before = snapshot(root)
    dry = cli("repair", str(prof), "--all-safe", "--dry-run", "--today", "2026-11-30")
    assert dry.returncode == 1 and "+  婚礼筹备: mem-0051" in dry.stdout and "dry run" in dry.stdout
    assert snapshot(root) == before
    res = cli("repair", str(prof), "--all-safe", "--today", "2026-11-30")
    assert res.returncode == 1 and res.stdout.splitlines()[0] == "repair: 1 safe repair"
    after = {k: v for k, v in snapshot(root).items() if not k.endswith(".lock")}
    assert [k for k in after if after[k] != before.get(k)] == ["profiles/xiaoyu/state.yaml"]
    assert after["profiles/xiaoyu/state.yaml"] == before["profiles/xiaoyu/state.yaml"].replace(  # type: ignore[union-attr]
        "婚礼筹备: mem-0048".encode(), "婚礼筹备: mem-0051".encode())


def test_finding_applies_to_every_reference_of_the_same_target_exit_0(tmp_path: Path) -> None:
    prof = _superseded(tmp_path)
    res = cli("repair", str(prof), "--finding", "1", "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["applied"] and doc["repaired"] == [1, 2] and doc["left"] == [] and doc["files"] == ["state.yaml"]
    assert (prof / "state.yaml").read_text() == "focus: mem-0002\nlist:\n  - mem-0002\n"
    assert cli("repair", str(prof)).returncode == 0
    assert cli("check", str(prof), "--fail-on", "warning").returncode == 0


def test_only_and_candidate_choose_what_is_applied(tmp_path: Path) -> None:
    prof = _superseded(tmp_path)
    res = cli("repair", str(prof), "--finding", "2", "--candidate", "1", "--only")
    assert res.returncode == 1 and "left: finding 1" in res.stdout
    assert (prof / "state.yaml").read_text() == "focus: mem-0001\nlist:\n  - mem-0002\n"


def test_bad_usage_exits_2_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    prof = _superseded(tmp_path)
    before = snapshot(prof)
    for args, needle in [
        (["--finding", "9"], "no finding 9"),
        (["--finding", "1", "--candidate", "7"], "not 7"),
        (["--candidate", "1"], "--candidate needs --finding"),
        (["--finding", "1", "--all-safe"], "not allowed with"),
    ]:
        res = cli("repair", str(prof), *args)
        assert res.returncode == 2, args
        assert res.stderr.count("\n") == 1 and needle in res.stderr and res.stdout == ""
    res = cli("repair", str(tmp_path / "nowhere"))
    assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ")
    assert snapshot(prof) == before


def test_check_reports_the_best_candidate_in_every_format(tmp_path: Path) -> None:
    prof = make_profile(
        tmp_path, memories=active("mem-0089") + active("mem-0001", status="superseded", superseded_by="mem-0089"),
        state="a: mem-0098\nb: mem-0001\n",
    )
    text = cli("check", str(prof)).stdout.splitlines()
    assert text[0] == ("state.yaml:1: error dangling-ref state.yaml references mem-0098, which no entry defines;"
                       " did you mean mem-0089? (two characters swapped from mem-0098)")
    assert text[1].endswith("(superseded by mem-0089); mem-0001 was superseded by mem-0089: use mem-0089")
    doc = json.loads(cli("check", str(prof), "--format", "json").stdout)
    assert doc["findings"][0]["message"] == "state.yaml references mem-0098, which no entry defines"
    assert doc["findings"][0]["suggestions"][0] == {
        "action": "rewrite", "target": "mem-0089", "why": "two characters swapped from mem-0098"}
    sarif = json.loads(cli("check", str(prof), "--format", "sarif").stdout)
    assert sarif["runs"][0]["columnKind"] == "unicodeCodePoints"
    result = sarif["runs"][0]["results"][0]
    fix = result["fixes"][0]
    change = fix["artifactChanges"][0]
    # the fix names the file exactly as the result's location does (SARIF URIs resolve from the repo root)
    assert change["artifactLocation"] == result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert change["artifactLocation"]["uri"].endswith("/p/state.yaml")
    assert change["replacements"] == [{
        "deletedRegion": {"startLine": 1, "startColumn": 4, "endLine": 1, "endColumn": 12},
        "insertedContent": {"text": "mem-0089"},
    }]


def test_workspace_link_and_score_bracket_to_a_missing_log(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-11-28.md").write_text("# log\n", encoding="utf-8")
    text = "# Memory\n\n- tea [score=0.8 recalls=3 avg=0.7 source=memory/2026-11-27.md:5-6]\n"
    (ws / "MEMORY.md").write_text(text, encoding="utf-8")
    listing = cli("repair", str(ws))
    assert listing.returncode == 1
    assert "    1. rewrite to memory/2026-11-28.md: closest existing file name" in listing.stdout
    res = cli("repair", str(ws), "--finding", "1")
    assert res.returncode == 0, res.stderr
    assert (ws / "MEMORY.md").read_text() == text.replace("2026-11-27.md", "2026-11-28.md")
    # the dangling-file is gone; the score bracket is metadata (spec), not a finding
    doc = json.loads(cli("check", str(ws), "--format", "json").stdout)
    assert doc["findings"] == []
