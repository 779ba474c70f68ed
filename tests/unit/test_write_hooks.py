"""The write hook: subscribers hear of every successful write through ``safe_write``, never of a refused one,
and a failing subscriber never fails the write."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from openclaw_tui.core.files import write_hooks
from openclaw_tui.core.files.safe_write import ConcurrentModification, replace_all

Heard = list[list[write_hooks.Change]]


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Heard:
    got: Heard = []

    def hook(changes: Sequence[write_hooks.Change]) -> None:
        got.append(list(changes))

    monkeypatch.setattr(write_hooks, "_hooks", [])  # the subscribers of this test only, gone after it
    write_hooks.subscribe(hook)
    write_hooks.subscribe(hook)  # once, however often
    return got


def test_a_subscriber_hears_each_write_with_its_bytes(tmp_path: Path, heard: Heard) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_bytes(b"old\n")
    replace_all([(a, b"old\n", b"new\n")])
    replace_all([(a, b"new\n", b"newer\n"), (b, None, b"made\n")])
    replace_all([(a, b"newer\n", b"newer\n")])  # nothing to write: nothing heard
    assert heard == [[(a, b"old\n", b"new\n")], [(a, b"new\n", b"newer\n"), (b, None, b"made\n")]]
    assert a.read_bytes() == b"newer\n" and b.read_bytes() == b"made\n"


def test_a_refused_write_is_not_heard(tmp_path: Path, heard: Heard) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_bytes(b"changed by another program\n")
    b.write_bytes(b"b\n")
    with pytest.raises(ConcurrentModification):
        replace_all([(a, b"as read\n", b"mine\n"), (b, b"b\n", b"mine\n")], verify=True)
    assert heard == []


def test_a_failing_subscriber_never_fails_the_write(tmp_path: Path, heard: Heard) -> None:
    def broken(_changes: Sequence[write_hooks.Change]) -> None:
        raise RuntimeError("a cache that fails")

    write_hooks.subscribe(broken)
    a = tmp_path / "a.md"
    replace_all([(a, None, b"written\n")])
    assert a.read_bytes() == b"written\n" and heard == [[(a, None, b"written\n")]]


def test_the_write_path_does_not_load_the_search_index() -> None:
    code = ("import sys, openclaw_tui.core.files.safe_write; "
            "print(sorted(m for m in sys.modules if m.startswith('openclaw_tui.core.search')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
