"""lower_in_slices: the text a filter searches, lowered without holding the interpreter lock for long."""

from __future__ import annotations

import random

from openclaw_tui.ui.rows import lower_in_slices


def test_equal_to_lower_for_every_slice_size() -> None:
    rnd = random.Random(7)
    pieces = ["ΟΔΟΣ\n", "ΣΑΣ Σ\n", "Word ÀÉÎ\n", "İstanbul\n", "咖啡 ABC\n", "\n", "ß ẞ\n", "x" * 50 + "Σ\n",
              "ΑΣ", "\nΣα\n", "mem-000001 High\n"]
    text = "".join(rnd.choice(pieces) for _ in range(3000))
    for size in (1, 2, 3, 7, 64, 1000, len(text), len(text) + 5):
        assert lower_in_slices(text, size) == text.lower(), size


def test_text_without_newlines_is_one_slice() -> None:
    text = "ΟΔΟΣ ABC" * 100
    assert lower_in_slices(text, 8) == text.lower()
    assert lower_in_slices("", 8) == ""


def test_pause_runs_between_slices() -> None:
    text = "Ab\n" * 1000
    calls: list[int] = []
    assert lower_in_slices(text, 300, pause=lambda: calls.append(1)) == text.lower()
    assert len(calls) == 10  # 3,000 characters in slices of 300 and then some (cut after a newline)
