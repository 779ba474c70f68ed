"""bench/e2e.py's report: the verdict of each line, and the page it writes below its marker."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import e2e  # noqa: E402


def test_a_line_gives_the_ratio_to_its_floor_and_the_verdict() -> None:
    assert e2e.line("`--help`", 0.060, "Q", 0.050, 1.5, "≤ 1.5x Q") == \
        "| `--help` | 60 ms | Q = 50 ms | 1.20x | — | ≤ 1.5x Q | met |"
    # a ratio taken round by round is the one judged; the CPU ratio is shown beside it
    assert e2e.line("`check`", 0.140, "Q", 0.050, 3, "≤ 3x Q", ratio=3.2, cpu_ratio=2.5).endswith(
        "| 3.20x | 2.50x | ≤ 3x Q | NOT MET |")
    assert e2e.line("keys", 0.120, "", None, 0.1, "≤ 100 ms p95") == \
        "| keys | 120 ms | — | — | — | ≤ 100 ms p95 | NOT MET |"
    assert e2e.line("keys", None, "", None, 0.1, "≤ 100 ms p95").endswith("| NOT MET |")


def test_the_page_keeps_its_hand_written_head_and_replaces_the_run(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nWritten by hand.\n\n" + e2e.MARKER + "\n\nold run\n", encoding="utf-8")
    e2e.write_doc(page, ["first line of the run", "", "| a | b |"])
    e2e.write_doc(page, ["new run"])
    assert page.read_text(encoding="utf-8") == "# Performance\n\nWritten by hand.\n\n" + e2e.MARKER + "\n\nnew run\n"
    fresh = tmp_path / "new.md"  # no page yet: the marker and the run
    e2e.write_doc(fresh, ["run"])
    assert fresh.read_text(encoding="utf-8") == e2e.MARKER + "\n\nrun\n"
