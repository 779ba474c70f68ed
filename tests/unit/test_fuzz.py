"""Property test: hostile mutations of the samples never break parse -> check -> search -> get -> set -> archive.

Small CI budget; ``python bench/fuzz.py`` runs 2,000 mutations of the same classes.  Every case
asserts: no traceback, exit 0/1/2 (2 with one line), valid JSON, read-only commands write
nothing, a refused edit writes nothing, nothing outside the profile is written or printed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz  # noqa: E402

# the 5 MB line cases cost seconds each: the bench runs them 150 times, CI a few
CHEAP = tuple(k for k in fuzz.CLASSES if k != "long-line")


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
@given(kind=st.sampled_from(CHEAP), seed=st.integers(0, 2**32 - 1))
def test_hostile_inputs_never_break_the_commands(tmp_path_factory, kind: str, seed: int) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path_factory.mktemp("fuzz")
    rng = random.Random(seed)
    with fuzz.case_folder(work) as (prof, outside):
        what = fuzz.prepare(rng, kind, prof, outside)
        failures = fuzz.run_case(prof, outside, rng, timeout=60)
    assert not failures, f"{kind} ({what}): {failures}"


@pytest.mark.slow
def test_a_5mb_line_and_every_class_once(tmp_path: Path) -> None:
    failures, kinds, details = fuzz.fuzz(len(fuzz.CLASSES), 11, tmp_path, say=lambda _line: None)
    assert set(kinds) == set(fuzz.CLASSES)
    assert sum(failures.values()) == 0, "\n".join(details)
