"""The table of finding codes (core/check/codes.py): docs/findings.md is generated from it, and every
reader of a code (the check's reports, the review UI's marks, the text report's messages) reads it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from openclaw_tui.core.check import codes
from openclaw_tui.core.check.findings import Finding
from openclaw_tui.core.check.messages import TEMPLATES
from openclaw_tui.core.check.report import to_sarif
from openclaw_tui.core.files.profile import discover
from openclaw_tui.ui import rows

ROOT = Path(__file__).resolve().parents[2]
FINDINGS_DOC = ROOT / "docs" / "findings.md"


def test_the_committed_findings_page_is_the_generated_one() -> None:
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.core.check.codes"], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    assert out.stdout == codes.findings_page()
    assert FINDINGS_DOC.read_text(encoding="utf-8") == out.stdout, (
        "docs/findings.md is stale: python -m openclaw_tui.core.check.codes > docs/findings.md")


def test_the_page_has_one_row_per_code_with_its_severity() -> None:
    table = [line for line in codes.findings_table().splitlines()[2:]]
    assert [line.split(" | ")[0] for line in table] == [f"| `{c}`" for c in codes.CODES]
    for line, c in zip(table, codes.CODES.values(), strict=True):
        assert line.split(" | ")[1] == c.severity
    assert sum("repairable" in line for line in table) == len(codes.REPAIRABLE) == 3


def test_every_severity_is_known_and_every_message_template_has_a_code() -> None:
    assert {c.severity for c in codes.CODES.values()} == set(codes.SEVERITY_ORDER)
    assert set(TEMPLATES) <= set(codes.CODES)


def test_a_finding_takes_its_severity_from_the_table_unless_it_carries_its_own() -> None:
    plain = Finding("dangling-file", "p", "state.yaml", 3, None, "m")
    assert plain.severity == codes.CODES["dangling-file"].severity == "warning"
    assert Finding("sensitive-data", "p", "memories.md", 1, None, "m", level="error").severity == "error"


def test_the_marks_of_the_review_ui_come_from_the_table() -> None:
    marked = {c.mark for c in codes.CODES.values() if c.mark}
    assert set(rows.PROBLEM_MARKS) == marked  # every mark has a place in the order, and only those
    for mark in marked:  # the codes of one mark share its label
        assert len({c.label for c in codes.CODES.values() if c.mark == mark}) == 1
    assert rows.CODE_TO_MARK["path-escape"] == rows.CODE_TO_MARK["dangling-file"] == "dangling"
    assert rows.MARK_LABEL["dangling"] == "DANGLING"
    assert "over-capacity" not in rows.CODE_TO_MARK  # a finding about a file, not an entry


def test_sarif_has_one_rule_per_code_in_table_order(tmp_path: Path) -> None:
    prof = tmp_path / "p"
    prof.mkdir()
    (prof / "memories.md").write_text("---\nid: mem-0001\nstatus: active\n---\nok\n", encoding="utf-8")
    log = to_sarif(discover(prof), [], srcroot=tmp_path)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(codes.CODES)
    for r, c in zip(rules, codes.CODES.values(), strict=True):
        assert r["shortDescription"]["text"] == c.explanation
